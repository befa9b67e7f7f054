"""The request to take back a move once the turn has passed: the message that asks the player to move
(with Accept / Refuse), then the same message with their answer."""
from __future__ import annotations

from bot.domain import i18n
from bot.domain.session_results import Outcome, TakebackAsked, asked
from bot.present.post import Control, ControlKind, Post
from bot.present.words import fit, sentence

ANSWERS = ("yes", "no")


def request_post(outcome: Outcome) -> Post:
    record, loc = outcome.record, outcome.record.locale
    consent = record.seats[_request(outcome).consent_seat]
    lines = [sentence(record, event, loc) for event in outcome.events]
    lines.append(i18n.text("takeback.question", loc, player=f"<@{consent.user_id}>"))
    return Post(fit(lines), tuple(Control(ControlKind.TAKEBACK, i18n.text(f"button.takeback.{answer}", loc), answer)
                                  for answer in ANSWERS), mention=consent.user_id)


def answered_text(outcome: Outcome) -> str:
    """The request's text once answered: what was asked, then the answer (the outcome's first event)."""
    record, loc = outcome.record, outcome.record.locale
    return fit([sentence(record, event, loc) for event in (asked(_request(outcome)), outcome.events[0])])


def _request(outcome: Outcome) -> TakebackAsked:
    if outcome.takeback_asked is None:
        raise ValueError("not a take-back request or answer")
    return outcome.takeback_asked
