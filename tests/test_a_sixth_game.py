"""A sixth game added through its registration alone (docs/adding-a-game.md): Line race (tests/sixth_game/), listed
in bot.games.GAMES with its words in the catalogue and nothing else in the bot told about it, is found, drawn and
played by computer players, played through the services, and played to its end in the terminal as
`python -m bot play line-race` would once the game is in GAMES. tests/e2e/test_sixth_game_e2e.py plays it
through the fake Discord.
"""
from __future__ import annotations

import asyncio
import io
import random
import subprocess
import sys
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
from bot.present.picture import picture
from bot.services import Sessions
from bot.store import Store
from renderer.legend import PlayerTag
from tests.sixth_game import register
from tests.sixth_game.ai import AHEAD
from tests.sixth_game.board import SQUARE
from tests.sixth_game.rules import GO, LENGTH, LineRace, LineState

REPO = Path(__file__).resolve().parent.parent
ANN, BOB = Seat(1, "Ann"), Seat(2, "Bob")


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
    assert {locale: i18n.text(LineRace.name, locale) for locale in i18n.LOCALES} == \
        {"en": "Line race", "fr": "Course en ligne", "de": "Wettlauf"}


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
