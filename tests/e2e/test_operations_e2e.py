"""What an operator sees of a running bot: `python -m bot` with TABLERO_HTTP set,
through the fake Discord. /metrics, scraped during a game, counts what the game did; /healthz answers 200
while all is well, and 503 with the reason while the database is down, the bot answering players meanwhile.
Its JSON log lines name the game, guild and channel of the interaction they concern."""
import asyncio
import json
import os
import subprocess
import sys

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.conftest import REPO, free_port
from tests.e2e.table import Table, roll_id, said, two_players

pytestmark = pytest.mark.e2e


async def scrape(port: int) -> dict[tuple[str, tuple], float]:
    """{(sample name, sorted labels): value} of /metrics."""
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}/metrics") as response:
        assert response.status == 200 and response.headers["Content-Type"].startswith("text/plain")
        text = await response.text()
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def total(samples: dict, name: str, **labels: str) -> float:
    return sum(v for (n, ls), v in samples.items() if n == name and set(labels.items()) <= set(ls))


async def health(port: int) -> tuple[int, dict]:
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}/healthz") as response:
        body = await response.text()
    assert body.count("\n") == 1, "one line of JSON"
    return response.status, json.loads(body)


@pytest.fixture
async def watched_bot(fake_discord, tmp_path):
    """`python -m bot` on tmp_path's SQLite file, its listener on a free port of 127.0.0.1 (`.port`), logging JSON."""
    port = free_port()
    bot = fake_discord.client_process([sys.executable, "-m", "bot"], cwd=REPO, log_path=tmp_path / "bot.log",
                                      env={"TABLERO_DATABASE": str(tmp_path / "t.sqlite3"),
                                           "TABLERO_HTTP": f"127.0.0.1:{port}", "TABLERO_LOG_FORMAT": "json"})
    bot.port, bot.database = port, tmp_path / "t.sqlite3"
    await bot.start()
    yield bot
    await bot.kill()   # as bot_process's (tests/conftest.py)


async def test_metrics_scraped_during_a_game_count_what_it_played(fake_discord, watched_bot):
    fake, port = fake_discord, watched_bot.port
    assert await health(port) == (200, {"healthy": True})
    table = Table(fake, two_players(fake), "parcheesi", seed=4)
    await table.open()
    await table.play(12)
    before = await scrape(port)
    await table.play(6)
    after = await scrape(port)

    clicks = [i for i in fake.interactions if i.type in (3, 5)]
    commands = [i for i in fake.interactions if i.type == 2]
    assert total(after, "tablero_interactions_total", outcome="answered") == len(fake.interactions)
    assert total(after, "tablero_interactions_total", kind="/game new") == 1
    assert sum(v for (n, ls), v in after.items() if n == "tablero_interactions_total"
               and dict(ls)["kind"].startswith("control ")) == len(clicks)
    assert total(after, "tablero_interaction_first_answer_seconds_count", type="control") == len(clicks)
    assert total(after, "tablero_interaction_first_answer_seconds_count", type="command") == len(commands)
    assert total(after, "tablero_interaction_first_answer_seconds_bucket", type="control", le="3.0") == len(clicks)
    # Every board the channel holds or held was posted once, and so was the lobby's message, the game's first
    # board; boards edited in place count their edits.
    boards = [m for m in fake.messages(table.channel, deleted=True) if m.pictured and not m.ephemeral]
    assert total(after, "tablero_boards_total", how="posted") == len(boards) + 1
    assert total(after, "tablero_boards_total", how="edited") >= 1
    assert total(after, "tablero_boards_waiting") == 0
    # Six more actions: six more interactions answered, and the store wrote each.
    assert (total(after, "tablero_interactions_total", outcome="answered")
            - total(before, "tablero_interactions_total", outcome="answered")) >= 6
    assert (total(after, "tablero_store_call_seconds_count", result="ok")
            > total(before, "tablero_store_call_seconds_count", result="ok") + 6)
    assert total(after, "tablero_store_call_seconds_count", result="unreachable") == 0
    assert total(after, "tablero_discord_responses_total", status="200") > 0
    assert total(after, "tablero_discord_responses_total", status="401") == 0
    assert total(after, "tablero_games", status="in play") == 1 and total(after, "tablero_games", status="lobby") == 0
    assert total(after, "tablero_store_reachable") == 1
    assert 0 <= total(after, "tablero_event_loop_lag_seconds") < 1
    assert total(after, "process_resident_memory_bytes") > 10e6 and total(after, "process_cpu_seconds_total") > 0
    lines = watched_bot.log_path.read_text().splitlines()
    assert lines and all(set(json.loads(line)) >= {"time", "level", "logger", "message"} for line in lines)
    assert fake.token not in "".join(lines)
    probe = subprocess.run([sys.executable, "-m", "bot.operations.probe"], capture_output=True, text=True, timeout=30,
                           env={**os.environ, "TABLERO_HTTP": f"0.0.0.0:{port}"})   # asked on loopback
    assert (probe.returncode, probe.stdout) == (0, '{"healthy": true}\n')


async def test_with_its_database_down_the_bot_reports_unhealthy_and_still_answers_players(
        fake_discord, own_postgres, tmp_path):
    port = free_port()
    bot = fake_discord.client_process([sys.executable, "-m", "bot"], cwd=REPO, log_path=tmp_path / "bot.log",
                                      env={"TABLERO_DATABASE": own_postgres.url, "TABLERO_HTTP": f"127.0.0.1:{port}",
                                           "TABLERO_LOG_FORMAT": "json"})
    await bot.start()
    try:
        players = two_players(fake_discord)
        table = Table(fake_discord, players, "parcheesi", seed=6)
        await table.open()
        await table.play_until(lambda: roll_id(table.board()) is not None, limit=20)
        assert (await health(port))[0] == 200
        own_postgres.stop()

        status, body = await health(port)
        assert status == 503 and body["healthy"] is False and body["reason"].startswith("database out of reach")
        assert "postgresql" not in body["reason"] and own_postgres.url not in body["reason"]
        answer = await fake_discord.slash(players[1], table.channel, "game status")
        assert answer.ack_seconds < 3 and answer.content == said("storage.error.unreachable", players[1])
        samples = await scrape(port)
        assert total(samples, "tablero_store_reachable") == 0
        assert total(samples, "tablero_store_call_seconds_count", result="unreachable") >= 1

        own_postgres.start()
        assert (await health(port))[0] == 200
        # The log line of the refused command names the guild and channel of the interaction (JSON logs).
        [refused] = [entry for line in (tmp_path / "bot.log").read_text().splitlines()
                     if "database is out of reach" in (entry := json.loads(line))["message"]]
        assert (refused["guild"], refused["channel"], refused["level"]) == (fake_discord.guild_id, table.channel.id,
                                                                            "WARNING")
    finally:
        await bot.terminate()


# A board goes through the interaction that asked for it (an edit of the clicked board, or a follow-up);
# what no interaction carries any more (catching a board up) goes through the channel.
HOOK_EDIT = "/webhooks/{app}/{token}/messages/{message}"
POST, EDIT = "/channels/{channel}/messages", "/channels/{channel}/messages/{message}"


async def test_discord_errors_are_counted_by_status_and_a_board_they_hold_back_waits(fake_discord, watched_bot):
    fake, port = fake_discord, watched_bot.port
    table = Table(fake, two_players(fake), "parcheesi", seed=5)
    await table.open()
    board = await table.live_board()
    before = await scrape(port)
    # The roll's board: rate-limited once (discord.py waits and tries again), then Discord down for a while:
    # the click's answer is lost with the connection (no status), and the catching up through the channel is
    # answered 503 (which discord.py raises at once there).
    fake.rate_limit("PATCH", HOOK_EDIT, retry_after=0.1)
    fake.drop("PATCH", HOOK_EDIT)
    for method, route in (("PATCH", EDIT), ("POST", POST)):
        fake.fail(method, route, status=503, times=1000)
    answer = await fake.click(table.to_act(board), board, custom_id=roll_id(board), timeout=60)
    assert answer.ack_seconds < 3

    async def waiting() -> float:
        return total(await scrape(port), "tablero_boards_waiting")
    for _ in range(120):   # until the catching up met a 503
        during = await scrape(port)
        if total(during, "tablero_discord_responses_total", status="503") >= 1:
            break
        await asyncio.sleep(0.5)
    assert total(during, "tablero_boards_waiting") == 1
    assert total(during, "tablero_discord_responses_total", status="429") == \
        total(before, "tablero_discord_responses_total", status="429") + 1
    assert total(during, "tablero_discord_responses_total", status="503") >= 1
    assert total(during, "tablero_discord_responses_total", status="none") == \
        total(before, "tablero_discord_responses_total", status="none") + 1
    assert total(during, "tablero_interactions_total", kind="control a", outcome="answered") == \
        total(before, "tablero_interactions_total", kind="control a", outcome="answered") + 1

    fake.clear_faults()   # Discord is back: the board is shown, nothing waits
    for _ in range(40):
        if await waiting() == 0:
            break
        await asyncio.sleep(0.5)
    assert await waiting() == 0
