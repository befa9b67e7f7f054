"""Fair dice, checked: recompute every roll of a game from its revealed seed.

The session draws the roll logged at position `seq` as
`ruleset.random_roll(state_before, rng_for(seed, seq))` (a take-back, bot/domain/timeline.py, is logged
like any action and draws nothing), sets the game up
with `new_game(..., setup_seed(seed))` and, when seats were drawn at random,
seats the lobby's players by `seat_order(seed, n)` (bot/domain/seating.py). `verify`
redraws the seats from the lobby order kept with the game, replays the log
from the set-up, redraws each roll and compares it with the logged one, then
checks that the replay ends on the stored snapshot.

Anyone holding the database can run it:  python -m bot.domain.verify tablero.sqlite3 <game_id>
(or a postgresql:// URL in place of the file). A game still being played is refused: its seed draws
every roll to come, so it stays secret until the game is over.
"""
from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.core.game_records import GameRecord, LoggedAction, Seat
from bot.domain import dice, seating
from bot.domain.timeline import at_setup, is_roll
from bot.games import get_ruleset
from bot.games.base import GameError, Ruleset
from bot.store import Store, is_postgresql, shown_url
from bot.store.schema import SchemaNotCurrent

# The statuses of a game whose seed is revealed (before, it would tell every roll to come).
OVER = ("finished", "ended")


@dataclass(frozen=True)
class Mismatch:
    seq: int
    logged: str
    expected: str     # the roll the seed gives, or "" when the log stops replaying here


@dataclass(frozen=True)
class Verification:
    commitment: str
    rolls: int                          # rolls checked
    mismatches: tuple[Mismatch, ...]
    final_state_matches: bool           # the replay ends on the stored snapshot
    seating_matches: bool | None = None  # the seats are those the seed draws (None: not drawn)

    @property
    def ok(self) -> bool:
        return not self.mismatches and self.final_state_matches and self.seating_matches is not False


def verify(ruleset: Ruleset[Any], record: GameRecord, actions: Sequence[LoggedAction]) -> Verification:
    commitment = dice.commitment(record.seed)
    seated = seating.matches(record)
    line = at_setup(ruleset, record)
    rolls, mismatches = 0, []
    for logged in actions:
        if is_roll(ruleset, line.state, logged.action, logged.seat):
            rolls += 1
            expected = ruleset.random_roll(line.state, dice.rng_for(record.seed, logged.seq))
            if expected != logged.action:
                mismatches.append(Mismatch(logged.seq, logged.action, expected))
        try:
            line.step(logged)
        except GameError:   # the rules (or a take-back's conditions) refuse this action here: the log was altered
            mismatches.append(Mismatch(logged.seq, logged.action, ""))
            return Verification(commitment, rolls, tuple(mismatches), False, seated)
    final = record.state is None or ruleset.from_json(record.state) == line.state
    return Verification(commitment, rolls, tuple(mismatches), final, seated)


async def _load(database: str, game_id: int) -> tuple[GameRecord | None, list[LoggedAction]]:
    store = await Store.open(database, migrate=False)   # read only: an empty database is left empty
    try:
        return await store.games.game(game_id), await store.games.actions(game_id)
    finally:
        await store.close()


def main(argv: list[str] | None = None) -> int:
    """Print the check of one game of a database (exit status 0 when every roll matches)."""
    parser = argparse.ArgumentParser(prog="python -m bot.domain.verify", description=__doc__.splitlines()[0])
    parser.add_argument("database", help="a SQLite file or a postgresql:// URL")
    parser.add_argument("game_id", type=int)
    args = parser.parse_args(argv)
    if not is_postgresql(args.database) and not Path(args.database).is_file():   # opening it would create it
        sys.stderr.write(f"{args.database}: no such file\n")
        return 2
    try:
        record, actions = asyncio.run(_load(args.database, args.game_id))
    except SchemaNotCurrent as error:   # nothing was written: a database restored into next is not in the way
        sys.stderr.write(_not_current(args.database, error) + "\n")
        return 2
    if record is None:
        sys.stderr.write(f"no game {args.game_id} in {args.database}\n")
        return 2
    if record.state is None:   # a lobby closed before its game started (older releases stored such games)
        sys.stderr.write(f"game {record.id} ({record.game}) never started: nothing was drawn from its seed\n")
        return 2
    if record.status not in OVER:
        sys.stderr.write(f"game {record.id} ({record.game}) is still being played: its seed, which draws every roll "
                         f"to come, stays secret until it is over; verify it then. Its fingerprint (SHA-256), "
                         f"posted at the start: {dice.commitment(record.seed)}\n")
        return 2
    ruleset = get_ruleset(record.game)
    result = verify(ruleset, record, actions)
    # A game without dice draws only its set-up (Pariti's pieces) from the seed, and perhaps its seats.
    lines = [f"game {record.id} ({record.game}, {record.status})", f"seed       {record.seed}",
             f"commitment {result.commitment}", f"rolls checked: {result.rolls}" if ruleset.has_dice else
             "no dice in this game: checked the set-up the seed draws, every move replayed from it"]
    lines += [f"action {m.seq + 1}: logged {m.logged!r}, the seed gives {m.expected!r}" for m in result.mismatches]
    if result.seating_matches is not None:
        drawn = ", ".join(_player(seat) for seat in seating.drawn(record) or ())
        lines.append(f"seats the seed draws from the lobby order: {drawn}; the stored seats match: "
                     f"{result.seating_matches}")
    else:
        lines.append("seats: in the lobby's order, as the players chose (not drawn from the seed)")
    lines.append(f"final position matches the stored one: {result.final_state_matches}")
    checked = "every roll" if ruleset.has_dice else "the set-up"
    lines.append((f"OK: the seating and {checked} match the seed" if result.seating_matches else
                  f"OK: {checked} matches the seed") if result.ok else "MISMATCH")
    sys.stdout.write("\n".join(lines) + "\n")
    return 0 if result.ok else 1


def _not_current(database: str, error: SchemaNotCurrent) -> str:
    shown = shown_url(database) if is_postgresql(database) else database
    if not error.found:
        return f"{shown} holds no Tablero games (no Tablero schema there)"
    remedy = ("start the bot on it once (it brings the schema up to date), then verify" if error.found < error.known
              else "verify with the release that wrote it")
    return f"{shown} has schema version {error.found}, this code reads version {error.known}: {remedy}"


def _player(seat: Seat) -> str:
    return f"computer ({seat.level})" if seat.level else f"{seat.name} ({seat.user_id})"


if __name__ == "__main__":
    sys.exit(main())
