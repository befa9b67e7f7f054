"""Typed moves in the cheating rulesets through the fake Discord: how a player learns the move codes.

The "Other move…" modal shows the code syntax and an example from the position, a malformed code is
answered with the ruleset's syntax, `/game move` suggests every move as "code · wording" and offers
the code typed even when the rules forbid it (looking like any other, MG-10.2), and the illegal move
so typed is played and can be called out (MG-10.1, MG-10.3, MG-10.4). `/game call` in a lobby is
refused politely.
"""

import re

import pytest

from bot.domain import i18n
from bot.games.base import msg
from bot.games.parcheesi.maghreb_state import piece_code
from tests.e2e.table import (
    button_id,
    call_out,
    cheating_table,
    left_nothing,
    said,
    stored,
    told,
    told_alone,
    two_players,
)

pytestmark = pytest.mark.e2e

GAME = "parchis-maghreb"


def locale(user) -> str:
    return i18n.locale_of(user.locale)


async def open_other_move(fake, player, board):
    """Click "Other move…"; the modal it opens and its one text field."""
    shown = await fake.click(player, board, custom_id=button_id(board, "x"))
    assert shown.modal is not None, "the button opens a modal"
    return shown, shown.modal["components"][0]["components"][0]


async def test_a_player_learns_the_codes_and_plays_an_illegal_move_that_is_called_out(fake_discord, bot_process):
    """MG-10.1: any move the board can hold may be typed; MG-10.2: it looks like a legal one;
    MG-10.3, MG-10.4: the opponent calls it out and the position before it is back."""
    table, game = await cheating_table(fake_discord, bot_process.database, GAME, seed=5)
    await table.play_until(game.cheats, limit=400)
    board = table.board()
    cheater, opponent = table.to_act(board), table.opponent(board)
    loc, state = locale(cheater), game.state()
    legal, cheat = game.ruleset.legal_actions(state), game.cheats()[0]

    # The modal's field shows a code of this position and the syntax.
    shown, field = await open_other_move(fake_discord, cheater, board)
    assert field["label"] == i18n.text("modal.other_move.label", loc, example=legal[0])
    assert field["placeholder"] == i18n.text(f"modal.other_move.placeholder.{GAME}", loc)
    assert re.search(r"R2\+4.*out:[GV]", field["placeholder"]), field["placeholder"]   # V: vert, in French

    # Words instead of a code: the ruleset answers with its code syntax, and nothing changes.
    before = game.row()
    refused = await fake_discord.submit_modal(cheater, shown, {field["custom_id"]: "red 1 +3"})
    assert [m.content for m in told(refused)] == [i18n.render(msg("maghreb.error.malformed", action="red 1 +3"), loc)]
    assert game.row() == before

    # /game move names every move by its code; the illegal code typed (in any case) is offered first,
    # in the same form as the legal ones.
    offered = await fake_discord.autocomplete(cheater, table.channel, "game move", "move", typed="")
    assert [c["value"] for c in offered] == legal[:25]
    assert all(c["name"].startswith(f"{c['value']} · ") for c in offered), offered
    typed = await fake_discord.autocomplete(cheater, table.channel, "game move", "move", typed=cheat.lower())
    assert typed[0]["value"] == cheat and typed[0]["name"].startswith(f"{cheat} · "), typed
    assert cheat not in [c["value"] for c in offered], "only what is typed brings an illegal move"

    # Typed into the modal, the illegal move is played like any other and logged as illegal.
    shown, field = await open_other_move(fake_discord, cheater, table.board())
    played = await fake_discord.submit_modal(cheater, shown, {field["custom_id"]: cheat})
    assert left_nothing(played), played.describe()
    assert game.log()[-1][1:] == (cheat, False)

    # The opponent calls it out (/game call suggests the codes it takes): the position before it is back.
    code = f"call:{piece_code(game.state().last_piece)}"
    callable_ = await fake_discord.autocomplete(opponent, table.channel, "game call", "piece", typed="")
    assert code in [c["value"] for c in callable_], callable_
    assert all(c["name"].startswith(f"{c['value']} · ") for c in callable_), callable_
    await call_out(fake_discord, opponent, table.board(), code)
    assert game.state().pieces == state.pieces
    assert "Traceback" not in bot_process.log_tail(400)


async def test_call_out_in_a_lobby_is_refused_politely(fake_discord, bot_process):
    """Before the game starts there is nothing to call out: an ephemeral answer, nothing stored, nothing logged."""
    ana, bruno = two_players(fake_discord)
    for game in ("parcheesi-classic", GAME):
        channel = fake_discord.add_channel(game)
        await fake_discord.slash(ana, channel, "game new", game=game)
        lobby = fake_discord.last_message(channel, lambda m: "Join" in [b.get("label") for b in m.buttons])
        await fake_discord.click(bruno, lobby, label="Join")
        before = stored(bot_process.database)
        for user, piece in ((ana, "call"), (bruno, "call:R1")):
            assert await fake_discord.autocomplete(user, channel, "game call", "piece", typed="") == []
            reply = await told_alone(fake_discord, await fake_discord.slash(user, channel, "game call", piece=piece))
            assert reply.content == said("error.not_started", user), reply.content
        assert stored(bot_process.database) == before
    assert "Traceback" not in bot_process.log_tail(400)
