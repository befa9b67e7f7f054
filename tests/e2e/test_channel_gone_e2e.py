"""A channel deleted, or the bot removed from its server, in the middle of a game: the game ends
without a result and its deadline with it."""
import json
import sqlite3

import pytest

from tests.e2e.table import Table, a_later_deadline_fired, stored
from tests.e2e.test_restart_resume_e2e import store_a_move_and_stop

pytestmark = pytest.mark.e2e
TURN_S = 2


@pytest.mark.parametrize("as_thread", [False, True], ids=["channel", "thread"])
async def test_deleting_the_channel_ends_its_game_and_nobody_plays_on(fake_discord, quick_bot, as_thread):
    ana, bruno = fake_discord.add_user("ana"), fake_discord.add_user("bruno")
    table = fake_discord.add_channel("doomed")
    await fake_discord.slash(ana, table, "game new", game="parcheesi", turn_time=f"{TURN_S}s")
    lobby = fake_discord.last_message(table, lambda m: "Join" in [b.get("label") for b in m.buttons])
    await fake_discord.click(bruno, lobby, label="Join")
    await fake_discord.click(ana, lobby, label="Start")

    await fake_discord.delete_channel(table, as_thread=as_thread)
    await fake_discord.wait_until(lambda: stored(quick_bot.database)[0][0][1] == "ended", timeout=5,
                                  what="the game to end")
    games, actions = stored(quick_bot.database)
    assert json.loads(games[0][5]) == {"winners": [], "draw": False, "details": {"channel_deleted": True}}
    requests = len(fake_discord.requests)
    # past the deadline: no easy computer plays for the absent seat
    await a_later_deadline_fired(fake_discord, [fake_discord.add_user("carl"), fake_discord.add_user("dora")],
                                 TURN_S)
    assert game_and_log(quick_bot.database, 0) == (games[0], actions)   # the witness's game is the second
    assert not [path for _, path in fake_discord.requests[requests:] if str(table.id) in path]


async def test_removing_the_bot_from_the_server_ends_its_games_and_lobbies(fake_discord, quick_bot):
    ana, bruno = fake_discord.add_user("ana"), fake_discord.add_user("bruno")
    playing, waiting = fake_discord.add_channel("playing"), fake_discord.add_channel("waiting")
    await fake_discord.slash(ana, playing, "game new", game="parcheesi", turn_time=f"{TURN_S}s")
    lobby = fake_discord.last_message(playing, lambda m: "Join" in [b.get("label") for b in m.buttons])
    await fake_discord.click(bruno, lobby, label="Join")
    await fake_discord.click(ana, lobby, label="Start")
    await fake_discord.slash(bruno, waiting, "game new", game="pariti")

    await fake_discord.remove_bot()
    await fake_discord.wait_until(lambda: {g[1] for g in stored(quick_bot.database)[0]} == {"ended"}, timeout=5,
                                  what="both games to end")
    games, actions = stored(quick_bot.database)
    assert [json.loads(g[5])["details"] for g in games] == [{"bot_removed": True}] * 2
    requests = len(fake_discord.requests)
    # past the deadline (a game's in a server the bot is still in): nobody plays on
    witness = await a_later_deadline_fired(fake_discord, [fake_discord.add_user("carl"),
                                                          fake_discord.add_user("dora")],
                                           TURN_S, guild=fake_discord.add_guild("Elsewhere"))
    assert [game_and_log(quick_bot.database, i) for i in (0, 1)] == [
        (game, [a for a in actions if a[0] == game[0]]) for game in games]
    assert [path for _, path in fake_discord.requests[requests:] if not of_table(fake_discord, witness, path)] == []


@pytest.mark.parametrize("held", ["POST /channels/{channel}/messages",
                                  "PATCH /webhooks/{app}/{token}/messages/{message}"],
                         ids=["post in flight", "retire in flight"])
async def test_a_board_the_removal_overtakes_meets_discords_403_calmly_and_nothing_starts_after(
        fake_discord, quick_bot, held):
    """A deadline's board on its way when the server removes the bot. The post already sent meets Discord's 403
    (no fault of the bot's: it could not know), taken calmly (one line, no retry). Or the earlier board was being
    retired (through the Start click's token): once the bot ended the server's games, the new board's post never
    starts (it would meet the same 403)."""
    ana, bruno = fake_discord.add_user("ana"), fake_discord.add_user("bruno")
    table = Table(fake_discord, [ana, bruno], "parcheesi", seed=2)
    method, route = held.split()
    await table.open(turn_time=f"{TURN_S}s")
    hold = fake_discord.hold(method, route, before=True)   # the next: the deadline's, TURN_S after the start
    await hold.wait(timeout=5 * TURN_S)   # the deadline played the turn: its board on the way
    await fake_discord.remove_bot()
    await fake_discord.wait_until(lambda: stored(quick_bot.database)[0][0][1] == "ended", timeout=5,
                                  what="the game to end")
    mark = len(fake_discord.requests)
    hold.release()
    witness = await a_later_deadline_fired(fake_discord, [fake_discord.add_user("carl"),
                                                          fake_discord.add_user("dora")],
                                           TURN_S, guild=fake_discord.add_guild("Elsewhere"))
    later = [f"{m} {path}" for m, path in fake_discord.requests[mark:] if not of_table(fake_discord, witness, path)]
    assert later == [], later   # the held request itself arrived before the mark
    if method == "POST":
        assert [r.split(":")[0] for r in fake_discord.refusals] == [f"POST /channels/{table.channel.id}/messages"]
    log = quick_bot.log_tail(400)
    assert "Traceback" not in log and "cannot be shown (Discord answered 403)" in log or method == "PATCH", log


async def test_a_channel_deleted_while_the_bot_was_down_ends_its_game_at_start_up(fake_discord, bot_process):
    """The bot stored a move, died before posting its board, and the channel was deleted meanwhile: at
    start-up Discord answers the board's post 404 Unknown Channel, so the game ends as if the bot had
    seen the deletion, with one log line and no traceback."""
    players = [fake_discord.add_user("ana"), fake_discord.add_user("bruno")]
    table = Table(fake_discord, players, "pariti", seed=2)
    await table.open()
    await bot_process.terminate()
    await store_a_move_and_stop(bot_process.database, table.channel)   # a board to post at start-up
    await fake_discord.delete_channel(table.channel, bot_offline=True)

    await bot_process.start()
    # The game ends, then the bot says so in its log (a starved bot may write the line a while after the row).
    said = f"its channel {table.channel.id} was deleted"
    await fake_discord.wait_until(lambda: stored(bot_process.database)[0][0][1] == "ended"
                                  and said in bot_process.log_tail(400), timeout=10, what="the game to end")
    games, _ = stored(bot_process.database)
    assert json.loads(games[0][5]) == {"winners": [], "draw": False, "details": {"channel_deleted": True}}
    # One request to the deleted channel (the look for its board), none after: the bot could not have known.
    assert [v.split(":")[0] for v in fake_discord.take_violations()] == [f"GET /channels/{table.channel.id}/messages"]
    assert "Traceback" not in bot_process.log_tail(400)


def game_and_log(database, index: int) -> tuple:
    """The stored row of the `index`-th game and its logged actions."""
    games, actions = stored(database)
    return games[index], [a for a in actions if a[0] == games[index][0]]


def of_table(fake, table: Table, path: str) -> bool:
    """Whether a request went to the table's channel or answered one of its interactions (by its token)."""
    return str(table.channel.id) in path or any(ia.token in path for ia in fake.interactions
                                                if ia.channel is table.channel)


def guilds_and_games(database) -> tuple[list[tuple[int | None, str, dict | None]], list[int]]:
    """Each game's (server, status, result details), and the servers whose retention runs (guilds_left)."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        games = db.execute("SELECT guild_id, status, result FROM games ORDER BY id").fetchall()
        left = [row[0] for row in db.execute("SELECT guild_id FROM guilds_left ORDER BY guild_id")]
    return [(guild, status, result and json.loads(result)["details"]) for guild, status, result in games], left


async def test_a_server_that_removed_the_bot_while_it_was_stopped_has_its_games_ended_at_start_up(fake_discord,
                                                                                                   bot_process):
    """No GUILD_DELETE reaches a stopped bot: READY at its next start lacks the server, and its games end there as
    the running bot ends them, its retention starting then. A server in an outage (listed unavailable), one where
    only a user's install of the app plays, and a DM keep their games."""
    fake = fake_discord
    ana, bruno = fake.add_user("ana", installed=True), fake.add_user("bruno")
    kicked, outage = fake.default_guild, fake.add_guild("Outage")
    playing = Table(fake, [ana, bruno], "pariti", seed=2)
    await playing.open()
    await fake.slash(bruno, fake.add_channel("waiting"), "game new", game="pariti")
    await fake.slash(bruno, fake.add_channel("dark", guild=outage), "game new", game="pariti")
    without_bot = fake.add_guild("Elsewhere", bot_installed=False)
    await fake.slash(ana, fake.add_channel("hall", guild=without_bot), "game new", game="pariti")
    await fake.slash(ana, fake.add_dm(ana, bruno), "game new", game="pariti")
    await bot_process.kill()
    await fake.remove_bot(kicked, bot_offline=True)
    outage.unavailable = True

    await bot_process.start()
    await fake.wait_until(lambda: guilds_and_games(bot_process.database)[1] == [kicked.id], timeout=10,
                          what="the server's retention to start")
    games, _ = guilds_and_games(bot_process.database)
    assert games == [(kicked.id, "ended", {"bot_removed": True})] * 2 + [
        (outage.id, "lobby", None), (without_bot.id, "lobby", None), (None, "lobby", None)]
    log = bot_process.log_tail(400)
    assert "Traceback" not in log and f"server {kicked.id} removed the bot while it was stopped" in log, log
    assert fake.take_violations() == []


async def test_a_server_that_added_the_bot_back_while_it_was_stopped_keeps_its_games(fake_discord, bot_process):
    fake = fake_discord
    ana, bruno = fake.add_user("ana"), fake.add_user("bruno")
    await fake.slash(ana, fake.add_channel("waiting"), "game new", game="pariti")
    await fake.remove_bot()
    await fake.wait_until(lambda: guilds_and_games(bot_process.database)[1] == [fake.default_guild.id], timeout=5,
                          what="the server's retention to start")
    await bot_process.kill()
    await fake.add_bot(fake.default_guild, bot_offline=True)

    await bot_process.start()
    await fake.wait_until(lambda: guilds_and_games(bot_process.database)[1] == [], timeout=10,
                          what="the server's retention to be called off")
    assert "Traceback" not in bot_process.log_tail(400)
    await fake.slash(bruno, fake.add_channel("again"), "game new", game="pariti")   # the bot plays there again
    assert [status for _, status, _ in guilds_and_games(bot_process.database)[0]] == ["ended", "lobby"]
