"""The control kinds: every control the bot sends reads back as itself; anything else is Forged."""
import inspect
from operator import attrgetter

import discord
import pytest
from discord.ext import commands

from bot.cogs.events.controls import ACTION, KINDS, LARGEST, Forged, decode, view_of
from bot.cogs.handlers import Request
from bot.cogs.parts import GameParts
from bot.core.config import Settings
from bot.present.post import Control, ControlKind
from bot.services import Sessions

BOARD = {"tb:a:7:3:roll": (), "tb:g:7:3": ("R1", "R2"), "tb:c:7:3": (), "tb:l:7:join": (), "tb:h:7:2:n": (),
         "tb:v:7:1:end": (), ACTION.encode(LARGEST, LARGEST, "Y1+5"): (), "tb:u:7:3": (), "tb:r:7": (),
         "tb:t:7:3:yes": (), "tb:d:7:3": ()}


@pytest.mark.parametrize("custom_id, values, expected", [
    ("tb:a:7:3:roll", (), Request("a", 7, "roll", version=3, on_board=True)),
    ("tb:g:7:3", ("R2",), Request("g", 7, "R2", version=3, on_board=True)),
    ("tb:c:7:3", (), Request("c", 7, version=3, on_board=True)),
    ("tb:l:7:join", (), Request("l", 7, "join")),
    ("tb:h:7:2:n", (), Request("h", 7, "n", page=2)),
    ("tb:v:7:1:end", (), Request("v", 7, "end", seat=1)),
    (ACTION.encode(LARGEST, LARGEST, "Y1+5"), (), Request("a", LARGEST, "Y1+5", version=LARGEST, on_board=True)),
    ("tb:u:7:3", (), Request("u", 7, version=3, on_board=True)),
    ("tb:r:7", (), Request("r", 7)),
    ("tb:t:7:3:yes", (), Request("t", 7, "yes", version=3)),
    ("tb:d:7:3", (), Request("d", 7, version=3, on_board=True)),   # Claim the turn
])
def test_the_controls_the_bot_sends_read_back(custom_id, values, expected):
    assert decode(custom_id, BOARD, is_select=bool(values), values=values) == expected


async def test_each_kind_names_a_handler_that_takes_the_interaction_and_its_control(store):
    """A kind's row names what answers it (an attribute path of the parts): a new kind is its row and its
    handler, and a row naming no handler, or one of another shape, fails here rather than at a click."""
    parts = GameParts(commands.AutoShardedBot(command_prefix="!", intents=discord.Intents.none()), Sessions(store),
                      Settings(None, "unused", None, None, "INFO", 60, None))
    for kind in KINDS.values():
        handler = attrgetter(kind.handler)(parts)
        assert inspect.iscoroutinefunction(handler), kind.code
        assert list(inspect.signature(handler).parameters) == ["interaction", "request"], kind.code


@pytest.mark.parametrize("custom_id, values", [
    ("tb:h:99999999999999999999:0:f", ()),        # a game id beyond 64 bits
    ("tb:a:9223372036854775808:3:roll", ()),      # 2**63
    ("tb:a:7:3:move", ()),                        # well formed, but not on the message
    ("tb:g:7:3", ("R9",)),                        # a value the select does not offer
    ("tb:g:7:3", ("R1", "R2")),                   # two values from a one-value select
    ("tb:g:7:3", ()),
    ("tb:a:7:3:roll", ("roll",)),                 # a button's id sent as a select
    ("", ()), ("garbage", ()), ("tb", ()), ("tb:q:7:3", ()), ("tb:a:-7:3:roll", ()), ("tb:a:७:3:roll", ()),
    ("tb:l:7:explode", ()), ("tb:h:7:2:z", ()), ("tb:t:7:3:maybe", ()), ("tb:r:7:3", ()), ("tb:u:7", ()),
    ("tb:v:7:1:maybe", ()), ("tb:c:7:3:extra", ()),
    ("tb:a:7:3:" + "x" * 200, ()),
])
def test_anything_else_is_forged(custom_id, values):
    with pytest.raises(Forged):
        decode(custom_id, BOARD, is_select=bool(values) or custom_id.startswith("tb:g"), values=values)


def test_a_forged_id_is_refused_even_when_it_is_on_the_message():
    """A modified client can put anything on an ephemeral message it shows itself: bounds still hold."""
    for custom_id in ("tb:h:99999999999999999999:0:f", "tb:a:7:3:has space", "tb:l:7:explode"):
        with pytest.raises(Forged):
            decode(custom_id, {custom_id: ()})


def test_a_typed_move_is_bounded_and_needs_its_field():
    assert decode("tb:m:7:3", None, typed={"move": " R2+4 "}) == Request("m", 7, "R2+4", version=3)
    for typed in (None, {}, {"move": ""}, {"move": "x" * 41}, {"other": "R2+4"}, {"move": 5}):
        with pytest.raises(Forged):
            decode("tb:m:7:3", None, typed=typed)



VALUES = {ControlKind.LOBBY: "join", ControlKind.VOTE: "end", ControlKind.TAKEBACK: "yes"}   # others: any action


def test_every_kind_of_control_is_drawn_by_one_kind_and_reads_back_as_it():
    """A control kind is spelled once: each kind the present layer describes has one entry of the table,
    and what view_of makes of it is read back by that entry (whose handler answers it)."""
    drawers = {shown: [kind for kind in KINDS.values() if shown in kind.looks] for shown in ControlKind}
    assert all(len(found) == 1 for found in drawers.values()), drawers
    for shown, (kind,) in drawers.items():
        control = Control(shown, "label", VALUES.get(shown, "R1+4"), options=(("R1", "R1"),) if kind.picked else ())
        (item,) = view_of(7, 3, (control,)).children
        options = tuple(option.value for option in getattr(item, "options", ()))
        request = decode(item.custom_id, {item.custom_id: options}, is_select=bool(options), values=options)
        assert KINDS[request.kind] is kind and request.game == 7
