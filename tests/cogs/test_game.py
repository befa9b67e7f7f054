"""The /game commands as Discord sees them (their options are a contract: options are only added)."""
from bot.cogs.game import GameCog


def test_game_new_offers_seating_after_its_earlier_options():
    """PM-1.9, MG-2.2, PA-3.1: seating is chosen at creation; left out, it is random."""
    options = {p.name: p for p in GameCog.new.parameters}
    assert list(options)[:5] == ["game", "teams", "turn_time", "seating", "thread"]   # thread: its own thread
    seating = options["seating"]
    assert not seating.required and [c.value for c in seating.choices] == ["random", "lobby"]
    assert seating.choices[0].name == "random (drawn when the game starts)"


def test_game_new_offers_the_game_s_language_last():
    options = {p.name: p for p in GameCog.new.parameters}
    assert list(options) == ["game", "teams", "turn_time", "seating", "thread", "language"]
    assert not options["language"].required and [c.value for c in options["language"].choices] == ["en", "fr"]
