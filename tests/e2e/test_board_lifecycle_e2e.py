"""What moderators, strangers and careless hosts do to a game: a deleted lobby or board is
posted afresh, reposts notify nobody, host powers pass with the seat, names stay as players wrote them."""

import asyncio

import pytest

from tests.e2e.table import Table, board_version, in_play, left_nothing, said, stored
from tests.fake_discord import MANAGE_MESSAGES, MEMBER_PERMISSIONS

pytestmark = pytest.mark.e2e


def live(fake, table: Table) -> list:
    """The channel's messages that still show controls (the lobby's or a board's)."""
    return [m for m in fake.messages(table.channel) if m.custom_ids]


async def test_a_lobby_or_board_a_moderator_deleted_is_posted_afresh_at_the_next_action(fake_discord, bot_process):
    mod = fake_discord.add_user("mod", permissions=MEMBER_PERMISSIONS | MANAGE_MESSAGES)
    ana, bruno = fake_discord.add_user("ana"), fake_discord.add_user("bruno")
    table = Table(fake_discord, [ana, bruno], "parcheesi", seed=4)
    await fake_discord.slash(ana, table.channel, "game new", game="parcheesi")
    lobby = fake_discord.last_message(table.channel, lambda m: m.custom_ids)
    await fake_discord.delete_message(lobby, by=mod)

    joined = await fake_discord.slash(bruno, table.channel, "game join")
    assert left_nothing(joined)                                      # not "I need permissions"
    fresh = fake_discord.last_message(table.channel, lambda m: m.custom_ids)
    assert fresh.id != lobby.id and bruno.mention in fresh.content

    await fake_discord.click(ana, fresh, label="Start")
    board = table.board()
    await fake_discord.delete_message(board, by=mod)
    player = table.to_act(board)
    rolled = await fake_discord.slash(player, table.channel, "game roll")   # answered with the board
    assert left_nothing(rolled), rolled.followups
    again = await table.live_board()
    assert again.id == rolled.original.id != board.id and [m.id for m in live(fake_discord, table)] == [again.id]
    assert stored(bot_process.database)[1], "the roll is stored"
    assert any(str(board.id) in r for r in fake_discord.refusals)          # the 404 it met, no violation


async def test_board_reposts_and_edits_notify_nobody_only_a_turn_passing_does(fake_discord, bot_process):
    players = [fake_discord.add_user("user2"), fake_discord.add_user("éloïse", locale="fr")]
    table = Table(fake_discord, players, "parcheesi", seed=11)
    first = await table.open()
    player = table.to_act(first)
    assert [m.id for m in fake_discord.notified(player, table.channel)] == [first.id]
    for _ in range(12):
        assert left_nothing(await fake_discord.slash(players[1], table.channel, "game board"))
    assert [m.id for m in fake_discord.notified(player, table.channel)] == [first.id]
    assert not fake_discord.notified(players[0 if player is players[1] else 1], table.channel)

    await table.play_until(lambda: table.to_act(table.board()) is not player, limit=20)
    other = table.to_act(table.board())
    assert len(fake_discord.notified(other, table.channel)) == 1               # the turn passed: one ping
    assert len(fake_discord.notified(player, table.channel)) == 1              # the edits after a roll: none
    names = [line for line in table.board().content.splitlines() if line.startswith(("user2 ", "éloïse "))]
    assert names, table.board().content                                    # names as the players wrote them


async def test_host_powers_pass_to_the_next_seated_person_and_strangers_have_none(fake_discord, bot_process):
    mod = fake_discord.add_user("mod", permissions=MEMBER_PERMISSIONS | MANAGE_MESSAGES)
    stranger = fake_discord.add_user("eve")
    ana, bruno, carla = (fake_discord.add_user(name) for name in ("ana", "bruno", "carla"))
    table = Table(fake_discord, [ana, bruno, carla], "parcheesi", seed=3)
    await fake_discord.slash(ana, table.channel, "game new", game="parcheesi", seating="lobby")
    lobby = fake_discord.last_message(table.channel, lambda m: m.custom_ids)
    for player in (bruno, carla):
        await fake_discord.click(player, lobby, label="Join")
    await fake_discord.click(ana, lobby, label="Start")

    await fake_discord.slash(ana, table.channel, "game resign")
    assert "bruno is the host now." in table.board().content
    before = stored(bot_process.database)
    for user in (ana, stranger):
        refused = await fake_discord.slash(user, table.channel, "game settings", turn_time="1h")
        assert refused.content == said("timers.error.host_only", user)
        refused = await fake_discord.slash(user, table.channel, "game end")
        assert refused.content == said("error.end_not_allowed", user)
    assert stored(bot_process.database) == before
    assert left_nothing(await fake_discord.slash(bruno, table.channel, "game settings", turn_time="1h"))
    await fake_discord.slash(mod, table.channel, "game end")
    assert stored(bot_process.database)[0][0][1] == "ended"


async def test_reposts_racing_plays_leave_one_live_board(fake_discord, bot_process):
    """A watcher's burst of /game board at the instant a player rolls or moves: whichever order the bot meets
    them in, one message shows live controls, the newest position's."""
    ana, bruno, carla = (fake_discord.add_user(name) for name in ("ana", "bruno", "carla"))
    table = Table(fake_discord, [ana, bruno], "parcheesi", seed=11)
    await table.open()

    async def repost(delay: float):
        await asyncio.sleep(delay)
        return await fake_discord.slash(carla, table.channel, "game board")

    for play in range(8):
        spread = 0.02 * (play % 4)   # the reposts all at once, or spread over up to 0.18 s
        await asyncio.gather(table.play_once(), *(repost(i * spread) for i in range(4)))  # each waits till settled
        boards = [m for m in fake_discord.messages(table.channel) if m.files]
        shown = [m for m in boards if in_play(m)]
        assert [board_version(m) for m in shown] == [max(map(board_version, shown or boards))], \
            (play, [(m.id, board_version(m), m.content[:60]) for m in shown])
