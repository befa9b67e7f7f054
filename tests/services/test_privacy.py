"""Players' data on request: what is kept about a person, forgetting them (their id and names become a former
player, their games resigned first, the others' results, ratings and dice checks intact), and servers' games
deleted after the retention."""
import asyncio
import json
import sqlite3
import subprocess
import sys
import time
from contextlib import closing

import pytest
from sqlalchemy import select

from bot.core.game_records import INTERACTIONS_ONLY
from bot.core.shards import Shards
from bot.domain import i18n, stats
from bot.domain.names import FORMER_PLAYER
from bot.games.base import Message, msg
from bot.present.words import seat_name
from bot.services import Seat, Sessions
from bot.services.privacy import scrubbed
from bot.store import Store
from bot.store.schema import metadata
from bot.tools import forget
from tests.conftest import REPO
from tests.schema_fixtures.make import ANA, BRUNO, CARLA, FINISHED, GUILD, IN_PLAY, LOBBY, play_games

DAY = 86400.0


@pytest.fixture
async def played(database):
    """On each backend: a finished Pariti game (ana, bruno: seats drawn), Parcheesi in play (bruno, carla, a
    computer: a deadline), a lobby (carla); ana wants direct messages, carla is away; the server has defaults."""
    await play_games(database)
    sessions = Sessions(await Store.open(database), think_budget_s=0.05)
    yield sessions
    await sessions.store.close()


async def everything(store: Store) -> str:
    """Every row of every table, as text."""
    rows = [await store.run(lambda db, t=table: db.rows(select(t))) for table in metadata.sorted_tables]
    return "\n".join(str(tuple(row[c] for c in row.keys())) for table in rows for row in table)


def dump(path: str) -> str:
    with closing(sqlite3.connect(path)) as db:
        return "\n".join(db.iterdump())


async def ratings(sessions: Sessions) -> dict:
    return {key: s.rating for key, s in stats.compute(await sessions.store.games.finished_games(GUILD)).items()}


async def test_privacy_tells_a_person_what_is_kept_about_them(played):
    sessions = played
    ana, carla = await sessions.privacy.kept_about(ANA), await sessions.privacy.kept_about(CARLA)
    assert (ana.games, ana.open_games, ana.away_periods, ana.notifications) == (1, 0, 0, True) and ana.actions > 0
    assert (carla.games, carla.open_games, carla.away_periods, carla.notifications) == (2, 2, 1, False)
    nobody = await sessions.privacy.kept_about(12345)
    assert (nobody.games, nobody.actions, nobody.away_periods, nobody.notifications) == (0, 0, 0, False)


async def test_forgetting_a_person_leaves_neither_their_id_nor_their_name_and_resigns_them_first(played):
    sessions = played
    before = await ratings(sessions)
    assert str(BRUNO) in await everything(sessions.store) and "Bruno" in await everything(sessions.store)

    forgotten = await sessions.privacy.forget(BRUNO)

    assert forgotten.games == 2 and len(forgotten.resigned) == 1          # the Parcheesi game they sat in
    text = await everything(sessions.store)
    assert str(BRUNO) not in text and "Bruno" not in text
    in_play = await sessions.channels.current(IN_PLAY)
    assert in_play.seat_of(BRUNO) is None and in_play.seats[0].level == "normal"   # a computer has the seat
    assert in_play.host_id == CARLA                                       # the host's powers passed on
    finished = await sessions.records.game_for(GUILD, FINISHED, None, CARLA)
    (former,) = [s for s in finished.seats if s.user_id < 0]
    assert seat_name(finished, finished.seats.index(former), "en") == "former player"
    assert seat_name(finished, finished.seats.index(former), "fr") == "la personne oubliée"   # any gender
    said = await sessions.records.verification(finished)                  # /game verify: seats and dice check
    assert said.key == "verify.ok_seating", said
    after = await ratings(sessions)
    assert after[ANA] == before[ANA]                                      # the others' ratings stay
    assert after[former.user_id] == before[BRUNO]                         # one pseudonym in every game
    assert BRUNO not in stats.people(after) and former.user_id not in stats.people(after)
    assert [key for key in stats.people(after)] == [ANA]


async def test_forgetting_deletes_time_away_and_notification_choice_and_leaves_a_lobby(played):
    sessions = played
    await sessions.privacy.forget(CARLA)
    await sessions.privacy.forget(ANA)
    assert (await sessions.store.people.of({ANA, CARLA})) == ({}, set())
    lobby = await sessions.store.games.latest_game(LOBBY)
    assert lobby.status == "ended" and lobby.host_id < 0                  # the last person left: it closed
    text = await everything(sessions.store)
    assert all(str(user) not in text for user in (ANA, CARLA)) and "carla" not in text and "ana" not in text
    assert (await sessions.store.defaults.of(GUILD)) == {"turn_time": 43200}   # the server's, nobody's


async def test_a_servers_games_are_deleted_once_the_retention_after_it_removed_the_bot_is_over(played):
    sessions = played
    now = time.time()
    await sessions.privacy.guild_left(GUILD, now - 31 * DAY)
    await sessions.privacy.guild_left(GUILD + 1, now - 31 * DAY)
    await sessions.privacy.guild_back(GUILD + 1)
    assert await sessions.privacy.purge(now - 2 * DAY, 30) == (0, 0)               # 29 days: kept
    assert await sessions.privacy.purge(now, 30) == (3, 0)                         # carla's time away is recent
    left = await everything(sessions.store)
    assert str(GUILD) not in left and len(left.splitlines()) == 2   # carla's time away, ana's DMs: people's rows


async def test_the_games_played_through_a_users_install_outlive_the_retention_of_a_server_that_removed_the_bot(
        played):
    sessions = played
    now = time.time()
    await sessions.lobby.create(channel_id=77, guild_id=GUILD, host=Seat(ANA, "ana"), game="pariti",
                                options={INTERACTIONS_ONLY: True})
    await sessions.privacy.guild_left(GUILD, now - 31 * DAY)
    assert await sessions.privacy.purge(now, 30) == (3, 0)                         # the bot's three games only
    kept = await sessions.store.games.latest_game(77)
    assert kept is not None and kept.guild_id == GUILD and kept.options[INTERACTIONS_ONLY]


def on_shard(shard: int, n: int) -> int:
    """The `n`th server id of shard `shard` of 2."""
    return ((2 * n + shard) << 22) + 7


async def test_the_servers_that_removed_the_bot_or_added_it_back_unseen_are_those_of_this_processs_shards(played):
    sessions, shards = played, Shards(2, (1,))
    assert shards.owns(GUILD)
    theirs, only_users, left, left_theirs = on_shard(0, 1), on_shard(1, 2), on_shard(1, 3), on_shard(0, 4)
    for channel, guild, options in ((1, theirs, {}), (2, only_users, {INTERACTIONS_ONLY: True}), (3, left, {}),
                                    (4, left_theirs, {}), (5, None, {})):
        await sessions.lobby.create(channel_id=channel, guild_id=guild, host=Seat(ANA, "ana"), game="pariti",
                                    options=options)
    for guild in (left, left_theirs):
        await sessions.privacy.guild_left(guild, time.time())
    # Discord lists none of them: only the fixture's server removed the bot (the one left is known to have)
    assert await sessions.privacy.unseen_departures(set(), shards) == ([GUILD], [])
    # Discord lists them all: the server known to have removed the bot added it back, on this process's shards
    everywhere = {GUILD, theirs, only_users, left, left_theirs}
    assert await sessions.privacy.unseen_departures(everywhere, shards) == ([], [left])
    assert await sessions.privacy.unseen_departures({GUILD}, Shards(2, (0,))) == ([theirs], [])


def test_python_m_bot_forget_forgets_a_person_named_by_mail(tmp_path):
    path = str(tmp_path / "tablero.sqlite3")
    asyncio.run(play_games(path))
    done = subprocess.run([sys.executable, "-m", "bot.tools.forget", str(ANA), "--database", path], cwd=REPO,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done
    assert f"user {ANA}: forgotten (games rewritten, a former player in their place: 1;" in done.stdout
    assert str(ANA) not in dump(path)


def test_python_m_bot_forget_creates_no_database(tmp_path, capsys):
    assert forget.main([str(ANA), "--database", str(tmp_path / "none.sqlite3")]) == 1
    assert "none.sqlite3: no such SQLite file." in capsys.readouterr().err and not list(tmp_path.iterdir())


def test_a_name_inside_a_stored_event_becomes_a_former_player_in_each_readers_language():
    stored = json.dumps([msg("game.resigned_replaced", player="Bruno 🎲").to_json(), msg("game.ended").to_json()])
    events = [Message.from_json(e) for e in json.loads(scrubbed(stored, {"Bruno 🎲"}))]
    assert "Bruno" not in json.dumps([e.to_json() for e in events])
    # Our words, not a name: a capital letter where they open the sentence.
    assert i18n.render(events[0], "en") == "Former player resigns; a computer player takes over the seat."
    assert i18n.render(events[0], "fr") == "La personne oubliée abandonne\u00a0; l’ordinateur reprend sa place."
    assert events[1] == msg("game.ended")
    assert scrubbed(stored, {"ana"}) == stored                            # another person's name: untouched


@pytest.mark.parametrize(("key", "params", "said"), [
    ("parcheesi.event.roll", {"seat": 0, "dice": "2 + 4"}, "La personne oubliée lance 2 + 4."),
    ("parcheesi.event.next", {"seat": 0}, "Au tour de la personne oubliée."),
    ("maghreb.event.turn", {"seat": 0}, "À la personne oubliée de jouer."),
    ("maghreb.note.replaying", {"seat": 0},
     "La personne oubliée s’est fait prendre à tricher et rejoue en coups réguliers."),
    ("timers.vote.computer", {"seat": 0}, "Par vote, un ordinateur prend la place de la personne oubliée."),
    ("timers.vote.ended", {"seat": 0}, "Par vote, la partie s’arrête (la personne oubliée ne jouait plus)."),
    ("timers.expired_play", {"seat": 0},
     "⏰ La personne oubliée n’a pas joué à temps\u00a0: un ordinateur (facile) a joué le tour."),
])
def test_a_former_player_reads_as_a_person_of_any_gender_in_french_sentences(key, params, said):
    """Players are of any gender: the words that stand for a forgotten person agree with none, in every
    sentence a name goes into (the elided "de", a sentence's start)."""
    former = i18n.Word(i18n.text(FORMER_PLAYER, "fr"))
    assert i18n.render(msg(key, **params), "fr", lambda seat: former) == said
