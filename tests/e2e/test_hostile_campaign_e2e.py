"""A seeded hostile campaign: strangers, players out of turn, clicks on old boards and old
menus, double clicks, forged custom_ids and select values, malformed typed moves, spread over a live
game of every ruleset and interleaved with legal play.

Every interaction is answered within Discord's 3 s, ephemerally when refused; no refusal changes the
stored game (its rows are read from the SQLite file before and after each batch of refusals); the bot's
log holds no traceback. The figures (tried, refused, unanswered) are those of docs/reliability.md
(its hostile campaign); the test writes them to /tmp/e2e_hostile_campaign.txt.
"""
from __future__ import annotations

import asyncio
import random
from collections import Counter
from pathlib import Path

import pytest

from bot.games import GAME_IDS
from tests.e2e.table import ACTION_ID, Table, board_version, choices, in_play, roll_id, stored

pytestmark = pytest.mark.e2e

INTERACTIONS = 1000     # hostile and legal, over all the games
SEED = 19
BATCH = 6               # refusals sent at once to a game between two legal plays
DOUBLE_CLICKS = 0.25    # the share of legal rolls clicked twice at once

MALFORMED_MOVES = ["R1+", "+++", "roll roll", "💥", "R1+99999999999999999999999", "x" * 200, "1:2:3", "out:Q",
                   "call:", "Y9-2", "'; drop table games; --", "\u202eR1+3", "r7"]
ID_CHARACTERS = "tbasgcxlhvm:0123456789-+é☃ "


def forged_id(rng: random.Random, game: int, version: int) -> str:
    """A custom_id a modified client could send: noise, or our shape with impossible fields."""
    big = rng.choice([2**63, 2**64 + 1, 10**30, -1, version + 1000])
    return rng.choice([
        "".join(rng.choice(ID_CHARACTERS) for _ in range(rng.randint(0, 100))),
        f"tb:{rng.choice('asgcxlhvmq')}:{game}:{big}:{rng.choice(['roll', 'R1+4', 'join', 'f', 'end', ''])}",
        f"tb:h:{big}:0:f", f"tb:a:{game}:{version}:{'Z' * rng.randint(1, 95)}", f"tb:l:{game}:explode",
        f"tb:v:{game}:{big}:computer", f"tb:a:{game}:{version}:roll:extra",
    ])


def game_rows(database, game: int) -> tuple:
    """The stored game and its action log, straight from the SQLite file."""
    games, actions = stored(database)
    return [g for g in games if g[0] == game], [a for a in actions if a[0] == game]


class Campaign:
    def __init__(self, fake, database, stranger, seed: int):
        self.fake, self.database, self.stranger = fake, database, stranger
        self.seed = seed
        self.rngs: dict[Table, random.Random] = {}          # one per game: the games run at once
        self.tried = self.refused = 0
        self.kinds: Counter[str] = Counter()                # what the hostile interactions were
        self.old_boards: dict[Table, list[tuple]] = {}     # (message, its custom_ids while live)

    async def refusals(self, table: Table, game: int) -> None:
        """A batch of hostile interactions at once: each answered to the user alone, the game unchanged."""
        await table.current()   # the last play shown (a starved bot may edit its board a while after it settled)
        before = game_rows(self.database, game)
        sent = [self.hostile(table, game) for _ in range(BATCH)]
        answers = await asyncio.gather(*sent)
        assert all(answer.ack_seconds < 3 for answer in answers), [a.describe() for a in answers]
        # A click acknowledged silently is settled once its channel is quiet: with a batch in the channel,
        # its ephemeral answer may come a moment later.
        await self.fake.wait_until(lambda: all(any(m.ephemeral for m in a.messages) for a in answers), timeout=5,
                                   what="an ephemeral answer to each refused interaction")
        self.tried += len(answers)
        # The others showed a piece's moves to the asker alone (anyone may look; only the player acts).
        self.refused += sum(any(m.ephemeral and not m.files for m in a.messages) for a in answers)
        after = game_rows(self.database, game)
        assert after == before, (f"a refusal changed game {game}: actions added {set(after[1]) - set(before[1])}; "
                                 f"{[a.describe() for a in answers]}")

    async def hostile(self, table: Table, game: int):
        """One hostile interaction; a forged click when the kind drawn does not fit the board. Drawn when its task
        starts, so that no await comes between the look at the channel and the interaction (the fake, on the
        same loop, may meanwhile delete an old board the bot folded away)."""
        fake, rng = self.fake, self.rng(table)
        board = table.board()
        live = choices(board)
        version = board_version(board) if live else 0
        players = table.players
        to_act = table.to_act(board) if live else rng.choice(players)
        others = [p for p in players if p is not to_act]
        kind = rng.choice(["stranger", "out_of_turn", "old_board", "old_menu", "forged_click", "forged_select",
                           "typed", "stranger_call"])
        self.kinds[kind] += 1
        if kind in ("stranger", "out_of_turn") and live:
            choice = rng.choice(live)
            who = self.stranger if kind == "stranger" else rng.choice(others)
            if choice.kind == "a":
                return await fake.click(who, board, custom_id=choice.custom_id)
            return await fake.select(who, board, choice.custom_id, [choice.value])
        # Old boards still on screen: one whose words a newer board took up is deleted.
        shown = {m.id for m in fake.messages(table.channel)}
        old_boards = [(message, ids) for message, ids in self.old_boards.get(table, []) if message.id in shown]
        if kind == "old_board" and old_boards:
            message, ids = rng.choice(old_boards)
            if message.id != board.id:
                return await fake.forge_click(rng.choice(players), message, custom_id=rng.choice(ids))
        if kind == "old_menu":
            menus = self.old_menus(table, game)
            if menus:
                player, menu = rng.choice(menus)
                choice = rng.choice(choices(menu))
                if choice.kind == "a":
                    return await fake.click(player, menu, custom_id=choice.custom_id)
                return await fake.select(player, menu, choice.custom_id, [choice.value])
        if kind == "forged_select" and live:
            menu = next((c.custom_id for c in live if c.kind in "sg"), live[0].custom_id)
            values = rng.choice([["not-an-option"], [], [live[0].value, live[-1].value, "x"], ["é" * 100]])
            return await fake.forge_select(rng.choice([*players, self.stranger]), board, menu, values)
        if kind == "typed":
            return await fake.slash(rng.choice([*players, self.stranger]), table.channel, "game move",
                              move=rng.choice(MALFORMED_MOVES))
        if kind == "stranger_call":
            return await fake.slash(self.stranger, table.channel, "game call",
                              piece=rng.choice(["R1", "call:R1", "call:Z9", "?"]))
        self.kinds[kind] -= 1
        self.kinds["forged_click"] += 1
        return await fake.forge_click(rng.choice([*players, self.stranger]), board,
                                      custom_id=forged_id(rng, game, version))

    def rng(self, table: Table) -> random.Random:
        return self.rngs.setdefault(table, random.Random(f"{self.seed}:{table.game}"))

    def old_menus(self, table: Table, game: int) -> list[tuple]:
        """Ephemeral menus of moves shown to a player for a position the game has left. (Not those a move was
        played from: the bot closes each once the move's board is up, maybe while the batch runs.)"""
        current = game_rows(self.database, game)[0][0][3]
        played_from = {panel.id for panel in table.panels}
        return [(player, m) for player in table.players for m in self.fake.messages(table.channel, viewer=player)
                if m.ephemeral_to == player.id and choices(m) and board_version(m) < current
                and m.id not in played_from]

    async def legal(self, table: Table, game: int) -> None:
        """The player to act plays; now and then he clicks the Roll button twice at once: one roll."""
        board = await table.current()   # of the stored position: the last play's edit may come late
        if not in_play(board):   # the game is over
            return
        self.old_boards.setdefault(table, []).append((board, list(board.custom_ids)))
        roll = roll_id(board)
        if roll and self.rng(table).random() < DOUBLE_CLICKS:
            actions = len(game_rows(self.database, game)[1])
            answers = await asyncio.gather(*(self.fake.click(table.to_act(board), board, custom_id=roll)
                                             for _ in range(2)))
            assert all(a.ack_seconds < 3 for a in answers)
            # (a click settles once its channel is quiet: the other click's board may be what it saw; the one
            # refused was refused after the other's roll was stored, the channel's game locked meanwhile)
            refusals = await self.fake.wait_until(lambda: [m for a in answers for m in a.followups if m.ephemeral],
                                                  timeout=5, what="the second click refused")
            assert len(refusals) == 1, refusals
            assert len(game_rows(self.database, game)[1]) == actions + 1, "a double click rolled once"
            self.tried, self.refused = self.tried + 2, self.refused + 1
            self.kinds["double_click"] += 1
            return
        await table.play_once()
        self.tried += 1

    async def run(self, tables: list[Table]) -> None:
        games = [int(ACTION_ID.match(t.board().custom_ids[0])[1]) for t in tables]

        async def round_of(table: Table, game: int) -> None:
            await self.refusals(table, game)
            await self.legal(table, game)
        while self.tried < INTERACTIONS:
            await asyncio.gather(*(round_of(t, g) for t, g in zip(tables, games)))


async def test_a_thousand_hostile_interactions_are_all_answered_and_change_nothing(fake_discord, bot_process):
    fake_discord.quiet = 0.05
    stranger = fake_discord.add_user("mallory")
    tables = []
    for i, game in enumerate(GAME_IDS):
        table = Table(fake_discord, [fake_discord.add_user(f"p{i}a"), fake_discord.add_user(f"p{i}b", locale="fr")],
                      game, seed=SEED + i)
        table.database = bot_process.database   # (Table.current: the board of the stored position)
        await table.open(forced_moves=False)   # a roll is one action (no move playing itself after it)
        tables.append(table)
    campaign = Campaign(fake_discord, bot_process.database, stranger, SEED)
    await campaign.run(tables)

    unanswered = fake_discord.unanswered()
    figures = f"tried {campaign.tried}, refused {campaign.refused}, unanswered {len(unanswered)}"
    Path("/tmp/e2e_hostile_campaign.txt").write_text(f"{figures}; {dict(campaign.kinds)}\n")
    assert not unanswered, unanswered
    assert "Traceback" not in bot_process.log_path.read_text(errors="replace")
