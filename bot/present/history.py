"""The text of one page of `/game history` (its title, one line per turn, and the result once over) and
the fair-dice announcements: the seed's commitment when a game starts, the seed itself once it is over."""
from __future__ import annotations

from bot.core.game_records import GameRecord
from bot.domain import dice, i18n, retelling, seating
from bot.domain.positions import ruleset_of
from bot.domain.retelling import HistoryPage
from bot.games.base import msg
from bot.present.words import fit, result_line, say


def history_text(record: GameRecord, page: HistoryPage, loc: str) -> str:
    lines = [i18n.text("history.title", loc, game_id=record.id, game=msg(ruleset_of(record).name),
                       page=page.number + 1, pages=page.count)]
    lines += [_entry_text(record, entry, loc) for entry in page.entries] or [i18n.text("history.empty", loc)]
    if record.status != "active":
        lines.append(result_line(record, loc))
    return fit(lines)


def _entry_text(record: GameRecord, entry: retelling.Entry, loc: str) -> str:
    return " ".join(say(record, m, loc) for m in (entry.head, *entry.events))


def fair_dice_text(record: GameRecord, over: bool) -> str:
    """The seed's commitment when the game starts; once it is `over`, the seed itself."""
    # Games without dice still draw their set-up from the seed (Pariti's placement).
    setup = "" if ruleset_of(record).has_dice else "_setup"
    # Seats drawn at random come from the same seed.
    also = " " + i18n.text("fair.seating_too", record.locale) if seating.drawn(record) is not None else ""
    commitment = dice.commitment(record.seed)
    if not over:   # the seed stays secret until the end
        return i18n.text(f"fair.commitment{setup}", record.locale, commitment=commitment) + also
    return i18n.text(f"fair.reveal{setup}", record.locale, game_id=record.id, seed=record.seed,
                     commitment=commitment) + also
