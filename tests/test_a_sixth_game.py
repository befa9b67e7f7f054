"""A sixth game added through its registration alone (issue 27): a race on a line, its board family and its
heuristic all defined here, played through the services (lobby, rolls, moves, a computer player) and drawn
by the renderer. Nothing else in the bot is told about it.

The race: each player has one pawn on square 0 of a line of LENGTH squares. On a turn the player rolls one
die (1 to 3) and moves the pawn that far ("go"); the first pawn on the last square wins.
"""
from __future__ import annotations

import io
import random
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest
from PIL import Image

import bot.games
import renderer
from bot import ai, timeline
from bot.ai.heuristics import Heuristic, heuristic_for
from bot.game_records import Seat
from bot.games.base import Applied, IllegalAction, Message, Result, Ruleset, msg
from bot.present.picture import picture
from bot.services import ROLL, Sessions
from bot.store import Store
from renderer.common import INK, PAPER, PIECE_RGB, PlayerTag, StaticBoard, disc_sprite, make_palette
from renderer.plan import Item, Plan, centred

LENGTH = 6
SQUARE = 64
ANN, BOB = Seat(1, "Ann"), Seat(2, "Bob")


@dataclass(frozen=True)
class LineState:
    squares: tuple[int, ...]   # each seat's pawn
    turn: int
    die: int | None = None     # rolled, not moved yet


class LineRace(Ruleset):
    id = "line-race"
    name = "game.line-race"
    board_family = __name__                  # this module draws it: `layout` below
    heuristic = f"{__name__}:AHEAD"
    min_players = max_players = 2

    def seat_colours(self, n_players: int, options: dict[str, Any]) -> list[tuple[str, ...]]:
        return [("yellow",), ("blue",)][:n_players]

    def new_game(self, n_players: int, options: dict[str, Any], seed: int) -> LineState:
        return LineState((0,) * n_players, 0)

    def to_json(self, state: LineState) -> dict[str, Any]:
        return {"squares": list(state.squares), "turn": state.turn, "die": state.die}

    def from_json(self, data: dict[str, Any]) -> LineState:
        return LineState(tuple(data["squares"]), data["turn"], data["die"])

    def to_move(self, state: LineState) -> int | None:
        return None if self.result(state) else state.turn

    def result(self, state: LineState) -> Result | None:
        ahead = [seat for seat, square in enumerate(state.squares) if square == LENGTH - 1]
        return Result(tuple(ahead)) if ahead else None

    def roll_due(self, state: LineState) -> bool:
        return self.to_move(state) is not None and state.die is None

    def random_roll(self, state: LineState, rng: random.Random) -> str:
        return f"r{rng.randint(1, 3)}"

    def legal_actions(self, state: LineState) -> list[str]:
        return ["go"] if self.to_move(state) is not None and state.die is not None else []

    def apply(self, state: LineState, action: str, seat: int | None = None) -> Applied:
        if seat is not None and seat != self.to_move(state):
            raise IllegalAction(msg("error.not_your_turn"))
        if self.roll_due(state) and action in ("r1", "r2", "r3"):
            return Applied(LineState(state.squares, state.turn, int(action[1])))
        if action not in self.legal_actions(state):
            raise IllegalAction(msg("error.illegal"))
        squares = list(state.squares)
        squares[state.turn] = min(LENGTH - 1, squares[state.turn] + (state.die or 0))
        return Applied(LineState(tuple(squares), 1 - state.turn))

    def action_label(self, state: LineState, action: str) -> Message:
        return msg("group.plain", name=action)

    def describe(self, state: LineState) -> list[Message]:
        return [msg("group.plain", name=str(state.squares))]


def _ahead(ruleset: Ruleset, state: LineState, seat: int) -> float:
    return float(state.squares[seat] - state.squares[1 - seat])


AHEAD = Heuristic(_ahead, scale=2.0)


@cache
def _ground() -> StaticBoard:
    palette = make_palette([PAPER, INK, *PIECE_RGB.values()], [(c, PAPER) for c in PIECE_RGB.values()])
    rgb = Image.new("RGB", (SQUARE * LENGTH, SQUARE * 2), PAPER)
    return StaticBoard.build(rgb, palette)


def layout(ruleset: Ruleset, state: LineState, players: list[PlayerTag], locale: str = "en",
           focus: str | None = None, traced: Any = ()) -> Plan:
    """The line's squares, and each pawn on its square (one row per seat)."""
    items = [Item("square", str(i), (i * SQUARE, 0, (i + 1) * SQUARE, 2 * SQUARE)) for i in range(LENGTH)]
    for seat, square in enumerate(state.squares):
        sprite = disc_sprite(PIECE_RGB[players[seat].colours[0]], SQUARE // 2)
        xy = ((square + 0.5) * SQUARE, (seat + 0.5) * SQUARE)
        items.append(Item("piece", players[seat].colours[0][0].upper(), centred(xy, *sprite.size), str(square),
                          paint=lambda sheet, sprite=sprite, xy=xy: sheet.paste(sprite, xy)))
    return Plan((SQUARE * LENGTH, SQUARE * 2), tuple(items), _ground)


@pytest.fixture
def line_race(monkeypatch):
    monkeypatch.setitem(bot.games.REGISTERED, LineRace.id, LineRace)
    return bot.games.get_ruleset(LineRace.id)


@pytest.fixture
async def sessions(tmp_path):
    store = await Store.open(str(tmp_path / "s.sqlite3"))
    yield Sessions(store, think_budget_s=0.05)
    await store.close()


def test_the_registration_finds_the_ruleset_its_board_and_its_heuristic(line_race):
    assert isinstance(line_race, LineRace)
    assert heuristic_for(line_race) is AHEAD
    plan = renderer.layout(line_race, LineState((2, 0), 0), [PlayerTag("A", ("yellow",)), PlayerTag("B", ("blue",))])
    assert {item.ref: item.square for item in plan.of("piece")} == {"Y": "2", "B": "0"}
    state = LineState((1, 0), 0, die=2)
    assert ai.choose_action(line_race, state, 0, "normal", rng=random.Random(0)) == "go"


def test_an_unknown_game_is_not_found():
    with pytest.raises(bot.games.UnknownGame):
        bot.games.get_ruleset("line-race")


async def test_the_sixth_game_is_played_through_the_services_and_drawn(line_race, sessions):
    channel = 7
    await sessions.create(channel_id=channel, guild_id=1, host=ANN, game=LineRace.id, options={"seating": "lobby"})
    await sessions.join(channel, BOB)
    record = (await sessions.start(channel, ANN.user_id)).record
    players = {0: ANN, 1: BOB}
    while record.status == "active":
        state = line_race.from_json(record.state)
        mover = players[line_race.to_move(state)]
        record = (await sessions.act(channel, mover.user_id, ROLL if line_race.roll_due(state) else "go")).record
        board = Image.open(io.BytesIO(picture(record)))
        assert board.size == (SQUARE * LENGTH, SQUARE * 2)
    final = line_race.from_json(record.state)
    assert record.status == "finished" and LENGTH - 1 in final.squares
    winner = final.squares.index(LENGTH - 1)
    assert record.result["winners"] == [winner]
    # The log replays to the final position, as for every game.
    steps = list(timeline.steps(line_race, record, await sessions.store.actions(record.id)))
    assert steps[-1].after == final
