"""A seeded console campaign through a pseudo-terminal, as a player meets `python -m bot play`: every game, with
computer seats of each level; at each prompt a random answer, valid or not (a number, a code, a point's name, r,
Enter, the call-out forms, help, rules); sessions ended by Ctrl-C at random moments (the computers' turns
included), Ctrl-D or q, then resumed by the same command.

It passes when no traceback is ever printed, every input is answered before the next prompt, no game is stuck
(whenever the console asks, a person is to move), each resumed game goes on from its stored position (its log
kept, the position shown the stored one, and every move since the person's last prompt printed first: a Ctrl-C may
have cut their printing short) and every log replays to its stored snapshot. The computers' dice come
from each game's own seed (secret, in the database: python -m bot.domain.verify names it once a game is over); the
campaign's own choices come from its seed. It waits on the prompts' text, never on a clock.
"""
import asyncio
import os
import random
import re
import signal
import sqlite3
import sys
import time
from contextlib import closing
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path

import pexpect
import pytest

from bot.core.game_records import console_channel
from bot.domain.positions import position
from bot.domain.timeline import steps
from bot.domain.verify import verify
from bot.present.words import say
from bot.services import GameRecord
from bot.store import Store

REPO = Path(__file__).resolve().parents[2]
PROMPT = re.compile(r"q to quit\)?: $")
LISTED = re.compile(r"^  (\d+)\. .*  \[([^\]]+)\]$", re.M)
POINT_EXAMPLE = re.compile(r"points: .*\(for example (\w+)\)$", re.M)
# Never said to the person the console asks: the console would be asking for a computer's move.
STUCK = ("You are not playing in this game", "It is not your turn")
# Two-player games get a saved game per level (--new between them); the others seat every level at once.
SEATS = {"parcheesi": ["human,easy,normal,hard"], "parcheesi-classic": ["human,easy,normal,hard"],
         "barricade": ["human,easy,normal,hard"], "parchis-maghreb": ["human,easy", "human,normal", "human,hard"],
         "pariti": ["human,easy", "human,normal", "human,hard"]}
# A saved game per seating, played in this many sessions (the first starts it, the others resume it).
SESSIONS = {"human,easy,normal,hard": 3, "human,easy": 1, "human,normal": 2, "human,hard": 2}
ANSWERS_PER_SESSION = 6


@dataclass
class Stored:
    record: GameRecord | None
    log: list[tuple[int, str]] = field(default_factory=list)


def stored(database: Path, game: str) -> Stored:
    async def read() -> Stored:
        store = await Store.open(str(database))
        try:
            record = await store.games.open_game(console_channel(game))
            if record is None:
                return Stored(None)
            return Stored(record, [(a.seq, a.action) for a in await store.games.actions(record.id)])
        finally:
            await store.close()
    return asyncio.run(read())


def played_since_last_prompt(database: Path, game: str, stored_before: int) -> list[str]:
    """The lines of every move from the person's last one among the first `stored_before` actions (what was
    stored when the last session ended) to the end of the log, as the console prints them."""
    async def read() -> list[str]:
        store = await Store.open(str(database))
        try:
            record = await store.games.open_game(console_channel(game))
            logged = await store.games.actions(record.id)
        finally:
            await store.close()
        people = [i for i, a in enumerate(logged[:stored_before]) if record.seats[a.seat].level is None]
        return ["• " + say(record, line, "en") for step in islice(steps(position(record)[0], record, logged),
                                                                   people[-1] if people else 0, None)
                for line in step.events]
    return asyncio.run(read())


def latest_log_replays(database: Path) -> None:
    async def check() -> None:
        store = await Store.open(str(database))
        try:
            for game_id in range(1, 200):
                record = await store.games.game(game_id)
                if record is None:
                    break
                assert record.state is not None, f"game {game_id} stored though it never started"
                result = verify(position(record)[0], record, await store.games.actions(game_id))
                assert not result.mismatches and result.final_state_matches, (game_id, result)
        finally:
            await store.close()
    asyncio.run(check())


def moved_on(database: Path, record: GameRecord) -> None:
    """Wait until the game has gone past `record`'s version (or is no longer open): an event, not a clock."""
    deadline = time.monotonic() + 60
    with closing(sqlite3.connect(database)) as db:
        while time.monotonic() < deadline:
            row = db.execute("SELECT version, status FROM games WHERE id = ?", (record.id,)).fetchone()
            if row[0] > record.version or row[1] != "active":
                return
            time.sleep(0.01)   # the console writes the move in another process: look again
    raise AssertionError(f"game {record.id} stayed at version {record.version}")


class Console:
    """One run of `python -m bot play` in a pseudo-terminal, and everything it printed."""

    def __init__(self, game: str, seats: str, database: Path, new: bool):
        args = ["-m", "bot", "play", game, "--seats", seats, "--database", str(database),
                "--board", str(database.with_suffix(".png"))] + (["--new"] if new else [])
        env = {**os.environ, "TABLERO_LOG_LEVEL": "WARNING", "PYTHONUNBUFFERED": "1", "PYTHONFAULTHANDLER": "1"}
        self.child = pexpect.spawn(sys.executable, args, cwd=str(REPO), env=env, encoding="utf-8", timeout=90,
                                   dimensions=(60, 220))
        self.transcript = ""

    def wait(self) -> tuple[bool, str]:
        """(whether a prompt is up, what was printed since the last wait)."""
        at = self.child.expect([PROMPT, pexpect.EOF])
        said = (self.child.before or "").replace("\r", "") + (self.child.after if at == 0 else "")
        self.transcript += said
        assert "Traceback" not in said and not any(s in said for s in STUCK), self.tail()
        return at == 0, said

    def send(self, line: str) -> None:
        self.transcript += f"<{line!r}>"
        self.child.sendline(line)

    def tail(self) -> str:
        return self.transcript[-3000:]

    def ended(self) -> int:
        try:
            self.child.expect(pexpect.EOF, timeout=40)
        except pexpect.TIMEOUT:   # a console that ignored Ctrl-C: every thread's stack (PYTHONFAULTHANDLER)
            os.kill(self.child.pid, signal.SIGABRT)
            self.child.expect(pexpect.EOF, timeout=20)
            raise AssertionError("HANG " + self.transcript[-1500:] + "\n=====\n" + self.child.before[-8000:]) from None
        self.transcript += (self.child.before or "").replace("\r", "")
        assert "Traceback" not in self.transcript, self.tail()
        self.child.close()
        return self.child.exitstatus if self.child.exitstatus is not None else 128 + self.child.signalstatus


def answers(said: str, rng: random.Random, valid: bool = False) -> tuple[str, bool]:
    """A random answer to the prompt that `said` ends with, and whether it is one of the moves offered."""
    listed = LISTED.findall(said.rsplit("(board picture", 1)[-1])
    point = POINT_EXAMPLE.findall(said)
    roll = said.rstrip().endswith("q to quit):")
    offered: list[str] = ["r"] if roll else []
    if listed:
        number, code = rng.choice(listed)
        offered += [number, code] if valid else [number, code, re.split("[:-]", code)[-1]]
    offered += point
    others = ["", "r", "0", str(len(listed) + 1), "99", "xyz", "help", "?", "rules", "call", "call X9", "CALL b1",
              "call:R1", "Q2+7", "e5", "rules please"]
    if offered and (valid or rng.random() < 0.6):
        return rng.choice(offered), True
    return rng.choice(others), False


def session(game: str, seats: str, database: Path, rng: random.Random, new: bool) -> None:
    """Some random answers, then an ending: Ctrl-C once the player's move is stored (the computers are then
    playing, or done), Ctrl-C at once after a move, Ctrl-C or Ctrl-D at the prompt, or q."""
    before = stored(database, game)
    console = Console(game, seats, database, new)
    up, said = console.wait()
    resumed = before.record is not None and not new
    assert ("Resuming your" in said) == resumed, console.tail()
    ending = rng.choices(["computers", "at once", "prompt", "eof", "q"], [5, 1, 1, 1, 1])[0]
    for turn in range(rng.randint(1, ANSWERS_PER_SESSION)):
        if not up:   # the game is over
            break
        now = stored(database, game)
        assert now.record is not None and now.record.status == "active", console.tail()
        ruleset, state = position(now.record)
        assert now.record.seats[ruleset.to_move(state)].level is None, f"a computer is to move\n{console.tail()}"
        if turn == 0 and resumed:   # the game goes on from its stored position: its log kept, that position shown
            assert now.log[:len(before.log)] == before.log, console.tail()
            assert all(say(now.record, line, "en") in said for line in ruleset.describe(state)), console.tail()
            # Every move since the person's last prompt, a Ctrl-C's or not: the computers' rolls can be seen.
            missing = [line for line in played_since_last_prompt(database, game, len(before.log)) if line not in said]
            assert not missing, f"not retold: {missing}\n{console.tail()}"
        typed, _ = answers(said, rng)
        console.send(typed)
        up, said = console.wait()
        echoed = said.split("\n", 1)[1] if "\n" in said else ""
        assert echoed.strip(), f"no answer to {typed!r}\n{console.tail()}"
    if not up:
        assert console.ended() == 0 and "is over" in console.transcript, console.tail()
        return
    if ending in ("computers", "at once"):
        now = stored(database, game)
        console.send(answers(said, rng, valid=True)[0])
        if ending == "computers":
            moved_on(database, now.record)
    if ending == "eof":
        console.transcript += "<Ctrl-D>"
        console.child.sendeof()
    elif ending == "q":
        console.send("q")
    else:
        console.transcript += "<Ctrl-C>"
        console.child.sendintr()
    status = console.ended()
    last = console.transcript.rstrip().splitlines()[-1]
    assert status in (0, 130) and ("saved in" in last or "is over" in last), f"exit status {status}\n{console.tail()}"


def test_keys_typed_while_the_computer_plays_do_not_answer_the_next_prompt(tmp_path):
    """Two moves typed at once in Pariti: the second, typed before its question was asked, is discarded."""
    database = tmp_path / "c.sqlite3"
    console = Console("pariti", "human,easy", database, new=False)
    console.wait()
    console.transcript += "<'1' '1'>"
    console.child.send("1\r1\r")
    up, said = console.wait()   # the computer's move, then the next question, left unanswered
    assert up, console.tail()
    console.send("q")
    assert console.ended() == 0
    assert [seat for seat, in sqlite3.connect(database).execute("SELECT seat FROM actions")] == [0, 1], console.tail()


@pytest.mark.parametrize("game", list(SEATS))
def test_a_console_campaign_never_leaves_a_game_stuck_nor_prints_a_traceback(game, tmp_path):
    rng = random.Random(f"campaign {game}")
    database = tmp_path / "c.sqlite3"
    for seats in SEATS[game]:
        for n in range(SESSIONS[seats]):
            session(game, seats, database, rng, new=n == 0 and seats != SEATS[game][0])
    latest_log_replays(database)
