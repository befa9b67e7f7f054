"""Games driven through the fake Discord as users would: lobby, then clicks on the board's controls.

A Table is one channel with its players. It reads the latest public board (the newest message
carrying a PNG), finds who is pinged, and clicks or selects one of the controls at random
(a pawn picked in a group select shows its moves to that player alone: one of those is then
played). After each move it waits until a newer board (a higher state version in its
custom_ids) or the final board is shown, so it never acts on a board being replaced.
"""
from __future__ import annotations

import contextlib
import logging
import random
import re
import shutil
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

from tests.conftest import free_port
from tests.e2e.table import in_play
from tests.fake_discord import Channel, ClientProcess, FakeDiscord, Guild, Interaction, Message, User

log = logging.getLogger(__name__)
REPO = Path(__file__).resolve().parents[2]
CONTROL = re.compile(r"^tb:[asgcx]:(\d+):(\d+)")
MOVE_PREFIXES = ("tb:a:", "tb:s:", "tb:g:")   # not call-out / type-a-move (cheating rulesets)
MENTION = re.compile(r"<@(\d+)>")
WAIT_S = 20.0
BOT_LOG = Path(tempfile.gettempdir()) / "tablero-benchmark-bot.log"   # the last run's bot log, kept


def start_bot(fake: FakeDiscord, workdir: Path, profile: tuple[str, Path] | None = None, *,
              database: str | None = None, shard: int | None = None, listen: str | None = None) -> ClientProcess:
    """`python -m bot` against the fake, on `database` (default: workdir/tablero.sqlite3), not started
    yet; with `profile` = ("cpu" | "memory", path), under that profiler (see profiled_bot.py); with
    `shard`, that shard alone of the fake's shard count; with `listen` (host:port), its health and metrics
    listener there (TABLERO_HTTP)."""
    argv = ["-m", "bot"] if profile is None else ["-m", "tests.benchmarks.profiled_bot", profile[0], str(profile[1])]
    env = {"TABLERO_DATABASE": database or str(workdir / "tablero.sqlite3"), "TABLERO_LOG_LEVEL": "WARNING"}
    if listen:
        env["TABLERO_HTTP"] = listen
    if shard is not None:
        env |= {"TABLERO_SHARD_COUNT": str(fake.shard_count), "TABLERO_SHARD_IDS": str(shard)}
    return fake.client_process([sys.executable, *argv], cwd=REPO, env=env, shards=None if shard is None else [shard],
                               log_path=workdir / f"bot{'' if shard is None else f'-{shard}'}.log")


def rss_kb(pid: int) -> int:
    """Resident memory of a process (VmRSS, kB)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100  # utime, stime in clock ticks (USER_HZ = 100)


def version_of(message: Message) -> int:
    found = [int(m[2]) for cid in message.custom_ids if (m := CONTROL.match(cid))]
    return max(found) if found else -1


@dataclass
class Timings:
    """What the drivers saw: interactions sent (for their ack times) and click-to-new-board delays."""

    moves: list[Interaction] = field(default_factory=list)     # rolls and moves
    picks: list[Interaction] = field(default_factory=list)     # group selects (show a pawn's moves)
    board_seconds: list[float] = field(default_factory=list)   # click until the next board is shown
    refused: int = 0
    stuck: int = 0


class Table:
    def __init__(self, fake: FakeDiscord, game: str, players: list[User], seed: int, channel: Channel | None = None):
        self.fake = fake
        self.game = game
        self.channel = channel or fake.add_channel(f"{game}-{seed}")
        self.players = players
        self.rng = random.Random(seed)
        self.board_id = self.version = -1
        self.finished = False
        self.error: str | None = None   # why the benchmark gave up on this table
        # Boards that were not the newest message: the bot edited an older board (docs/commands.md).
        self.misplaced = 0

    def boards(self) -> list[Message]:
        """Public messages carrying a picture, oldest first."""
        return [m for m in self.fake._messages[self.channel.id] if m.files and m.ephemeral_to is None and not m.deleted]

    def board(self) -> Message:
        """The board to play on: the one with the newest state (see `misplaced`), else the newest."""
        boards = self.boards()
        return max(reversed(boards), key=version_of)

    def _fresh(self) -> Message | None:
        boards = self.boards()
        if not boards:
            return None
        board = max(reversed(boards), key=version_of)
        if version_of(board) > self.version:
            return board
        last = boards[-1]   # the final board: a new post without controls to play (Rematch only) that pings nobody
        if last.id > self.board_id and not in_play(last) and not MENTION.search(last.content):
            return last
        return None

    async def next_board(self) -> Message:
        """Wait for a board newer than the last one played on; remember its version."""
        board = await self.fake.wait_until(self._fresh, timeout=WAIT_S, what=f"a new board in #{self.channel.name}")
        if board is not self.boards()[-1] and in_play(board):
            self.misplaced += 1
        self.board_id, self.version = board.id, version_of(board)
        self.finished = not in_play(board)
        return board

    async def open(self) -> None:
        """Host opens a lobby (a channel's previous game is over), the others join, the host starts."""
        host, *others = self.players
        await self.fake.slash(host, self.channel, "game new", game=self.game)
        lobby = self.fake.last_message(self.channel, lambda m: any(c.endswith(":join") for c in m.custom_ids))
        join = next(c for c in lobby.custom_ids if c.endswith(":join"))
        start = next(c for c in lobby.custom_ids if c.endswith(":start"))
        for player in others:
            await self.fake.click(player, lobby, custom_id=join)
        await self.fake.click(host, lobby, custom_id=start)
        await self.next_board()

    async def play_once(self, timings: Timings) -> None:
        """The pinged player plays one random control of the current board (a roll or a move)."""
        board = self.board()
        player = self.fake.users[int(MENTION.findall(board.content)[-1])]
        started = time.monotonic()
        answer = await self._use(player, board, timings)
        refusals = [m.content for m in answer.messages if m.ephemeral and not m.files]
        if refusals:
            timings.refused += 1
            log.warning("#%s: %s refused: %s", self.channel.name, answer.describe(), refusals[-1])
        await self.next_board()
        timings.board_seconds.append(time.monotonic() - started)

    async def _use(self, player: User, message: Message, timings: Timings) -> Interaction:
        item = self.rng.choice([i for i in message.items if i.get("custom_id", "").startswith(MOVE_PREFIXES)])
        custom_id = item["custom_id"]
        if item["type"] == 2:
            answer = await self.fake.click(player, message, custom_id=custom_id, timeout=WAIT_S)
        else:
            value = self.rng.choice(item["options"])["value"]
            answer = await self.fake.select(player, message, custom_id, [value], timeout=WAIT_S)
        if custom_id.startswith("tb:g:"):  # a pawn was picked: play one of its moves
            timings.picks.append(answer)
            return await self._use(player, answer.message, timings)
        timings.moves.append(answer)
        return answer


@dataclass
class Bots:
    """The bot processes of a run, and the guilds whose channels each one serves (one per shard)."""

    processes: list[ClientProcess]
    guilds: list[Guild]
    database: str
    metrics: list[str] = field(default_factory=list)   # each process's /metrics URL, if it listens

    def cpu_seconds(self) -> float:
        return sum(cpu_seconds(p.process.pid) for p in self.processes)

    def channel(self, fake: FakeDiscord, name: str, number: int) -> Channel:
        """A channel for table `number`: the tables are dealt over the guilds, so over the processes."""
        return fake.add_channel(name, guild=self.guilds[number % len(self.guilds)])


@contextlib.asynccontextmanager
async def bot_against_fake(profile: tuple[str, Path] | None = None, *, database: str | None = None,
                           processes: int = 1, listen: bool = False) -> AsyncIterator[tuple[FakeDiscord, Bots]]:
    """A fake Discord on loopback and `python -m bot` against it, on `database` (default: a temporary
    SQLite file); with `processes` > 1, one process per shard (of as many), each serving a guild of its
    shard. `profile` applies to the first process. `listen`: each process with its listener (TABLERO_HTTP)
    on a free port of loopback."""
    fake = await FakeDiscord(shard_count=processes).start()
    fake.quiet = 0.0   # the tables wait for the next board themselves
    with tempfile.TemporaryDirectory(prefix="tablero-bench-") as workdir:
        shards = [None] if processes == 1 else list(range(processes))
        addresses = [f"127.0.0.1:{free_port()}" if listen else None for _ in shards]
        bots = Bots([start_bot(fake, Path(workdir), profile if shard in (None, 0) else None, database=database,
                               shard=shard, listen=address) for shard, address in zip(shards, addresses)],
                    [fake.default_guild] + [fake.add_guild(f"shard {k}", shard=(k, processes))
                                            for k in range(1, processes)],
                    database or str(Path(workdir) / "tablero.sqlite3"),
                    [f"http://{address}/metrics" for address in addresses if address])
        try:
            for bot in bots.processes:
                await bot.start()
            yield fake, bots
        finally:
            for bot in bots.processes:
                await bot.terminate()
            await fake.close()
            for log_file in Path(workdir).glob("bot*.log"):
                shutil.copy(log_file, BOT_LOG.with_name(BOT_LOG.name.replace("bot", log_file.stem)))


def add_players(fake: FakeDiscord, count: int, tag: str) -> list[User]:
    return [fake.add_user(f"{tag}-{i}") for i in range(count)]


async def warm_up(fake: FakeDiscord, games: list[str], moves: int = 12, bots: Bots | None = None) -> None:
    """One short game of each ruleset (in each process of `bots`), so that imports, fonts and cached board
    layers are loaded."""
    for number, game in enumerate(games * (len(bots.guilds) if bots else 1)):
        channel = bots.channel(fake, f"warm-{number}", number // len(games)) if bots else None
        table = Table(fake, game, add_players(fake, 2, f"warm{number}"), seed=10_000 + number, channel=channel)
        await table.open()
        for _ in range(moves):
            if table.finished:
                break
            await table.play_once(Timings())
