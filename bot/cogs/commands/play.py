"""A game in play on Discord: `/game roll`, `/game move`, `/game call` (with their suggestions as the user
types), `/game board`, `/game status`, `/game resign`, `/game end` and `/game rules`, and the board's controls
(the action buttons, the menus of moves and pieces, call-outs and the Other move modal: the controls.ACTION,
MOVES, GROUPS, CALL, OTHER_MOVE and TYPED_MOVE kinds)."""
from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

import discord
from discord import app_commands

from bot.cogs.events.controls import MOVE_FIELD, MOVE_LENGTH, TYPED_MOVE, view_of
from bot.cogs.handlers import Request, channel_of, user_locale
from bot.cogs.messages.components import png_file
from bot.cogs.messages.delivery import CLICKED, acknowledged, reached_only_by_interactions
from bot.cogs.messages.faults import FAULTS
from bot.cogs.messages.publisher import BoardPublisher
from bot.cogs.messages.responder import Responder
from bot.domain import i18n
from bot.domain.player_actions import ROLL, check_to_move
from bot.domain.positions import position, ruleset_of
from bot.domain.session_results import Outcome
from bot.games import get_ruleset
from bot.games.base import GameError, msg
from bot.present import board, codes, moves, words
from bot.present.lobby import lobby_post
from bot.present.picture import draw
from bot.services import GameRecord, Sessions

log = logging.getLogger(__name__)


@contextmanager
def as_typed(typed: str | None) -> Iterator[None]:
    """A typed move refused as unknown is echoed as the player typed it ("V9+99", not the "G9+99" it was read as)."""
    try:
        yield
    except GameError as refusal:
        if typed is None or refusal.message.key != "error.illegal_move":
            raise
        raise GameError(msg("error.illegal_move", move=typed.strip()[:40])) from None


def _as_choices(pairs: list[tuple[str, str]]) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=name, value=action) for name, action in pairs]


class PlayCommands:
    def __init__(self, sessions: Sessions, responder: Responder, publisher: BoardPublisher) -> None:
        self.sessions = sessions
        self.responder = responder
        self.publisher = publisher

    # --- commands --------------------------------------------------------------
    async def roll(self, interaction: discord.Interaction) -> None:
        await self.responder.run(interaction, lambda: self.sessions.play.act(
            channel_of(interaction), interaction.user.id, ROLL))

    async def move(self, interaction: discord.Interaction, move: str) -> None:
        async def play() -> Outcome:
            with as_typed(move):
                return await self.sessions.play.act(channel_of(interaction), interaction.user.id,
                                                    await self._typed(channel_of(interaction), move))
        await self.responder.run(interaction, play)

    async def move_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        record = await self.sessions.channels.open_game(channel_of(interaction))
        if record is None or record.status != "active":
            return []
        ruleset, state = position(record)
        if ruleset.to_move(state) != record.seat_of(interaction.user.id) or ruleset.roll_due(state):
            return []
        return _as_choices(moves.move_choices(record, ruleset, state, current, user_locale(interaction)))

    async def call(self, interaction: discord.Interaction, piece: str) -> None:
        async def call_out() -> Outcome:
            return await self.sessions.play.call_out(channel_of(interaction), interaction.user.id,
                                                     await self._typed(channel_of(interaction), piece))
        await self.responder.run(interaction, call_out)

    async def call_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        record = await self.sessions.channels.open_game(channel_of(interaction))
        if record is None or record.status != "active" or (seat := record.seat_of(interaction.user.id)) is None:
            return []
        ruleset, state = position(record)
        return _as_choices(moves.suggestions(record, ruleset, state, ruleset.call_actions(state, seat), current,
                                             user_locale(interaction)))

    async def board(self, interaction: discord.Interaction) -> None:
        async def repost() -> Outcome:
            record = await self.sessions.channels.current(channel_of(interaction))
            return Outcome(record)

        async def show(outcome: Outcome, interaction: discord.Interaction) -> None:
            if not await self.publisher.catch_up_here(interaction, outcome.record):
                await self.publisher.publish(outcome, interaction)
        await self.responder.run(interaction, repost, show=show)

    async def status(self, interaction: discord.Interaction) -> None:
        """The open game's position; after a game, how the channel's last game ended."""
        loc = user_locale(interaction)
        record = await self.sessions.channels.open_game(channel_of(interaction))
        if record is None:
            last = await self._last_game(interaction)
            if last is None:
                await self.responder.tell(interaction, msg("error.no_game"))
                return
            text = i18n.text("game.last", loc, game=words.say(last, msg(ruleset_of(last).name), loc),
                             result=words.result_line(last, loc))
        elif record.state is None:
            text = lobby_post(record).content
        else:
            ruleset = ruleset_of(record)
            lines = [words.say(record, m, loc) for m in ruleset.describe(ruleset.from_json(record.state))]
            text = words.fit(lines)
        await interaction.response.send_message(text, ephemeral=True,
                                                allowed_mentions=discord.AllowedMentions.none())

    async def _last_game(self, interaction: discord.Interaction) -> GameRecord | None:
        """The channel's last game, over, if the asker may see it (Records.game_for)."""
        try:
            return await self.sessions.records.game_for(interaction.guild_id, channel_of(interaction), None,
                                                        interaction.user.id)
        except GameError:
            return None

    async def resign(self, interaction: discord.Interaction) -> None:
        await self.responder.run(interaction, lambda: self.sessions.endings.resign(
            channel_of(interaction), interaction.user.id))

    async def end(self, interaction: discord.Interaction) -> None:
        perms = interaction.permissions
        await self.responder.run(interaction, lambda: self.sessions.endings.end(
            channel_of(interaction), interaction.user.id, can_manage=perms.manage_messages), needs_board=False)

    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str] | None = None) -> None:
        """The rules of `game`, else of the channel's game, open or just played, else of Parcheesi."""
        game_id = game.value if game else None
        if game_id is None:
            record = await self.sessions.channels.open_game(channel_of(interaction)) \
                or await self._last_game(interaction)
            game_id = record.game if record else "parcheesi"
        message = get_ruleset(game_id).rules_summary()
        await interaction.response.send_message(i18n.render(message, user_locale(interaction)), ephemeral=True)

    # --- controls on the board ----------------------------------------------------
    async def on_status(self, interaction: discord.Interaction, request: Request) -> None:
        """The Status button, where only interactions reach the game: /game status for friends without it."""
        await self.status(interaction)

    async def on_show_board(self, interaction: discord.Interaction, request: Request) -> None:
        """The Board button, where only interactions reach the game: /game board for friends without it."""
        await self.board(interaction)

    async def on_action(self, interaction: discord.Interaction, request: Request) -> None:
        """An action button, a pick in a menu of moves or a move typed in the Other move modal."""
        async def play() -> Outcome:
            typed = request.kind == TYPED_MOVE.code   # in either language's colour letters
            action = await self._typed(channel_of(interaction), request.value) if typed else request.value
            with as_typed(request.value if typed else None):
                return await self.sessions.play.act(channel_of(interaction), interaction.user.id, action,
                                                    game_id=request.game, version=request.version)
        await self.responder.run(interaction, play)

    async def on_group(self, interaction: discord.Interaction, request: Request) -> None:
        """A pawn (or area) was picked: its moves, to the player to move alone, in one panel: picked on the
        board, a new panel; picked again in the panel's own menu, the same panel edited in place. Anyone else
        is told they are watching (or whose turn it is)."""
        clicked_on = interaction.message
        in_panel = clicked_on is not None and clicked_on.flags.ephemeral
        # A board out of reach (only interactions reach it, and its token is unknown: a restart since) is
        # brought within reach: the pick is acknowledged as an update of it, the panel a follow-up.
        reach = not in_panel and clicked_on is not None and reached_only_by_interactions(interaction) \
            and self.publisher.tokens.get(clicked_on.id) is None
        try:
            if in_panel or reach:
                await interaction.response.defer()
                acknowledged(interaction, CLICKED)
            else:
                await interaction.response.defer(ephemeral=True, thinking=True)
        except FAULTS as error:   # not acknowledged: Discord tells the player it failed, nothing to answer
            log.info("the pick of interaction %s was not acknowledged: %s", interaction.id, error)
            return
        if reach and clicked_on is not None:
            self.publisher.tokens.add(clicked_on.id, interaction)
        async with self.responder.work_slots:
            try:
                record = await self._current_board(interaction, request)
                ruleset, state = position(record)
                check_to_move(record, record.seat_of(interaction.user.id), ruleset.to_move(state))
                post = board.group_post(record, request.value, user_locale(interaction))
                png = await draw(record, user_locale(interaction), request.value)
            except GameError as refusal:
                await self.responder.tell(interaction, refusal.message)
                return
            view = view_of(record.id, record.version, post.controls)
            if reach:
                await self.responder.answer(interaction, lambda: interaction.followup.send(
                    post.content, file=png_file(png, post.alt), view=view, ephemeral=True, wait=True))
            else:
                await self.responder.answer(interaction, lambda: interaction.edit_original_response(
                    content=post.content, attachments=[png_file(png, post.alt)], view=view))

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
            await self.responder.tell(interaction, refusal.message)
            return
        post = board.call_post(record, ruleset, state, calls, user_locale(interaction))
        await self.responder.answer(interaction, lambda: interaction.edit_original_response(
            content=post.content, view=view_of(record.id, record.version, post.controls)))

    async def on_other_move_button(self, interaction: discord.Interaction, request: Request) -> None:
        """A deliberate path to type any move (cheating rulesets): a modal whose field shows the
        code syntax and an example from the position; its submission comes back to on_interaction."""
        loc = user_locale(interaction)
        try:
            record = await self._current_board(interaction, request)
        except GameError as refusal:
            await self.responder.tell(interaction, refusal.message)
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
        record = await self.sessions.channels.open_game(channel_id)
        return codes.canonical(ruleset_of(record), text.strip()) if record is not None else text.strip()

    async def _current_board(self, interaction: discord.Interaction, request: Request) -> GameRecord:
        channel = channel_of(interaction)
        record = self.sessions.channels.as_written(channel, request.game, request.version) or \
            await self.sessions.channels.game(channel, request.game)
        if record.version != request.version or record.status != "active":
            raise GameError(msg("error.stale"))
        return record
