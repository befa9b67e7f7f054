"""Elo for two or more sides, teams rated by their average."""
import pytest

from bot.domain.ratings import INITIAL, K, expected, rate


def test_a_duel_between_equals_moves_half_of_k():
    new = rate({}, [["a"], ["b"]], [1, 0])
    assert new["a"] == pytest.approx(INITIAL + K / 2) and new["b"] == pytest.approx(INITIAL - K / 2)


def test_an_upset_moves_more_than_the_expected_result():
    favourite, outsider = 1700.0, 1500.0
    assert expected(favourite, outsider) == pytest.approx(0.76, abs=0.01)
    upset = rate({"f": favourite, "o": outsider}, [["f"], ["o"]], [0, 1])
    win = rate({"f": favourite, "o": outsider}, [["f"], ["o"]], [1, 0])
    assert upset["o"] - outsider > win["f"] - favourite > 0


def test_a_draw_between_equals_changes_nothing_and_pulls_unequals_together():
    assert rate({}, [["a"], ["b"]], [0.5, 0.5]) == {"a": INITIAL, "b": INITIAL}
    new = rate({"a": 1600.0, "b": 1400.0}, [["a"], ["b"]], [0.5, 0.5])
    assert new["a"] < 1600 and new["b"] > 1400


def test_four_players_winner_takes_from_each_loser_and_losers_do_not_play_each_other():
    new = rate({}, [["a"], ["b"], ["c"], ["d"]], [1, 0, 0, 0])
    assert new["a"] == pytest.approx(INITIAL + K / 2)
    assert new["b"] == new["c"] == new["d"] == pytest.approx(INITIAL - K / 6)
    assert sum(new.values()) == pytest.approx(4 * INITIAL)


def test_teams_play_at_their_average_and_share_the_change():
    new = rate({"a": 1600.0, "b": 1400.0}, [["a", "b"], ["c", "d"]], [1, 0])
    assert new["a"] - 1600 == pytest.approx(new["b"] - 1400) == pytest.approx(K / 2)
    assert new["c"] == new["d"] == pytest.approx(INITIAL - K / 2)
