"""Attachment descriptions (alt text) of the board and replay pictures, so that screen readers follow the
game: which game, what happened since the player's last turn, who plays with whom, the position in brief
(the ruleset's own description of it), in the message's language, within the length Discord allows."""
from __future__ import annotations

from collections.abc import Sequence

from bot import i18n
from bot.games.base import Message, msg
from bot.present.words import result_line, say, seat_name
from bot.services.base import ruleset_of
from bot.game_records import GameRecord

ALT_TEXT_LIMIT = 1024        # Discord's longest attachment description
# The keys (their ends) of the lines of a ruleset's description that say whose turn it is or how the game
# ended: a finished game's result line says it once instead (a resigned game's position would still name a
# player to move).
TURN_AND_RESULT_LINES = (".describe.over", ".describe.winner", ".describe.classy_winner", ".describe.to_roll",
                         ".describe.to_play", ".describe.to_move", ".describe.roll", ".describe.roll_due",
                         ".describe.move", ".describe.order", ".describe.extra_roll", ".describe.six",
                         "pariti.event.draw", "pariti.event.win")


def board_alt(record: GameRecord, locale: str | None = None, said: Sequence[str] = ()) -> str:
    """The board picture in words: the game, what happened since the player to move last played (`said`:
    the board message's sentences), the partners of a team game, then the position as /game status tells
    it; a finished game's result once, in place of whose turn it was."""
    loc = locale or record.locale
    ruleset = ruleset_of(record)
    lines = [i18n.text("alt.board", loc, game=say(record, msg(ruleset.name), loc)), *said, partners_line(record, loc)]
    described: list[Message] = ruleset.describe(ruleset.from_json(record.state))
    if record.status != "active":
        lines.append(result_line(record, loc))
        described = [line for line in described if not line.key.endswith(TURN_AND_RESULT_LINES)]
    lines += [say(record, line, loc) for line in described]
    return bounded(lines)


def partners_line(record: GameRecord, loc: str) -> str:
    """Who plays with whom in a team game ("Partners: Ann and Cleo; Bob and Dan."), else ""."""
    teams = ruleset_of(record).teams(len(record.seats), record.options)
    if not teams or all(len(team) == 1 for team in teams):
        return ""
    names = [i18n.text("alt.team", loc, first=seat_name(record, team[0], loc),
                       rest=", ".join(seat_name(record, seat, loc) for seat in team[1:])) for team in teams]
    return i18n.text("alt.partners", loc, teams=i18n.text("alt.teams_separator", loc).join(names))


def replay_alt(record: GameRecord, moves: int, locale: str | None = None) -> str:
    """The replay GIF in words: which game, how many actions it shows (moves only, in a game without
    dice), how it ended."""
    loc = locale or record.locale
    ruleset = ruleset_of(record)
    game = say(record, msg(ruleset.name), loc)
    key = "alt.replay" if ruleset.has_dice else "alt.replay_moves"
    return bounded([i18n.text(key, loc, game=game, count=moves), result_line(record, loc)])


def bounded(lines: list[str], limit: int = ALT_TEXT_LIMIT) -> str:
    """The lines as one text of at most `limit` characters, cut at a word with "…" when longer."""
    text = " ".join(line for line in lines if line)
    if len(text) <= limit:
        return text
    cut = text[:limit - 1]
    return (cut[:cut.rfind(" ")] if " " in cut else cut) + "…"
