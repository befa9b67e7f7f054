"""Tablero where only a user installed the app: a group DM of three friends of whom one installed
it, a DM between two friends, a server channel without the bot. Everything goes through the interactions:
the fake counts no request to a channel endpoint (it would answer 403, 50001) and refuses none."""

import asyncio
import sqlite3
import sys

import pytest

from bot.domain import i18n
from bot.games import GAME_IDS
from tests.conftest import REPO
from tests.e2e.table import Table, in_play, left_nothing, rematch_id, roll_id, said, stale, stored, told
from tests.fake_discord import OVERWRITE_MEMBER, OVERWRITE_ROLE, USE_EXTERNAL_APPS

pytestmark = pytest.mark.e2e

# game -> (the friends seated, by index among ana, bruno, carla; computer seats added)
SEATS = {"parcheesi": ((0, 1), 1), "parcheesi-classic": ((0, 1, 2), 0), "parchis-maghreb": ((0, 1), 0),
         "barricade": ((0, 2), 1), "pariti": ((0,), 1)}
LIMIT = 3000    # plays before a game must have ended


def friends(fake):
    """ana installed the app; bruno (who reads French) and carla did not."""
    return (fake.add_user("ana", installed=True), fake.add_user("bruno", locale="fr"), fake.add_user("carla"))


def lobby_button(message, verb: str) -> str | None:
    return next((cid for cid in message.custom_ids if cid.startswith("tb:l:") and cid.endswith(":" + verb)), None)


async def open_table(fake, table: Table, host, others, computers: int) -> None:
    """`/game new` by the one who installed the app, then only the lobby's buttons: Join, Add computer, Start."""
    reply = await fake.slash(host, table.channel, "game new", game=table.game, seating="lobby")
    assert left_nothing(reply) and not reply.original.deleted, "the lobby is the command's response"
    lobby = reply.original
    for player in others:
        assert not told(await fake.click(player, lobby, custom_id=lobby_button(lobby, "join")))
    for _ in range(computers):
        assert not told(await fake.click(host, lobby, custom_id=lobby_button(lobby, "add-bot")))
    assert not told(await fake.click(host, lobby, custom_id=lobby_button(lobby, "start")))


def only_interactions(fake, since: int = 0) -> None:
    """No channel endpoint called (a restart's log-in requests aside), no request refused."""
    counts = fake.counts(since)
    channel_routes = {route: n for route, n in counts.by_route("global").items() if "/channels" in route}
    assert not channel_routes, channel_routes
    assert not counts.refused, counts.refused


@pytest.mark.parametrize("game", GAME_IDS)
async def test_a_whole_game_in_a_group_dm_where_one_friend_of_three_installed_the_app(fake_discord, bot_process,
                                                                                      game):
    fake = fake_discord
    fake.quiet = 0.1
    people = friends(fake)
    group = fake.add_group_dm(*people, name="friends")
    seated, computers = SEATS[game]
    table = Table(fake, [people[i] for i in seated], game, seed=3, channel=group)
    mark = len(fake.counted)
    await open_table(fake, table, people[seated[0]], [people[i] for i in seated[1:]], computers)
    await table.play_to_the_end(limit=LIMIT)
    final = table.board()
    assert not in_play(final) and rematch_id(final), final.content
    games, actions = stored(bot_process.database)
    assert games[0][1] == "finished" and len(actions) == games[0][3]
    assert '"interactions_only":true' in open_options(bot_process.database)
    if game == "parcheesi":   # a rematch from the final board: the new lobby is the click's follow-up
        answer = await fake.click(people[1], final, custom_id=rematch_id(final))
        assert [m for m in answer.followups if lobby_button(m, "join")], answer.followups
    only_interactions(fake, mark)
    assert not fake.unanswered()


def open_options(database) -> str:
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        return db.execute("SELECT options FROM games ORDER BY id LIMIT 1").fetchone()[0].replace(" ", "")


async def test_a_dm_game_between_two_friends_by_buttons_and_commands(fake_discord, bot_process):
    """Rolls and moves by button and by command, a take-back asked and accepted, the read-only commands,
    a resignation: all answered in the DM, through the interactions."""
    fake = fake_discord
    fake.quiet = 0.1
    ana, bruno = fake.add_user("ana", installed=True), fake.add_user("bruno", installed=True, locale="fr")
    dm = fake.add_dm(ana, bruno)
    table = Table(fake, [ana, bruno], "parcheesi", seed=8, channel=dm)
    mark = len(fake.counted)
    await open_table(fake, table, ana, [bruno], 0)
    await table.play(6)
    board = await table.live_board()
    player = table.to_act(board)
    if "roll" in " ".join(board.custom_ids):   # by command, the board is the command's response
        rolled = await fake.slash(player, dm, "game roll")
        assert left_nothing(rolled) and rolled.original.files, rolled.describe()
    await table.play(4)
    for command in ("game status", "game history", "game verify", "game rules", "game mine"):
        answer = await fake.slash(ana, dm, command)
        assert answer.message.ephemeral, command
    resigned = await fake.slash(ana, dm, "game resign")
    assert left_nothing(resigned)
    assert stored(bot_process.database)[0][0][1] == "finished"
    only_interactions(fake, mark)


async def test_a_game_in_a_server_channel_without_the_bot(fake_discord, bot_process):
    fake = fake_discord
    fake.quiet = 0.1
    elsewhere = fake.add_guild("Elsewhere", bot_installed=False)
    hall = fake.add_channel("hall", guild=elsewhere)
    ana, bruno = fake.add_user("ana", installed=True), fake.add_user("bruno")
    table = Table(fake, [ana, bruno], "barricade", seed=4, channel=hall)
    mark = len(fake.counted)
    await open_table(fake, table, ana, [bruno], 0)
    await table.play(30)
    assert left_nothing(await fake.slash(ana, hall, "game resign"))   # the final board is the answer
    assert not in_play(table.board()) and stored(bot_process.database)[0][0][1] == "finished"
    only_interactions(fake, mark)


async def test_without_use_external_apps_a_member_is_told_politely_and_no_game_opens(fake_discord, bot_process):
    """A server without the bot that took Use External Apps from @everyone and gave it back to ana: Discord makes
    the app's answers to everyone else ephemeral, so bruno's /game new is refused in one line he alone sees,
    and nothing is stored; ana's opens the lobby in public as anywhere else. Bruno may not join it either: the
    boards his moves bring would reach him alone, and the game would stall."""
    fake = fake_discord
    fake.quiet = 0.1
    elsewhere = fake.add_guild("Elsewhere", bot_installed=False)
    ana, bruno = fake.add_user("ana", installed=True), fake.add_user("bruno", locale="fr", installed=True)
    carla = fake.add_user("carla")
    hall = fake.add_channel("hall", guild=elsewhere, overwrites=[
        {"id": str(elsewhere.id), "type": OVERWRITE_ROLE, "allow": "0", "deny": str(USE_EXTERNAL_APPS)},
        {"id": str(ana.id), "type": OVERWRITE_MEMBER, "allow": str(USE_EXTERNAL_APPS), "deny": "0"}])
    mark = len(fake.counted)

    refused = await fake.slash(bruno, hall, "game new", game="barricade", seating="lobby")
    assert refused.ephemeral and refused.content == i18n.text("interactions.error.ephemeral_only", "fr")
    assert fake.messages(hall, viewer=carla) == [] and stored(bot_process.database) == ([], [])

    opened = await fake.slash(ana, hall, "game new", game="barricade", seating="lobby")
    assert left_nothing(opened) and fake.messages(hall, viewer=carla) == [opened.original]   # the lobby, public
    assert lobby_button(opened.original, "join") and [row[1] for row in stored(bot_process.database)[0]] == ["lobby"]
    seats = stored(bot_process.database)[0][0][4]
    joining = await fake.click(bruno, opened.original, custom_id=lobby_button(opened.original, "join"))
    assert joining.ephemeral and joining.content == i18n.text("interactions.error.ephemeral_only", "fr")
    assert stored(bot_process.database)[0][0][4] == seats and "bruno" not in opened.original.content
    only_interactions(fake, mark)


async def test_a_restart_mid_game_in_a_group_dm_catches_nothing_up_until_the_next_interaction(fake_discord,
                                                                                             bot_process):
    fake = fake_discord
    fake.quiet = 0.1
    people = friends(fake)
    group = fake.add_group_dm(*people)
    table = Table(fake, list(people[:2]), "parcheesi", seed=5, channel=group)
    mark = len(fake.counted)
    await open_table(fake, table, people[0], [people[1]], 1)
    await table.play(6)
    await bot_process.kill()
    await bot_process.start()
    shown = await fake.slash(people[0], group, "game board")          # the stored position, through the command
    assert left_nothing(shown) and shown.original.files
    await table.play(6)                                                # and the game goes on from it
    only_interactions(fake, mark)


TOKEN_S = 6


@pytest.fixture
async def short_token_bot(fake_discord, tmp_path):
    """`python -m bot` told the fake's token lifetime (TABLERO_TOKEN_LIFETIME)."""
    database = tmp_path / "tablero.sqlite3"
    bot = fake_discord.client_process([sys.executable, "-m", "bot"], cwd=REPO, log_path=tmp_path / "bot.log",
                                      env={"TABLERO_DATABASE": str(database), "TABLERO_TOKEN_LIFETIME": str(TOKEN_S)})
    bot.database = database
    await bot.start()
    yield bot
    await bot.kill()   # as bot_process's (tests/conftest.py)


@pytest.mark.fake_discord(token_lifetime_s=TOKEN_S)
async def test_boards_sent_through_a_token_that_expired_are_left_and_the_game_goes_on(fake_discord, short_token_bot):
    """The bot no longer edits through an expired token: a board it can no longer reach is left as it is (a
    click on it is refused with a link to the current one), and the game goes on through the new clicks."""
    fake = fake_discord
    fake.quiet = 0.1
    people = friends(fake)
    ana = people[0]   # who installed the app: the commands are hers
    group = fake.add_group_dm(*people)
    table = Table(fake, list(people[:2]), "parcheesi", seed=6, channel=group)
    mark = len(fake.counted)
    await open_table(fake, table, ana, [people[1]], 0)
    for _ in range(3):
        await table.play(3)
        await table.play_until(lambda: bool(roll_id(table.board())) and table.to_act(table.board()) == ana, 30)
        old = table.board()
        newest = fake.interactions[-1].created_at                       # every earlier token expires
        await asyncio.sleep(newest + TOKEN_S + 0.5 - fake.now())
        reply = await fake.slash(ana, group, "game roll")               # the new board is the command's answer
        assert left_nothing(reply) and reply.original.files
        assert message_now(fake, old).custom_ids, "the board sent through an expired token is left as it is"
        refusal = await fake.click(ana, old, custom_id=roll_id(old))
        [text] = told(refusal)
        assert stale(text.content, ana) and text.content != said("error.stale", ana), "a link to the current board"
    await table.play(3)
    only_interactions(fake, mark)
    assert not fake.unanswered()


def message_now(fake, message):
    """`message` as the channel shows it now."""
    return next(m for m in fake.messages(fake.channels[message.channel_id]) if m.id == message.id)
