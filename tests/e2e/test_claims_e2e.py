"""Deadlines where the bot may only answer interactions, end to end: `python -m bot` against
the fake Discord. The game is marked `interactions_only` in its stored options while in the lobby (as /game new
marks a game in a DM, a group DM or a server without the bot); here it lives in a server channel, so that the
fake shows whether the bot posts anything on its own: it must not. The deadline is claimed by the waiting
player, or applied late by the next click; the half-time reminder is a direct message."""

import asyncio
import json
import re
import sqlite3
import time

import pytest

from bot.core.game_records import INTERACTIONS_ONLY
from tests.e2e.table import Table, a_later_deadline_fired, roll_id

pytestmark = pytest.mark.e2e
TURN_S = 2


def wait_for_interactions(database, channel) -> None:
    """Mark the channel's open game as one where the bot may only answer interactions."""
    with sqlite3.connect(database, timeout=10) as db:
        [(game_id, options)] = db.execute("SELECT id, options FROM games WHERE channel_id=? AND status='lobby'",
                                          (channel.id,)).fetchall()
        db.execute("UPDATE games SET options=? WHERE id=?",
                   (json.dumps({**json.loads(options), INTERACTIONS_ONLY: True}), game_id))


async def opened(fake_discord, bot, players):
    """A started two-player game whose deadlines wait for interactions; its first board."""
    game = Table(fake_discord, players)
    host, other = players
    await fake_discord.slash(host, game.channel, "game new", game="parcheesi", turn_time=f"{TURN_S}s",
                             seating="lobby")   # the host plays first
    wait_for_interactions(bot.database, game.channel)
    lobby = fake_discord.last_message(game.channel, lambda m: "Join" in [b.get("label") for b in m.buttons])
    await fake_discord.click(other, lobby, label="Join")
    await fake_discord.click(host, lobby, label="Start")
    return game, game.board()


async def deadline_passed(board) -> None:
    """Until the deadline the board states has passed (Discord's timestamp is whole seconds, rounded down): the
    clock is what a claim waits for, read from the board rather than guessed from the turn time."""
    deadline = int(re.search(r"<t:(\d+):R>", board.content)[1]) + 1
    await asyncio.sleep(max(0.0, deadline - time.time()))


def ephemeral_text(interaction) -> str:
    return " ".join(m.content for m in interaction.messages if m.ephemeral)


async def test_a_waiting_player_claims_the_turn_once_its_time_ran_out(fake_discord, quick_bot):
    ana, bo = fake_discord.add_user("ana"), fake_discord.add_user("bo")
    await fake_discord.slash(ana, fake_discord.add_channel("lounge"), "game notify", state="off")
    game, first = await opened(fake_discord, quick_bot, [ana, bo])
    assert ana.mention in first.content and "other players can claim it" in first.content and "<t:" in first.content

    too_soon = await fake_discord.click(bo, first, label="Claim the turn")
    assert "ana still has time" in ephemeral_text(too_soon)

    # Half-way, ana gets the reminder as a direct message, not in the channel; past the deadline, nothing moves
    # on its own.
    reminder = await fake_discord.wait_for_dm(ana, lambda m: "Half of your time" in m.content, timeout=TURN_S * 3)
    assert f"/{game.channel.id}/" in reminder.content and "<t:" in reminder.content
    await a_later_deadline_fired(fake_discord, others(fake_discord), TURN_S)
    assert game.board().id == first.id and not [m for m in fake_discord.messages(game.channel)
                                                 if "half of your time" in m.content or "ran out" in m.content]

    own = await fake_discord.click(ana, first, label="Claim the turn")
    assert "It is your turn" in ephemeral_text(own)
    claimed = await fake_discord.click(bo, first, label="Claim the turn")
    assert not ephemeral_text(claimed)
    board = await fake_discord.wait_for_message(game.channel, lambda m: m.files and "ran out of time" in m.content,
                                                after=first)
    assert bo.mention in board.content and "Claim the turn" in [b.get("label") for b in board.buttons]
    assert not fake_discord.messages(game.channel)[[m.id for m in fake_discord.messages(game.channel)]
                                                   .index(first.id)].buttons   # the old board's controls retired

    again = await fake_discord.click(bo, board, label="Claim the turn")   # bo's own turn now
    assert "It is your turn" in ephemeral_text(again)
    await fake_discord.slash(ana, game.channel, "game end")
    assert fake_discord.refusals == [] and fake_discord.unanswered() == []
    assert "Traceback" not in quick_bot.log_tail(400)


async def test_a_passed_deadline_is_applied_by_the_next_click_before_it(fake_discord, quick_bot):
    ana, bo = fake_discord.add_user("ana"), fake_discord.add_user("bo", dms_open=False)
    game, first = await opened(fake_discord, quick_bot, [bo, ana])   # bo plays first; his DMs are closed
    await a_later_deadline_fired(fake_discord, others(fake_discord), TURN_S)
    assert game.board().id == first.id   # nothing fired on its own, and no reminder could reach bo

    late = await fake_discord.click(bo, first, custom_id=roll_id(first))   # bo comes back too late
    board = await fake_discord.wait_for_message(game.channel, lambda m: m.files and "ran out of time" in m.content,
                                                after=first)
    assert "bo ran out of time" in board.content and ana.mention in board.content
    assert "Too late: time for this turn had run out" in ephemeral_text(late)   # played for him just before
    await fake_discord.slash(ana, game.channel, "game end")
    assert all("Cannot send messages" in r for r in fake_discord.refusals)   # bo's reminder, refused quietly
    assert fake_discord.unanswered() == []
    assert "no reminder for user" in quick_bot.log_tail(400) and "Traceback" not in quick_bot.log_tail(400)


@pytest.mark.parametrize("third", ["claim", "command"])
async def test_the_vote_after_three_claimed_expiries_comes_below_the_third_claim(fake_discord, quick_bot, third):
    """The third expiry claimed by the button, or applied by a command (`/game board`): the vote is a public
    follow-up of that interaction, never a post of the bot's own."""
    ana, bo = fake_discord.add_user("ana"), fake_discord.add_user("bo")
    game, board = await opened(fake_discord, quick_bot, [ana, bo])
    claims = []
    while len(claims) < 3:
        board = await game.live_board()
        if game.to_act(board) is bo:   # bo plays his own turns at once
            await game.play_once()
            continue
        await deadline_passed(board)
        if third == "command" and len(claims) == 2:
            mark = len(fake_discord.counted)
            claims.append(await fake_discord.slash(bo, game.channel, "game board"))
            assert not [r.key for r in fake_discord.counts(since=mark).requests if r.scope == "global"]
        else:
            claims.append(await fake_discord.click(bo, board, label="Claim the turn"))
            assert not ephemeral_text(claims[-1])
    [vote] = [m for m in claims[-1].messages if "End the game" in [b.get("label") for b in m.buttons]]
    assert not vote.ephemeral and "ana ran out of time 3 times in a row" in vote.content
    assert not [m for claim in claims[:2] for m in claim.messages if m.buttons]   # only the third opened it
    await fake_discord.click(bo, vote, label="End the game")
    await fake_discord.wait_for_message(game.channel, lambda m: "By vote, the game ends" in m.content)
    assert fake_discord.refusals == [] and fake_discord.unanswered() == []
    assert "Traceback" not in quick_bot.log_tail(400)


async def test_in_a_group_dm_the_waiting_friend_claims_the_turn_and_the_bot_only_answers(fake_discord, quick_bot):
    """A real group DM where only the host installed the app: /game new marks the game itself; the deadline
    passes with nothing posted, and the friend who did not install the app claims the turn by its button."""
    ana, bo = fake_discord.add_user("ana", installed=True), fake_discord.add_user("bo")
    group = fake_discord.add_group_dm(ana, bo, fake_discord.add_user("cy"), name="friends")
    mark = len(fake_discord.counted)
    reply = await fake_discord.slash(ana, group, "game new", game="parcheesi", turn_time=f"{TURN_S}s",
                                     seating="lobby")   # the host plays first
    await fake_discord.click(bo, reply.original, label="Join")
    await fake_discord.click(ana, reply.original, label="Start")
    first = fake_discord.last_message(group, lambda m: m.files)
    assert ana.mention in first.content and "Claim the turn" in [b.get("label") for b in first.buttons]

    # past the deadline: nothing may reach the group DM on its own
    await a_later_deadline_fired(fake_discord, others(fake_discord), TURN_S)
    assert fake_discord.last_message(group, lambda m: m.files).id == first.id
    claimed = await fake_discord.click(bo, first, label="Claim the turn")
    assert not ephemeral_text(claimed)
    board = await fake_discord.wait_for_message(group, lambda m: m.files and "ran out of time" in m.content,
                                                after=first)
    assert bo.mention in board.content
    counted = fake_discord.counts(since=mark)
    assert not [r.key for r in counted.requests if r.scope == "global" and str(group.id) in r.path]
    assert not counted.refused and fake_discord.unanswered() == []
    assert "Traceback" not in quick_bot.log_tail(400)


def others(fake) -> list:
    """Two players of a witness game in a server channel, where deadlines fire on their own
    (a_later_deadline_fired): once its deadline fired, the game's here had passed too."""
    return [fake.add_user("carl"), fake.add_user("dora")]
