"""Seating through the fake Discord: drawn at random by default (PM-1.9), checked by /game verify
after the game; `seating:lobby` keeps the join order."""

import re

import pytest

from bot.domain import dice
from tests.e2e.table import Table, told, two_players

pytestmark = pytest.mark.e2e


def lobby_message(fake, table: Table):
    return fake.last_message(table.channel, lambda m: "Join" in [b.get("label") for b in m.buttons])


async def test_seats_are_drawn_when_the_game_starts_and_verified_after_it(fake_discord, bot_process):
    ana, bruno = players = two_players(fake_discord)
    table = Table(fake_discord, players, "parcheesi", seed=11)
    await fake_discord.slash(ana, table.channel, "game new", game="parcheesi")   # seating: random (default)
    lobby = lobby_message(fake_discord, table)
    assert "Seats are drawn at random when the game starts" in lobby.content
    fingerprint = re.search(r"`([0-9a-f]{64})`", lobby.content)[1]
    assert "yellow" not in lobby.content, "nobody has a colour before the draw"
    assert not (await fake_discord.click(bruno, lobby, label="Join")).followups
    assert not told(await fake_discord.click(ana, lobby, label="Start"))

    board = table.board()
    seated = re.search(r"Seats drawn at random: (\w+) \(yellow\), (\w+) \(red\)\. (\w+) plays first\.", board.content)
    assert seated, board.content
    first = table.to_act(board)           # whoever the bot pings, host or not
    assert seated[1] == seated[3] == first.name and {seated[1], seated[2]} == {"ana", "bruno"}
    commitment = fake_discord.last_message(table.channel, lambda m: "Fair dice" in m.content)
    assert fingerprint in commitment.content, "the fingerprint in the lobby is the one posted at the start"
    assert "The seats were drawn from it too." in commitment.content

    await table.play(8)                   # each time, the player the board pings rolls or moves
    assert not told(await fake_discord.slash(ana, table.channel, "game resign"))
    reveal = fake_discord.last_message(table.channel, lambda m: "seed was" in m.content)
    seed = re.search(r"seed was `([0-9a-f]{64})`", reveal.content)[1]
    assert "The seats were drawn from it too." in reveal.content
    assert dice.commitment(seed) == fingerprint
    verdict = await fake_discord.slash(ana, table.channel, "game verify")
    reply = verdict.followups[-1] if verdict.followups else verdict.message
    assert reply.ephemeral and "✅" in reply.content and "the seating, the set-up and all" in reply.content, reply


async def test_lobby_seating_keeps_the_join_order(fake_discord, bot_process):
    ana, bruno = players = two_players(fake_discord)
    table = Table(fake_discord, players, "parchis-maghreb")
    board = await table.open(seating="lobby")
    lobby = fake_discord.last_message(table.channel, lambda m: "Seats follow the lobby order" in m.content)
    assert f"1. <@{ana.id}> — red + green (plays first) (host)" in lobby.content
    assert "Seats in lobby order: ana (red + green), bruno (yellow + blue). ana plays first." in board.content
    assert table.to_act(board) is ana      # MG-2.2: player 1, chosen here by the lobby's order
    commitment = fake_discord.last_message(table.channel, lambda m: "Fair dice" in m.content)
    assert "seats were drawn" not in commitment.content
