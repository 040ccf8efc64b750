"""Under uvicorn (ASGI) each request's view runs in a thread of its own; on PostgreSQL the
requests share Django's pool (scorekeeper/settings.py), so a hall's worth of page loads holds
no more server connections than the pool's size however many requests came, and none fails."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg
import pytest

from tests.access.server import (
    Phone,
    Server,
    is_postgres,
    migrated_database,
    new_match,
    server_environment,
)

DATABASE_URL = os.environ.get("DATABASE_URL", "")
pytestmark = pytest.mark.skipif(
    not is_postgres(DATABASE_URL),
    reason="the pool is PostgreSQL's (tests/with-postgres.sh provides one)",
)

#: the pool's size for the run (each of the server's two workers has a pool of its own)
POOL = 4


def server_connections(database_url: str) -> int:
    with psycopg.connect(database_url, autocommit=True) as admin:
        row = admin.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchone()
    assert row is not None
    return int(row[0])


def test_three_hundred_page_loads_under_uvicorn_hold_at_most_the_pools_connections(
    tmp_path: Path,
) -> None:
    with migrated_database("postgresql", tmp_path) as url:
        env = {**server_environment(url), "SCOREKEEPER_DATABASE_POOL": str(POOL)}
        match = new_match(env)
        server = Server(env, tmp_path / "server.log", asgi=True)
        server.start()
        try:

            def load(_: int) -> int:
                return Phone(server.url).get(f"/matches/{match}/").status

            with ThreadPoolExecutor(8) as phones:
                answers = list(phones.map(load, range(300)))
            assert set(answers) == {200}, server.tail()
            assert server_connections(url) <= 2 * POOL
        finally:
            server.stop()
