"""The vote on a seat whose turns keep expiring: the message that opens it (with a control per choice),
then the same message with the tally or the decision."""
from __future__ import annotations

from bot.core.game_records import GameRecord
from bot.domain import deadline_math, i18n
from bot.domain.session_results import Outcome
from bot.games.base import msg
from bot.present.post import Control, ControlKind, Post
from bot.present.words import fit, say


def vote_post(record: GameRecord, seat: int) -> Post:
    loc = record.locale
    return Post(_opened(record, seat),
                tuple(Control(ControlKind.VOTE, i18n.text(f"timers.vote.button.{choice}", loc), choice)
                      for choice in deadline_math.VOTE_CHOICES))


def vote_text(outcome: Outcome) -> str:
    """After a vote: the tally while undecided, else the decision (the outcome's first event)."""
    record, vote = outcome.record, outcome.vote
    if vote is None:
        raise ValueError("not a vote")
    lines = [_opened(record, vote.seat)]
    if vote.decided is None:
        lines.append(i18n.text("timers.vote.tally", record.locale, voters=vote.voters, **vote.tally))
    else:
        lines.append(say(record, outcome.events[0], record.locale))
    return fit(lines)


def _opened(record: GameRecord, seat: int) -> str:
    return say(record, msg("timers.vote.opened", seat=seat, count=deadline_math.VOTE_AFTER), record.locale)
