"""The text of /stats (one player's record) and /leaderboard (the server's players, ranked; or a DM or group
DM's)."""
from __future__ import annotations

from bot.domain import i18n
from bot.domain.stats import PlayerStats
from bot.games.base import msg


def stats_text(found: PlayerStats | None, player: str, loc: str, private: bool = False) -> str:
    """`player`'s games, wins, streaks and ratings per game; `player` is how the front end names them.
    `private`: the games of a DM or group DM (asked there), else a server's."""
    where = "claims." if private else ""
    if found is None:
        return i18n.text(f"{where}stats.none", loc, player=player)
    total = found.overall
    lines = [i18n.text(f"{where}stats.title", loc, player=player),
             i18n.text("stats.summary", loc, games=total.games, wins=total.wins,
                       streak=total.best_streak, classy=total.classy)]
    for game, tally in sorted(found.by_game.items()):
        lines.append(i18n.text("stats.game", loc, game=msg(f"game.{game}"), rating=round(found.rating[game]),
                               games=tally.games, wins=tally.wins, streak=tally.best_streak))
    return "\n".join(lines)


def leaderboard_text(ranked: list[tuple[int, PlayerStats]], game_id: str | None, loc: str,
                     private: bool = False) -> str:
    """The ranking by wins over every game, or by rating in `game_id` (`private`: of a DM or group DM)."""
    if not ranked:
        return i18n.text("claims.leaderboard.empty" if private else "leaderboard.empty", loc)
    if game_id is None:
        return "\n".join([i18n.text("leaderboard.title_all", loc)] + [
            i18n.text("leaderboard.row_all", loc, rank=rank, player=f"<@{user}>", wins=s.overall.wins,
                      games=s.overall.games, streak=s.overall.best_streak)
            for rank, (user, s) in enumerate(ranked, start=1)])
    return "\n".join([i18n.text("leaderboard.title", loc, game=msg(f"game.{game_id}"))] + [
        i18n.text("leaderboard.row", loc, rank=rank, player=f"<@{user}>", rating=round(s.rating[game_id]),
                  wins=s.by_game[game_id].wins, games=s.by_game[game_id].games)
        for rank, (user, s) in enumerate(ranked, start=1)])
