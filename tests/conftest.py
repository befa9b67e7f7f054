"""Shared fixtures: the fake Discord and the bot run as a separate process against it."""

import dataclasses
import hashlib
import itertools
import os
import signal
import socket
import sys
from pathlib import Path

import pytest

from bot.domain import dice
from tests.fake_discord import ClientProcess, FakeDiscord
from tests.fake_discord.contract import ContractTally
from tests.support.zygote import stop_zygote, use_zygote

REPO = Path(__file__).resolve().parent.parent

# The `store` fixture of real game logs (tests/game_logs.py); `database`, each backend in turn
# (tests/databases.py).
pytest_plugins = ["tests.game_logs", "tests.databases", "tests.postgres_cluster"]


def free_port() -> int:
    """A TCP port of 127.0.0.1 nothing listens on (as the system hands them out: free a moment later too)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def pytest_xdist_auto_num_workers(config) -> int:
    """`-n auto` (pyproject's addopts): three workers a core. The end-to-end tests spend much of their time
    waiting on another process (the bot, discord.py's tries after a 5xx, a deadline, a token's lifetime), so
    fewer workers left the cores idle: on two cores, in a fresh clone, the suite took 3 min 54 s with four
    workers and 3 min 34 s with six."""
    return 3 * (os.cpu_count() or 1)


def pytest_collection_modifyitems(session, config, items):
    """The end-to-end modules spread evenly among the others, each module kept whole: xdist's worksteal
    hands each worker a run of consecutive tests, so each gets its share of the end-to-end tests, which
    mostly wait on the bot, beside tests that keep a core busy; in collection order they all came last,
    and the cores idled while they waited."""
    modules: dict[str, list[pytest.Item]] = {}
    for item in items:
        if item.nodeid.startswith("tests/repo/"):   # the repository's checks: `pytest -m "not repo"` skips them
            item.add_marker(pytest.mark.repo)
        modules.setdefault(item.nodeid.split("::")[0], []).append(item)
    kinds: dict[bool, list[list[pytest.Item]]] = {True: [], False: []}
    for path, tests in modules.items():
        kinds[path.startswith("tests/e2e/")].append(tests)

    def spread(groups: list[list[pytest.Item]]) -> list[tuple[float, list[pytest.Item]]]:
        total, done, placed = sum(map(len, groups)) or 1, 0, []
        for tests in groups:
            placed.append(((done + len(tests) / 2) / total, tests))
            done += len(tests)
        return placed

    ordered = sorted(spread(kinds[True]) + spread(kinds[False]), key=lambda placed: placed[0])
    items[:] = [item for _, tests in ordered for item in tests]


def pytest_configure(config):
    # A suite started in the background (nohup, `cmd &` in a script) inherits SIGINT ignored, and every
    # process it starts would keep it: the tests of Ctrl-C (tests/console) need it as a terminal gives it.
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    use_zygote()   # bot processes forked from a zygote that has the bot imported (tests/support/zygote.py)
    config.addinivalue_line("markers", "fake_discord(**options): FakeDiscord options for the fake_discord "
                                       "fixture, e.g. @pytest.mark.fake_discord(shard_count=2)")
    config.addinivalue_line("markers", "bot_program(module): the module bot_process runs instead of `bot`, e.g. "
                                       "@pytest.mark.bot_program('tests.sixth_game.run')")


def pytest_unconfigure(config):
    stop_zygote()


@pytest.fixture(autouse=True)
def reproducible_seeds(request, monkeypatch):
    """Games started in the test process draw their dice from seeds made of the test's name, not from
    `secrets`: each test plays the same games on every run, so a dice-dependent failure shows every time
    instead of once in a thousand runs. (A bot process started by an e2e test keeps real secret seeds.)"""
    count = itertools.count()
    monkeypatch.setattr(dice, "new_seed",
                        lambda: hashlib.sha256(f"{request.node.nodeid}#{next(count)}".encode()).hexdigest())


# What the fakes of this process checked against Discord's OpenAPI document (tests/fake_discord/contract.py); the
# controller adds up its workers' and reports once per run (pytest_terminal_summary).
CONTRACT = ContractTally()


@pytest.fixture
async def fake_discord(request):
    """A fake Discord on 127.0.0.1; the test fails if the bot broke one of Discord's rules (its own, or the
    OpenAPI document's), or if the fake answered what Discord would not (a gap in its answers)."""
    marker = request.node.get_closest_marker("fake_discord")
    fake = await FakeDiscord(**(marker.kwargs if marker else {})).start()
    yield fake
    await fake.close()
    CONTRACT.add(fake.contract)
    fake.assert_clean()


def pytest_sessionfinish(session):
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:   # an xdist worker: hand the tally to the controller
        workeroutput["contract"] = dataclasses.asdict(CONTRACT)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """(xdist's controller) A worker's tally, added to the run's."""
    tally = getattr(node, "workeroutput", {}).get("contract")
    if tally:
        CONTRACT.add(ContractTally(**tally))


def pytest_terminal_summary(terminalreporter):
    """Once per run: request bodies validated and their violations, the fake's answers and their gaps."""
    if CONTRACT.requests or CONTRACT.answers:
        terminalreporter.write_sep("-", "Discord's contract")
        terminalreporter.write_line(CONTRACT.summary())
        for line in (CONTRACT.by_the_bot() + CONTRACT.gaps)[:20]:
            terminalreporter.write_line(f"  {line}")


@pytest.fixture
async def bot_process(request, fake_discord, tmp_path) -> ClientProcess:
    """`python -m bot` as the README runs it (or the test's bot_program), against the fake, on
    tmp_path/tablero.sqlite3; started.

    `await bot_process.terminate()` / `.kill()` / `.start()` restart it on the same database.

    At teardown it is killed (SIGKILL), as the other bot fixtures' are: nothing is left to check then. The stop
    on SIGTERM is tested in tests/e2e/test_shutdown_e2e.py."""
    marker = request.node.get_closest_marker("bot_program")
    database = tmp_path / "tablero.sqlite3"
    bot = fake_discord.client_process([sys.executable, "-m", marker.args[0] if marker else "bot"], cwd=REPO,
                                      env={"TABLERO_DATABASE": str(database)}, log_path=tmp_path / "bot.log")
    bot.database = database
    await bot.start()
    yield bot
    await bot.kill()


# The fake Discord's self-tests (tests/test_fake_discord*.py): the plain discord.py client
# tests/fake_discord_client.py against the fake, a French-speaking user and a server channel.
@pytest.fixture
async def client(fake_discord, tmp_path):
    process = fake_discord.client_process([sys.executable, "tests/fake_discord_client.py"], cwd=REPO,
                                          log_path=tmp_path / "client.log")
    await process.start()
    yield process
    await process.terminate()


@pytest.fixture
def alice(fake_discord):
    return fake_discord.add_user("alice", locale="fr")


@pytest.fixture
def table(fake_discord):
    return fake_discord.add_channel("table")
