"""The words of /game privacy and /game forget: what Tablero keeps about a person and for how long, the
question before forgetting them and what forgetting did; for that person alone, in their language."""
from __future__ import annotations

from bot.domain import i18n
from bot.domain.session_results import Forgotten, Kept


def kept_text(kept: Kept, retain_days: int, locale: str) -> str:
    return i18n.text("privacy.kept", locale, games=kept.games, open_games=kept.open_games, actions=kept.actions,
                     away_periods=kept.away_periods, retain_days=retain_days,
                     notifications=i18n.text("privacy.yes" if kept.notifications else "privacy.no", locale))


def forget_question(kept: Kept, locale: str) -> str:
    return i18n.text("privacy.forget_question", locale, games=kept.games, open_games=kept.open_games)


def forgotten_text(forgotten: Forgotten, locale: str) -> str:
    return i18n.text("privacy.forgotten", locale, games=forgotten.games, resigned=len(forgotten.resigned))
