"""Who won, in words: the sentence a finished game's picture shows."""
from __future__ import annotations

from collections.abc import Sequence

from bot.domain import i18n
from bot.games.base import Result


def result_text(result: Result | None, names: Sequence[str], locale: str) -> str | None:
    """Who won (a team's two players together), or a draw; None while the game goes on. `names`: each seat's
    name as the picture writes it into a sentence (isolated, renderer.writing.isolate); a seat without one is
    named by its number."""
    if result is None:
        return None
    if result.draw:
        return i18n.text("picture.draw", locale)
    shown = [names[s] if s < len(names) else str(s + 1) for s in result.winners]
    if len(shown) == 1:
        return i18n.text("picture.winner", locale, player=shown[0])
    return i18n.text("picture.winners", locale, players=", ".join(shown[:-1]), last=shown[-1])
