"""On SQLite the cache has a database file of its own: storing a page in it never waits for the
app database's write lock, which each entry holds while it saves (docs/deployment.md: The
cache). The app is started as a deployment starts it, on files in a folder of the test's own."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: run by the app's manage.py shell: hold the app database's write lock as an entry does, and
#: store and read a page in the cache meanwhile
WHILE_AN_ENTRY_SAVES = """
import sqlite3
from django.conf import settings
from django.core.cache import cache

app_database = settings.DATABASES["default"]["NAME"]
entry = sqlite3.connect(app_database, isolation_level=None)
entry.execute("BEGIN IMMEDIATE")
try:
    sqlite3.connect(app_database, timeout=0.1, isolation_level=None).execute("BEGIN IMMEDIATE")
except sqlite3.OperationalError as error:
    print("another writer:", error)
cache.set("board", "drawn")
print("cache:", cache.get("board"))
entry.rollback()
"""


def manage(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}"}
    env.pop("REDIS_URL", None)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )


def test_the_cache_is_written_while_an_entry_holds_the_databases_write_lock(
    tmp_path: Path,
) -> None:
    manage(tmp_path, "createcachetable")

    said = manage(tmp_path, "shell", "-c", WHILE_AN_ENTRY_SAVES).stdout

    assert "another writer: database is locked" in said
    assert "cache: drawn" in said
    assert (tmp_path / "db.cache.sqlite3").exists()
