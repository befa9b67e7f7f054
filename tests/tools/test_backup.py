"""python -m bot.tools.backup: a consistent copy of a SQLite database in use (its write-ahead log included), put back
with --restore; PostgreSQL's own tools named for a postgresql:// database."""
import sqlite3
from contextlib import closing

from bot.tools import backup


def test_the_copy_holds_what_is_still_in_the_write_ahead_log(tmp_path, capsys):
    live = str(tmp_path / "tablero.sqlite3")
    with closing(sqlite3.connect(live)) as writer:   # kept open: its writes stay in the -wal file
        writer.execute("PRAGMA journal_mode=WAL")
        writer.execute("PRAGMA wal_autocheckpoint=0")
        writer.execute("CREATE TABLE games (id INTEGER PRIMARY KEY)")
        writer.executemany("INSERT INTO games VALUES (?)", [(i,) for i in range(1, 51)])
        writer.commit()
        assert (tmp_path / "tablero.sqlite3-wal").stat().st_size > 0
        assert backup.main([str(tmp_path), "--database", live]) == 0
    (copy,) = [p for p in tmp_path.iterdir() if p.name.startswith("tablero-")]
    assert copy.name.endswith(".sqlite3") and not list(tmp_path.glob("*.partial"))
    with closing(sqlite3.connect(copy)) as db:
        assert db.execute("SELECT count(*) FROM games").fetchone()[0] == 50
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"   # one self-contained file
    assert f"to {copy}: 50 games" in capsys.readouterr().out

    restored = str(tmp_path / "restored.sqlite3")
    assert backup.main([str(copy), "--restore", "--database", restored]) == 0
    with closing(sqlite3.connect(restored)) as db:
        assert db.execute("SELECT count(*) FROM games").fetchone()[0] == 50


def test_a_missing_database_is_said_in_one_line(tmp_path, capsys):
    assert backup.main([str(tmp_path / "copy.sqlite3"), "--database", str(tmp_path / "none.sqlite3")]) == 1
    assert capsys.readouterr().err.strip().endswith("none.sqlite3: no such SQLite file.")
    assert not list(tmp_path.iterdir())


def test_postgresql_is_backed_up_with_pg_dump_and_the_password_is_not_shown(capsys, monkeypatch):
    monkeypatch.setenv("TABLERO_DATABASE", "postgresql://tablero:s3cret@db.example/tablero")
    assert backup.main(["/backups"]) == 2
    said = capsys.readouterr().err
    assert "pg_dump --format=custom" in said and "pg_restore --no-owner" in said and "s3cret" not in said
    assert "createdb -h db.example -U tablero tablero && pg_restore" in said   # docs/backup.md's commands
