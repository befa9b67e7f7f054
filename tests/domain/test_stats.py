"""Per-server statistics from finished games: counts, streaks, classy victories, ratings, leaderboard."""
from bot.core.game_records import GameRecord, Seat
from bot.domain import stats
from bot.domain.ratings import INITIAL, K

PEOPLE = {1: Seat(1, "ann"), 2: Seat(2, "bob"), 3: Seat(3, "cyd"), 4: Seat(4, "dee")}
_ids = iter(range(1, 1000))


def game(users, winners, game_id="parcheesi", status="finished", draw=False, classy=False, options=None):
    seats = tuple(PEOPLE[u] if isinstance(u, int) else Seat(0, "", level=u) for u in users)
    details = {"classy": True} if classy else {}
    return GameRecord(id=next(_ids), guild_id=9, channel_id=5, game=game_id, status=status, host_id=1,
                      locale="en", options=options or {}, seats=seats, seed="00" * 32, state={}, version=1,
                      result={"winners": list(winners), "draw": draw, "details": details})


def test_games_wins_streaks_and_classy_victories():
    games = [game([1, 2], [0]), game([1, 2], [0], "parchis-maghreb", classy=True), game([2, 1], [0]),
             game([1, 2], [0]), game([1, 2], [0]), game([1, 2], [0])]
    ann = stats.compute(games)[1]
    assert (ann.overall.games, ann.overall.wins, ann.overall.best_streak, ann.overall.classy) == (6, 5, 3, 1)
    assert ann.by_game["parchis-maghreb"].classy == 1 and ann.by_game["parcheesi"].games == 5
    assert ann.rating["parcheesi"] > INITIAL > stats.compute(games)[2].rating["parcheesi"]


def test_ended_games_and_games_without_a_result_do_not_count():
    players = stats.compute([game([1, 2], [], status="ended"), game([1, 2], [], status="finished")])
    assert players == {}


def test_draws_count_as_games_but_not_wins():
    bob = stats.compute([game([1, 2], [], draw=True)])[2]
    assert (bob.overall.games, bob.overall.wins) == (1, 0) and bob.rating["parcheesi"] == INITIAL


def test_teams_are_rated_together_and_computers_are_rated_but_not_listed():
    teams = game([1, 2, 3, "normal"], [0, 2], options={"teams": True})
    players = stats.compute([teams])
    assert players[1].rating["parcheesi"] == players[3].rating["parcheesi"] == INITIAL + K / 2
    assert players["computer:normal"].rating["parcheesi"] == INITIAL - K / 2
    assert set(stats.people(players)) == {1, 2, 3}


def test_leaderboard_by_rating_in_a_game_or_by_wins_overall():
    games = [game([1, 2], [1]), game([3, 1], [0]), game([3, 2], [0], "barricade")]
    players = stats.compute(games)
    by_wins = [user for user, _ in stats.leaderboard(players)]
    assert by_wins[0] == 3 and set(by_wins) == {1, 2, 3}
    assert [user for user, _ in stats.leaderboard(players, "barricade")] == [3, 2]
    assert stats.leaderboard(players, "pariti") == []
    assert len(stats.leaderboard(players, limit=1)) == 1
