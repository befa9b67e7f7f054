"""Humans against computer players through the fake Discord.

Computer seats are added from the lobby (button and `/game add-bot`); they play on their turn
without anyone pressing anything, and every board pings the person who must act."""

import asyncio
import re
import time
from pathlib import Path

import pytest

from tests.e2e.table import Table, left_nothing, stored, told

pytestmark = pytest.mark.e2e


def lobby_button(message, verb: str) -> str | None:
    return next((cid for cid in message.custom_ids if cid.startswith("tb:l:") and cid.endswith(":" + verb)), None)


async def click_lobby(fake, table: Table, host, verb: str) -> None:
    lobby = fake.last_message(table.channel, lambda m: lobby_button(m, verb))
    answer = await fake.click(host, lobby, custom_id=lobby_button(lobby, verb))
    assert not told(answer), told(answer)


async def test_a_person_plays_pariti_to_the_end_against_the_computer(fake_discord, bot_process):
    fake_discord.quiet = 0.1
    host = fake_discord.add_user("ana", locale="en-US")
    table = Table(fake_discord, [host], "pariti", seed=5)
    reply = await fake_discord.slash(host, table.channel, "game new", game="pariti")
    assert left_nothing(reply)
    await click_lobby(fake_discord, table, host, "add-bot")
    assert "Computer (normal)" in fake_discord.last_message(table.channel, lambda m: lobby_button(m, "start")).content
    await click_lobby(fake_discord, table, host, "start")

    plays = await table.play_to_the_end(limit=300)
    assert plays > 0
    final = table.ended(bot_process.database, ("blue", "pink"), outcomes=("🏆", "draw"))
    games, actions = stored(bot_process.database)
    seats = {a[2] for a in actions}   # (game_id, seq, seat, ...)
    assert seats == {0, 1}, "both the person and the computer moved"
    assert all(mention == str(host.id) for mention in _mentions(fake_discord, table)), "only the person is pinged"
    assert final.files


async def test_computer_seats_of_every_level_play_their_parcheesi_turns(fake_discord, bot_process):
    fake_discord.quiet = 0.1
    host = fake_discord.add_user("ana", locale="fr")
    table = Table(fake_discord, [host], "parcheesi", seed=3)
    await fake_discord.slash(host, table.channel, "game new", game="parcheesi")
    for level in ("easy", "hard"):
        reply = await fake_discord.slash(host, table.channel, "game add-bot", level=level)
        assert left_nothing(reply)
    await click_lobby(fake_discord, table, host, "add-bot")
    await click_lobby(fake_discord, table, host, "start")

    def every_seat_played() -> bool:
        return {a[2] for a in stored(bot_process.database)[1]} == {0, 1, 2, 3}

    # Not a fixed number of plays: the game's dice are its own (a random seed), and a person stuck at the
    # start while a computer races round can see a computer win within forty of their actions.
    await table.play_until(every_seat_played, limit=200)
    games, actions = stored(bot_process.database)
    assert {a[2] for a in actions} == {0, 1, 2, 3}, "every computer seat played"
    assert all(a[5] for a in actions), "computer players never cheat"


def _mentions(fake, table: Table) -> list[str]:
    return [m for message in fake.messages(table.channel) for m in re.findall(r"<@(\d+)>", message.content)]


def _descendants(pid: int) -> dict[int, str]:
    """{pid: start time} of every process below `pid`, read from /proc (the start time tells a reused pid)."""
    parents: dict[int, list[int]] = {}
    started: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:   # gone meanwhile
                continue
            parents.setdefault(int(fields[1]), []).append(int(entry.name))
            started[int(entry.name)] = fields[19]
    found, todo = {}, [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found[child] = started[child]
            todo.append(child)
    return found


def _alive(pid: int, started: str) -> bool:
    """The process still runs (a zombie has ended; the same pid with another start time is another process)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return fields[19] == started and fields[0] != "Z"


async def test_computer_players_worker_processes_end_when_the_bot_is_killed(fake_discord, bot_process):
    """SIGKILL leaves no process of the bot (its pool's workers, multiprocessing's
    resource tracker) running."""
    fake_discord.quiet = 0.1
    host = fake_discord.add_user("ana")
    table = Table(fake_discord, [host], "pariti", seed=5)
    await fake_discord.slash(host, table.channel, "game new", game="pariti")
    await click_lobby(fake_discord, table, host, "add-bot")
    await click_lobby(fake_discord, table, host, "start")
    await table.play_until(lambda: {a[2] for a in stored(bot_process.database)[1]} == {0, 1}, limit=10)
    left = _descendants(bot_process.process.pid)
    assert len(left) >= 2, "the computer thought in a worker process"

    await bot_process.kill()
    deadline = time.monotonic() + 5
    while any(_alive(pid, started) for pid, started in left.items()) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    assert not [pid for pid, started in left.items() if _alive(pid, started)], "processes outlived the bot"
