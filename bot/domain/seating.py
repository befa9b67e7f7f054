"""Who sits where: seats drawn at random when the game starts (the default), or the lobby's order.

The rules give each person's colour, and who plays first, "when the game is created, randomly if
nobody chooses" (PM-1.9, MG-2.2, PA-3.1). `/game new seating:` is that choice: `random` draws the
seats at start from the game's secret seed (`dice.seat_order`), so that once the seed is revealed
`/game verify` recomputes the draw from the lobby order kept with the game; `lobby` keeps the order
in which the players sat (the host first). With teams (seats 0 and 2 against 1 and 3) a random
draw makes the teams too. Barricade draws seats the same way, but its order of play is rolled for
in the game (BA-2.2): there the draw only gives the colours.

Games created before this option existed carry no `seating`: they were seated in lobby order.
Nothing here does I/O.
"""
from __future__ import annotations

from typing import Any

from bot.core.game_records import LOBBY_SEATS as LOBBY_SEATS  # the seating's option, read by the store too
from bot.core.game_records import GameRecord, Seat
from bot.domain import dice
from bot.games.base import GameError, Message, Ruleset, joined, msg

RANDOM, LOBBY = "random", "lobby"
SEATINGS = (RANDOM, LOBBY)


def chosen(options: dict[str, Any]) -> dict[str, Any]:
    """The options of a new lobby with its seating spelled out (default: random)."""
    seating = options.get("seating", RANDOM)
    if seating not in SEATINGS:
        raise GameError(msg("error.bad_seating"))
    return {**options, "seating": seating}


def of(record: GameRecord) -> str:
    seating: str = record.options.get("seating", LOBBY)
    return seating


def seat(record: GameRecord) -> tuple[tuple[Seat, ...], dict[str, Any]]:
    """The seats a lobby starts with, and its options (with the lobby order, when it was drawn)."""
    if of(record) != RANDOM:
        return record.seats, record.options
    lobby = record.seats
    seats = tuple(lobby[place] for place in dice.seat_order(record.seed, len(lobby)))
    return seats, {**record.options, LOBBY_SEATS: [s.to_json() for s in lobby]}


def drawn(record: GameRecord) -> tuple[Seat, ...] | None:
    """The seats the seed gives from the lobby order kept with a started game (None: not drawn)."""
    lobby = record.options.get(LOBBY_SEATS)
    if of(record) != RANDOM or lobby is None:
        return None
    return tuple(Seat.from_json(lobby[place]) for place in dice.seat_order(record.seed, len(lobby)))


def matches(record: GameRecord) -> bool | None:
    """Are the game's seats those the seed draws? None when they were not drawn. A seat the seed gave
    to a person may since have gone to a computer player (a resignation, or the others' vote)."""
    expected = drawn(record)
    if expected is None:
        return None
    return len(expected) == len(record.seats) and all(
        (now.user_id, now.level) == (then.user_id, then.level) or (then.level is None and now.level is not None)
        for then, now in zip(expected, record.seats))


def announcement(ruleset: Ruleset[Any], record: GameRecord) -> Message:
    """Who has which colour and who plays first, in one line for the first board."""
    n = len(record.seats)
    colours = ruleset.seat_colours(n, record.options)
    entries = [msg("seating.seat", seat=i, side=side(ruleset, colours, i)) for i in range(n)]
    first = msg("seating.first_by_dice") if ruleset.order_by_dice else msg("seating.first", seat=0)
    kind = ("seating.teams_" if ruleset.teams(n, record.options) else "seating.") + of(record)
    return msg(kind, seats=listed(ruleset, n, record.options, entries), first=first)


def listed(ruleset: Ruleset[Any], n: int, options: dict[str, Any], items: list[Message]) -> Message:
    """One item per seat in a sentence; with teams, "a and c against b and d"."""
    teams = ruleset.teams(n, options)
    if not teams:
        return joined(items, "seating.list")
    first, second = ([items[i] for i in team] for team in teams)
    return msg("seating.teams", first=joined(first, "seating.team"), second=joined(second, "seating.team"))


def side(ruleset: Ruleset[Any], colours: list[tuple[str, ...]], seat: int) -> Message:
    """How a seat is told apart: what sets it apart (Pariti's parity), else its colours."""
    role = ruleset.seat_role(seat)
    if role is not None:
        return role
    if len(colours[seat]) == 1:
        return msg("seating.colour", colour=colours[seat][0])
    return joined([msg("seating.colour", colour=c) for c in colours[seat]], "seating.colours")
