"""The lobby: open a game, join it, seat computer players, leave, and start (seats drawn or kept).

A rematch (the final board's Rematch button or `/game rematch`) opens a lobby for the same game with the same
options, the finished game's players already seated in the same seating mode (computer seats too) and the one
who asked as host. From there it is a lobby like any other."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.core.game_records import GameRecord, Seat
from bot.domain import dice, seating
from bot.domain.i18n import LOCALES
from bot.domain.positions import ruleset_of
from bot.domain.session_results import Outcome
from bot.games import UnknownGame, get_ruleset
from bot.games.base import GameError, Message, msg
from bot.services.base import Channels, hosts
from bot.services.play import Play
from bot.store import ChannelBusy

COMPUTER_LEVELS = ("easy", "normal", "hard")


def _language(options: dict[str, Any], locale: str | None, host: Seat) -> str:
    """The game's own language option (the server's default merged in), else `locale`, else the host's."""
    return options.get("language") or locale or host.locale


def started_events(record: GameRecord) -> tuple[Message, ...]:
    """What the first board of a started game says: the game begins, who sits where."""
    ruleset = ruleset_of(record)
    return msg("game.started", game=msg(ruleset.name)), seating.announcement(ruleset, record)


class Lobby:
    def __init__(self, channels: Channels, play: Play):
        self.channels = channels
        self.play = play

    def check_new(self, game: str, options: dict[str, Any]) -> dict[str, Any]:
        """The options of a new game as stored (the seating made explicit); GameError when it cannot open."""
        try:
            ruleset = get_ruleset(game)
        except UnknownGame:
            raise GameError(msg("error.unknown_game", game=game)) from None
        ruleset.check_options(options)
        if options.get("language", LOCALES[0]) not in LOCALES:
            raise GameError(msg("error.bad_language"))
        return seating.chosen(options)

    async def with_defaults(self, guild_id: int | None, options: dict[str, Any]) -> dict[str, Any]:
        """A new game's options: the server's defaults, then the host's choices over them."""
        defaults = await self.channels.store.defaults.of(guild_id) if guild_id is not None else {}
        return {**defaults, **options}

    async def language(self, guild_id: int | None, options: dict[str, Any], locale: str | None, host: Seat) -> str:
        """The language a new game's shared messages will be in (`create` says why), known before it opens:
        the name of its thread."""
        return _language(await self.with_defaults(guild_id, options), locale, host)

    async def create(self, *, channel_id: int, guild_id: int | None, host: Seat, game: str,
                     options: dict[str, Any], locale: str | None = None) -> Outcome:
        """Open a lobby; the server's defaults fill in the options the host did not choose. Its shared
        messages are in the game's language: `options["language"]` when the host chose one, else the server's
        default language, else `locale` (on Discord the server's own language), else the host's."""
        options = self.check_new(game, await self.with_defaults(guild_id, options))
        async with self.channels.lock(channel_id):
            try:
                record = await self.channels.store.games.create_game(
                    guild_id=guild_id, channel_id=channel_id, game=game, host=host,
                    locale=_language(options, locale, host), options=options, seed=dice.new_seed())
            except ChannelBusy:
                raise GameError(msg("error.channel_busy")) from None
        return Outcome(record, (msg("lobby.created", seat=0, game=msg(ruleset_of(record).name)),))

    async def join(self, channel_id: int, seat: Seat, game_id: int | None = None) -> Outcome:
        async with self.channels.lock(channel_id):
            record = await self._lobby(channel_id, game_id)
            if record.seat_of(seat.user_id) is not None:
                raise GameError(msg("error.already_seated"))
            if len(record.seats) >= ruleset_of(record).max_players:
                raise GameError(msg("error.lobby_full"))
            record = await self.channels.save(record, seats=record.seats + (seat,))
        return Outcome(record, (msg("lobby.joined", seat=len(record.seats) - 1),))

    async def add_computer(self, channel_id: int, user_id: int, level: str, game_id: int | None = None) -> Outcome:
        if level not in COMPUTER_LEVELS:
            raise GameError(msg("error.bad_level"))
        async with self.channels.lock(channel_id):
            record = await self._lobby(channel_id, game_id)
            if record.seat_of(user_id) is None:
                raise GameError(msg("error.not_seated"))
            if len(record.seats) >= ruleset_of(record).max_players:
                raise GameError(msg("error.lobby_full"))
            computer = Seat(0, "", level=level, locale=record.locale)
            record = await self.channels.save(record, seats=record.seats + (computer,))
        return Outcome(record, (msg("lobby.joined", seat=len(record.seats) - 1),))

    async def leave(self, channel_id: int, user_id: int, game_id: int | None = None) -> Outcome:
        async with self.channels.lock(channel_id):
            record = await self.channels.store.games.open_game(channel_id)
            if record is None or (game_id is not None and record.id != game_id):
                raise GameError(msg("error.no_game"))
            if record.status != "lobby":
                raise GameError(msg("error.leave_started"))
            index = record.seat_of(user_id)
            if index is None:
                raise GameError(msg("error.not_seated"))
            event = msg("lobby.left", seat=index)
            seats = record.seats[:index] + record.seats[index + 1:]
            if not any(s.level is None for s in seats):
                # The last person left: the lobby closes.
                record = await self.channels.save(record, seats=seats, status="ended")
                return Outcome(record, (event, msg("lobby.closed")))
            if record.host_id == user_id:
                new_host = next(s for s in seats if s.level is None)
                record = await self.channels.save(record, seats=seats, host_id=new_host.user_id)
            else:
                record = await self.channels.save(record, seats=seats)
        return Outcome(record, (event,))

    async def start(self, channel_id: int, user_id: int, game_id: int | None = None) -> Outcome:
        async with self.channels.lock(channel_id):
            record = await self._lobby(channel_id, game_id)
            if not hosts(record, user_id):
                raise GameError(msg("error.host_only"))
            ruleset = ruleset_of(record)
            ruleset.check_setup(len(record.seats), record.options)
            # Seats drawn from the seed, or as they sat in the lobby (PM-1.9, MG-2.2, PA-3.1).
            seats, options = seating.seat(record)
            state = ruleset.new_game(len(seats), options, dice.setup_seed(record.seed))
            record = await self.channels.save(record, status="active", state=ruleset.to_json(state), seats=seats,
                                      options=options)
            outcome = await self.play.computers(record, started_events(record))
        return Outcome(outcome.record, outcome.events, seat_before=None, unfinished=outcome.unfinished)

    async def rematch(self, channel_id: int, asker: Seat, game_id: int | None = None) -> Outcome:
        """A lobby for a rematch of the channel's last game (`game_id`: the one whose board was clicked)."""
        async with self.channels.lock(channel_id):
            last = await self.channels.store.games.latest_game(channel_id)
            if last is not None and last.status in ("lobby", "active"):
                raise GameError(msg("error.channel_busy"))
            if last is None or last.state is None:   # none yet, or a lobby that closed unplayed
                raise GameError(msg("rematch.error.no_game"))
            if game_id is not None and last.id != game_id:
                raise GameError(msg("rematch.error.newer"))
            seat = last.seat_of(asker.user_id)
            if seat is None:
                raise GameError(msg("rematch.error.not_a_player"))
            # The seats as they ended (a computer that took a seat keeps it); drawn afresh at the start
            # from the new game's seed when the seating is random.
            seats = tuple(asker if i == seat else replace(s, name="") if s.level else s  # numbered afresh
                          for i, s in enumerate(last.seats))
            options = {k: v for k, v in last.options.items() if k != seating.LOBBY_SEATS}
            try:
                record = await self.channels.store.games.create_game(
                    guild_id=last.guild_id, channel_id=channel_id, game=last.game, host=asker,
                    locale=asker.locale, options=options, seed=dice.new_seed())
            except ChannelBusy:
                raise GameError(msg("error.channel_busy")) from None
            record = await self.channels.save(record, seats=seats)
        return Outcome(record, (msg("rematch.opened", seat=seat, game=msg(ruleset_of(record).name)),))

    async def _lobby(self, channel_id: int, game_id: int | None) -> GameRecord:
        record = await self.channels.store.games.open_game(channel_id)
        if record is None or (game_id is not None and record.id != game_id):
            raise GameError(msg("error.no_game"))
        if record.status != "lobby":
            raise GameError(msg("error.already_started"))
        return record
