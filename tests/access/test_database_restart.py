"""A database server that ends the app's connections (a restart, an idle timeout) costs no
request: each app server notices before it uses its connection, and connects again (Django's
CONN_HEALTH_CHECKS, with CONN_MAX_AGE keeping a connection between requests).

PostgreSQL only: SQLite has no server to end a connection.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import ExitStack

import psycopg
import pytest
from django.db import DEFAULT_DB_ALIAS, connection, connections

from tests.access.server import (
    TIMEOUT,
    Phone,
    Server,
    is_postgres,
    migrated_database,
    server_environment,
    shell,
)

DATABASE_URL = os.environ.get("DATABASE_URL", "")

pytestmark = pytest.mark.skipif(
    not is_postgres(DATABASE_URL),
    reason="no PostgreSQL in this run: tests/with-postgres.sh provides one",
)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, str]]:
    folder = tmp_path_factory.mktemp("server-restart")
    with ExitStack() as stack:
        url = stack.enter_context(migrated_database("postgresql", folder))
        env = server_environment(url)
        shell(
            env, "from tests.access.serverside import organizer; organizer('keeper', 'pw-9d1c2b7e')"
        )
        server = Server(env, folder / "server.log")
        server.start()
        stack.callback(server.stop)
        yield server, url


def end_connections(database_url: str) -> int:
    """What a server restart does to the app's connections: each is ended by the server."""
    with psycopg.connect(database_url, autocommit=True) as admin:
        ended = admin.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchone()
    return ended[0]


def test_pages_asked_for_after_the_server_ended_every_connection_are_served(
    served: tuple[Server, str],
) -> None:
    server, url = served
    phone = Phone(server.url)
    # every worker reads the database and keeps its connection
    assert [phone.get("/").status for _ in range(12)] == [200] * 12

    assert end_connections(url) >= 1
    time.sleep(0.2)

    assert [phone.get("/").status for _ in range(12)] == [200] * 12, server.tail()


@pytest.mark.django_db(transaction=True)
def test_a_kept_connection_the_server_ended_is_replaced_before_it_is_used() -> None:
    kept = connections.create_connection(DEFAULT_DB_ALIAS)
    assert kept.settings_dict["CONN_HEALTH_CHECKS"] and kept.settings_dict["CONN_MAX_AGE"]
    try:
        kept.ensure_connection()
        ended = kept.connection.info.backend_pid
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [ended])
            deadline = time.monotonic() + TIMEOUT
            while time.monotonic() < deadline:
                cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [ended])
                if cursor.fetchone() == (0,):
                    break
                time.sleep(0.05)

        # what Django does with each kept connection when a request starts
        kept.close_if_unusable_or_obsolete()
        with kept.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            [serving] = cursor.fetchone()

        assert serving != ended
    finally:
        kept.close()
