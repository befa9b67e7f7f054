"""The text of one page of `/game history`: its title, one line per turn, and the result once over."""
from __future__ import annotations

from bot import history, i18n
from bot.games.base import msg
from bot.present.words import fit, result_line, say
from bot.services.base import ruleset_of
from bot.services.records import HistoryPage
from bot.store import GameRecord


def history_text(record: GameRecord, page: HistoryPage, loc: str) -> str:
    lines = [i18n.text("history.title", loc, game_id=record.id, game=msg(ruleset_of(record).name),
                       page=page.number + 1, pages=page.count)]
    lines += [_entry_text(record, entry, loc) for entry in page.entries] or [i18n.text("history.empty", loc)]
    if record.status != "active":
        lines.append(result_line(record, loc))
    return fit(lines)


def _entry_text(record: GameRecord, entry: history.Entry, loc: str) -> str:
    return " ".join(say(record, m, loc) for m in (entry.head, *entry.events))
