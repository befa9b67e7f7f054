"""Attachment descriptions (alt text) of the board and its animation, so that screen readers follow the
game, in the message's language, within the length Discord allows: what a player needs to act first (whose
turn, the dice, what may be done now, their own pieces), then the rest of the position (the ruleset's own
description of it, as /game status tells it) and the partners, then what happened since the player to
move last played, its oldest sentences left out when the whole would be too long."""
from __future__ import annotations

from collections.abc import Sequence

from bot.core.game_records import GameRecord
from bot.domain import i18n
from bot.domain.positions import position, ruleset_of
from bot.games.base import Message, msg
from bot.present.words import result_line, say, seat_name

ALT_TEXT_LIMIT = 1024        # Discord's longest attachment description
# The keys (their ends) of the lines of a ruleset's description that say whose turn it is or how the game
# ended: they come first; a finished game's result line says it once instead (a resigned game's position
# would still name a player to move).
TURN_AND_RESULT_LINES = (".describe.over", ".describe.winner", ".describe.classy_winner", ".describe.to_roll",
                         ".describe.to_play", ".describe.to_play_bonus", ".describe.to_move", ".describe.roll",
                         ".describe.roll_due", ".describe.move", ".describe.order", ".describe.extra_roll",
                         ".describe.six", ".describe.play_die", ".describe.play_count", "pariti.event.draw",
                         "pariti.event.win")


def board_alt(record: GameRecord, locale: str | None = None, said: Sequence[str] = ()) -> str:
    """The board picture in words: the game; whose turn it is and the dice (a finished game's result once,
    in their place); what may be done now (the position's notes); the pieces of the player to move, then
    the others'; the partners of a team game; then what happened since the player to move last played
    (`said`: the board message's sentences), shortened to fit (story)."""
    loc = locale or record.locale
    ruleset, state = position(record)
    described: list[Message] = ruleset.describe(state)
    turn = [line for line in described if line.key.endswith(TURN_AND_RESULT_LINES)]
    notes = [line for line in described if ".note." in line.key and line not in turn]
    rest = [line for line in described if line not in turn and line not in notes]
    if record.status != "active":
        first = [result_line(record, loc)]
    else:
        to_move = ruleset.to_move(state)
        first = [say(record, line, loc) for line in turn]
        rest = own_first(rest, to_move)
    lines = [i18n.text("alt.board", loc, game=say(record, msg(ruleset.name), loc)), *first,
             *(say(record, line, loc) for line in notes + rest), partners_line(record, loc)]
    position_text = bounded(lines)
    return bounded([position_text, story(said, ALT_TEXT_LIMIT - len(position_text) - 1, loc)])


def own_first(lines: list[Message], seat: int | None) -> list[Message]:
    """The position's lines with those of `seat` first: a line naming a seat and the lines of pieces after
    it (Maghreb's side, then its pieces) go together, in the ruleset's order otherwise."""
    if seat is None:
        return lines
    groups: list[list[Message]] = []
    for line in lines:
        if groups and "seat" not in line.params and "piece" in line.params and "seat" in groups[-1][0].params:
            groups[-1].append(line)
        else:
            groups.append([line])
    groups.sort(key=lambda group: group[0].params.get("seat") != seat)
    return [line for group in groups for line in group]


def story(said: Sequence[str], room: int, loc: str) -> str:
    """The sentences `said` in at most `room` characters: all, or the latest that fit after a word of how
    many earlier ones are left out."""
    said = [line for line in said if line]
    if len(" ".join(said)) <= room:
        return " ".join(said)
    kept: list[str] = []
    for line in reversed(said):
        cut = i18n.text("alt.story_cut", loc, count=len(said) - len(kept) - 1)
        if len(" ".join([cut, line, *kept])) > room:
            break
        kept.insert(0, line)
    text = " ".join([i18n.text("alt.story_cut", loc, count=len(said) - len(kept)), *kept])
    return text if len(text) <= room else ""


def partners_line(record: GameRecord, loc: str) -> str:
    """Who plays with whom in a team game ("Partners: Ann and Cleo; Bob and Dan."), else ""."""
    teams = ruleset_of(record).teams(len(record.seats), record.options)
    if not teams or all(len(team) == 1 for team in teams):
        return ""
    # Each team is a part of the sentence, not one of its own: our words leading it keep their small letter
    # after the separator ("…; l’ordinateur (facile) avec Dan").
    names = [i18n.render(msg("alt.team", first=seat_name(record, team[0], loc),
                             rest=", ".join(seat_name(record, seat, loc) for seat in team[1:])), loc, nested=True)
             for team in teams]
    return i18n.text("alt.partners", loc, teams=i18n.text("alt.teams_separator", loc).join(names))


def animation_alt(record: GameRecord, moves: int, locale: str | None = None) -> str:
    """The animated GIF in words: which game, how many actions it shows (moves only, in a game without
    dice), how it ended."""
    loc = locale or record.locale
    ruleset = ruleset_of(record)
    game = say(record, msg(ruleset.name), loc)
    key = "alt.animation" if ruleset.has_dice else "alt.animation_moves"
    return bounded([i18n.text(key, loc, game=game, count=moves), result_line(record, loc)])


def bounded(lines: list[str], limit: int = ALT_TEXT_LIMIT) -> str:
    """The lines as one text of at most `limit` characters, cut at a word with "…" when longer."""
    text = " ".join(line for line in lines if line)
    if len(text) <= limit:
        return text
    cut = text[:limit - 1]
    return (cut[:cut.rfind(" ")] if " " in cut else cut) + "…"
