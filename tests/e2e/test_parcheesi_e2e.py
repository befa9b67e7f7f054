"""Parcheesi end to end: `python -m bot` against the fake Discord, driven as users would, on a real SQLite file."""

import asyncio
import io
import random
import re
import sqlite3
import sys

import pytest
from PIL import Image

from tests.fake_discord import Message

pytestmark = pytest.mark.e2e

ACTION_ID = re.compile(r"^tb:[asg]:(\d+):(\d+)")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class Table:
    """A channel with players, and the moves users make through the board's controls."""

    def __init__(self, fake, players):
        self.fake = fake
        self.channel = fake.add_channel("parcheesi")
        self.players = players
        self.rng = random.Random(7)

    def board(self) -> Message:
        """The latest board: the last public message carrying the PNG."""
        return self.fake.last_message(self.channel, lambda m: m.files)

    def to_act(self, board: Message):
        mentioned = re.findall(r"<@(\d+)>", board.content)
        assert mentioned, f"the board mentions nobody: {board.content!r}"
        return self.fake.users[int(mentioned[-1])]

    async def open(self, teams=False):
        host, *others = self.players
        reply = await self.fake.slash(host, self.channel, "game new", game="parcheesi", teams=teams)
        assert reply.ephemeral, "the host's acknowledgement is for the host alone"
        lobby = self.fake.last_message(self.channel, lambda m: "Join" in [b.get("label") for b in m.buttons])
        for player in others:
            assert not (await self.fake.click(player, lobby, label="Join")).followups
        assert not (await self.fake.click(host, lobby, label="Start")).followups
        return self.board()

    async def roll(self, board: Message):
        return await self.fake.click(self.to_act(board), board, custom_id=_roll_id(board))

    async def play_once(self) -> bool:
        """The player to act rolls or makes a random legal move; False once the game is over."""
        board = self.board()
        if not board.custom_ids:
            return False
        player = self.to_act(board)
        if _roll_id(board):
            answer = await self.roll(board)
        else:
            answer = await self._move(player, board)
        assert not [m for m in answer.followups if m.ephemeral], f"refused: {answer.followups}"
        return True

    async def _move(self, player, board: Message):
        item = self.rng.choice(board.items)
        if item["type"] == 2:
            return await self.fake.click(player, board, custom_id=item["custom_id"])
        value = self.rng.choice(item["options"])["value"]
        answer = await self.fake.select(player, board, item["custom_id"], [value])
        if item["custom_id"].startswith("tb:g:"):  # a pawn was picked: its moves come to this player alone
            moves = answer.message
            assert moves.ephemeral and moves.files[0].bytes.startswith(PNG_SIGNATURE)
            return await self._move(player, moves)
        return answer


def _roll_id(board: Message) -> str | None:
    return next((cid for cid in board.custom_ids if cid.endswith(":roll")), None)


def _version(board: Message) -> int:
    return max(int(ACTION_ID.match(cid)[2]) for cid in board.custom_ids if ACTION_ID.match(cid))


def check_png(data: bytes) -> None:
    """A board readable at ~1024 px: right size, not blank, the four player colours drawn."""
    assert data.startswith(PNG_SIGNATURE)
    image = Image.open(io.BytesIO(data)).convert("RGB")
    assert 800 <= max(image.size) <= 1600 and min(image.size) >= 400, image.size
    small = image.resize((128, 128))
    pixels = [small.getpixel((x, y)) for x in range(128) for y in range(128)]
    assert len(set(pixels)) > 16, "the board is almost blank"
    hues = {_hue_name(p) for p in pixels} - {None}
    assert {"red", "yellow", "green", "blue"} <= hues, hues


def _hue_name(pixel):
    r, g, b = pixel
    if max(pixel) - min(pixel) < 80:
        return None
    if r > 150 and g > 150 and b < 100:
        return "yellow"
    return {0: "red", 1: "green", 2: "blue"}[pixel.index(max(pixel))]


def stored(database) -> tuple:
    """Every game row and action row, straight from the SQLite file."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        games = db.execute("SELECT id, status, state, version, seats, result FROM games ORDER BY id").fetchall()
        actions = db.execute("SELECT * FROM actions ORDER BY game_id, seq").fetchall()
    return games, actions


@pytest.fixture
def players(fake_discord):
    return [fake_discord.add_user(name, locale=locale)
            for name, locale in (("ana", "en-US"), ("bruno", "fr"), ("chloe", "en-GB"), ("dai", "fr"))]


async def test_four_users_play_a_whole_game(fake_discord, bot_process, players):
    """Lobby, start, then rolls and moves through buttons and selects until someone wins."""
    fake_discord.quiet = 0.1
    table = Table(fake_discord, players)
    check_png((await table.open()).files[0].bytes)
    boards = 0
    while await table.play_once():
        boards += 1
        assert boards < 5000, "the game does not end"
        if boards % 50 == 0:
            check_png(table.board().files[0].bytes)
    final = table.board()
    assert "🏆" in final.content and not final.custom_ids
    check_png(final.files[0].bytes)
    games, actions = stored(bot_process.database)
    assert games[0][1] == "finished" and len(actions) == games[0][3]


async def test_restart_keeps_the_game_and_its_buttons(fake_discord, bot_process, players):
    """SIGKILL between a roll and the move, SIGTERM before a roll: the last board's buttons still work."""
    table = Table(fake_discord, players[:2])
    await table.open()
    while _roll_id(board := table.board()):  # roll until a move is to be made
        await table.roll(board)
    before, version = stored(bot_process.database), _version(board)  # boards are edited in place: keep numbers
    await bot_process.kill()
    await bot_process.start()
    assert stored(bot_process.database) == before
    assert await table.play_once()
    assert _version(table.board()) > version

    while not _roll_id(board := table.board()):
        await table.play_once()
    await bot_process.terminate()
    await bot_process.start()
    version = _version(board)
    await table.roll(board)
    assert _version(table.board()) > version


async def test_hostile_input_is_refused_and_changes_nothing(fake_discord, bot_process, players):
    """Strangers, turn thieves, double clicks, illegal and malformed moves, no game, leaving mid-game."""
    ana, bruno, stranger = players[0], players[1], players[2]
    table = Table(fake_discord, [ana, bruno])
    board = await table.open()
    elsewhere = fake_discord.add_channel("no-game-here")
    not_to_act = bruno if table.to_act(board) is ana else ana

    async def refused(action):
        before = stored(bot_process.database)
        answer = await action()
        reply = answer.followups[-1] if answer.followups else answer.message
        assert reply.ephemeral and reply.content, f"no ephemeral refusal: {answer.messages}"
        assert stored(bot_process.database) == before, "a refused action changed the stored game"
        return reply.content

    await refused(lambda: fake_discord.click(stranger, board, custom_id=_roll_id(board)))
    await refused(lambda: fake_discord.click(not_to_act, board, custom_id=_roll_id(board)))
    for move in ("zzz", "x" * 300, "'; DROP TABLE games; --", "🎲" * 50, "roll roll"):
        await refused(lambda: fake_discord.slash(table.to_act(board), table.channel, "game move", move=move))
    assert "no game" in await refused(lambda: fake_discord.slash(ana, elsewhere, "game roll"))
    assert "no game" in await refused(lambda: fake_discord.slash(ana, elsewhere, "game move", move="1"))
    await refused(lambda: fake_discord.slash(bruno, table.channel, "game leave"))
    choices = await fake_discord.autocomplete(stranger, table.channel, "game move", "move", typed="")
    assert choices == []

    before_games, before_actions = stored(bot_process.database)
    player = table.to_act(board)
    roll = _roll_id(board)
    first, second = await asyncio.gather(fake_discord.click(player, board, custom_id=roll),
                                         fake_discord.click(player, board, custom_id=roll))
    refusals = [m for a in (first, second) for m in a.followups if m.ephemeral]
    assert len(refusals) == 1, "exactly one of two simultaneous clicks is applied"
    games, actions = stored(bot_process.database)
    assert len(actions) == len(before_actions) + 1 and games[0][3] == before_games[0][3] + 1


async def test_every_interaction_is_acknowledged_in_time_on_a_busy_machine(fake_discord, bot_process, players):
    """Two CPU burners on this 2-core machine: every first response still within Discord's 3 s."""
    burners = [await asyncio.create_subprocess_exec(sys.executable, "-c", "while True: pass") for _ in range(3)]
    try:
        table = Table(fake_discord, players)
        await table.open()
        for _ in range(30):
            assert await table.play_once()
    finally:
        for burner in burners:
            burner.kill()
            await burner.wait()
    slowest = max(fake_discord.interactions, key=lambda i: i.ack_seconds)
    assert slowest.ack_seconds < 2.5, f"{slowest.describe()} acknowledged after {slowest.ack_seconds:.2f}s"
