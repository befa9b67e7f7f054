"""A seeded fault campaign: what the bot depends on fails during a few games, and they carry on.

`python -m bot` on a PostgreSQL server of the test's own plays three games through the fake Discord. Before each
legal click one fault is drawn: the connection lost on the click's first post (a board as a follow-up; not
carried out), on its first edit (a board, or a piece's moves; carried out, its answer lost), or on the edit that
shows a piece's moves (a piece is picked where the board offers one; not carried out), which discord.py raises
at once; Discord's 502 on a post, which discord.py tries again (as it does any 5xx, a 503 too, on an
interaction's routes, where a click's boards go); a 429 (a route's bucket or the global limit); the gateway
closed with 4000 (resumed) or 4009 (identified afresh); or the database restarted (the click meanwhile refused as
unreachable, then the server started again). After each click, every game shows one live board of its stored
position. At the end: 0 clicks the bot acknowledged lost (each is in the log), 0 games without a board of their
stored position, 0 interactions unanswered, the bot process never exited (no restart), and its log holds no
traceback. The figures are those of docs/reliability.md; the test writes them to /tmp/e2e_fault_campaign.txt.
"""
from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import pytest

from bot.store import Store
from tests.e2e.table import Table, board_version, choices, in_play, said, tracebacks

pytestmark = pytest.mark.e2e

SEED = 25
ROUNDS = 20             # each kind of fault twice, in a seeded order
GAMES = ("parcheesi", "barricade", "pariti")
# A click's boards go through its interaction: the board edited or retired through the click's
# answer, a new board as a follow-up. The catching up after a fault goes through the channel.
POST, EDIT = "/webhooks/{app}/{token}", "/webhooks/{app}/{token}/messages/{message}"
# The bot's log line when an answer's edit (a piece's moves) went through after it failed (Responder.answer).
MOVES_SHOWN_AGAIN = r"the answer to interaction \d+ in channel \d+: caught up"
FAULTS = ("lost post", "lost edit", "lost moves", "502 post", "429 post", "429 global", "gateway 4000", "gateway 4009",
          "database restart", "none")


def inject(fake, fault: str) -> None:
    """Discord's part of `fault` (the database restart is the test's own)."""
    if fault == "lost post":
        fake.drop("POST", POST)
    elif fault == "lost edit":
        fake.drop("PATCH", EDIT, carried_out=True)
    elif fault == "lost moves":
        fake.drop("PATCH", EDIT)
    elif fault == "502 post":
        fake.fail("POST", POST, status=502)
    elif fault == "429 post":
        fake.rate_limit("POST", POST, retry_after=0.3)
    elif fault == "429 global":
        fake.rate_limit("PATCH", EDIT, retry_after=0.3, scope="global")


async def click(fake, table: Table, rng: random.Random, piece_first: bool = False):
    """The player to act clicks one of the board's controls (a piece picked shows its moves: one of them is
    clicked; `piece_first`: a piece, where the board offers one); the interaction that acts."""
    board = await table.live_board(timeout=30)
    player = table.to_act(board)
    offered = choices(board)
    pieces = [c for c in offered if c.kind == "g"]
    choice = rng.choice(pieces if piece_first and pieces else offered)
    if choice.kind == "a":
        return await fake.click(player, board, custom_id=choice.custom_id)
    answer = await fake.select(player, board, choice.custom_id, [choice.value])
    panel = next((m for m in answer.messages if m.ephemeral), answer.message)   # the piece's moves, to the player
    moves = [c for c in choices(panel) if c.kind == "a"]
    if choice.kind != "g" or not moves:   # a move, or the moves refused (storage out of reach)
        return answer
    return await fake.click(player, panel, custom_id=rng.choice(moves).custom_id)


def reply_of(answer):
    """What the answer told the user alone, if anything (its public follow-ups are boards)."""
    return next((m for m in answer.followups if m.ephemeral), None)


async def stored_versions(url: str, tables: list[Table]) -> dict[Table, tuple[int, list[int], str]]:
    """Each table's game: (version, the seqs of its log, status), read from the database."""
    store = await Store.open(url)
    try:
        found = {}
        for table in tables:
            record = await store.games.latest_game(table.channel.id)
            found[table] = (record.version, [a.seq for a in await store.games.actions(record.id)], record.status)
        return found
    finally:
        await store.close()


async def shows_its_stored_position(fake, table: Table, version: int, status: str):
    """One live board, of the stored version (a finished game: its final board, controls but Rematch gone)."""
    def shown():
        live = [m for m in fake.messages(table.channel) if m.files and in_play(m)]
        if status != "active":
            return not live and "🏆" in table.board().content
        return len(live) == 1 and board_version(live[0]) == version
    await fake.wait_until(shown, timeout=30, what=f"one live board of version {version} in #{table.channel.name}")


async def test_a_seeded_fault_campaign_loses_nothing_and_leaves_no_game_unshown(fake_discord, own_postgres,
                                                                               postgres_bot):
    fake, bot, rng = fake_discord, postgres_bot, random.Random(SEED)
    tables = []
    for number, game in enumerate(GAMES):
        table = Table(fake, [fake.add_user(f"p{number}a"), fake.add_user(f"p{number}b", locale="fr")], game,
                      seed=SEED + number)
        await table.open()
        tables.append(table)
    faults, acknowledged, refused, not_shown = Counter(), Counter(), 0, 0
    schedule = rng.sample(FAULTS * (ROUNDS // len(FAULTS)), ROUNDS)
    for fault in schedule:
        faults[fault] += 1
        playing = [t for t in tables if in_play(t.board())]
        with_pieces = [t for t in playing if any(c.kind == "g" for c in choices(t.board()))]
        table = rng.choice(with_pieces if fault == "lost moves" and with_pieces else playing)
        user = table.to_act(table.board())
        if fault.startswith("gateway"):
            await fake.drop_gateway(code=int(fault.split()[1]))
        if fault == "database restart":
            own_postgres.stop()
            answers = [await click(fake, table, rng), await fake.slash(user, table.channel, "game status")]
            for answer in answers:
                reply = reply_of(answer) or answer.message
                assert reply.ephemeral and reply.content == said("storage.error.unreachable", user), reply.content
            refused += len(answers)
            own_postgres.start()
        else:
            inject(fake, fault)
            answer = await click(fake, table, rng, piece_first=fault == "lost moves")
            reply = reply_of(answer)
            assert reply is None or reply.content == said("boards.error.not_shown", user), reply.content
            acknowledged[table] += 1
            not_shown += reply is not None
        for other, (version, _, status) in (await stored_versions(own_postgres.url, tables)).items():
            await shows_its_stored_position(fake, other, version, status)
        fake.clear_faults()   # a fault the round's requests did not meet is not left to the next

    stored = await stored_versions(own_postgres.url, tables)
    lost = sum(max(0, acknowledged[t] - len(seqs)) for t, (_, seqs, _) in stored.items())
    unanswered = [ia for ia in fake.interactions if ia.responded_at is None or ia.ack_seconds >= 3]
    log = bot.log_path.read_text()
    figures = (f"{ROUNDS} rounds, faults {dict(sorted(faults.items()))}; {sum(acknowledged.values())} clicks "
               f"acknowledged, {lost} lost; {not_shown} answered 'not shown yet' then shown; {refused} answered "
               f"'storage not reachable'; {len(re.findall(MOVES_SHOWN_AGAIN, log))} pieces' moves shown once Discord "
               f"answered again; {len(fake.interactions)} interactions, {len(unanswered)} unanswered; "
               f"{len(fake.dropped)} connections lost, {len(fake.failed)} server errors, "
               f"{len(fake.rate_limited)} 429s, {len(fake.gateway_drops)} gateway closes; bot restarts 0")
    Path("/tmp/e2e_fault_campaign.txt").write_text(figures + "\n")
    assert lost == 0 and all(seqs == list(range(version)) for version, seqs, _ in stored.values()), stored
    assert unanswered == []
    assert bot.running and fake.identifies == 1 + faults["gateway 4009"], "the bot never exited"
    assert "Traceback" not in log, tracebacks(log)
