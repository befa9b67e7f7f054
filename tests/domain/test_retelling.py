"""The history in words: one entry per logged action, replayed from the seed, in both languages."""
import pytest

from bot.domain import i18n, retelling, timeline
from bot.domain.positions import ruleset_of
from bot.games.base import msg
from tests.game_logs import play
from tests.toy_ruleset import ToyRace


@pytest.mark.parametrize("game", ["parcheesi", "barricade", "pariti", "parchis-maghreb"])
async def test_every_action_is_told_in_both_languages(store, game):
    record, actions = await play(store, game, max_actions=120, resign=1)
    ruleset = ruleset_of(record)
    entries = retelling.entries(ruleset, record, actions)
    assert [e.seq for e in entries] == [a.seq for a in actions]
    for entry in entries:
        for locale in ("en", "fr"):
            for message in (entry.head, *entry.events):
                text = i18n.render(message, locale)
                assert text and text != message.key and "{" not in text, (message, text)


async def test_replay_ends_on_the_stored_position(store):
    record, actions = await play(store, "parcheesi", max_actions=80, resign=1)
    ruleset = ruleset_of(record)
    steps = list(timeline.steps(ruleset, record, actions))
    assert steps[0].before == timeline.setup(ruleset, record)
    assert all(a.after == b.before for a, b in zip(steps, steps[1:]))
    assert steps[-1].after == ruleset.from_json(record.state)


async def test_rolls_and_moves_read_differently(store):
    record, actions = await play(store, "parcheesi", max_actions=30, resign=1)
    entries = retelling.entries(ruleset_of(record), record, actions)
    first = i18n.render(entries[0].head, "en")
    assert first == "`1` 🎲" and "rolls" in i18n.render(entries[0].events[0], "en")
    move = next(e for e in entries if e.head.key == "history.step")
    assert i18n.render(move.head, "en") == f"`{move.seq + 1}`" and move.events


def test_a_move_without_events_is_told_by_its_label():
    """The toy race says nothing when a pawn moves: the history falls back on the action's label."""
    ruleset = ToyRace()
    start = ruleset.new_game(2, {}, 0)
    rolled = ruleset.apply(start, "r3").state
    step = timeline.Step(1, 0, "m0", rolled, ruleset.apply(rolled, "m0").state, ())
    head = retelling.entry(ruleset, step).head
    assert head == msg("history.move", n=2, seat=0, action=msg("toy.action", action="m0"))


async def test_a_page_replays_only_what_it_needs(store):
    record, actions = await play(store, "parcheesi", max_actions=40, resign=1)
    ruleset = ruleset_of(record)
    everything = retelling.entries(ruleset, record, actions)
    size = retelling.PAGE_SIZE
    assert retelling.entries(ruleset, record, actions, size, 2 * size) == everything[size:2 * size]
    assert retelling.page_count(0) == 1 and retelling.page_count(size) == 1 and retelling.page_count(size + 1) == 2
