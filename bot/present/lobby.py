"""The lobby message: the game, its options, who sits where, and the lobby's buttons while it is open."""
from __future__ import annotations

from typing import Any

from bot.core.game_records import GameRecord
from bot.domain import deadline_math, dice, i18n, seating
from bot.domain.positions import ruleset_of
from bot.games.base import Ruleset, msg
from bot.present.post import Control, ControlKind, Post
from bot.present.words import fit, say, seat_name

LOBBY_VERBS = ("join", "leave", "add-bot", "start")


def lobby_post(record: GameRecord) -> Post:
    """The lobby while it is open; once the game started, what it became: who sits where, with
    their colours; a lobby closed before the start says so."""
    loc = record.locale
    ruleset = ruleset_of(record)
    n = len(record.seats)
    colours = ruleset.seat_colours(max(n, ruleset.player_range(record.options)[0]), record.options)
    started = record.state is not None
    drawn = seating.of(record) == seating.RANDOM and not started
    title = "lobby.started_title" if started else "lobby.title"
    lines = [f"**{say(record, msg(ruleset.name), loc)}** — " + i18n.text(title, loc)]
    if record.options.get("teams") and drawn:
        sides = [seating.side(ruleset, colours, i) for i in range(len(colours))]
        teams = seating.listed(ruleset, len(colours), record.options, sides)
        lines.append(say(record, msg("lobby.teams_random", teams=teams), loc))
    elif record.options.get("teams"):
        lines.append(i18n.text("lobby.teams", loc))
    if record.options.get("turn_time"):
        lines.append(say(record, deadline_math.settings_message(record.options), loc))
    if drawn:
        lines.append(i18n.text("lobby.seating_random", loc, commitment=dice.commitment(record.seed)))
    elif started and seating.of(record) == seating.RANDOM:
        lines.append(i18n.text("lobby.seating_drawn", loc))
    elif "seating" in record.options:   # lobbies opened before the option: as they always were
        lines.append(i18n.text("lobby.seating_lobby", loc))
    for i, seat in enumerate(record.seats):
        who = i18n.opening(seat_name(record, i, loc)) if seat.level else f"<@{seat.user_id}>"
        host = " " + i18n.text("lobby.host", loc) if seat.level is None and seat.user_id == record.host_id else ""
        # Colours are given at the start (how many play changes them): an open lobby in lobby order says
        # what sets a seat apart (Pariti's parity) and who plays first.
        notes = ", ".join(_notes(ruleset, i, loc)) if not drawn else ""
        side = " — " + _lobby_side(ruleset, colours, i, loc) if started else f" — {notes}" if notes else ""
        lines.append(f"{i + 1}. {who}{side}{host}")
    if record.status == "lobby":
        low, high = ruleset.player_range(record.options)
        players = i18n.text("lobby.players_exact" if low == high else "lobby.players_range", loc, min=low, max=high)
        lines.append(i18n.text("lobby.help", loc, players=players))
    elif not started:
        lines.append(i18n.text("lobby.closed_notice", loc))
    controls = tuple(Control(ControlKind.LOBBY, i18n.text(f"lobby.button.{verb}", loc), verb) for verb in LOBBY_VERBS) \
        if record.status == "lobby" else ()
    return Post(fit(lines), controls)


def _lobby_side(ruleset: Ruleset[Any], colours: list[tuple[str, ...]], seat: int, loc: str) -> str:
    """A lobby-order seat's colours, what sets it apart (Pariti's parity) and whether it plays first."""
    if seat >= len(colours):
        return "?"
    text = " + ".join(i18n.text(f"colour.{c}", loc) for c in colours[seat])
    notes = _notes(ruleset, seat, loc)
    return f"{text} ({', '.join(notes)})" if notes else text


def _notes(ruleset: Ruleset[Any], seat: int, loc: str) -> list[str]:
    """What sets a lobby-order seat apart besides its colours: its role (Pariti's parity), playing first."""
    notes = [i18n.render(role, loc)] if (role := ruleset.seat_role(seat)) is not None else []
    if seat == 0 and not ruleset.order_by_dice:
        notes.append(i18n.text("lobby.plays_first", loc))
    return notes
