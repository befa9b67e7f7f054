"""/game mine in words: the games waiting for a person (a link to each board, since when, the deadline),
then those waiting for someone else; and the short list a turn's direct message ends with."""
from __future__ import annotations

from collections.abc import Callable

from bot.domain import i18n
from bot.domain.positions import ruleset_of
from bot.domain.session_results import WaitingGame
from bot.games.base import msg
from bot.present.words import fit, say, seat_name

Link = Callable[[WaitingGame], str]   # the board's address (the front end knows how to link to a message)


def my_games_text(waiting: list[WaitingGame], others: list[WaitingGame], locale: str, link: Link,
                  private: bool = False) -> str:
    """`private`: the games in DMs and group DMs (asked there), else a server's."""
    if not waiting and not others:
        return i18n.text("claims.mine.none" if private else "mine.none", locale)
    lines = _yours(waiting, locale, link)
    if others:
        lines.append(i18n.text("mine.title_others", locale, count=len(others)))
        lines += [i18n.text(_line(g, "others"), locale, game=_game(g, locale), link=link(g),
                            channel=g.record.channel_id, player=seat_name(g.record, g.to_move, locale),
                            since=int(g.since))
                  for g in others]
    return fit(lines)


def turn_list(waiting: list[WaitingGame], locale: str, link: Link) -> str:
    """What a turn's direct message ends with when more than one game waits for the player ("" otherwise)."""
    return "\n".join(_yours(waiting, locale, link)) if len(waiting) > 1 else ""


def _yours(waiting: list[WaitingGame], locale: str, link: Link) -> list[str]:
    if not waiting:
        return []
    return [i18n.text("mine.title_yours", locale, count=len(waiting))] + [
        i18n.text(_line(g, "yours"), locale, game=_game(g, locale), link=link(g), channel=g.record.channel_id,
                  since=int(g.since))
        + (i18n.text("mine.deadline", locale, deadline=int(g.deadline)) if g.deadline is not None else "")
        for g in waiting]


def _line(game: WaitingGame, whose: str) -> str:
    """A game's line: in its channel on a server, or in a DM or group DM (which a channel mention cannot name)."""
    return f"claims.mine.{whose}" if game.record.guild_id is None else f"mine.{whose}"


def _game(game: WaitingGame, locale: str) -> str:
    return say(game.record, msg(ruleset_of(game.record).name), locale)
