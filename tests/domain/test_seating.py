"""Who sits where (bot/domain/seating.py): seats drawn from the game's seed by default, or the lobby's order.

PM-1.9, MG-2.2 and PA-3.1 give each person's colour, and who plays first, "when the game is created,
randomly if nobody chooses"; `/game new seating:` is the choice."""
import dataclasses
import hashlib

import pytest

from bot.core.game_records import Seat
from bot.domain import dice, seating
from bot.domain.player_actions import ROLL
from bot.domain.verify import verify
from bot.games import get_ruleset
from bot.games.base import GameError
from bot.present.lobby import lobby_post
from bot.present.words import say
from bot.services import Sessions
from bot.store import Store

CHANNEL = 7
ANN, BOB, CY, DEE = (Seat(i, n) for i, n in enumerate(["Ann", "Bob", "Cy", "Dee"], start=1))


@pytest.fixture
async def sessions(tmp_path):
    store = await Store.open(str(tmp_path / "s.sqlite3"))
    yield Sessions(store, think_budget_s=0.05)
    await store.close()


def seed_giving(order: list[int]) -> str:
    """A seed whose draw seats the lobby's places in `order` (found among fixed seeds: no flakiness)."""
    return next(seed for i in range(10_000) if dice.seat_order(seed := hashlib.sha256(b"%d" % i).hexdigest(),
                                                               len(order)) == order)


async def lobby(sessions, game: str, players, monkeypatch=None, order=None, **options):
    """A lobby of `players` (the first is the host), its seed chosen to draw `order` when given."""
    if order is not None:
        monkeypatch.setattr(dice, "new_seed", lambda: seed_giving(order))
    await sessions.lobby.create(channel_id=CHANNEL, guild_id=1, host=players[0], game=game, options=options)
    for player in players[1:]:
        await sessions.lobby.join(CHANNEL, player)
    return await sessions.channels.current(CHANNEL)


def names(record) -> list[str]:
    return [s.name for s in record.seats]


def text(record, message, locale="en") -> str:
    return say(record, message, locale)


# --- the draw ------------------------------------------------------------------------

async def test_random_seating_is_the_default_and_draws_the_seats_from_the_seed(sessions):
    """PM-1.9: nobody chose, so the colours are drawn; the draw is the seed's permutation of the lobby."""
    before = await lobby(sessions, "parcheesi", (ANN, BOB, CY, DEE))
    assert before.options["seating"] == "random"
    outcome = await sessions.lobby.start(CHANNEL, ANN.user_id)
    order = dice.seat_order(before.seed, 4)
    assert list(outcome.record.seats) == [before.seats[place] for place in order]
    assert sorted(names(outcome.record)) == ["Ann", "Bob", "Cy", "Dee"]
    assert outcome.record.options[seating.LOBBY_SEATS] == [s.to_json() for s in before.seats]
    assert outcome.record.host_id == ANN.user_id, "the host stays the host wherever he sits"


async def test_lobby_seating_keeps_the_join_order(sessions):
    """PM-1.9: the host chose the lobby's order: the host is yellow and plays first (PM-3.1)."""
    await lobby(sessions, "parcheesi", (ANN, BOB, CY), seating="lobby")
    record = (await sessions.lobby.start(CHANNEL, ANN.user_id)).record
    assert names(record) == ["Ann", "Bob", "Cy"] and seating.LOBBY_SEATS not in record.options
    assert get_ruleset("parcheesi").to_move(get_ruleset("parcheesi").from_json(record.state)) == 0


@pytest.mark.parametrize("game, rule", [("parcheesi", "PM-1.9"), ("parcheesi-classic", "PC-3.1"),
                                        ("parchis-maghreb", "MG-2.2"), ("pariti", "PA-3.1")])
async def test_the_seed_can_give_the_first_turn_to_the_guest(sessions, monkeypatch, game, rule):
    """The host no longer always plays first: whoever the draw seats first does (yellow, blue, player 1
    with red and green, the even numbers)."""
    await lobby(sessions, game, (ANN, BOB), monkeypatch, order=[1, 0])
    outcome = await sessions.lobby.start(CHANNEL, ANN.user_id)
    ruleset = get_ruleset(game)
    assert names(outcome.record) == ["Bob", "Ann"], rule
    assert ruleset.to_move(ruleset.from_json(outcome.record.state)) == 0
    assert outcome.record.seats[0] == BOB


async def test_a_pariti_guest_drawn_first_has_the_even_numbers_and_the_first_board_says_so(sessions, monkeypatch):
    """PA-1.3, PA-3.1: the first player has the even numbers and moves first."""
    await lobby(sessions, "pariti", (ANN, BOB), monkeypatch, order=[1, 0])
    outcome = await sessions.lobby.start(CHANNEL, ANN.user_id)
    said = [text(outcome.record, event) for event in outcome.events]
    assert "Seats drawn at random: Bob (even numbers), Ann (odd numbers). Bob plays first." in said
    assert "Places tirées au sort\u00a0: Bob (nombres pairs), Ann (nombres impairs). Bob joue en premier." in \
        [text(outcome.record, event, "fr") for event in outcome.events]


async def test_with_teams_the_draw_makes_the_teams_too(sessions, monkeypatch):
    """PM-10.1: seats 0 and 2 (yellow and red) play against 1 and 3; drawing the seats draws the teams.
    Here the host's partner is the last to join, not the second."""
    await lobby(sessions, "parcheesi", (ANN, BOB, CY, DEE), monkeypatch, order=[0, 1, 3, 2], teams=True)
    outcome = await sessions.lobby.start(CHANNEL, ANN.user_id)
    record = outcome.record
    assert names(record) == ["Ann", "Bob", "Dee", "Cy"]
    assert get_ruleset("parcheesi").teams(4, record.options) == [(0, 2), (1, 3)]
    assert "Teams drawn at random: Ann (yellow) and Dee (red) against Bob (blue) and Cy (green). Ann plays first." \
        in [text(record, event) for event in outcome.events]


async def test_a_team_lobby_says_the_teams_are_drawn(sessions):
    record = await lobby(sessions, "parcheesi", (ANN, BOB), teams=True)
    content = lobby_post(record).content
    assert "Two against two: yellow and red against blue and green. The teams are drawn at random with the seats." \
        in content
    assert "seats 1 and 3" not in content


async def test_computers_are_drawn_like_people(sessions, monkeypatch):
    await lobby(sessions, "parcheesi", (ANN,), monkeypatch, order=[1, 2, 0])
    await sessions.lobby.add_computer(CHANNEL, ANN.user_id, "easy")
    await sessions.lobby.add_computer(CHANNEL, ANN.user_id, "hard")
    outcome = await sessions.lobby.start(CHANNEL, ANN.user_id)
    assert [s.level for s in outcome.record.seats] == ["easy", "hard", None]
    # Both computers played before Ann's first turn; the first board tells it after the seating.
    keys = [event.key for event in outcome.events]
    assert keys[:2] == ["game.started", "seating.random"] and len(keys) > 2
    assert "Seats drawn at random: Computer (easy, yellow), Computer (hard, blue), Ann (red). " \
           "Computer (easy) plays first." in [text(outcome.record, e) for e in outcome.events]


async def test_barricade_draws_the_colours_and_rolls_for_the_order_of_play(sessions, monkeypatch):
    """BA-2.2: the order of play is rolled for in the game, whatever the seats."""
    await lobby(sessions, "barricade", (ANN, BOB, CY), monkeypatch, order=[2, 0, 1])
    outcome = await sessions.lobby.start(CHANNEL, ANN.user_id)
    said = [text(outcome.record, event) for event in outcome.events]
    assert "Seats drawn at random: Cy (red), Ann (green), Bob (yellow). Everyone rolls the die for the order of play." \
        in said
    lobby_text = lobby_post(await lobby_again(sessions, "barricade", seating="lobby")).content
    assert "plays first" not in lobby_text


async def lobby_again(sessions, game, **options):
    await sessions.endings.end(CHANNEL, ANN.user_id, can_manage=True)
    return await lobby(sessions, game, (ANN, BOB), **options)


async def test_an_unknown_seating_is_refused(sessions):
    with pytest.raises(GameError) as refused:
        await sessions.lobby.create(channel_id=CHANNEL, guild_id=1, host=ANN, game="parcheesi",
                                    options={"seating": "alphabetical"})
    assert refused.value.message.key == "error.bad_seating"
    assert await sessions.store.games.open_game(CHANNEL) is None


# --- what the lobby says --------------------------------------------------------------

async def test_the_lobby_says_seats_are_drawn_and_shows_the_seed_fingerprint(sessions):
    record = await lobby(sessions, "parcheesi", (ANN, BOB))
    content = lobby_post(record).content
    assert "Seats are drawn at random when the game starts" in content
    assert dice.commitment(record.seed) in content, "the draw's seed is committed before anyone joins"
    assert "1. <@1> (host)" in content and "yellow" not in content, "colours are not known before the draw"


async def test_a_lobby_order_lobby_says_who_plays_first_and_gives_colours_once_started(sessions):
    """The colours depend on how many play: an open lobby names none (they changed as players joined)."""
    record = await lobby(sessions, "parcheesi", (ANN, BOB), seating="lobby")
    content = lobby_post(record).content
    assert "Seats follow the lobby order" in content
    assert "1. <@1> — plays first (host)" in content and "yellow" not in content
    started = lobby_post((await sessions.lobby.start(CHANNEL, ANN.user_id)).record).content
    assert "1. <@1> — yellow (plays first) (host)" in started and "2. <@2> — red" in started
    assert dice.commitment(record.seed) not in content


# --- verification ------------------------------------------------------------------------

async def test_verify_recomputes_the_seating_from_the_revealed_seed(sessions, monkeypatch):
    """PM-1.9: after the game, anyone can check the draw: seed + lobby order give the seats."""
    await lobby(sessions, "parcheesi", (ANN, BOB, CY), monkeypatch, order=[2, 0, 1])
    record = (await sessions.lobby.start(CHANNEL, ANN.user_id)).record
    record = (await sessions.play.act(CHANNEL, record.seats[0].user_id, ROLL)).record
    record = (await sessions.endings.resign(CHANNEL, BOB.user_id)).record          # a computer takes Bob's seat
    record = (await sessions.endings.end(CHANNEL, ANN.user_id, can_manage=False)).record
    actions = await sessions.store.games.actions(record.id)
    result = verify(get_ruleset("parcheesi"), record, actions)
    assert result.ok and result.seating_matches is True
    assert [s.name for s in seating.drawn(record)] == ["Cy", "Ann", "Bob"]


async def test_verify_catches_seats_that_are_not_the_seed_s_draw(sessions, monkeypatch):
    await lobby(sessions, "pariti", (ANN, BOB), monkeypatch, order=[1, 0])
    record = (await sessions.lobby.start(CHANNEL, ANN.user_id)).record
    swapped = dataclasses.replace(record, seats=record.seats[::-1])       # the host put himself first
    result = verify(get_ruleset("pariti"), swapped, [])
    assert result.seating_matches is False and not result.ok
    assert verify(get_ruleset("pariti"), record, []).ok


async def test_lobby_seating_has_nothing_to_verify(sessions):
    await lobby(sessions, "pariti", (ANN, BOB), seating="lobby")
    record = (await sessions.lobby.start(CHANNEL, ANN.user_id)).record
    result = verify(get_ruleset("pariti"), record, [])
    assert result.ok and result.seating_matches is None


# --- games stored before the option ---------------------------------------------------------

async def test_a_game_stored_before_the_option_loads_plays_and_verifies_in_its_lobby_order(sessions):
    """Stored games have no `seating`: they were seated in lobby order; nothing to migrate."""
    await lobby(sessions, "parcheesi", (ANN, BOB), seating="lobby")
    record = (await sessions.lobby.start(CHANNEL, ANN.user_id)).record
    old = {k: v for k, v in record.options.items() if k != "seating"}
    await sessions.store.games.update_game(record, options=old)
    record = await sessions.channels.current(CHANNEL)
    assert "seating" not in record.options and seating.of(record) == seating.LOBBY
    record = (await sessions.play.act(CHANNEL, ANN.user_id, ROLL)).record
    result = verify(get_ruleset("parcheesi"), record, await sessions.store.games.actions(record.id))
    assert result.final_state_matches and result.seating_matches is None


async def test_a_lobby_opened_before_the_option_starts_in_its_order_and_shows_its_colours(sessions):
    await lobby(sessions, "parcheesi", (ANN, BOB))
    record = await sessions.channels.current(CHANNEL)
    record = await sessions.store.games.update_game(record, options={})
    content = lobby_post(record).content
    assert "1. <@1> — plays first" in content and "drawn at random" not in content
    started = (await sessions.lobby.start(CHANNEL, ANN.user_id)).record
    assert names(started) == ["Ann", "Bob"] and "1. <@1> — yellow" in lobby_post(started).content

