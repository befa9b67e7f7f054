"""Attachment descriptions (alt text) of the board and replay pictures, so that screen readers follow the
game: which game, whose turn and the dice, each player's pieces in brief (the ruleset's own description of
the position), in the message's language, within the length Discord allows."""
from __future__ import annotations

from bot import i18n
from bot.games.base import msg
from bot.present.words import result_line, say
from bot.services.base import ruleset_of
from bot.game_records import GameRecord

ALT_TEXT_LIMIT = 1024        # Discord's longest attachment description


def board_alt(record: GameRecord, locale: str | None = None) -> str:
    """The board picture in words: the game, then the position as /game status tells it."""
    loc = locale or record.locale
    ruleset = ruleset_of(record)
    lines = [i18n.text("alt.board", loc, game=say(record, msg(ruleset.name), loc))]
    if record.status != "active":
        lines.append(result_line(record, loc))
    lines += [say(record, line, loc) for line in ruleset.describe(ruleset.from_json(record.state))]
    return bounded(lines)


def replay_alt(record: GameRecord, moves: int, locale: str | None = None) -> str:
    """The replay GIF in words: which game, how many moves it shows, how it ended."""
    loc = locale or record.locale
    game = say(record, msg(ruleset_of(record).name), loc)
    return bounded([i18n.text("alt.replay", loc, game=game, count=moves), result_line(record, loc)])


def bounded(lines: list[str], limit: int = ALT_TEXT_LIMIT) -> str:
    """The lines as one text of at most `limit` characters, cut at a word with "…" when longer."""
    text = " ".join(line for line in lines if line)
    if len(text) <= limit:
        return text
    cut = text[:limit - 1]
    return (cut[:cut.rfind(" ")] if " " in cut else cut) + "…"
