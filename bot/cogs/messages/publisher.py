"""Showing games in their channels: the board publisher.

It knows, for each channel, the board messages it posted lately and what they said, and, through the
services, which message is each game's board and which version it shows. A board is edited in place when the
same player goes on, otherwise posted anew with the earlier boards retired (board_messages.changes says how);
it goes through the interaction being answered whenever one carries it (bot/cogs/messages/delivery.py). What a restart
or a fault left unshown is caught up from the stored position (`catch_up`).
"""
from __future__ import annotations

import asyncio
import logging
from collections import defaultdict, deque
from dataclasses import replace

import discord
from discord.ext import commands

from bot.cogs.events.controls import controls_of, view_of
from bot.cogs.handlers import control_of
from bot.cogs.messages import board_messages
from bot.cogs.messages.announcer import Announcer
from bot.cogs.messages.board_messages import Retire, Retired, Said, posted_at
from bot.cogs.messages.components import pinging, png_file
from bot.cogs.messages.delivery import Tokens, Via, answers_with_new_message
from bot.cogs.messages.faults import FAULTS, channel_gone
from bot.cogs.messages.turn_notices import TurnNotices
from bot.core import metrics
from bot.core.game_records import INTERACTIONS_ONLY
from bot.domain import i18n
from bot.domain.deadline_math import waits_for_interactions
from bot.domain.positions import ruleset_of
from bot.domain.session_results import Outcome
from bot.present import board
from bot.present.lobby import lobby_post
from bot.present.picture import draw
from bot.present.post import Post
from bot.present.words import fit, seat_name
from bot.services import LOBBY_SHOWN, BoardAnnotations, GameRecord, Sessions, StoreUnavailable, started_events
from bot.services.scheduler import DeadlineScheduler

log = logging.getLogger(__name__)

# Boards remembered per channel (what each tells): a new board's recap begins where their log ends, and the
# retired ones are folded together once up a while (board_messages), however fast the turns come.
RECENT_BOARDS = 48


def _files(post: Post) -> list[discord.File]:
    """The post's picture, as a new File each time (a File is read once: each request needs its own)."""
    return [png_file(post.png, post.alt)] if post.png else []


def clock_lines(record: GameRecord, annotations: BoardAnnotations) -> list[str]:
    """Who is away until when, and "time runs out in ..." for a timed game waiting for a person
    (Discord timestamps: in each reader's time zone, live)."""
    lines = [i18n.text("away.board", record.locale, player=seat_name(record, seat, record.locale),
                       until=f"<t:{int(until)}:D>")
             for seat, until in annotations.people.away.items()]
    if annotations.deadline is not None:
        key = "claims.deadline" if waits_for_interactions(record) else "timers.deadline"
        lines.append(i18n.text(key, record.locale, when=f"<t:{int(annotations.deadline)}:R>"))
    return lines


class BoardPublisher:
    """Shows each game's board (or lobby) in its channel, and what comes with it: the turn's direct message
    and the fair-dice lines and animation (`announcer.announce`)."""

    def __init__(self, bot: commands.AutoShardedBot, sessions: Sessions, timers: DeadlineScheduler, tokens: Tokens,
                 work_slots: asyncio.Semaphore, turn_notices: TurnNotices, announcer: Announcer) -> None:
        self.bot = bot
        self.sessions = sessions
        self.timers = timers
        self.tokens = tokens             # the interactions that sent recent messages
        self.work_slots = work_slots           # the interactions and catch-ups worked on at once
        self.turn_notices = turn_notices
        self.announcer = announcer
        # One board update at a time per channel, so a board just posted is the one the next update sees.
        self._publishing: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        # The recent boards posted in each channel (oldest first) and their lines of what happened, so that
        # the next board's post can take back from them what it says again (after a restart: none known).
        self._said: dict[int, list[Said]] = {}
        # The boards this process retired or deleted lately (replaced by a newer one: a move's, a repost's): a
        # click on one, in flight while it went, must not make it the game's board again (_clicked_board).
        self._retired: deque[int] = deque(maxlen=RECENT_BOARDS * 50)
        self._later: set[asyncio.Task[None]] = set()   # deletions waiting for their message to have been up a while
        self._folding: dict[int, asyncio.Task[None]] = {}   # per channel, a fold waiting for boards to settle
        self._stopped = False   # the bot stops: no fold nor deletion waits any more (stop_tidying)

    def via(self, record: GameRecord, interaction: discord.Interaction | None = None) -> Via:
        """How messages of `record`'s game reach its channel: through `interaction` where it carries them
        (bot/cogs/messages/delivery.py), else through the channel endpoints."""
        return Via(self.bot.get_partial_messageable(record.channel_id), interaction, self.tokens,
                   interactions_only=bool(record.options.get(INTERACTIONS_ONLY)))

    async def publish(self, outcome: Outcome, interaction: discord.Interaction | None = None) -> None:
        """Show the outcome in the channel, through `interaction` when one asked (else the channel's): edit the
        board when the same player goes on (a command: answered with the board, the older one retired),
        otherwise retire the old board's controls and post a new one, which pings whoever must act only
        when the turn passed to them (a board shown again, by `/game board` or after a restart, pings
        nobody)."""
        record = outcome.record
        if self.sessions.endings.gone(record.id):
            log.info("game %s: its channel or server is gone, nothing shown", record.id)
            return
        if record.options.get("turn_time"):
            # A change may start, move or end this game's deadline. Untimed games have none (a deadline
            # the settings just removed fires as a no-op: the sessions re-check it under the lock).
            self.timers.wake()
        via = self.via(record, interaction)
        if record.state is None:  # lobby (open or closed)
            async with self._publishing[record.channel_id]:
                await self._show(via, record, lobby_post(record), edit=True, version=LOBBY_SHOWN)
            return
        # The message before the first board is the lobby: it then says the game started and who sits where.
        lobby = lobby_post(record).content if any(e.key == "game.started" for e in outcome.events) else None
        ruleset = ruleset_of(record)
        to_move = ruleset.to_move(ruleset.from_json(record.state)) if record.status == "active" else None
        # The board tells the player to move everything since his last turn, not just this click.
        # A board shown again (nothing happened, no version before) recaps all the same what its player missed.
        before = outcome.version_before if outcome.version_before is not None or outcome.events else record.version
        annotations = await self.sessions.annotations.of(record, self.timers.clock.now(), before,
                                                         outcome.people)
        same_player = outcome.seat_before is not None and outcome.seat_before == to_move
        # A final board posted anew says the result alone: the board it retires tells the last turns.
        post = board.board_post(record, annotations.since.earlier + outcome.events,
                                takeback_seat=annotations.takeback_seat, recap=to_move is not None or same_player)
        post.png = await draw(record, traced=annotations.since.positions)
        if lines := clock_lines(record, annotations):
            post.content = fit([post.content, *lines])
        # A turn passed: something happened, or a restart posts a board that never went out.
        new_turn = not same_player and (bool(outcome.events) or outcome.version_before is not None)
        async with self._publishing[record.channel_id]:
            # Re-read under the lock: a board posted by a concurrent publish must be the one retired or edited.
            board_id = await self._clicked_board(via, record, await self.sessions.boards.message(record.id))
            await self._show(via, replace(record, board_message_id=board_id), post,
                             edit=same_player, version=record.version, retired=lobby, ping=new_turn)
        if new_turn:
            await self.turn_notices.notify_turn(record, post.mention, annotations.people)
        await self.announcer.announce(outcome, via)  # fair-dice commitment / reveal and animation

    async def _clicked_board(self, via: Via, record: GameRecord, recorded: int | None) -> int | None:
        """The game's board: the one recorded, or the board of the game that was just clicked where it is another.
        A board whose post's answer was lost is unknown until the next try finds it (_adopt_board); a move
        played from it before then makes it the game's board, and the one recorded loses its controls."""
        message = via.interaction.message if via.interaction is not None else None
        if message is None or message.id == recorded or message.flags.ephemeral:   # a piece's moves, to one player
            return recorded
        if message.id in self._retired:   # replaced by a board posted meanwhile (a repost): that one shows the game
            return recorded
        clicked = control_of(via.interaction) if via.interaction is not None else None
        game, version = (clicked.game, clicked.version) if clicked is not None and clicked.on_board \
            else controls_of(message) or (None, None)
        if game != record.id or version is None:   # another game's, or the lobby the game started from
            return recorded
        if recorded is not None:
            await self._retire(via, recorded, Retired.KEEP)
        log.info("game %s: board %s clicked before it was found (its post's answer lost)", record.id, message.id)
        return message.id

    async def _show(self, via: Via, record: GameRecord, post: Post, edit: bool, version: int,
                    retired: str | Retired | None = None, ping: bool = False) -> None:
        """Show `post` as the game's board (board_messages.changes says how), then record which version it shows.

        A command answers with the board itself, so it never edits one in place: the board it replaces
        is retired (a lobby deleted). A board deleted by a moderator (404), or out of reach, is posted
        afresh; only a new post with `ping` notifies anyone. A board older than one this process already
        showed (a publish overtaken by the next, or caught up late) is not shown: never a stale one."""
        if self.sessions.boards.shows_newer(record.id, version) or self.sessions.endings.gone(record.id):
            return   # (gone: the channel deleted, or the bot removed from the server, since the publish began)
        if edit and answers_with_new_message(via.interaction) and record.board_message_id is not None:
            edit, retired = False, Retired.DELETE if record.state is None else retired
        recent = tuple(self._said.get(record.channel_id, ()))
        now_ms = int(self.timers.clock.now() * 1000)
        steps = board_messages.changes(record.board_message_id, recent, post.said, edit=edit, retired=retired,
                                       now_ms=now_ms)
        controls = view_of(record.id, record.version, post.controls)
        if steps.edit is not None:
            if await via.edit(steps.edit, content=post.content, attachments=_files(post), view=controls,
                              allowed_mentions=discord.AllowedMentions.none()):
                await self.sessions.boards.set_message(record.id, steps.edit, version, record.status)
                metrics.BOARDS.labels("edited").inc()
                self._remember(record.channel_id, list(steps.kept))
                return
            log.info("board %s of game %s was deleted (or is out of reach): posting it again", steps.edit, record.id)
            steps = board_messages.changes(None, recent, post.said, edit=edit, retired=retired, now_ms=now_ms)
        await self._retire_all(via, steps.before)
        if self.sessions.endings.gone(record.id):   # gone while the earlier board was retired
            return
        message = await via.send(post.content, files=_files(post), view=controls,
                                 mentions=pinging(post.mention if ping else None))
        if message is None:   # only interactions reach the game: the next one shows it
            return
        await self.sessions.boards.set_message(record.id, message, version, record.status)
        metrics.BOARDS.labels("posted").inc()
        await self._retire_all(via, steps.after)
        await self._fold(via, steps.folds)
        self._remember(record.channel_id, [*steps.kept, (message, post.said)])
        self._fold_later(via, record.channel_id)

    async def _retire_all(self, via: Via, boards: tuple[Retire, ...]) -> None:
        for earlier in boards:
            await self._retire(via, earlier.message, earlier.text)

    async def _retire(self, via: Via, message: int, text: str | Retired) -> None:
        """An earlier board: without controls, saying `text` without its picture (Retired.KEEP: as it was, picture
        and all; Retired.DELETE: deleted, once it has been up SETTLED_MS: a message that vanishes as it appears reads
        as a glitch)."""
        self._retired.append(message)   # a click in flight on it must not make it the board again
        if text is Retired.DELETE:
            wait_ms = board_messages.SETTLED_MS - (int(self.timers.clock.now() * 1000) - posted_at(message))
            if wait_ms <= 0:
                await via.delete(message)
                return
            await via.edit(message, view=None)
            if self._stopped:
                return
            task = asyncio.create_task(self._delete_later(via, message, wait_ms / 1000))
            self._later.add(task)
            task.add_done_callback(self._later.discard)
        elif text is Retired.KEEP:
            await via.edit(message, view=None)
        else:
            await via.edit(message, content=text, view=None, attachments=[])

    def _fold_later(self, via: Via, channel_id: int) -> None:
        """Once the boards just retired have been up long enough, fold them too (board_messages.fold): the
        last turns of a game, or of a burst of quick ones, are gathered without waiting for another board."""
        if channel_id in self._folding or self._stopped:
            return

        async def fold_then() -> None:
            await asyncio.sleep(board_messages.SETTLED_MS / 1000 + 0.1)
            async with self._publishing[channel_id]:
                *retired, live = self._said.get(channel_id) or [(0, ())]
                logs, folds = board_messages.fold(retired, int(self.timers.clock.now() * 1000))
                if not folds:
                    return
                try:
                    await self._fold(via, folds)
                except FAULTS as error:   # Discord or the database failing: the boards stay as they are
                    log.info("channel %s: boards not folded: %s", channel_id, error)
                    return
                self._remember(channel_id, [*logs, live])

        task = asyncio.create_task(fold_then())
        self._folding[channel_id] = task
        task.add_done_callback(lambda _: self._folding.pop(channel_id, None))

    def tidying(self) -> list[asyncio.Task[None]]:
        """The deletions and folds waiting for boards to have been up a while (a second or so)."""
        return [task for task in (*self._later, *self._folding.values()) if not task.done()]

    def stop_tidying(self) -> None:
        """The bot stops, Discord's connection about to close: what still waits is left as it is (boards
        unfolded, a retired one undeleted: a restart knows no recent board either), and nothing more waits."""
        self._stopped = True
        for task in self.tidying():
            task.cancel()

    async def _delete_later(self, via: Via, message: int, delay: float) -> None:
        await asyncio.sleep(delay)
        try:
            await via.delete(message)
        except FAULTS as error:   # Discord failing: it only lingers
            log.info("board %s stays: %s", message, error)

    async def _fold(self, via: Via, folds: tuple[board_messages.Fold, ...]) -> None:
        """Retired boards gathered into an earlier one (board_messages.fold): those gathered are deleted only
        once it tells their turns."""
        for gathered in folds:
            if not await via.edit(gathered.into, content=gathered.text, view=None, attachments=[]):
                log.info("board %s is out of reach: the boards after it are not folded into it", gathered.into)
                continue
            for gone in gathered.gone:
                await via.delete(gone)

    def _remember(self, channel_id: int, boards: list[Said]) -> None:
        self._said[channel_id] = boards[-RECENT_BOARDS:]

    # --- what a restart or a fault left unshown ----------------------------------------
    async def catch_up(self, record: GameRecord, shown: int | None, shown_status: str | None,
                       interaction: discord.Interaction | None = None) -> bool:
        """Play what computer players have to, and post the board of the stored position if the posted one
        lags behind (or of the lobby, never shown); whether anything was played or posted. `shown`: the
        version the posted board shows (None: not recorded; with no board recorded either, never shown);
        `shown_status`: the game's status it shows, behind when a resignation or /game end ended the game
        without a move (the board of that version, still with its controls, is then no final board).
        A game only interactions reach is caught up by an interaction (`interaction`), never unprompted."""
        if record.options.get(INTERACTIONS_ONLY) and interaction is None:
            return False
        async with self.work_slots:
            return await self._catch_up(record, shown, shown_status, interaction)

    async def catch_up_here(self, interaction: discord.Interaction, record: GameRecord) -> bool:
        """In a game only interactions reach, what a restart or a fault left unshown (or computer turns
        unplayed) is caught up by the next interaction, through it; whether anything was."""
        if not record.options.get(INTERACTIONS_ONLY):
            return False
        found = await self.sessions.boards.to_resume(record.id)
        return bool(found) and await self._catch_up(*found[0], interaction)

    async def _catch_up(self, record: GameRecord, shown: int | None, shown_status: str | None,
                        interaction: discord.Interaction | None) -> bool:
        never_shown = shown is None and record.board_message_id is None
        ended_unshown = shown == record.version and shown_status is not None and shown_status != record.status
        outcome = await self.sessions.play.resume(record.channel_id, record.id)
        if outcome is None:
            if not (never_shown or ended_unshown) and (shown is None or shown >= record.version
                                                       or await self._adopt_board(record)):
                return False
            outcome = Outcome(record, version_before=None if record.state is None else record.version)
        if record.state is not None and (shown == LOBBY_SHOWN or never_shown):
            outcome = replace(outcome, events=started_events(record) + outcome.events)
        await self.publish(outcome, interaction)
        if outcome.unfinished:
            raise StoreUnavailable("computer players wait for the database")
        return True

    async def _adopt_board(self, record: GameRecord) -> bool:
        """The bot may have died between posting (or editing) a board and storing its id: look in the
        channel's history, from the last board recorded on, for a board of the game's version. Found,
        it becomes the game's board and every other board or lobby of the game there loses its
        controls; not found (or no Read Message History), the board is posted as usual. (Where only
        interactions reach the game, no history can be read: the board is posted.)"""
        if record.options.get(INTERACTIONS_ONLY):
            return False
        via = self.via(record)
        channel = via.channel
        after = discord.Object(record.board_message_id - 1) if record.board_message_id else None
        try:
            shown = [m async for m in channel.history(limit=100, after=after)
                     if m.author == self.bot.user and (controls_of(m) or (None,))[0] == record.id]
            current = next((m for m in reversed(shown) if controls_of(m) == (record.id, record.version)), None)
            # Not found, the recorded board is retired by the board posted next.
            kept = current.id if current else record.board_message_id
            for stray in shown:
                if stray.id != kept:
                    await self._retire(via, stray.id, Retired.KEEP)
        except discord.HTTPException as error:
            if channel_gone(error):
                raise
            log.info("no look at the history of channel %s: %s", record.channel_id, error)
            return False
        if current is None:
            return False
        await self.sessions.boards.set_message(record.id, current.id, record.version, record.status)
        log.info("game %s: board %s found in the channel (posted before a restart or a lost answer)", record.id,
                 current.id)
        return True
