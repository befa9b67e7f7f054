"""Persistence: games and their action logs, in a SQLite file (the default: nothing to set up) or in
PostgreSQL (several bot processes on one database), through the same queries (SQLAlchemy Core).

Every acknowledged action is written with the new snapshot in one transaction, guarded by the
game's version (optimistic concurrency, across processes too: the UPDATE ... WHERE version = the
version read matches one row for exactly one writer), before the bot replies. The records read and written are
bot/core/game_records.py's; rows are read by column name.

The rooms, each holding one thing:

- `store.py`: `Store`, the database opened and migrated, and its parts;
- `games.py`, `boards.py`, `defaults.py`, `people.py`, `deadlines.py`, `privacy.py`: the parts, one class of
  rows each (`store.games`...), with the statements they run beside them;
- `game_row.py`: a game's row read as a GameRecord and written back, shared by the parts that read games;
- `calls.py`: one call to the database, its retry on a stale connection, its errors typed, its duration counted;
- `backends.py`: SQLite through aiosqlite, PostgreSQL through an asyncpg pool, the statements compiled for each;
- `urls.py`: TABLERO_DATABASE read, and shown without its password;
- `errors.py`: the store's refusals;
- `schema.py`: the tables and their numbered migrations.

What callers import is re-exported here: `from bot.store import Store, StaleVersion`.
"""
from bot.core.game_records import Seat
from bot.store.backends import CONNECT_TIMEOUT_S
from bot.store.boards import FINAL_BOARD_DAYS, LOBBY_SHOWN, BoardRows
from bot.store.deadlines import DeadlineRows
from bot.store.defaults import DefaultRows
from bot.store.errors import ChannelBusy, StaleVersion, StoreClosed
from bot.store.games import GameRows
from bot.store.people import PeopleRows
from bot.store.privacy import PrivacyRows
from bot.store.store import Store
from bot.store.urls import POSTGRESQL_SCHEMES, client_options, is_postgresql, postgresql_url, shown_url

__all__ = ["CONNECT_TIMEOUT_S", "FINAL_BOARD_DAYS", "LOBBY_SHOWN", "POSTGRESQL_SCHEMES", "BoardRows", "ChannelBusy",
           "DeadlineRows", "DefaultRows", "GameRows", "PeopleRows", "PrivacyRows", "Seat", "StaleVersion", "Store",
           "StoreClosed", "client_options", "is_postgresql", "postgresql_url", "shown_url"]
