"""`python -m bot play <game>`: a game in the terminal, no Discord needed.

It goes through the same services (bot/services/) and words (bot/present/) as
the bot, on its own SQLite file (one saved game per kind of game, kept under the
game's id), so quitting and running the command again resumes the game; `--new`
ends it (and says so) and starts afresh. After every move the position is printed
in words and the board PNG is written to a file. Ctrl-C leaves at once, whenever
it comes: every accepted move is stored, and a computer's turn it cut short is
finished when the game resumes, as the bot does at start-up. What the player
types is read in bot/console/prompts.py.
"""
from __future__ import annotations

import asyncio
import contextlib
import os
import select
import signal
import sys
import threading
import time
from collections.abc import Callable
from itertools import islice
from pathlib import Path
from typing import Any

from bot.console.prompts import CALL, Say, prompt, read_answer, refusal_line
from bot.core.game_records import LEGACY_CONSOLE_CHANNELS, console_channel, console_channels
from bot.domain import i18n
from bot.domain.positions import position, ruleset_of
from bot.domain.session_results import Outcome
from bot.domain.timeline import steps
from bot.games import GAME_IDS, get_ruleset
from bot.games.base import GameError, msg
from bot.present.picture import picture
from bot.present.words import result_line, say
from bot.services import COMPUTER_LEVELS, GameRecord, Seat, Sessions
from bot.store import Store

HUMAN = "human"                     # a person's seat in --seats (the others name a computer's level)
INTERRUPTED = 128 + signal.SIGINT   # the exit status of a program stopped by Ctrl-C (130)
Reader = Callable[[str], str]      # input(prompt): the line typed
Writer = Callable[[str], object]   # print(line)


async def play(game: str, seats: list[str], database: str, board_file: str, locale: str,
               read: Reader = input, write: Writer = print, new: bool = False, seating: str = "lobby") -> int:
    """`seating` "lobby" keeps the seats in the order given (the first person, the host, sits
    first), "random" draws them from the game's seed as on Discord."""
    refusal = seats_refusal(game, seats, seating, locale)
    if refusal is not None:   # said before the database is opened: a refused command stores nothing
        write(refusal)
        return 2
    store = await Store.open(database)
    sessions = Sessions(store)
    record: GameRecord | None = None
    ctrl_c = _CtrlC()
    try:
        if await store.games.count_in(console_channels(GAME_IDS), inside=False):   # kept apart both ways
            write(i18n.text("console.bot_database", locale, database=database))
            return 2
        channel, record = await _saved(sessions, game)
        # A lobby left by an older release (seated before a refusal, maybe not as now asked) is not resumed.
        if record is not None and (new or record.status == "lobby"):
            await sessions.endings.end(channel, 0, can_manage=True)
            if new:
                write(i18n.text("console.ended_saved", locale, game_id=record.id, database=database))
            channel, record = console_channel(game), None
        if record is None:
            record = await _seat(sessions, channel, game, seats, locale, seating)
            write(i18n.text("console.started", locale, database=database))
            outcome = await sessions.lobby.start(channel, record.host_id)
        else:
            write(i18n.text("console.resumed", locale, game=msg(ruleset_of(record).name), database=database))
            await _retell_since_last_prompt(sessions, record, locale, write)
            # The computers' turn Ctrl-C cut short is played now, as the bot does at start-up.
            outcome = await sessions.play.resume(channel, record.id) or Outcome(record)
        record = outcome.record
        return await _play_on(sessions, channel, outcome, board_file, locale, read, write, database)
    except (KeyboardInterrupt, asyncio.CancelledError):   # Ctrl-C: every accepted move is stored already
        write("")   # off the prompt's line
        write(i18n.text("console.interrupted", locale, game_id=record.id, database=database) if record else
              i18n.text("console.stopped", locale))
        try:   # a cancellation requested as _ask raised its own is taken here: the game stops once, in one line
            await asyncio.sleep(0)
        except asyncio.CancelledError:
            pass
        return INTERRUPTED
    finally:
        ctrl_c.ending = True
        try:
            await store.close()
        finally:
            ctrl_c.restore()


class _CtrlC:
    """Ctrl-C cancels the game's task from the event loop, between two of its callbacks, until the game ends.
    asyncio.run's own handler cancels it from the signal handler, which Python runs between any two steps of
    the program: in the middle of handing the typed line to the game (its future found pending, then set), the
    line landed on a future the Ctrl-C had just cancelled, and asyncio printed a traceback."""

    def __init__(self) -> None:
        self.task, self.before = asyncio.current_task(), signal.getsignal(signal.SIGINT)
        self.ending = False   # the game is ending (saved, over or stopped): a Ctrl-C has nothing left to stop
        # A thread has no signals; a Ctrl-C ignored (SIG_IGN: nohup, a background job) stays ignored, as asked.
        self.handled = self.task is not None and threading.current_thread() is threading.main_thread() \
            and callable(self.before)
        if self.handled:
            asyncio.get_running_loop().add_signal_handler(signal.SIGINT, self.pressed)

    def pressed(self) -> None:
        if self.task is not None and not self.ending:
            self.task.cancel()

    def restore(self) -> None:
        if self.handled:
            asyncio.get_running_loop().remove_signal_handler(signal.SIGINT)
            signal.signal(signal.SIGINT, self.before)


def seats_refusal(game: str, seats: list[str], seating: str, locale: str) -> str | None:
    """Why the console cannot seat `seats` ("human" or a computer's level each) in this game, or None."""
    ruleset = get_ruleset(game)
    most = ruleset.player_range({"seating": seating})[1]
    if len(seats) > most:
        return i18n.text("console.too_many_seats", locale, count=most)
    if unknown := [seat for seat in seats if seat != HUMAN and seat not in COMPUTER_LEVELS]:
        return i18n.text("console.unknown_seat", locale, given=unknown[0][:20],
                         levels=", ".join(COMPUTER_LEVELS))
    if HUMAN not in seats:
        return i18n.text("console.need_human", locale)
    try:
        ruleset.check_setup(len(seats), {"seating": seating})
    except GameError as refusal:
        return i18n.render(refusal.message, locale)
    return None


async def _retell_since_last_prompt(sessions: Sessions, record: GameRecord, locale: str, write: Writer) -> None:
    """What was played from the last move of a person (from the start, if none moved yet) to the stored position,
    as it was printed when played: a Ctrl-C may have cut its printing short, and what the computers rolled must
    be seen (a cheat is called out from it)."""
    actions = await sessions.store.games.actions(record.id)
    people = [i for i, logged in enumerate(actions)
              if logged.seat is not None and record.seats[logged.seat].level is None]
    played = [line for step in islice(steps(ruleset_of(record), record, actions), people[-1] if people else 0, None)
              for line in step.events]
    if played:
        write(i18n.text("console.since_last_prompt", locale))
    for line in played:
        write("• " + say(record, line, locale))


async def _saved(sessions: Sessions, game: str) -> tuple[int, GameRecord | None]:
    """The channel and open game (lobby or in play) of this kind of game; a save of an older release,
    numbered by the menu, is found and played on where it is."""
    channel = console_channel(game)
    record = await sessions.channels.open_game(channel)
    if record is None:
        for legacy in LEGACY_CONSOLE_CHANNELS:
            found = await sessions.channels.open_game(legacy)
            if found is not None and found.game == game:
                return legacy, found
    return channel, record


async def _seat(sessions: Sessions, channel: int, game: str, seats: list[str], locale: str,
                seating: str) -> GameRecord:
    """The lobby with every seat taken. The first human hosts it, so sits (and, seated in lobby order, plays)
    first; the others follow in the order given, each person named after the place they sit at. Ctrl-C
    waits for the few writes to end: a lobby half seated would start another game on resume."""
    humans = [i for i, s in enumerate(seats) if s == HUMAN]
    order = humans[:1] + [i for i in range(len(seats)) if i != humans[0]]

    def person(place: int) -> Seat:
        return Seat(place + 1, i18n.text("player.default_name", locale, number=place + 1), locale=locale)

    async def seat_all() -> GameRecord:
        outcome = await sessions.lobby.create(channel_id=channel, guild_id=None, host=person(0), game=game,
                                              options={"seating": seating})
        for place, i in enumerate(order[1:], start=1):
            if seats[i] == HUMAN:
                outcome = await sessions.lobby.join(channel, person(place))
            else:
                outcome = await sessions.lobby.add_computer(channel, person(0).user_id, seats[i])
        return outcome.record

    seated = asyncio.ensure_future(seat_all())
    try:
        return await asyncio.shield(seated)
    except asyncio.CancelledError:
        await seated
        raise


async def _play_on(sessions: Sessions, channel: int, outcome: Outcome, board_file: str, locale: str, read: Reader,
                   write: Writer, database: str) -> int:
    """Show each position and ask for the next action until the game ends or the player quits. A refusal
    or help is said after the list of moves, just above the question, so that a long list never scrolls
    it away."""
    note: tuple[str, ...] = ()
    fresh = True   # a new position to show (not a prompt asked again)
    while True:
        record = outcome.record
        if fresh:
            annotations = await sessions.annotations.of(record, time.time())
            _show(outcome, board_file, locale, write, annotations.since.positions)
        if record.status != "active":
            over = f"console.over.{record.game}"   # what verify checks: a game without dice has its set-up drawn
            write(i18n.text(over if i18n.has_key(over, locale) else "console.over", locale, game_id=record.id,
                            database=database))
            return 0
        answer = read_answer(record, (await _ask(read, prompt(record, locale, note))).strip(), locale)
        if answer is None:
            write(i18n.text("console.saved", locale, game_id=record.id, database=database))
            return 0
        fresh, note = False, ()
        if isinstance(answer, Say):   # help, the rules, a number not listed...; Enter: the moves again
            note = answer.lines
            continue
        try:
            user = _human_to_move(record)
            called = answer.partition(":")[0] == CALL
            outcome = await (sessions.play.call_out if called else sessions.play.act)(channel, user, answer)
            fresh = True
        except GameError as refusal:
            note = (refusal_line(record, refusal.message, locale),)


def _human_to_move(record: GameRecord) -> int:
    ruleset, state = position(record)
    seat = ruleset.to_move(state)
    return record.seats[seat].user_id if seat is not None else 0


async def _ask(read: Reader, question: str) -> str:
    """`read(question)` in a daemon thread (the terminal's question printed first, here): Ctrl-C cancels the
    wait at once, and the thread left blocked on the terminal does not keep the process alive. End of input
    (Ctrl-D) is "q"."""
    await asyncio.sleep(0)   # a Ctrl-C that came while the position was shown stops here, before the question
    task = asyncio.current_task()
    if task is not None and task.cancelling():   # one that asyncio.wait_for swallowed (Python 3.11, gh-86296)
        raise asyncio.CancelledError
    if read is input:
        discard_type_ahead()
        # Printed here, not by input() in the reader thread: a reader thread the machine runs late would print it
        # under the stop line of a Ctrl-C that came meanwhile (this thread prints that line).
        sys.stdout.write(question)
        sys.stdout.flush()
        question = ""
        if not sys.stdin.isatty():
            read = _piped_line
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[str] = loop.create_future()

    def settle(outcome: str | BaseException) -> None:
        if answer.done():
            return
        if isinstance(outcome, BaseException):
            answer.set_exception(outcome)
        else:
            answer.set_result(outcome)

    def run() -> None:
        outcome: str | BaseException
        try:
            outcome = read(question)
        except EOFError:
            outcome = "q"
        except BaseException as error:   # KeyboardInterrupt raised by a scripted reader
            outcome = error
        try:
            loop.call_soon_threadsafe(settle, outcome)
        except RuntimeError:   # the loop is closed (Ctrl-C ended the game): nobody waits for this answer
            pass

    threading.Thread(target=run, daemon=True).start()
    return await answer


def _piped_line(_: str) -> str:
    """The next line of a pipe, read from its descriptor a byte at a time (the lines after it stay for the next
    questions). input() would read it through sys.stdin, whose lock its reader thread then holds while it waits:
    Python aborts at exit ("could not acquire lock ... at interpreter shutdown") when a Ctrl-C ends the game with
    the pipe still open."""
    line = bytearray()
    while (byte := os.read(sys.stdin.fileno(), 1)) and byte != b"\n":
        line += byte
    if not byte and not line:
        raise EOFError
    return line.decode(sys.stdin.encoding or "utf-8", errors="replace")


def discard_type_ahead() -> None:
    """Forget what was typed before the question is shown (keys pressed while the computers played): it
    answered a question not yet asked. Only a terminal has such keys; a pipe's lines are the answers."""
    if not sys.stdin.isatty() or sys.platform == "win32":   # Windows: its console keeps them
        return
    # The lines waiting are read and dropped, not flushed (termios.tcflush): a flush also drops what the
    # terminal has received but not yet handled, a Ctrl-C pressed at that instant included, which then never
    # stops the game.
    descriptor = sys.stdin.fileno()
    with contextlib.suppress(OSError):
        while select.select([descriptor], [], [], 0)[0] and os.read(descriptor, 4096):
            pass


def _show(outcome: Outcome, board_file: str, locale: str, write: Writer, traced: list[Any]) -> None:
    record = outcome.record
    ruleset, state = position(record)
    for event in outcome.events:
        write("• " + say(record, event, locale))
    for line in ruleset.describe(state):
        write(say(record, line, locale))
    if record.status != "active":
        write(result_line(record, locale))
    Path(board_file).write_bytes(picture(record, locale, traced=traced))
    write(i18n.text("console.board_written", locale, file=board_file))
