"""`python -m bot play <game>`: a game in the terminal, no Discord needed.

It goes through the same services (bot/services/) and words (bot/present/) as
the bot, on its own SQLite file (one saved game per kind of game), so quitting
and running the command again resumes the game; `--new` starts afresh. After
every move the position is printed in words and the board PNG is written to a file.
Ctrl-C at a prompt leaves at once: every accepted move is already stored.
"""
from __future__ import annotations

import asyncio
import re
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot import i18n
from bot.games import GAME_IDS, get_ruleset
from bot.games.base import GameError, Message, msg
from bot.present.codes import canonical, shown
from bot.present.picture import picture
from bot.present.words import result_line, say
from bot.services import ROLL, GameRecord, Outcome, Seat, Sessions, position, ruleset_of
from bot.store import Store

# Refusals whose Discord wording points to slash commands, said the terminal's way.
_CONSOLE_WORDING = {"error.illegal_move": "console.illegal_move"}
LISTED = 20         # more moves sharing a "prefix:" than this are not listed one by one (Barricade's points)
INTERRUPTED = 130   # the exit status of a program stopped by Ctrl-C (128 + SIGINT)
Reader = Callable[[str], str]      # input(prompt): the line typed
Writer = Callable[[str], object]   # print(line)
CALL = "call"       # a call-out's code, alone (classic Parcheesi) or before the piece called out ("call:B1")


async def play(game: str, seats: list[str], database: str, board_file: str, locale: str,
               read: Reader = input, write: Writer = print, new: bool = False, seating: str = "lobby") -> int:
    """`seating` "lobby" keeps the seats in the order given (the first person, the host, sits
    first), "random" draws them from the game's seed as on Discord."""
    most = get_ruleset(game).player_range({"seating": seating})[1]
    if len(seats) > most:
        write(i18n.text("console.too_many_seats", locale, count=most))
        return 2
    store = await Store.open(database)
    sessions = Sessions(store)
    channel = GAME_IDS.index(game) + 1   # one "channel" per kind of game: each resumes its own
    try:
        record = await sessions.open_game(channel)
        if record is not None and new:
            await sessions.end(channel, 0, can_manage=True)
            record = None
        if record is None or record.status == "lobby":
            try:
                outcome = await _start(sessions, channel, game, seats, locale, record, seating)
            except GameError as refusal:   # e.g. a seat count the game does not allow
                write(i18n.render(refusal.message, locale))
                await sessions.end(channel, 0, can_manage=True)
                return 2
            write(i18n.text("console.started", locale, database=database))
        else:
            write(i18n.text("console.resumed", locale, game=msg(ruleset_of(record).name), database=database))
            outcome = Outcome(record)
        record = outcome.record
        try:
            return await _play_on(sessions, channel, outcome, board_file, locale, read, write, database)
        except (KeyboardInterrupt, asyncio.CancelledError):   # Ctrl-C: every accepted move is stored already
            write("")   # off the prompt's line
            write(i18n.text("console.interrupted", locale, game_id=record.id, database=database))
            return INTERRUPTED
    finally:
        await store.close()


async def _play_on(sessions: Sessions, channel: int, outcome: Outcome, board_file: str, locale: str, read: Reader,
                   write: Writer, database: str) -> int:
    """Show each position and ask for the next action until the game ends or the player quits."""
    while True:
        view = await sessions.board_view(outcome.record, time.time())
        _show(outcome, board_file, locale, write, view.since.positions)
        record = outcome.record
        if record.status != "active":
            write(i18n.text("console.over", locale, game_id=record.id, database=database))
            return 0
        action = await _next_action(record, locale, read)
        if action is None:
            write(i18n.text("console.saved", locale, game_id=record.id, database=database))
            return 0
        try:
            user = _human_to_move(record)
            called = action.partition(":")[0] == CALL
            outcome = await (sessions.call_out if called else sessions.act)(channel, user, action)
        except GameError as refusal:
            message = refusal.message
            key = _CONSOLE_WORDING.get(message.key)
            if key and _names_points(record):
                key += "_point"
            write(i18n.render(Message(key, message.params) if key else message, locale))
            outcome = Outcome(record)


async def _start(sessions: Sessions, channel: int, game: str, seats: list[str], locale: str,
                 lobby: GameRecord | None, seating: str) -> Outcome:
    humans = [i for i, s in enumerate(seats) if s == "human"]
    if not humans:
        raise SystemExit(i18n.text("console.need_human", locale))
    if lobby is None:
        # The first human hosts the lobby, so sits (and, seated in lobby order, plays) first; the
        # others follow in the order given. Each is named after the place they sit at.
        order = humans[:1] + [i for i in range(len(seats)) if i != humans[0]]

        def person(place: int) -> Seat:
            return Seat(place + 1, i18n.text("player.default_name", locale, number=place + 1), locale=locale)
        await sessions.create(channel_id=channel, guild_id=None, host=person(0), game=game,
                              options={"seating": seating})
        host = person(0).user_id
        for place, i in enumerate(order[1:], start=1):
            if seats[i] == "human":
                await sessions.join(channel, person(place))
            else:
                await sessions.add_computer(channel, host, seats[i])
    else:
        host = lobby.host_id
    return await sessions.start(channel, host)


def _human_to_move(record: GameRecord) -> int:
    ruleset, state = position(record)
    seat = ruleset.to_move(state)
    return record.seats[seat].user_id if seat is not None else 0


def _legal(record: GameRecord) -> list[str]:
    ruleset, state = position(record)
    return [] if ruleset.roll_due(state) else ruleset.legal_actions(state)


async def _next_action(record: GameRecord, locale: str, read: Reader) -> str | None:
    """The action the player types (None: quit). An empty line at the move prompt, when it
    does not choose the only move, asks again, so that the list is shown again."""
    while True:
        answer = (await _ask(read, _prompt(record, locale))).strip()
        if answer.lower() in ("q", "quit", "exit"):
            return None
        action = _action(record, answer)
        if action:
            return action


async def _ask(read: Reader, prompt: str) -> str:
    """`read(prompt)` in a daemon thread: Ctrl-C cancels the wait at once, and the thread left
    blocked on the terminal does not keep the process alive. End of input (Ctrl-D) is "q"."""
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
            outcome = read(prompt)
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


def _calls(record: GameRecord) -> list[str]:
    """The call-outs the player to move may make now (cheating rulesets: "call", or "call:B1" naming a piece)."""
    ruleset, state = position(record)
    seat = ruleset.to_move(state)
    return ruleset.call_actions(state, seat) if seat is not None else []


def _destination(action: str) -> str:
    """The point a move's code ends on: "e1" of Barricade's "start-e1" or "bar:e1", "b4" of Pariti's "B10:b4"."""
    return re.split("[:-]", action)[-1]


def _names_points(record: GameRecord) -> bool:
    return any(_destination(a) != a for a in _legal(record))


def _action(record: GameRecord, answer: str) -> str:
    """A number picks from the printed list; Enter (or r) rolls when a roll is due, and otherwise only
    asks again (Enter never plays a move); "call", "call B1" or "call:B1" is a call-out; a point's name
    stands for the one move that ends there (Barricade's "e1" for "start-e1", "bar:e1"); anything else is
    a move code, in either language's colour letters. "" when the answer says nothing yet."""
    ruleset = ruleset_of(record)
    if answer[:len(CALL)].casefold() == CALL:
        return _call(record, answer[len(CALL):].strip(" :"))
    actions = _legal(record)
    if not actions:
        return ROLL if answer.lower() in ("", "r") else canonical(ruleset, answer)
    if not answer:
        return ""
    if answer.isdigit() and 1 <= int(answer) <= len(actions):
        return actions[int(answer) - 1]
    ending = [a for a in actions if _destination(a).casefold() == answer.casefold()]
    return ending[0] if len(ending) == 1 and answer not in actions else canonical(ruleset, answer)


def _call(record: GameRecord, piece: str) -> str:
    """The call-out meant by "call" followed by `piece` (maybe ""): "" when it must name one of several pieces."""
    calls = _calls(record)
    if not piece:
        return calls[0] if len(calls) == 1 else "" if calls else CALL
    typed = f"{CALL}:{canonical(ruleset_of(record), piece)}"
    return next((c for c in calls if c.casefold() == typed.casefold()), typed)


def _prompt(record: GameRecord, locale: str) -> str:
    """The numbered moves, then the question. Moves of one "prefix:" kind too many to list (a
    barricade may go on any of 73 points) are one line asking for the point's name (its column's
    letter and row's number, which the picture prints along its sides)."""
    ruleset, state = position(record)
    calls = _calls(record)
    # "call" or "call B1": how a player types a call-out (the colon of the code is optional)
    call = [i18n.text("console.prompt_call", locale, example=shown(ruleset, calls[0], locale).replace(":", " "))
            ] if calls else []
    if ruleset.roll_due(state):
        return "\n".join(call + [i18n.text("console.prompt_roll", locale) + " "])
    actions = ruleset.legal_actions(state)
    kinds: dict[str, list[str]] = {}
    for action in actions:
        kind, colon, _ = action.partition(":")
        kinds.setdefault(kind + colon, []).append(action)
    many = {kind for kind, same in kinds.items() if kind.endswith(":") and len(same) > LISTED}
    lines = [f"  {i}. {say(record, ruleset.action_label(state, a), locale)}  [{shown(ruleset, a, locale)}]"
             for i, a in enumerate(actions, start=1) if a.partition(":")[0] + ":" not in many]
    lines += [i18n.text("console.prompt_label", locale, count=len(kinds[kind]),
                        example=kinds[kind][0].partition(":")[2]) for kind in sorted(many)]
    return "\n".join(lines + call + [i18n.text("console.prompt_move", locale) + " "])


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
