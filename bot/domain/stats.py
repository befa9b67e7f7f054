"""Per-server statistics from finished games: games, wins, win streaks,
classy victories, and an Elo rating per ruleset (no discord, no I/O).

Only games with a result count (status "finished"): games ended by the host
have no winner and are left out. Computer players are rated too (one rating
per level), so beating them counts, but only people are listed.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from bot.core.game_records import GameRecord
from bot.domain import ratings
from bot.games import get_ruleset

PlayerKey = int | str   # a user id, or "computer:<level>"


@dataclass
class Tally:
    games: int = 0
    wins: int = 0
    classy: int = 0
    streak: int = 0          # current run of wins
    best_streak: int = 0

    def add(self, won: bool, classy: bool) -> None:
        self.games += 1
        self.wins += won
        self.classy += won and classy
        self.streak = self.streak + 1 if won else 0
        self.best_streak = max(self.best_streak, self.streak)


@dataclass
class PlayerStats:
    overall: Tally = field(default_factory=Tally)
    by_game: dict[str, Tally] = field(default_factory=dict)
    rating: dict[str, float] = field(default_factory=dict)   # game id -> Elo


def player_key(record: GameRecord, seat: int) -> PlayerKey:
    s = record.seats[seat]
    return s.user_id if s.level is None else f"computer:{s.level}"


def compute(games: Iterable[GameRecord]) -> dict[PlayerKey, PlayerStats]:
    """Statistics of every player of `games` (finished games, oldest first)."""
    players: dict[PlayerKey, PlayerStats] = {}
    elo: dict[str, dict[PlayerKey, float]] = {}
    for record in games:
        result = record.result or {}
        if record.status != "finished" or not (result.get("winners") or result.get("draw")):
            continue
        ruleset = get_ruleset(record.game)
        n = len(record.seats)
        sides = ruleset.teams(n, record.options) or [(i,) for i in range(n)]
        winners = set(result.get("winners") or ())
        classy = bool((result.get("details") or {}).get("classy"))
        scores = [0.5 if result.get("draw") else float(side[0] in winners) for side in sides]
        for seat in range(n):
            stats = players.setdefault(player_key(record, seat), PlayerStats())
            won = seat in winners and not result.get("draw")
            stats.overall.add(won, classy)
            stats.by_game.setdefault(record.game, Tally()).add(won, classy)
        table = elo.setdefault(record.game, {})
        table.update(ratings.rate(table, [[player_key(record, s) for s in side] for side in sides], scores))
    for game, table in elo.items():
        for key, value in table.items():
            players[key].rating[game] = value
    return players


def people(players: dict[PlayerKey, PlayerStats]) -> dict[int, PlayerStats]:
    """The people among `players`: not the computers, nor those forgotten (a pseudonym, < 0:
    bot/services/privacy.py)."""
    return {key: stats for key, stats in players.items() if isinstance(key, int) and key > 0}


def leaderboard(players: dict[PlayerKey, PlayerStats], game: str | None = None,
                limit: int = 10) -> list[tuple[int, PlayerStats]]:
    """People ranked by rating in `game`, or by wins (then fewer games) over all games."""
    found = people(players)
    if game is not None:
        ranked = sorted(((k, s) for k, s in found.items() if game in s.rating), key=lambda ks: -ks[1].rating[game])
    else:
        ranked = sorted(found.items(), key=lambda ks: (-ks[1].overall.wins, ks[1].overall.games))
    return ranked[:limit]
