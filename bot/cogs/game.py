"""The /game commands and the handlers of every board control.

Each handler only translates Discord input into a session call and the
outcome into messages: it acknowledges the interaction first (Discord allows
3 s), calls bot.services, then edits or posts the board in the words of
bot.present. Refusals come back as GameError and are shown only to the user
who asked (ephemeral).
"""
from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import replace

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n, metrics
from bot.cogs import board_messages
from bot.cogs.board_messages import DELETE, KEEP, Retire, Said
from bot.cogs.components import pinging, png_file
from bot.cogs.controls import KINDS, MOVE_FIELD, MOVE_LENGTH, TYPED_MOVE, Forged, controls_of, read, view_of
from bot.cogs.delivery import (
    CLICKED,
    INTERACTIONS_ONLY,
    ORIGINAL,
    UNUSED,
    Tokens,
    Unprompted,
    Via,
    acknowledged,
    answers_with_new_message,
    clicked,
    mark_used,
    reached_only_by_interactions,
    response_unused,
)
from bot.cogs.game_base import Request, Show, channel_of
from bot.cogs.game_defaults import SEATING_CHOICES, DefaultsCommands
from bot.cogs.game_history import HistoryCommands
from bot.cogs.game_mine import MineCommands, board_link
from bot.cogs.game_privacy import PrivacyCommands
from bot.cogs.game_takeback import TakebackCommands
from bot.cogs.game_threads import open_thread, thread_refusal
from bot.cogs.game_timers import TimerCommands
from bot.cogs.recovery import FAULTS, Recovery, channel_gone
from bot.cogs.translator import command_text as _
from bot.config import Settings
from bot.games import GAMES, get_ruleset
from bot.games.base import GameError, Message, msg
from bot.present import board, codes, moves, words
from bot.present.lobby import lobby_post
from bot.present.picture import draw
from bot.present.post import Post
from bot.services import (
    COMPUTER_LEVELS,
    LOBBY_SHOWN,
    ROLL,
    GameRecord,
    Outcome,
    Seat,
    Sessions,
    StoreUnavailable,
    position,
    ruleset_of,
    started_events,
)

log = logging.getLogger(__name__)


# Acknowledged clicks worked on at once; the others wait their turn in arrival order. Enough to keep the
# database, the drawing thread and the network busy; more would not go faster (the work is CPU-bound)
# but would queue their steps in the event loop, where every pass runs all that is ready: the next
# interactions would wait behind them for their acknowledgement.
CLICKS_AT_ONCE = 16
# Boards remembered per channel to take back what a new board repeats: a recap of what a player missed
# spans the boards of the other players' turns since his, at most a few.
RECENT_BOARDS = 6

GAME_CHOICES = [app_commands.Choice(name=_(game.name), value=game.id) for game in GAMES]
LEVEL_CHOICES = [app_commands.Choice(name=_(f"choice.level.{lv}"), value=lv) for lv in COMPUTER_LEVELS]
LANGUAGE_CHOICES = [app_commands.Choice(name=_(f"choice.language.{lang}"), value=lang) for lang in i18n.LOCALES]


def _as_choices(pairs: list[tuple[str, str]]) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=name, value=action) for name, action in pairs]


def _locale(interaction: discord.Interaction) -> str:
    return i18n.locale_of(interaction.locale)


def _can_post(interaction: discord.Interaction) -> bool:
    """Can the bot post boards (a message with a picture) where this interaction happened? Where only
    interactions reach the channel, its answers carry them (the bot's own permissions do not apply)."""
    if reached_only_by_interactions(interaction):
        return True
    perms = interaction.app_permissions
    send = perms.send_messages_in_threads if isinstance(interaction.channel, discord.Thread) else perms.send_messages
    return perms.view_channel and send and perms.attach_files


def _files(post: Post) -> list[discord.File]:
    """The post's picture, as a new File each time (a File is read once: each request needs its own)."""
    return [png_file(post.png, post.alt)] if post.png else []


def _seat(interaction: discord.Interaction) -> Seat:
    user = interaction.user
    return Seat(user.id, user.display_name, locale=_locale(interaction))


@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
class GameCog(
    PrivacyCommands,
    TakebackCommands,
    TimerCommands,
    HistoryCommands,
    DefaultsCommands,
    MineCommands,
    Recovery,
    commands.GroupCog,
    name="GameCog",
    group_name="game",
    group_description=_("cmd.game.description"),
):
    def __init__(self, bot: commands.AutoShardedBot, sessions: Sessions, settings: Settings):
        self.bot = bot
        self.sessions = sessions
        self.config = settings
        # One board update at a time per channel, so a board just posted is the one the next update sees.
        self._publishing: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._working = asyncio.Semaphore(CLICKS_AT_ONCE)
        # The recent boards posted in each channel (oldest first) and their lines of what happened, so that
        # the next board's post can take back from them what it says again (after a restart: none known).
        self._said: dict[int, list[Said]] = {}
        self._tokens = Tokens(settings.token_lifetime)   # the interactions that sent recent messages
        super().__init__()

    # --- shared flow ---------------------------------------------------------
    async def _run(self, interaction: discord.Interaction, call: Callable[[], Awaitable[Outcome]],
                   done: Message | Callable[[Outcome], Message] | None = None, needs_board: bool = True,
                   show: Show | None = None, shows_here: bool = True) -> None:
        """Answer a command or a click that calls the services: acknowledge, call, show, reply.

        `show` shows the outcome (default: publish) through the interaction (bot/cogs/delivery.py): a
        command whose result shows in its channel (`shows_here`) is answered by that message. A command's
        reply is `done` (or what it makes of the outcome), shown to the user alone; with nothing to say
        and nothing shown by the response, the response is deleted. Where the bot cannot post a board
        nothing is changed (a move nobody could see would stall the game), unless `needs_board` is False
        (ending a game): done, unposted, said so."""
        can_post = _can_post(interaction)
        if needs_board and not can_post:
            await self._tell(interaction, msg("error.missing_permissions"))
            return
        if not await self._acknowledge(interaction, public=shows_here and can_post):
            await self._tell(interaction, msg("interactions.error.ephemeral_only"))
            return
        async with self._working:
            outcome = await self._call(interaction, self.overdue_first(interaction, call))
            if outcome is None or (can_post and not await self._show_outcome(interaction, outcome, show)):
                return
        if interaction.type == discord.InteractionType.application_command:
            await self._reply(interaction, done(outcome) if callable(done) else done)

    async def _acknowledge(self, interaction: discord.Interaction, public: bool = True) -> bool:
        """Within Discord's 3 s: a click (or the modal it opened) as an update of its message, which the
        outcome edits or retires; a command "thinking…", in public when its response is to become the
        message that shows the outcome, else to the user alone. False where Discord made the public answer
        ephemeral (a server whose members may not use external apps): nobody else could see a game there."""
        if interaction.type != discord.InteractionType.application_command:
            await interaction.response.defer()
            acknowledged(interaction, CLICKED)
        elif public:
            answer = await interaction.response.defer(thinking=True)
            if answer is not None and answer.is_ephemeral():
                return False
            acknowledged(interaction, UNUSED)
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        return True

    async def _call(self, interaction: discord.Interaction, call: Callable[[], Awaitable[Outcome]]) -> Outcome | None:
        """The service's outcome; None when it refused or failed, and the user was told why."""
        try:
            outcome = await call()
        except GameError as refusal:
            await self._refuse(interaction, refusal.message)
            return None
        except StoreUnavailable as error:   # nothing was written
            await self.storage_unreachable(interaction, error)
            return None
        except Exception:
            log.exception("session call failed in channel %s", interaction.channel_id)
            await self._tell(interaction, msg("error.internal"))
            return None
        if outcome.unfinished:   # computer players stopped by the database: resumed once it is back
            self.recover_later(outcome.record.id, StoreUnavailable("computer players wait for the database"))
        return outcome

    async def _show_outcome(self, interaction: discord.Interaction, outcome: Outcome, show: Show | None) -> bool:
        """Show a stored outcome; whether it was shown (if not, the user was told why)."""
        try:
            await (show or self.publish)(outcome, interaction)
        except discord.Forbidden:   # only Discord's 403 says a permission is missing
            log.warning("no permission to post the board in channel %s", interaction.channel_id)
            await self._tell(interaction, msg("error.cannot_post"))
            return False
        except FAULTS as error:   # stored, not shown: shown when Discord (or the database) is back (Recovery)
            self.recover_later(outcome.record.id, error)
            await self._tell(interaction, msg("boards.error.not_shown"))
            return False
        return True

    async def _reply(self, interaction: discord.Interaction, said: Message | None) -> None:
        """A command's reply once done: `said`, to the user alone; or nothing left behind where its own
        response (or the channel) shows the result."""
        if said is None and response_unused(interaction):
            mark_used(interaction)
            await interaction.delete_original_response()
        elif said is not None or interaction.extras.get(ORIGINAL) is None:   # acknowledged to the user alone
            await self._tell(interaction, said or msg("ack.done"))

    async def _tell(self, interaction: discord.Interaction, message: Message) -> None:
        """`message` to the user alone, whatever the interaction's acknowledgement."""
        text = i18n.render(message, _locale(interaction))
        if not interaction.response.is_done():
            await interaction.response.send_message(text, ephemeral=True)
        elif response_unused(interaction):   # "thinking…" in public: it goes, the answer is the user's alone
            mark_used(interaction)
            await interaction.delete_original_response()
            await interaction.followup.send(text, ephemeral=True)
        elif interaction.response.type == discord.InteractionResponseType.deferred_message_update:
            await interaction.followup.send(text, ephemeral=True)   # a click acknowledged silently
        else:   # a command, or a click answered "thinking…" (a piece's moves, call-outs): replace that
            await interaction.edit_original_response(content=text)

    async def _refuse(self, interaction: discord.Interaction, message: Message) -> None:
        """A refusal; a click on an older board is told where the current one is (and that board's
        controls go, through the click's own answer, when it is not the game's board any more)."""
        if message.key == "error.stale" and (older := clicked(interaction)) is not None:
            record = await self.sessions.open_game(channel_of(interaction))
            if record is not None and await self._catch_up_here(interaction, record):
                return   # the stored position, which nobody had seen, is the answer
            board = await self.sessions.board_message(record.id) if record is not None else None
            if board is not None and board != older:
                message = msg("boards.error.stale_here", link=board_link(interaction.guild_id,
                                                                         channel_of(interaction), board))
                await interaction.edit_original_response(view=None)
        await self._tell(interaction, message)

    def via(self, record: GameRecord, interaction: discord.Interaction | None = None,
            why: Unprompted = Unprompted.RECOVERED) -> Via:
        """How messages of `record`'s game reach its channel: through `interaction` where it carries them
        (bot/cogs/delivery.py), else through the channel endpoints for `why`."""
        return Via(self.bot.get_partial_messageable(record.channel_id), interaction, self._tokens,
                   interactions_only=bool(record.options.get(INTERACTIONS_ONLY)), why=why)

    async def publish(self, outcome: Outcome, interaction: discord.Interaction | None = None,
                      why: Unprompted = Unprompted.RECOVERED) -> None:
        """Show the outcome in the channel, through `interaction` when one asked (else for `why`): edit the
        board when the same player goes on (a command: answered with the board, the older one retired),
        otherwise retire the old board's controls and post a new one, which pings whoever must act only
        when the turn passed to them (a board shown again, by `/game board` or after a restart, pings
        nobody)."""
        record = outcome.record
        if record.options.get("turn_time"):
            # A change may start, move or end this game's deadline. Untimed games have none (a deadline
            # the settings just removed fires as a no-op: the sessions re-check it under the lock).
            self.timers.wake()
        via = self.via(record, interaction, why)
        if record.state is None:  # lobby (open or closed)
            async with self._publishing[record.channel_id]:
                await self._show(via, record, lobby_post(record), edit=True, version=LOBBY_SHOWN)
            return
        # The message before the first board is the lobby: it then says the game started and who sits where.
        lobby = lobby_post(record).content if any(e.key == "game.started" for e in outcome.events) else None
        ruleset = ruleset_of(record)
        to_move = ruleset.to_move(ruleset.from_json(record.state)) if record.status == "active" else None
        # The board tells the player to move everything since his last turn, not just this click.
        view = await self.sessions.board_view(record, self.timers.clock.now(), outcome.version_before)
        post = board.board_post(record, view.since.earlier + outcome.events, takeback_seat=view.takeback_seat)
        post.png = await draw(record, traced=view.since.positions)
        if lines := self.clock_lines(record, view):
            post.content = words.fit([post.content, *lines])
        same_player = outcome.moved_before is not None and outcome.moved_before == to_move
        # A turn passed: something happened, or a restart posts a board that never went out.
        new_turn = not same_player and (bool(outcome.events) or outcome.version_before is not None)
        async with self._publishing[record.channel_id]:
            # Re-read under the lock: a board posted by a concurrent publish must be the one retired or edited.
            shown = await self.sessions.board_message(record.id)
            await self._show(via, replace(record, board_message_id=shown), post,
                             edit=same_player, version=record.version, retired=lobby, ping=new_turn)
        if new_turn:
            await self.notify_turn(record, post.mention, view.people)
        await self.announce(outcome, via)  # fair-dice commitment / reveal and replay (game_history)

    async def _show(self, via: Via, record: GameRecord, post: Post, edit: bool, version: int,
                    retired: str | None = None, ping: bool = False) -> None:
        """Show `post` as the game's board (board_messages.plan says how), then record which version it shows.

        A command answers with the board itself, so it never edits one in place: the board it replaces
        is retired (a lobby deleted). A board deleted by a moderator (404), or out of reach, is posted
        afresh; only a new post with `ping` notifies anyone. A board older than one this process already
        showed (a publish overtaken by the next, or caught up late) is not shown: never a stale one."""
        if self.sessions.shows_newer(record.id, version):
            return
        if edit and answers_with_new_message(via.interaction) and record.board_message_id is not None:
            edit, retired = False, DELETE if record.state is None else retired
        recent = tuple(self._said.get(record.channel_id, ()))
        plan = board_messages.plan(record.board_message_id, recent, post.said, edit=edit, retired=retired)
        view = view_of(record.id, record.version, post.controls)
        if plan.edit is not None:
            if await via.edit(plan.edit, content=post.content, attachments=_files(post), view=view,
                              allowed_mentions=discord.AllowedMentions.none()):
                await self.sessions.set_board_message(record.id, plan.edit, version, record.status)
                metrics.BOARDS.labels("edited").inc()
                self._remember(record.channel_id, list(plan.kept))
                return
            log.info("board %s of game %s was deleted (or is out of reach): posting it again", plan.edit, record.id)
            plan = board_messages.plan(None, recent, post.said, edit=edit, retired=retired)
        await self._retire_all(via, plan.before)
        message = await via.send(post.content, files=_files(post), view=view,
                                 mentions=pinging(post.mention if ping else None))
        if message is None:   # only interactions reach the game: the next one shows it
            return
        await self.sessions.set_board_message(record.id, message, version, record.status)
        metrics.BOARDS.labels("posted").inc()
        await self._retire_all(via, plan.after)
        self._remember(record.channel_id, [*plan.kept, (message, post.said)])

    async def _retire_all(self, via: Via, boards: tuple[Retire, ...]) -> None:
        for retired in boards:
            await self._retire(via, retired.message, retired.text)

    async def _retire(self, via: Via, message: int, text: str | None) -> None:
        """An earlier board: without controls, saying `text` (KEEP: as it was; DELETE: deleted)."""
        if text == DELETE:
            await via.delete(message)
        elif text is KEEP:
            await via.edit(message, view=None)
        else:
            await via.edit(message, content=text, view=None)

    def _remember(self, channel_id: int, boards: list[Said]) -> None:
        self._said[channel_id] = boards[-RECENT_BOARDS:]

    # --- after a restart ------------------------------------------------------------
    async def cog_load(self) -> None:
        await super().cog_load()
        self._resume_task = asyncio.create_task(self.resume_games(), name="resume games")

    async def cog_unload(self) -> None:
        self._resume_task.cancel()
        await super().cog_unload()

    async def resume_games(self) -> None:
        """What a restart interrupted: computer players whose turn it is play, and a board that lags
        behind its game (the bot stopped between storing a move and posting it) is posted again,
        telling the player to move what happened since his last turn; a game whose first board never
        went out (the lobby is what shows) gets it, with who sits where; and a game a move finished, its
        final board (Store.boards_to_resume)."""
        for record, shown, shown_status in await self.sessions.boards_to_resume():
            try:
                await self.catch_up(record, shown, shown_status, why=Unprompted.RESUMED)
            except GameError:   # the version check: another process (that had these shards before) moved it first
                log.info("game %s was resumed elsewhere first", record.id)
            except FAULTS as error:
                if channel_gone(error):   # deleted while the bot was down: no event said so
                    await self._channel_gone(record.channel_id)
                else:
                    self.recover_later(record.id, error)
            except Exception:
                log.exception("could not resume game %s in channel %s", record.id, record.channel_id)

    async def catch_up(self, record: GameRecord, shown: int | None, shown_status: str | None,
                       interaction: discord.Interaction | None = None,
                       why: Unprompted = Unprompted.RECOVERED) -> bool:
        """Play what computer players have to, and post the board of the stored position if the posted one
        lags behind (or of the lobby, never shown); whether anything was played or posted. `shown`: the
        version the posted board shows (None: not recorded; with no board recorded either, never shown);
        `shown_status`: the game's status it shows, behind when a resignation or /game end ended the game
        without a move (the board of that version, still with its controls, is then no final board).
        A game only interactions reach is caught up by an interaction (`interaction`), never unprompted."""
        if record.options.get(INTERACTIONS_ONLY) and interaction is None:
            return False
        async with self._working:
            return await self._catch_up(record, shown, shown_status, interaction, why)

    async def _catch_up_here(self, interaction: discord.Interaction, record: GameRecord) -> bool:
        """In a game only interactions reach, what a restart or a fault left unshown (or computer turns
        unplayed) is caught up by the next interaction, through it; whether anything was."""
        if not record.options.get(INTERACTIONS_ONLY):
            return False
        found = await self.sessions.boards_to_resume(record.id)
        return bool(found) and await self._catch_up(*found[0], interaction, Unprompted.RECOVERED)

    async def _catch_up(self, record: GameRecord, shown: int | None, shown_status: str | None,
                        interaction: discord.Interaction | None, why: Unprompted) -> bool:
        never_shown = shown is None and record.board_message_id is None
        ended_unshown = shown == record.version and shown_status is not None and shown_status != record.status
        outcome = await self.sessions.resume(record.channel_id, record.id)
        if outcome is None:
            if not (never_shown or ended_unshown) and (shown is None or shown >= record.version
                                                       or await self._adopt_board(record)):
                return False
            outcome = Outcome(record, version_before=None if record.state is None else record.version)
        if record.state is not None and (shown == LOBBY_SHOWN or never_shown):
            outcome = replace(outcome, events=started_events(record) + outcome.events)
        await self.publish(outcome, interaction, why)
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
        via = self.via(record, why=Unprompted.RESUMED)
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
                    await self._retire(via, stray.id, KEEP)
        except discord.HTTPException as error:
            if channel_gone(error):
                raise
            log.info("no look at the history of channel %s: %s", record.channel_id, error)
            return False
        if current is None:
            return False
        await self.sessions.set_board_message(record.id, current.id, record.version, record.status)
        log.info("game %s: board %s found in the channel (posted before a restart or a lost answer)", record.id,
                 current.id)
        return True

    # --- channels that go away --------------------------------------------------
    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self._channel_gone(channel.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self._channel_gone(payload.thread_id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Kicked, banned or the server deleted (an outage is on_guild_unavailable): nobody can play
        there any more, so its games end rather than have their deadlines play them to a rated end."""
        ended = await self.sessions.close_guild(guild.id)
        if ended:
            log.info("%d games ended: the bot left server %s", len(ended), guild.id)
            self.timers.wake()

    async def _channel_gone(self, channel_id: int) -> None:
        record = await self.sessions.close_channel(channel_id)
        if record is not None:
            log.info("game %s ended: its channel %s was deleted", record.id, channel_id)
            self.timers.wake()   # its deadline, if any, is gone

    # --- commands --------------------------------------------------------------
    @app_commands.command(name="new", description=_("cmd.new.description"))
    @app_commands.describe(game=_("opt.game.description"),
                           teams=_("opt.teams.description"),
                           turn_time=_("opt.turn_time.description"),
                           seating=_("opt.seating.description"),
                           thread=_("opt.thread.description"),
                           language=_("opt.language.description"))
    @app_commands.choices(game=GAME_CHOICES, seating=SEATING_CHOICES, language=LANGUAGE_CHOICES)
    async def new(self, interaction: discord.Interaction, game: app_commands.Choice[str], teams: bool = False,
                  turn_time: str | None = None, seating: app_commands.Choice[str] | None = None,
                  thread: bool = False, language: app_commands.Choice[str] | None = None) -> None:
        """Shared messages are in the game's language: `language` if given, else the server's. A game
        where only interactions reach the channel (a DM or group DM between users, a server without the
        bot) is marked so (delivery.INTERACTIONS_ONLY): nothing is posted there unprompted."""
        only_interactions = reached_only_by_interactions(interaction)
        if thread and (refusal := (msg("thread.error.not_a_text_channel") if only_interactions
                                   else thread_refusal(interaction))):
            await self._tell(interaction, refusal)
            return

        async def create() -> Outcome:
            options = ({"teams": True} if teams else {}) | ({"seating": seating.value} if seating else {}) \
                | ({"turn_time": self.turn_time(turn_time)} if turn_time else {}) \
                | ({"language": language.value} if language else {}) \
                | ({INTERACTIONS_ONLY: True} if only_interactions else {})
            channel_id = channel_of(interaction)
            if thread:   # checked before the thread opens, so that a refused game leaves no empty thread
                self.sessions.check_new(game.value, options)
                channel_id = await open_thread(interaction, msg(f"game.{game.value}"), _locale(interaction))
            return await self.sessions.create(channel_id=channel_id, guild_id=interaction.guild_id,
                                              host=_seat(interaction), game=game.value, options=options,
                                              locale=i18n.locale_of(interaction.guild_locale))
        await self._run(interaction, create, done=(lambda outcome: msg(
            "thread.opened", thread=f"<#{outcome.record.channel_id}>")) if thread else None, shows_here=not thread)

    @app_commands.command(name="rematch", description=_("cmd.rematch.description"))
    async def rematch(self, interaction: discord.Interaction) -> None:
        await self.on_rematch(interaction, None)

    @app_commands.command(name="join", description=_("cmd.join.description"))
    async def join(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, lambda: self.sessions.join(channel_of(interaction), _seat(interaction)))

    @app_commands.command(name="leave", description=_("cmd.leave.description"))
    async def leave(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, lambda: self.sessions.leave(channel_of(interaction), interaction.user.id))

    @app_commands.command(name="start", description=_("cmd.start.description"))
    async def start(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, lambda: self.sessions.start(channel_of(interaction), interaction.user.id))

    @app_commands.command(name="add-bot", description=_("cmd.add-bot.description"))
    @app_commands.describe(level=_("opt.level.description"))
    @app_commands.choices(level=LEVEL_CHOICES)
    async def add_bot(self, interaction: discord.Interaction, level: app_commands.Choice[str]) -> None:
        await self._run(interaction, lambda: self.sessions.add_computer(
            channel_of(interaction), interaction.user.id, level.value))

    @app_commands.command(name="roll", description=_("cmd.roll.description"))
    async def roll(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, lambda: self.sessions.act(channel_of(interaction), interaction.user.id, ROLL))

    @app_commands.command(name="move", description=_("cmd.move.description"))
    @app_commands.describe(move=_("opt.move.description"))
    async def move(self, interaction: discord.Interaction, move: str) -> None:
        async def play() -> Outcome:
            return await self.sessions.act(channel_of(interaction), interaction.user.id,
                                           await self._typed(channel_of(interaction), move))
        await self._run(interaction, play)

    @move.autocomplete("move")
    async def move_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        record = await self.sessions.open_game(channel_of(interaction))
        if record is None or record.status != "active":
            return []
        ruleset, state = position(record)
        if ruleset.to_move(state) != record.seat_of(interaction.user.id) or ruleset.roll_due(state):
            return []
        return _as_choices(moves.move_choices(record, ruleset, state, current, _locale(interaction)))

    @app_commands.command(name="call", description=_("cmd.call.description"))
    @app_commands.describe(piece=_("opt.piece.description"))
    async def call(self, interaction: discord.Interaction, piece: str) -> None:
        async def call_out() -> Outcome:
            return await self.sessions.call_out(channel_of(interaction), interaction.user.id,
                                                await self._typed(channel_of(interaction), piece))
        await self._run(interaction, call_out)

    @call.autocomplete("piece")
    async def call_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        record = await self.sessions.open_game(channel_of(interaction))
        if record is None or record.status != "active" or (seat := record.seat_of(interaction.user.id)) is None:
            return []
        ruleset, state = position(record)
        return _as_choices(moves.suggestions(record, ruleset, state, ruleset.call_actions(state, seat), current,
                                             _locale(interaction)))

    @app_commands.command(name="board", description=_("cmd.board.description"))
    async def board(self, interaction: discord.Interaction) -> None:
        async def repost() -> Outcome:
            record = await self.sessions.current(channel_of(interaction))
            return Outcome(record)

        async def show(outcome: Outcome, interaction: discord.Interaction) -> None:
            if not await self._catch_up_here(interaction, outcome.record):
                await self.publish(outcome, interaction)
        await self._run(interaction, repost, show=show)

    @app_commands.command(name="status", description=_("cmd.status.description"))
    async def status(self, interaction: discord.Interaction) -> None:
        loc = _locale(interaction)
        try:
            record = await self.sessions.current(channel_of(interaction))
        except GameError as refusal:
            await self._tell(interaction, refusal.message)
            return
        if record.state is None:
            text = lobby_post(record).content
        else:
            ruleset = ruleset_of(record)
            lines = [words.say(record, m, loc) for m in ruleset.describe(ruleset.from_json(record.state))]
            text = words.fit(lines)
        await interaction.response.send_message(text, ephemeral=True,
                                                allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name="resign", description=_("cmd.resign.description"))
    async def resign(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, lambda: self.sessions.resign(channel_of(interaction), interaction.user.id))

    @app_commands.command(name="end", description=_("cmd.end.description"))
    async def end(self, interaction: discord.Interaction) -> None:
        perms = interaction.permissions
        await self._run(interaction, lambda: self.sessions.end(
            channel_of(interaction), interaction.user.id, can_manage=perms.manage_messages), needs_board=False)

    @app_commands.command(name="rules", description=_("cmd.rules.description"))
    @app_commands.describe(game=_("opt.rules_game.description"))
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str] | None = None) -> None:
        game_id = game.value if game else None
        if game_id is None:
            record = await self.sessions.open_game(channel_of(interaction))
            game_id = record.game if record else "parcheesi"
        message = get_ruleset(game_id).rules_summary()
        await interaction.response.send_message(i18n.render(message, _locale(interaction)), ephemeral=True)

    # --- controls on the messages ------------------------------------------------
    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every click, select and modal submission, whatever it holds, is read once and answered."""
        if interaction.type not in (discord.InteractionType.component, discord.InteractionType.modal_submit):
            return
        try:
            request = read(interaction)
        except Forged as why:
            log.info("refused a control that is not ours (%s) in channel %s", why, interaction.channel_id)
            await self._tell(interaction, msg("controls.error.unknown"))
            return
        try:
            await KINDS[request.kind].handler(self, interaction, request)
        except StoreUnavailable as error:
            await self.storage_unreachable(interaction, error)

    async def on_action(self, interaction: discord.Interaction, request: Request) -> None:
        """An action button, a pick in a menu of moves or a move typed in the Other move modal."""
        async def play() -> Outcome:
            typed = request.kind == TYPED_MOVE.code   # in either language's colour letters
            action = await self._typed(channel_of(interaction), request.value) if typed else request.value
            return await self.sessions.act(channel_of(interaction), interaction.user.id, action,
                                           game_id=request.game, version=request.version)
        await self._run(interaction, play)

    async def on_lobby(self, interaction: discord.Interaction, request: Request) -> None:
        channel, user, game = channel_of(interaction), interaction.user.id, request.game
        calls = {
            "join": lambda: self.sessions.join(channel, _seat(interaction), game),
            "leave": lambda: self.sessions.leave(channel, user, game),
            "start": lambda: self.sessions.start(channel, user, game),
            "add-bot": lambda: self.sessions.add_computer(channel, user, "normal", game),
        }
        await self._run(interaction, calls[request.value])   # controls.LOBBY reads only these verbs

    async def on_rematch(self, interaction: discord.Interaction, game: int | None) -> None:
        """`/game rematch`, or the Rematch button of game `game`'s final board."""
        await self._run(interaction, lambda: self.sessions.rematch(channel_of(interaction), _seat(interaction), game))

    async def on_group(self, interaction: discord.Interaction, request: Request) -> None:
        """A pawn (or area) was picked: show its moves to that player alone."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with self._working:
            try:
                record = await self._current_board(interaction, request)
                post = board.group_post(record, request.value, _locale(interaction))
                post.png = await draw(record, _locale(interaction), request.value)
            except GameError as refusal:
                await self._tell(interaction, refusal.message)
                return
            await interaction.edit_original_response(content=post.content, attachments=[png_file(post.png, post.alt)],
                                                     view=view_of(record.id, record.version, post.controls))

    async def on_call_button(self, interaction: discord.Interaction, request: Request) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            record = await self._current_board(interaction, request)
            ruleset, state = position(record)
            seat = record.seat_of(interaction.user.id)
            calls = ruleset.call_actions(state, seat) if seat is not None else []
            if not calls:
                raise GameError(msg("error.cannot_call"))
        except GameError as refusal:
            await self._tell(interaction, refusal.message)
            return
        post = board.call_post(record, ruleset, state, calls, _locale(interaction))
        await interaction.edit_original_response(content=post.content,
                                                 view=view_of(record.id, record.version, post.controls))

    async def on_other_move_button(self, interaction: discord.Interaction, request: Request) -> None:
        """A deliberate path to type any move (cheating rulesets): a modal whose field shows the
        code syntax and an example from the position; its submission comes back to on_interaction."""
        loc = _locale(interaction)
        try:
            record = await self._current_board(interaction, request)
        except GameError as refusal:
            await self._tell(interaction, refusal.message)
            return
        ruleset, state = position(record)
        label, placeholder = moves.other_move_field(record, ruleset, state, loc)
        modal = discord.ui.Modal(title=i18n.text("modal.other_move.title", loc)[:45],
                                 custom_id=TYPED_MOVE.encode(record.id, record.version))
        modal.add_item(discord.ui.TextInput(label=label, placeholder=placeholder, max_length=MOVE_LENGTH,
                                            custom_id=MOVE_FIELD))
        modal.stop()   # answered by on_interaction, like every control
        await interaction.response.send_modal(modal)

    async def _typed(self, channel_id: int, text: str) -> str:
        """A typed code read with any language's colour letters (the channel's game says which)."""
        record = await self.sessions.open_game(channel_id)
        return codes.canonical(ruleset_of(record), text.strip()) if record is not None else text.strip()

    async def _current_board(self, interaction: discord.Interaction, request: Request) -> GameRecord:
        record = await self.sessions.game(channel_of(interaction), request.game)
        if record.version != request.version or record.status != "active":
            raise GameError(msg("error.stale"))
        return record

