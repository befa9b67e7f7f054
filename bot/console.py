"""`python -m bot play <game>`: a game in the terminal, no Discord needed.

It goes through the same services (bot/services/) and words (bot/present/) as
the bot, on its own SQLite file (one saved game per kind of game), so quitting
and running the command again resumes the game; `--new` starts afresh. After
every move the position is printed in words and the board PNG is written to a file.
Ctrl-C at a prompt leaves at once: every accepted move is already stored.
"""
from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import Any

from bot import i18n
from bot.games import GAME_IDS, get_ruleset
from bot.games.base import GameError, Message, msg
from bot.present.codes import canonical, shown
from bot.present.picture import picture
from bot.present.words import result_line, say
from bot.services import ROLL, GameRecord, Outcome, Seat, Sessions, ruleset_of
from bot.store import Store

# Refusals whose Discord wording points to slash commands, said the terminal's way.
_CONSOLE_WORDING = {"error.illegal_move": "console.illegal_move"}
LISTED = 20         # more moves sharing a "prefix:" than this are not listed one by one (Barricade's points)
INTERRUPTED = 130   # the exit status of a program stopped by Ctrl-C (128 + SIGINT)


async def play(game: str, seats: list[str], database: str, board_file: str, locale: str,
               read=input, write=print, new: bool = False, seating: str = "lobby") -> int:
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
        while True:
            view = await sessions.board_view(outcome.record, time.time())
            _show(outcome, board_file, locale, write, view.since.positions)
            record = outcome.record
            if record.status != "active":
                return 0
            try:
                action = await _next_action(record, locale, read)
            except (KeyboardInterrupt, asyncio.CancelledError):   # Ctrl-C: the game is stored already
                write("")   # off the prompt's line
                write(i18n.text("console.interrupted", locale))
                return INTERRUPTED
            if action is None:
                write(i18n.text("console.saved", locale))
                return 0
            try:
                outcome = await sessions.act(channel, _human_to_move(record), action)
            except GameError as refusal:
                message = refusal.message
                key = _CONSOLE_WORDING.get(message.key)
                write(i18n.render(Message(key, message.params) if key else message, locale))
                outcome = Outcome(record)
    finally:
        await store.close()


async def _start(sessions: Sessions, channel: int, game: str, seats: list[str], locale: str,
                 lobby: GameRecord | None, seating: str) -> Outcome:
    humans = [i for i, s in enumerate(seats) if s == "human"]
    if not humans:
        raise SystemExit(i18n.text("console.need_human", locale))
    if lobby is None:
        first = Seat(humans[0] + 1, i18n.text("player.default_name", locale, number=humans[0] + 1), locale=locale)
        await sessions.create(channel_id=channel, guild_id=None, host=first, game=game,
                              options={"seating": seating})
        host = first.user_id
        for i, kind in enumerate(seats):
            if i == humans[0]:
                continue
            if kind == "human":
                await sessions.join(channel, Seat(i + 1, i18n.text("player.default_name", locale, number=i + 1),
                                                  locale=locale))
            else:
                await sessions.add_computer(channel, host, kind)
    else:
        host = lobby.host_id
    return await sessions.start(channel, host)


def _human_to_move(record: GameRecord) -> int:
    ruleset = ruleset_of(record)
    seat = ruleset.to_move(ruleset.from_json(record.state))
    return record.seats[seat].user_id if seat is not None else 0


def _legal(record: GameRecord) -> list[str]:
    ruleset = ruleset_of(record)
    state = ruleset.from_json(record.state)
    return [] if ruleset.roll_due(state) else ruleset.legal_actions(state)


async def _next_action(record: GameRecord, locale: str, read) -> str | None:
    """The action the player types (None: quit). An empty line at the move prompt, when it
    does not choose the only move, asks again, so that the list is shown again."""
    while True:
        answer = (await _ask(read, _prompt(record, locale))).strip()
        if answer.lower() in ("q", "quit", "exit"):
            return None
        action = _action(record, answer)
        if action:
            return action


async def _ask(read, prompt: str) -> str:
    """`read(prompt)` in a daemon thread: Ctrl-C cancels the wait at once, and the thread left
    blocked on the terminal does not keep the process alive. End of input (Ctrl-D) is "q"."""
    loop = asyncio.get_running_loop()
    answer = loop.create_future()

    def settle(outcome: str | BaseException) -> None:
        if answer.done():
            return
        if isinstance(outcome, BaseException):
            answer.set_exception(outcome)
        else:
            answer.set_result(outcome)

    def run() -> None:
        try:
            outcome = read(prompt)
        except EOFError:
            outcome = "q"
        except BaseException as error:   # KeyboardInterrupt raised by a scripted reader
            outcome = error
        loop.call_soon_threadsafe(settle, outcome)

    threading.Thread(target=run, daemon=True).start()
    return await answer


def _legal(record: GameRecord) -> list[str]:
    ruleset = ruleset_of(record)
    state = ruleset.from_json(record.state)
    return [] if ruleset.roll_due(state) else ruleset.legal_actions(state)


def _action(record: GameRecord, answer: str) -> str:
    """A number picks from the printed list; Enter (or r) rolls, Enter plays the only move; a point's
    label stands for the one move whose code ends with ":label" (Barricade's "bar:i3"); anything
    else is a move code, in either language's colour letters. "" when the answer says nothing yet (Enter among several moves)."""
    actions = _legal(record)
    if not actions:
        return ROLL if answer.lower() in ("", "r") else answer
    if not answer:
        return actions[0] if len(actions) == 1 else ""
    if answer.isdigit() and 1 <= int(answer) <= len(actions):
        return actions[int(answer) - 1]
    labelled = [a for a in actions if a.partition(":")[2].casefold() == answer.casefold()]
    return labelled[0] if len(labelled) == 1 and answer not in actions else canonical(ruleset_of(record), answer)


def _prompt(record: GameRecord, locale: str) -> str:
    """The numbered moves, then the question. Moves of one "prefix:" kind too many to list (a
    barricade may go on any of 73 points) are one line asking for the point's name (its column's
    letter and row's number, which the picture prints along its sides)."""
    ruleset = ruleset_of(record)
    state = ruleset.from_json(record.state)
    if ruleset.roll_due(state):
        return i18n.text("console.prompt_roll", locale) + " "
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
    return "\n".join(lines + [i18n.text("console.prompt_move", locale) + " "])


def _show(outcome: Outcome, board_file: str, locale: str, write, moves_since: list[Any]) -> None:
    record = outcome.record
    ruleset = ruleset_of(record)
    state = ruleset.from_json(record.state)
    for event in outcome.events:
        write("• " + say(record, event, locale))
    for line in ruleset.describe(state):
        write(say(record, line, locale))
    if record.status != "active":
        write(result_line(record, locale))
    Path(board_file).write_bytes(picture(record, locale, moves_since=moves_since))
    write(i18n.text("console.board_written", locale, file=board_file))
