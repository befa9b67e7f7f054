"""The benchmark parts that need no bot process still run (tiny counts; no timing is asserted)."""
import pytest

from bot.ai import parcheesi
from tests.benchmarks import calibration, playouts, render, store
from tests.benchmarks.__main__ import main
from tests.benchmarks.common import percentile, rulesets


@pytest.mark.parametrize("ruleset", rulesets(), ids=lambda r: r.id)
def test_one_random_playout_and_a_few_pictures(ruleset):
    figures = playouts.measure(ruleset, seconds=0, max_games=1)
    assert figures.games + figures.abandoned == 1 and figures.turns >= 1 and figures.actions >= figures.turns
    pictures = render.measure(ruleset, pictures=2)
    assert pictures.pictures == 2 and pictures.median_kb > 1 and min(pictures.size) >= 400


def test_percentile_is_nearest_rank():
    values = list(range(1, 101))
    assert (percentile(values, 0.5), percentile(values, 0.99), percentile(values, 1.0)) == (50, 99, 100)


def test_command_line_prints_every_ruleset(capsys):
    main(["--only", "playouts", "--quick", "--game", "pariti"])
    out = capsys.readouterr().out
    assert "Random playouts" in out and "pariti" in out


@pytest.mark.parametrize("game", ["parcheesi", "barricade"])
def test_the_win_chance_calibration_tries_each_scale_and_puts_it_back(game, capsys):
    calibration.main(["--game", game, "--games", "2"])
    out = capsys.readouterr().out
    assert "as the code has it" in out and sum(line.startswith("scale") for line in out.splitlines()) >= 5
    assert parcheesi.SCALE_PER_ROOT == 5.5 and parcheesi.ENGINE.scale == parcheesi.SCALE_PER_ROOT


@pytest.mark.parametrize("backend", ["sqlite", "sqlite+aiosqlite"])
async def test_the_store_move_path_is_measured(tmp_path, backend):
    figures = await store.measure(str(tmp_path / "b.sqlite3"), backend, moves=5, games=2)
    assert figures.moves == 5 and figures.cpu_ms_per_move > 0 and figures.wall_ms_per_move > 0


async def test_the_privacy_reads_are_measured(tmp_path):
    figures = await store.privacy(str(tmp_path / "p.sqlite3"), games=30, asks=2)
    assert figures.games == 30 and figures.cpu_ms_per_ask > 0 and figures.cpu_ms_per_read > 0
