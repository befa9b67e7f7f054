"""Shared end-to-end helpers: a game table driven through the fake Discord as users would.

`Table` opens a lobby with `/game new`, seats players with the lobby's buttons, then plays through
the board's controls: the Roll button, action buttons, the select of action groups (a piece or an
area) whose ephemeral answer holds that group's moves, or a select of moves. What it chose is kept
in `Table.played` so a test can check which kinds of controls a game went through.
"""

from __future__ import annotations

import copy
import io
import json
import random
import re
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from bot.cogs.messages import board_messages
from bot.cogs.messages.recovery import RESUMED
from bot.core.game_records import GameRecord, Seat
from bot.domain import i18n
from bot.games import get_ruleset
from bot.games.base import Message as Said
from bot.present.board import seat_side
from bot.present.words import seat_name, sentence
from tests.fake_discord import ATTACHMENT_DESCRIPTION_LIMIT, BUTTON, Interaction, Message

ACTION_ID = re.compile(r"^tb:[asgcx]:(\d+):(\d+)")
MENTION = re.compile(r"<@(\d+)>")
REMATCH_ID = re.compile(r"^tb:r:\d+$")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
SETTLED_FOREVER = 2**62   # a time (ms) by which every message has been up long enough to be folded


@dataclass(frozen=True)
class Choice:
    """One thing a user can pick on a message: a button's action, or an option of a select."""

    kind: str        # "a" action button, "s" select of moves, "g" select of groups
    custom_id: str
    value: str       # the action, or the group key

    @property
    def is_roll_button(self) -> bool:
        return self.kind == "a" and self.value == "roll"


class Table:
    """A channel with players, and the moves users make through the board's controls.

    `score` ranks the values on offer (actions and group keys; higher is better): with probability
    `greed` the best-scored one is picked, else any. The default is a uniformly random choice."""

    def __init__(self, fake, players, game: str = "parcheesi", *, seed: int = 7,
                 score: Callable[[str], float] | None = None, greed: float = 0.0, guild=None, channel=None):
        self.fake = fake
        self.game = game
        # default: a new channel of the fake's default guild (or of `guild`)
        self.channel = channel if channel is not None else fake.add_channel(game, guild=guild)
        self.players = players
        self.rng = random.Random(seed)
        self.score = score
        self.greed = greed
        self.played: list[Choice] = []
        self.database: Path | None = None   # the bot's SQLite file, where a test gives it (see `current`)
        self.panels: list[Message] = []   # each private panel of a piece's moves, as shown (the move closes it)
        # (game, version) of the board `plays` last played on: the next play waits for a later position. A
        # play's answer settles once the bot is quiet for `fake.quiet`, and a starved bot may pause longer than
        # that before it edits the board: read by then, the board still offers the position just played.
        self.clicked: tuple[int, int] = (-1, -1)

    # --- reading the channel -------------------------------------------------
    def board(self) -> Message:
        """The latest board: the last public message carrying the PNG (between a board's retirement, which takes
        its picture, and the next board's post: the last message)."""
        shown = self.fake.messages(self.channel)
        return next((m for m in reversed(shown) if m.files), None) or self.fake.last_message(self.channel)

    async def current(self, timeout: float = 10.0) -> Message:
        """The current board: the latest board once it shows controls (live ones, or a final board's Rematch).
        A play that passes the turn retires the old board (its controls go) before it posts the new one, so
        that the channel never shows two live boards. A click, a select or a modal is acknowledged as an update
        of its message, and the fake counts it settled once the bot is quiet for `fake.quiet`: a starved bot
        may pause longer than that between the two, and `board()` would then give the retired board. Read the
        board through this after such a play (a command's board is its own response: settled once it shows).
        After a select or a modal on a message of its own (a piece's moves, the call-out menu), the old board
        may even still be live: where the table knows its `database`, the board must show the stored version."""
        def shown() -> Message | None:
            board = self.board()
            if not board.custom_ids:
                return None
            versions = [int(found[2]) for cid in board.custom_ids if (found := ACTION_ID.match(cid))]
            if self.database is None or not versions:   # (a final board's Rematch names no version)
                return board
            return board if max(versions) == stored_version(self.database, self.channel) else None
        return await self.fake.wait_until(shown, timeout=timeout, what="the board of the stored position")

    async def folded(self, timeout: float = 10.0) -> None:
        """Once the bot has gathered every retired board it will (board_messages.fold, a while after each post):
        what the channel shows then stays as it is until the next play. (The channel's first message is the
        lobby, the fair-dice commitment is no board, the latest board is live: every other message is a
        retired board, telling its turns a line each.)"""
        fair = tuple(i18n.catalogue(locale)["fair.commitment"].split("**")[0] for locale in i18n.LOCALES)

        def done() -> bool | None:
            live = self.board()
            retired = [(m.id, tuple(m.content.splitlines())) for m in self.fake.messages(self.channel)[1:]
                       if m.id != live.id and not m.content.startswith(fair)]
            return True if not board_messages.fold(retired, SETTLED_FOREVER)[1] else None
        await self.fake.wait_until(done, timeout=timeout, what="the retired boards folded")

    def to_act(self, board: Message):
        mentioned = MENTION.findall(board.content)
        assert mentioned, f"the board mentions nobody: {board.content!r}"
        return self.fake.users[int(mentioned[-1])]

    def opponent(self, board: Message):
        """In a two-player game, the player who is not to act."""
        player = self.to_act(board)
        return next(p for p in self.players if p is not player)

    # --- acting ----------------------------------------------------------------
    async def open(self, **options):
        host, *others = self.players
        reply = await self.fake.slash(host, self.channel, "game new", game=self.game, **options)
        assert left_nothing(reply), "the lobby is the answer: no acknowledgement stays behind"
        lobby = self.fake.last_message(self.channel, lambda m: lobby_id(m, "join") is not None)
        for player in others:   # the buttons, in whichever language the game speaks
            assert not (await self.fake.click(player, lobby, custom_id=lobby_id(lobby, "join"))).followups
        started = await self.fake.click(host, lobby, custom_id=lobby_id(lobby, "start"))
        assert not [m for m in started.followups if m.ephemeral], "the first board is a public follow-up"
        board = await self.live_board(timeout=10.0)   # a starved bot may pause between the lobby and the board
        assert board is not None, "no first board"
        return board

    async def roll(self, board: Message) -> Interaction:
        return await self.fake.click(self.to_act(board), board, custom_id=roll_id(board))

    async def live_board(self, timeout: float = 2.0) -> Message | None:
        """The latest board once it shows controls; None when none come (the game is over).
        Waits out the moment between the old board losing its controls and the new one's post, and the moment
        before the first board is posted (a starved bot may answer the Start click before it posts the board)."""
        def latest_in_play() -> Message | None:
            boards = [m for m in self.fake.messages(self.channel) if m.files]
            return boards[-1] if boards and in_play(boards[-1]) else None

        try:
            return await self.fake.wait_until(latest_in_play, timeout=timeout, what="a board with controls")
        except TimeoutError:
            return None

    async def play_once(self) -> bool:
        """The player to act rolls or makes a legal move, on the board of a position after the last one this
        table played on; False once the game is over."""
        return await self.plays(1) == 1

    async def play_until(self, done: Callable[[], bool], limit: int) -> int:
        """play_once until `done()` (asked before each play, once the position's board is up) or the game is
        over; the number of plays (fewer than `limit`)."""
        taken = await self.plays(limit, until=done)
        assert taken < limit, f"not done after {limit} plays; last board: {self.board()}"
        return taken

    async def play_to_the_end(self, limit: int) -> int:
        """Play until the game is over; the number of plays (at most `limit`)."""
        plays = await self.plays(limit)
        if plays == limit:
            final, _ = await self.next_position(30.0)
            assert not in_play(final), f"not over after {limit} plays; last board: {final}"
        return plays

    async def plays(self, limit: int, *, until: Callable[[], bool] = lambda: False, timeout: float = 30.0) -> int:
        """play_once up to `limit` times, until the game is over or `until()`; the number of plays. Each play
        ends as soon as the board of a later position is up, one that offers a choice or the final one (an
        event), rather than after the fake's quiet period: the plays of a whole game, hundreds, spend no time
        waiting for nothing. A refused move shows no later position: the wait for it times out. The last play
        settles as any driver call does."""
        quiet, answer = self.fake.quiet, None
        try:
            for plays in range(limit):
                board, position = await self.next_position(timeout)
                if not in_play(board) or until():
                    return plays
                check_alt_text(board)
                self.fake.quiet = 0.0
                answer = await (self.roll(board) if roll_id(board) else self.move(self.to_act(board), board))
                self.fake.quiet = quiet
                refusals = [m for m in answer.followups if m.ephemeral]
                assert not refusals, f"refused: {refusals}"
                self.clicked = position
            return limit
        finally:
            self.fake.quiet = quiet
            if answer is not None:
                await self.fake.settle(answer)

    async def next_position(self, timeout: float) -> tuple[Message, tuple[int, int]]:
        """The latest board once it shows a position after the one this table last played on (`clicked`) and
        offers a person a choice, or is the final board; and the (game, version) it showed then (the fake's
        message is the bot's to edit). (A board of a computer's turn, where the database cut the computers
        short, is no position to play.)"""
        def shown() -> tuple[Message, tuple[int, int]] | None:
            boards = [m for m in self.fake.messages(self.channel) if m.files]
            if not boards:   # the retired board lost its picture; the next one is on its way
                return None
            board = boards[-1]
            if not in_play(board):
                return (board, (-1, -1)) if rematch_id(board) else None
            if not choices(board) or not MENTION.search(board.content):
                return None
            game, version = board_position(board)
            later = game != self.clicked[0] or version > self.clicked[1]   # (a rematch: another game)
            return (board, (game, version)) if later else None
        try:
            return await self.fake.wait_until(shown, timeout=timeout, what=f"a board after {self.clicked}")
        except TimeoutError as error:   # what the channel shows instead, so that a failure explains itself
            shows = [f"#{m.id} {m.content[:120]!r} controls {m.custom_ids[:4]}"
                     for m in self.fake.messages(self.channel)[-4:]]
            raise TimeoutError(f"{error}; the channel's last messages: {shows}") from None

    def ended(self, database, colours: Iterable[str] = ("red", "yellow", "green", "blue"),
              outcomes: Iterable[str] = ("🏆",)) -> Message:
        """The game is over: the last board names the outcome and offers only a rematch, the stored game is
        finished with every action logged, every reply was answered. Keeps the final board and the
        transcript under /tmp/e2e_<channel>_*."""
        final = self.board()
        assert any(o in final.content for o in outcomes) and not in_play(final), final.content
        assert rematch_id(final), "the final board offers a rematch"
        check_png(final.files[0].bytes, colours)
        save_png(final.files[0].bytes, f"/tmp/e2e_{self.game}_final.png")
        save_transcript(self.fake, self.channel, self.players, f"/tmp/e2e_{self.game}.txt")
        assert_all_answered(self.fake, self.channel, self.players)
        assert_said_once(self.fake, self.channel, self.players, database)
        games, actions = stored(database)
        assert games[0][1] == "finished" and len(actions) == games[0][3]
        return final

    def opened(self, first: Message, colours: Iterable[str] = ("red", "yellow", "green", "blue"),
               probes=()) -> None:
        """Check and keep the first board."""
        check_png(first.files[0].bytes, colours, probes)
        save_png(first.files[0].bytes, f"/tmp/e2e_{self.game}_start.png")

    async def play(self, times: int) -> None:
        """play_once `times` times (as `plays` does); the game must not end meanwhile."""
        assert await self.plays(times) == times, "the game ended early"

    async def move(self, player, message: Message, panel: bool = False) -> Interaction:
        """Pick among the message's choices; a picked group's moves come to this player alone, in a panel
        (whose own menu of groups is not used here)."""
        choice = self.pick([c for c in choices(message) if not (panel and c.kind == "g")])
        self.played.append(choice)
        if choice.kind == "a":
            return await self.fake.click(player, message, custom_id=choice.custom_id)
        answer = await self.fake.select(player, message, choice.custom_id, [choice.value])
        if choice.kind == "g":   # the board's pick answered by a panel; the panel's own by itself, edited
            moves = await self.fake.wait_for_reply(answer, lambda m: m.ephemeral and bool(m.files))
            self.panels.append(copy.copy(moves))   # its fields as shown (an edit replaces them)
            assert moves.ephemeral and moves.files[0].bytes.startswith(PNG_SIGNATURE), moves
            check_alt_text(moves)
            return await self.move(player, moves, panel=True)
        return answer

    def pick(self, offered: list[Choice]) -> Choice:
        assert offered, "nothing to choose"
        if self.score is not None and self.rng.random() < self.greed:
            best = max(self.score(c.value) for c in offered)
            offered = [c for c in offered if self.score(c.value) == best]
        return self.rng.choice(offered)


def lobby_id(message: Message, verb: str) -> str | None:
    """The custom_id of a lobby's button for `verb` (join, leave, add-bot, start), if the message has it."""
    return next((cid for cid in message.custom_ids if cid.startswith("tb:l:") and cid.endswith(":" + verb)), None)


def check_alt_text(message: Message) -> None:
    """The picture's attachment description tells the game in words (bot/present/alt_text.py), in the
    message's language, within Discord's limit (the fake records a longer one as a violation)."""
    alt = message.files[0].description or ""
    openings = tuple(str(i18n.catalogue(locale)["alt.board"]).split("{game}")[0] for locale in i18n.LOCALES)
    assert alt.startswith(openings) and len(alt) <= ATTACHMENT_DESCRIPTION_LIMIT, alt


def two_players(fake) -> list:
    """ana, who reads English and hosts (so the channel's messages are in English), and bruno, who reads French."""
    return [fake.add_user("ana", locale="en-US"), fake.add_user("bruno", locale="fr")]


def choices(message: Message) -> list[Choice]:
    """Every action button and select option of the message (not Call out / Other move)."""
    found = []
    for item in message.items:
        kind = item["custom_id"].split(":")[1]
        if item["type"] == BUTTON and kind == "a":
            found.append(Choice("a", item["custom_id"], action_of(item["custom_id"])))
        elif item["type"] != BUTTON and kind in "sg":
            found += [Choice(kind, item["custom_id"], option["value"]) for option in item["options"]]
    return found


def action_of(custom_id: str) -> str:
    return custom_id.split(":", 4)[4]


def roll_id(board: Message) -> str | None:
    """The Roll button's custom_id when a roll is all the player to act may do."""
    offered = choices(board)
    if len(offered) == 1 and offered[0].is_roll_button:
        return offered[0].custom_id
    return None


def in_play(message: Message) -> list[str]:
    """The custom_ids of the message's controls, but a final board's Rematch button."""
    return [cid for cid in message.custom_ids if not REMATCH_ID.match(cid)]


def rematch_id(message: Message) -> str | None:
    return next((cid for cid in message.custom_ids if REMATCH_ID.match(cid)), None)


def board_version(board: Message) -> int:
    return board_position(board)[1]


def board_position(board: Message) -> tuple[int, int]:
    """The (game, version) whose position the board's controls act on."""
    return max((int(found[1]), int(found[2])) for cid in board.custom_ids if (found := ACTION_ID.match(cid)))


def button_id(message: Message, kind: str) -> str | None:
    """The custom_id of the message's Call out ("c"), Other move ("x") or Undo ("u") button, if shown."""
    return next((cid for cid in message.custom_ids if cid.startswith(f"tb:{kind}:")), None)


# --- pictures ----------------------------------------------------------------

def check_png(data: bytes, colours: Iterable[str] = ("red", "yellow", "green", "blue"),
              probes: Iterable[tuple[tuple[int, int], Callable[[tuple[int, int, int]], bool]]] = ()) -> Image.Image:
    """A board readable at ~1024 px: right size, not blank, the players' colours drawn, and each
    probe (an (x, y) point and a test of its RGB) true."""
    assert data.startswith(PNG_SIGNATURE)
    image = Image.open(io.BytesIO(data)).convert("RGB")
    assert 800 <= max(image.size) <= 1600 and min(image.size) >= 400, image.size
    small = image.resize((128, 128))
    pixels = set(small.get_flattened_data())
    assert len(pixels) > 16, "the board is almost blank"
    hues = {hue_name(p) for p in pixels} - {None}
    assert set(colours) <= hues, hues
    for point, test in probes:
        assert test(image.getpixel(point)), f"pixel {point} is {image.getpixel(point)}"
    return image


def hue_name(pixel) -> str | None:
    r, g, b = pixel
    if max(pixel) - min(pixel) < 80:
        return None
    if r > 150 and g > 150 and b < 100:
        return "yellow"
    if r > 180 and b > 120 and g < r - 40:
        return "pink"
    return {0: "red", 1: "green", 2: "blue"}[pixel.index(max(pixel))]


def save_png(data: bytes, path: str | Path) -> None:
    """Keep a board for a human look (the e2e tests save a few under /tmp)."""
    Path(path).write_bytes(data)


def everything_shown(fake, channel, players) -> list[Message]:
    """The channel's messages with every player's ephemeral replies, oldest first."""
    seen = {m.id: m for player in players for m in fake.messages(channel, viewer=player)}
    return [seen[i] for i in sorted(seen)]


def assert_all_answered(fake, channel, players) -> None:
    """No reply left "thinking…" and none empty: every deferral was followed by an answer."""
    unanswered = [m for m in everything_shown(fake, channel, players)
                  if m.thinking or not (m.content or m.files or m.items)]
    assert not unanswered, unanswered


def assert_said_once(fake, channel, players, database) -> None:
    """The channel of a finished game says no event twice (a roll, a move, a capture, a win: no event
    logged with the game's actions, in the game's words, appears in the channel more often than it
    happened; a board edited while the same player goes on may have said some and moved on) and
    nothing stale: no lobby looking for players, nobody told to play, no "Done."."""
    record = finished_record(database, channel)
    loc = record.locale
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        logged = [event for (events,) in db.execute("SELECT events FROM actions WHERE game_id=? ORDER BY seq",
                                                    (record.id,)) for event in json.loads(events or "[]")]
    happened = Counter(sentence(record, Said.from_json(event), loc) for event in logged)
    public = fake.messages(channel)
    lines = Counter(line for m in public for line in m.content.splitlines())
    twice = {line: (lines[line], n) for line, n in happened.items() if lines[line] > n}
    assert not twice, f"(said, happened) of events said more often than they happened: {twice}"
    ruleset = get_ruleset(record.game)
    who = [(f"<@{seat.user_id}>" if seat.level is None else seat_name(record, i, loc),
            seat_side(record, ruleset, i, loc)) for i, seat in enumerate(record.seats)]
    stale = [i18n.text("lobby.title", loc)] + [i18n.text(key, loc, player=p, side=side)
                                                for key in ("turn.call.roll", "turn.call.move") for p, side in who]
    left = [m.content for m in public if any(text in m.content for text in stale)]
    assert left == [], left
    done = {i18n.text("ack.done", locale) for locale in i18n.LOCALES}
    assert [m for m in everything_shown(fake, channel, players) if m.content in done] == []


def tracebacks(log: str) -> list[str]:
    """Each traceback of a bot's log, told short: the line that logged it and the exception it ends with (a
    long log cut in an assertion's message may hide the exception)."""
    lines = log.splitlines()
    found = []
    for i, line in enumerate(lines):
        if line.startswith("Traceback"):
            end = next((later for later in lines[i + 1:] if later and not later.startswith(" ")), "?")
            found.append(f"{lines[i - 1] if i else ''} ... {end}")
    return found


def stored_version(database, channel) -> int:
    """The version of the channel's latest game, as stored."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        (version,) = db.execute("SELECT version FROM games WHERE channel_id=? ORDER BY id DESC",
                                (channel.id,)).fetchone()
    return int(version)


def finished_record(database, channel) -> GameRecord:
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        row = db.execute("SELECT id, guild_id, channel_id, game, status, host_id, locale, options, seats, seed, "
                         "state, version FROM games WHERE channel_id=? ORDER BY id DESC", (channel.id,)).fetchone()
    return GameRecord(*row[:7], json.loads(row[7]), tuple(Seat.from_json(s) for s in json.loads(row[8])), row[9],
                      json.loads(row[10]), row[11])


def save_transcript(fake, channel, players, path: str | Path) -> None:
    """What the channel showed, every player's ephemeral replies included, for a human read."""
    lines = []
    for message in everything_shown(fake, channel, players):
        to = f" (only {fake.users[message.ephemeral_to].name})" if message.ephemeral_to else ""
        lines.append(f"--- {message.id}{to}: {message.content}")
        lines += [f"    [{item.get('label') or item.get('placeholder')}] "
                  + " | ".join(o["label"] for o in item.get("options", [])) for item in message.items]
    Path(path).write_text("\n".join(lines))


# --- the stored game -----------------------------------------------------------

def stored(database) -> tuple:
    """Every game row and action row, straight from the SQLite file."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        games = db.execute("SELECT id, status, state, version, seats, result FROM games ORDER BY id").fetchall()
        actions = db.execute("SELECT * FROM actions ORDER BY game_id, seq").fetchall()
    return games, actions


class Game:
    """The stored game seen through its ruleset, for tests that must know what is legal (cheats)."""

    def __init__(self, database, game: str, fake):
        self.database, self.ruleset, self.fake = database, get_ruleset(game), fake

    def row(self) -> tuple:
        return stored(self.database)[0][0]

    def state(self):
        return self.ruleset.from_json(json.loads(self.row()[2]))

    def state_json(self) -> dict:
        return json.loads(self.row()[2])

    def user(self, seat: int):
        return self.fake.users[json.loads(self.row()[4])[seat]["user_id"]]

    def seat(self, user) -> int:
        return next(i for i, s in enumerate(json.loads(self.row()[4])) if s["user_id"] == user.id)

    def cheats(self) -> list[str]:
        """Moves the bot accepts from the player to act although the rules forbid them."""
        state = self.state()
        if self.ruleset.roll_due(state) or self.ruleset.to_move(state) is None:
            return []
        legal = set(self.ruleset.legal_actions(state))
        return [a for a in self.ruleset.accepted_actions(state) if a not in legal]

    def log(self) -> list[tuple[int, str, bool]]:
        """(seat, action, legal) of every logged action, in order."""
        with sqlite3.connect(f"file:{self.database}?mode=ro", uri=True) as db:
            rows = db.execute("SELECT seat, action, legal FROM actions ORDER BY game_id, seq").fetchall()
        return [(seat, action, bool(legal)) for seat, action, legal in rows]

    def calls(self, user) -> list[str]:
        return self.ruleset.call_actions(self.state(), self.seat(user))


async def cheating_table(fake, database, game: str, seed: int) -> tuple[Table, Game]:
    """Two players at a started game of a cheating ruleset, its first board checked."""
    table = Table(fake, two_players(fake), game, seed=seed)
    table.database = Path(database)
    table.opened(await table.open())
    return table, Game(database, game, fake)


async def a_later_deadline_fired(fake, players, turn_s: int, *, guild=None) -> Table:
    """A witness for checks that nothing happened: a game opened now in a channel of its own (of `guild`) with
    a turn time of `turn_s` s, returned once its first turn ran out. The bot's timers fire every deadline due
    in the order they fall (bot/services/scheduler.py), so any reminder or deadline that fell before this
    one, as every one set before the witness opened with a turn time no longer than `turn_s` did, has fired
    by then: an event to wait on, where a sleep would pass without proof under load. The witness is ended
    (/game end) before it is returned; `players` must be free to act (not away)."""
    witness = Table(fake, players, "parcheesi", guild=guild)
    await witness.open(turn_time=f"{turn_s}s")
    await fake.wait_for_message(witness.channel, lambda m: m.files and "ran out of time" in m.content,
                                timeout=turn_s + 30)
    await fake.slash(players[0], witness.channel, "game end")
    return witness


async def other_move(fake, player, board: Message, move: str) -> Interaction:
    """The deliberate path to any move: the board's "Other move…" button, then its modal."""
    shown = await fake.click(player, board, custom_id=button_id(board, "x"))
    field = shown.modal["components"][0]["components"][0]["custom_id"]
    return await fake.submit_modal(player, shown, {field: move})


async def call_out(fake, caller, board: Message, call: str) -> Interaction:
    """The board's "Call out" button, then the piece in the ephemeral select it answers with."""
    shown = await fake.click(caller, board, custom_id=button_id(board, "c"))
    menu = shown.message
    assert menu.ephemeral, menu
    select = next(item for item in menu.items if item["custom_id"].startswith("tb:s:"))
    assert call in [o["value"] for o in select["options"]], (call, select["options"])
    return await fake.select(caller, menu, select["custom_id"], [call])


@dataclass(frozen=True)
class Cheat:
    cheater: object
    opponent: object
    move: str
    at: int            # its index in the action log
    before: dict       # the stored state just before it


def left_nothing(reply: Interaction) -> bool:
    """A command the channel shows the result of left no acknowledgement behind: its public response
    became the message that shows it (a board or a lobby, through the interaction) or was deleted (a click's: the
    board clicked, edited or retired), and nothing was told to the user alone (no "Done.")."""
    original = reply.original
    retired = reply.source_message is not None and original is not None and original.id == reply.source_message.id
    shows = original is not None and not original.thinking and not original.ephemeral \
        and (original.deleted or retired or bool(original.files or original.custom_ids))
    return shows and not any(m.ephemeral for m in reply.followups)


async def told_alone(fake, reply: Interaction) -> Message:
    """What a command told its user alone, once it is there. A command that would show the board is deferred in
    public ("thinking…"); refused, its loading message is deleted, then the refusal follows to the user alone
    (Discord would turn a first follow-up into the public loading message). The fake settles the command once
    the loading message is gone and the bot is quiet, which a starved bot may stay longer than the fake's quiet
    period before the follow-up: the reply is waited for, not read at once."""
    return await fake.wait_for_reply(reply, lambda m: m.ephemeral)


def told(answer: Interaction) -> list[Message]:
    """What an answer said to the user alone (its public follow-ups are boards and the fair-dice lines)."""
    return [m for m in answer.followups if m.ephemeral]


def stale(text: str, user) -> bool:
    """Whether `text` refuses a click on an out-of-date board, as `user` reads it (with a link to the current
    board when the click was on another message)."""
    linked = i18n.text("boards.error.stale_here", i18n.locale_of(user.locale), link="")
    return text == said("error.stale", user) or (text.startswith(linked) and "https://discord.com/channels/" in text)


def said(key: str, user) -> str:
    """A core text as `user` reads it."""
    return i18n.text(key, i18n.locale_of(user.locale))


async def cheat(table: Table, game: Game, *, typed_in: str, revealing: re.Pattern) -> Cheat:
    """Play on until a cheat is possible, then the player to act makes one, typed into the
    "Other move…" modal ("modal") or `/game move` ("command"). The bot answers as for any move,
    logs the move as illegal, and the board does not say so."""
    await table.play_until(game.cheats, limit=400)
    board = table.board()
    cheater, opponent = table.to_act(board), table.opponent(board)
    move, before = table.rng.choice(game.cheats()), game.state_json()
    if typed_in == "modal":
        answer = await other_move(table.fake, cheater, board, move)
    else:
        answer = await table.fake.slash(cheater, table.channel, "game move", move=move)
    assert left_nothing(answer), answer.describe()
    log = game.log()
    assert log[-1][1:] == (move, False), "logged with its legality"
    shown = await table.current()   # the modal's answer may settle between the old board's retirement and the post
    assert not revealing.search(since_last_call_out(shown.content)), shown.content
    return Cheat(cheater, opponent, move, len(log) - 1, before)


CALL_OUT_LINE = re.compile(r"calls out|dénonce|souffle|nothing changes|rien ne change")  # a call-out and its answer


def since_last_call_out(content: str) -> str:
    """The board's lines after the last judged call-out: the board recounts everything since its
    player last acted, and the answer to an earlier call-out may rightly say a piece moved legally."""
    lines = content.splitlines()
    judged = [i for i, line in enumerate(lines) if CALL_OUT_LINE.search(line)]
    return "\n".join(lines[judged[-1] + 1:] if judged else lines)


async def let_the_window_close(table: Table, game: Game, done: Cheat, roll: re.Pattern) -> None:
    """Nobody calls out until the opponent's roll; then calling out is refused and the cheat stands."""
    def rolled() -> bool:
        return any(seat == game.seat(done.opponent) and roll.fullmatch(action)
                   for seat, action, _ in game.log()[done.at:])

    await table.play_until(rolled, limit=100)
    board, before = table.board(), game.row()
    if button_id(board, "c"):
        refusal = (await table.fake.click(done.opponent, board, custom_id=button_id(board, "c"))).message
        assert refusal.ephemeral and refusal.content == said("error.cannot_call", done.opponent)
    assert game.row() == before and game.log()[done.at][1:] == (done.move, False)


async def start_caught_up(fake, bot) -> None:
    """(Re)start the bot and wait until its start-up catch-up is done (Recovery.resume_games says so in its
    log): what it was to post is posted, and a test may look for what it must not have."""
    before = bot.log_path.read_text().count(RESUMED) if bot.log_path.exists() else 0
    await bot.start()
    await fake.wait_until(lambda: bot.log_path.read_text().count(RESUMED) > before, timeout=30,
                          what="the start-up catch-up")

