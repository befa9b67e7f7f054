"""A server's defaults of new games in words (`/game defaults`)."""
from __future__ import annotations

from typing import Any

from bot.domain import deadline_math, i18n
from bot.domain.seating import RANDOM


def defaults_text(options: dict[str, Any], locale: str) -> str:
    """What a new game on the server gets unless its /game new options say otherwise."""
    return "\n".join([
        i18n.text("defaults.title", locale),
        i18n.render(deadline_math.settings_message(options), locale),
        i18n.text("defaults.seating", locale,
                  seating=i18n.text(f"choice.seating.{options.get('seating', RANDOM)}", locale)),
        i18n.text("defaults.language", locale, language=i18n.text(
            f"choice.language.{options['language']}" if "language" in options else "defaults.language_server", locale)),
    ])
