"""Interactions timed from the gateway event to Discord accepting their first answer, by kind and outcome."""
import pytest

from bot.core import metrics
from bot.operations.discord_watch import DiscordWatch, kind_of

CODES = {"a", "l"}


def command(name: str, *path: str, kind: int = 2) -> dict:
    options: list = []
    for sub in reversed(path):
        options = [{"type": 1, "name": sub, "options": options}]
    return {"id": "1", "type": kind, "data": {"name": name, "options": options + [{"type": 3, "name": "x"}]}}


@pytest.mark.parametrize("data, kind", [
    (command("game", "new"), "/game new"),
    (command("game", "timer", "set"), "/game timer set"),
    (command("game", "move", kind=4), "autocomplete /game move"),
    ({"type": 3, "data": {"custom_id": "tb:a:12:3:R1+4"}}, "control a"),
    ({"type": 5, "data": {"custom_id": "tb:l:12:join"}}, "control l"),
    ({"type": 3, "data": {"custom_id": "tb:zz:12"}}, "control ?"),          # forged: never a new label
    ({"type": 3, "data": {"custom_id": "🎲" * 50}}, "control ?"),
    ({"type": 1}, "other"),
])
def test_an_interactions_kind_is_one_of_a_fixed_set(data, kind):
    assert kind_of(data, CODES) == kind


def counted(kind: str, outcome: str) -> float:
    return metrics.INTERACTIONS.labels(kind, outcome)._value.get()


def test_the_first_answer_alone_is_timed_and_its_outcome_counted():
    now = [100.0]
    watch = DiscordWatch(CODES, clock=lambda: now[0])
    answered, late, refused = (counted("control a", o) for o in ("answered", "late", "refused by Discord"))
    for interaction in (1, 2, 3):
        watch.received({"id": str(interaction), "type": 3, "data": {"custom_id": "tb:a:5:1:x"}})
    now[0] += 0.2
    watch.answered(1, 204)
    watch.answered(1, 200)    # a follow-up: not the first answer
    watch.answered(2, 400)
    now[0] += 3.0
    watch.answered(3, 404)    # after Discord's 3 s
    assert counted("control a", "answered") == answered + 1
    assert counted("control a", "refused by Discord") == refused + 1
    assert counted("control a", "late") == late + 1


def test_an_interaction_never_answered_is_counted_unanswered_later():
    now = [0.0]
    watch = DiscordWatch(CODES, clock=lambda: now[0])
    before = counted("/game roll", "unanswered")
    watch.received(command("game", "roll") | {"id": "9"})
    watch.settle()
    assert counted("/game roll", "unanswered") == before
    now[0] += 11
    watch.settle()
    assert counted("/game roll", "unanswered") == before + 1
    watch.answered(9, 204)   # too late to count twice
    assert counted("/game roll", "answered") == counted("/game roll", "answered")


def test_the_wrapped_parser_times_the_interaction_and_gives_its_ids_to_what_it_starts():
    from types import SimpleNamespace

    from bot.operations.logs import IDS

    seen = []
    parsers = {"INTERACTION_CREATE": lambda data: seen.append(IDS.get())}
    client = SimpleNamespace(_connection=SimpleNamespace(parsers=parsers))
    watch = DiscordWatch(CODES)
    watch.install(client)
    client._connection.parsers["INTERACTION_CREATE"](
        {"id": "5", "type": 3, "guild_id": "11", "channel_id": "12", "data": {"custom_id": "tb:a:42:7:roll"}})
    assert seen == [{"guild": 11, "channel": 12, "game": 42}] and IDS.get() == {}
    assert 5 in watch._pending
