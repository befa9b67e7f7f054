"""Every Message the 68-square rulesets produce exists in English and French and renders."""
from __future__ import annotations

import random

import pytest

from bot.domain.i18n import catalogue, placeholders, render
from bot.games.base import IllegalAction, Message
from bot.games.parcheesi.classic import Classic
from bot.games.parcheesi.mundijeux import Mundijeux
from tests.games.parcheesi.playouts import play_random
from tests.games.parcheesi.test_classic_properties import cheating_player


def keys_of(message: Message) -> set[str]:
    found = {message.key}
    for value in message.params.values():
        if isinstance(value, Message):
            found |= keys_of(value)
    return found


def check(message: Message) -> None:
    for key in keys_of(message):
        assert key in catalogue("en") and key in catalogue("fr"), key
    for locale in ("en", "fr"):
        fields = placeholders(catalogue(locale)[message.key])
        assert fields <= set(message.params), (message.key, locale)
        assert render(message, locale)


@pytest.mark.parametrize("ruleset,players,options,choose", [
    (Mundijeux(), 4, {"teams": True}, None), (Mundijeux(), 2, {}, None), (Classic(), 3, {}, cheating_player)])
def test_every_message_is_translated(ruleset, players, options, choose):
    """PM-11.1, PC-9.2: events, labels, groups, descriptions and notes in both languages."""
    check(ruleset.rules_summary())
    for seed in range(3):
        rng = random.Random(seed)
        log, states = play_random(ruleset, players, options, rng, choose=choose)
        for (seat, action), state in zip(log, states):
            for message in ruleset.apply(state, action, seat).events:
                check(message)
            for message in ruleset.describe(state) + list(ruleset.scene(state).notes):
                check(message)
            for a in ruleset.accepted_actions(state) + ruleset.call_actions(state, (state.turn + 1) % players):
                check(ruleset.action_label(state, a))
                group = ruleset.action_group(state, a)
                if group:
                    check(ruleset.group_label(state, group))
            for bad in ("zz", "r1", "Y1+99", "call"):
                try:
                    ruleset.apply(state, bad, (state.turn + 1) % players if bad == "call" else None)
                except IllegalAction as refused:
                    check(refused.message)
