"""A sixth game added through its registration alone (docs/adding-a-game.md): Line race (tests/sixth_game/), listed
in bot.games.GAMES with its words in the catalogue and nothing else in the bot told about it, is found, drawn and
played by computer players, played through the services, and played to its end in the terminal as
`python -m bot play line-race` would once the game is in GAMES. tests/e2e/test_sixth_game_e2e.py plays it
through the fake Discord.
"""
from __future__ import annotations

import ast
import asyncio
import io
import random
import re
import subprocess
import sys
import typing
from pathlib import Path

import pytest
from PIL import Image

import bot.games
import renderer
import tests.domain.test_i18n as catalogue_checks
from bot import ai
from bot.ai.heuristics import heuristic_for
from bot.core.game_records import Seat
from bot.domain import i18n, timeline
from bot.domain.player_actions import ROLL
from bot.domain.positions import position
from bot.domain.verify import verify
from bot.games.base import Ruleset
from bot.present.picture import picture
from bot.services import Sessions
from bot.store import Store
from renderer.legend import PlayerTag
from renderer.sample import HARD, hard_position
from tests.sixth_game import board as line_board
from tests.sixth_game import register, words
from tests.sixth_game.ai import AHEAD
from tests.sixth_game.board import SQUARE
from tests.sixth_game.rules import GO, LENGTH, LineRace, LineScene, LineState
from tests.sixth_game.sample import README_ROW, SAMPLE

REPO = Path(__file__).resolve().parent.parent
ANN, BOB = Seat(1, "Ann"), Seat(2, "Bob")
GUIDE = REPO / "docs" / "adding-a-game.md"
SIXTH = REPO / "tests" / "sixth_game"


@pytest.fixture
def line_race(monkeypatch):
    register(monkeypatch.setattr, monkeypatch.setitem)
    return bot.games.get_ruleset(LineRace.id)


@pytest.fixture
async def sessions(tmp_path):
    store = await Store.open(str(tmp_path / "s.sqlite3"))
    yield Sessions(store, think_budget_s=0.05)
    await store.close()


def test_the_registration_finds_the_ruleset_its_board_its_heuristic_and_its_words(line_race):
    assert isinstance(line_race, LineRace)
    assert bot.games.GAMES[-1] is LineRace and bot.games.GAME_IDS[-1] == LineRace.id   # last in the menu
    assert heuristic_for(line_race) is AHEAD
    plan = renderer.layout(line_race, LineState((2, 0), 0), [PlayerTag("A", ("yellow",)), PlayerTag("B", ("blue",))])
    assert {item.ref: item.square for item in plan.of("piece")} == {"Y": "2", "B": "0"}
    state = LineState((1, 0), 0, die=2)
    assert ai.choose_action(line_race, state, 0, "normal", rng=random.Random(0)) == GO
    names = {"en": "Line race", "fr": "Course en ligne", "es": "Carrera en línea", "de": "Wettlauf",
             "pt-BR": "Corrida em linha"}
    assert {locale: i18n.text(LineRace.name, locale) for locale in i18n.LOCALES} == \
        {locale: names[locale] for locale in i18n.LOCALES}


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_the_sixth_game_has_the_words_every_registered_game_needs(line_race, locale):
    catalogue_checks.test_every_registered_game_has_its_words_in_every_locale(locale)


def test_an_unregistered_game_is_not_found():
    with pytest.raises(bot.games.UnknownGame):
        bot.games.get_ruleset(LineRace.id)


async def test_the_sixth_game_is_played_through_the_services_and_drawn(line_race, sessions):
    channel = 7
    await sessions.lobby.create(channel_id=channel, guild_id=1, host=ANN, game=LineRace.id,
                                options={"seating": "lobby"})
    await sessions.lobby.join(channel, BOB)
    record = (await sessions.lobby.start(channel, ANN.user_id)).record
    players = {0: ANN, 1: BOB}
    while record.status == "active":
        state = line_race.from_json(record.state)
        mover = players[line_race.to_move(state)]
        record = (await sessions.play.act(channel, mover.user_id, ROLL if line_race.roll_due(state) else GO)).record
        board = Image.open(io.BytesIO(picture(record)))
        assert board.size == (SQUARE * LENGTH, SQUARE * 2)
    final = line_race.from_json(record.state)
    assert record.status == "finished" and LENGTH - 1 in final.squares
    winner = final.squares.index(LENGTH - 1)
    assert record.result["winners"] == [winner]
    # The log replays to the final position, as for every game.
    steps = list(timeline.steps(line_race, record, await sessions.store.games.actions(record.id)))
    assert steps[-1].after == final


def console(tmp_path: Path, program: str, *args: str, answers: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", program, "play", *args, "--database", str(tmp_path / "c.sqlite3"),
                           "--board", str(tmp_path / "b.png")], cwd=REPO, input=answers, capture_output=True,
                          text=True, timeout=120)


def test_the_console_plays_the_sixth_game_to_its_end_against_a_computer_in_each_language(tmp_path):
    """`play line-race` is refused until the game is in GAMES; then, at each prompt, r rolls and 1 moves, while the
    computer player thinks in a worker process, until a pawn reaches the last square."""
    refused = console(tmp_path, "bot", "line-race", answers="q\n")
    assert refused.returncode == 2 and "invalid choice: 'line-race'" in refused.stderr
    answers = "r\n1\n" * LENGTH   # more turns than a pawn needs: each moves at least a square
    said = {"en": ("The game of Line race begins!", "Player 1 rolls"),
            "fr": ("La partie de Course en ligne commence", "Joueur 1 fait"),
            "de": ("Eine Partie Wettlauf beginnt!", "Spieler 1 würfelt")}
    for game_id, (locale, (begins, rolled)) in enumerate(said.items(), start=1):
        played = console(tmp_path, "tests.sixth_game.run", "line-race", "--seats", "human,easy", "--lang", locale,
                         answers=answers)
        assert played.returncode == 0 and played.stderr == "", played.stderr
        assert begins in played.stdout and rolled in played.stdout, played.stdout
        over = i18n.text("console.over", locale, game_id=game_id, database=str(tmp_path / "c.sqlite3"))
        assert played.stdout.rstrip().endswith(over), played.stdout
        assert "🏆" in played.stdout
        assert asyncio.run(stored_game_verifies(tmp_path / "c.sqlite3", game_id)), "the log does not verify"


async def stored_game_verifies(database: Path, game_id: int) -> bool:
    """The finished game's seats and rolls check against its seed, and its log replays to its snapshot (the
    console's process registered the game; this one reads it through the same registration)."""
    store = await Store.open(str(database))
    try:
        record = await store.games.game(game_id)
        assert record is not None and record.status == "finished"
        with pytest.MonkeyPatch.context() as patch:
            register(patch.setattr, patch.setitem)
            return verify(position(record)[0], record, await store.games.actions(game_id)).ok
    finally:
        await store.close()


# --- docs/adding-a-game.md, step by step -------------------------------------------------------------------

def rule_ids(text: str) -> set[str]:
    return set(re.findall(r"\bLR-\d+\b", text))


def took_rules(game: Ruleset) -> None:
    ids = rule_ids((SIXTH / "rules.md").read_text(encoding="utf-8"))
    assert ids and rule_ids((SIXTH / "rules.py").read_text(encoding="utf-8")) <= ids


def took_ruleset(game: Ruleset) -> None:
    """A Ruleset, pure: its module imports nothing but the rules' base and the standard library's plain data."""
    assert isinstance(game, Ruleset)
    tree = ast.parse((SIXTH / "rules.py").read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert imported <= {"__future__", "random", "dataclasses", "typing", "bot.games.base"}, imported
    state = game.new_game(2, {}, 1)
    assert game.from_json(game.to_json(state)) == state


def took_registration(game: Ruleset) -> None:
    assert bot.games.GAMES[-1] is LineRace and bot.games.get_ruleset(LineRace.id) is not None


def took_board_family_and_contract(game: Ruleset) -> None:
    """The family's layout reads the ruleset through its contract, a Protocol with `scene`, which LineRace keeps."""
    contract = typing.get_type_hints(line_board.layout)["ruleset"]
    assert getattr(contract, "_is_protocol", False) and "scene" in contract.__dict__, contract
    assert isinstance(game.scene(LineState((3, 1), 0)), LineScene)   # type: ignore[attr-defined]
    assert renderer.family_layout(game) is line_board.layout


def took_heuristic(game: Ruleset) -> None:
    assert heuristic_for(game) is AHEAD


def took_words(game: Ruleset) -> None:
    for locale in i18n.LOCALES:
        catalogue_checks.test_every_registered_game_has_its_words_in_every_locale(locale)
        assert set(words(locale)) <= set(i18n.catalogue(locale))


def took_sample_position(game: Ruleset) -> None:
    """An entry like renderer/sample.py's HARD: found, drawn, and named apart from the real games' entries."""
    assert SAMPLE.game == LineRace.id and SAMPLE.name not in {hard.name for hard in HARD}
    ruleset, state, players, traced, focus = hard_position(SAMPLE)
    assert ruleset is game or isinstance(ruleset, LineRace)
    assert Image.open(io.BytesIO(renderer.render_png(ruleset, state, players, "en", focus, traced))).width > 0


def took_readme_table(game: Ruleset) -> None:
    """A row shaped as the README's games table's rows, naming the game's id and a rules file that exists."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    table = readme[readme.index("\n## The games\n"):].split("\n## ", 2)[1]
    rows = [line for line in table.splitlines() if line.startswith("| ") and "(`" in line]
    assert rows and all(row.count(" | ") == README_ROW.count(" | ") for row in rows)
    assert f"(`{LineRace.id}`)" in README_ROW
    link = re.search(r"\]\(([^)]+)\)", README_ROW)
    assert link is not None and (REPO / link.group(1)).is_file()


def took_tests(game: Ruleset) -> None:
    """Every rule ID is cited by a test of the game; the game is played through the fake Discord."""
    cited = rule_ids(Path(__file__).read_text(encoding="utf-8"))
    assert rule_ids((SIXTH / "rules.md").read_text(encoding="utf-8")) <= cited
    assert (REPO / "tests" / "e2e" / "test_sixth_game_e2e.py").is_file()


STEPS = {"Rules": took_rules, "Ruleset": took_ruleset, "Registration": took_registration,
         "Board family and its contract": took_board_family_and_contract, "Heuristic": took_heuristic,
         "Words": took_words, "Sample position": took_sample_position, "README table": took_readme_table,
         "Tests": took_tests}


def test_the_sixth_game_takes_every_step_the_guide_names_in_its_order(line_race):
    """docs/adding-a-game.md's numbered steps, each checked on the sixth game: a step added to the guide that the
    sixth game does not take (or a step it takes that the guide leaves out) fails here."""
    steps = re.findall(r"^(\d+)\. \*\*([^*]+)\*\*", GUIDE.read_text(encoding="utf-8"), flags=re.M)
    assert [int(n) for n, _ in steps] == list(range(1, len(steps) + 1))
    assert [title for _, title in steps] == list(STEPS)
    for step in STEPS.values():
        step(line_race)


# --- the rules, by ID ----------------------------------------------------------------------------------------

def test_lr_1_each_pawn_starts_on_square_0(line_race):
    """LR-1."""
    assert line_race.new_game(2, {}, 1).squares == (0, 0)


def test_lr_2_a_pawn_moves_what_the_die_says_but_never_past_the_last_square(line_race):
    """LR-2."""
    state = line_race.apply(LineState((1, 4), 1), "r3").state
    assert line_race.apply(state, GO).state.squares == (1, LENGTH - 1)
    assert line_race.apply(LineState((1, 0), 0, die=2), GO).state.squares == (3, 0)


def test_lr_3_the_first_pawn_on_the_last_square_wins(line_race):
    """LR-3."""
    assert line_race.result(LineState((LENGTH - 1, 2), 1)).winners == (0,)
    assert line_race.result(LineState((4, 2), 1)) is None
