from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import caches
from django.utils import translation
from hypothesis import settings as hypothesis_settings

# The settings are already loaded here (pytest-django loads them before any conftest.py); they
# see the test run through PYTEST_VERSION, see scorekeeper/settings.py.

# Passwords are hashed with Django's fast MD5 hasher in the test run's own process (the live
# servers of the browser tests included): the tests sign people in, they do not judge the
# hashing, and PBKDF2 takes a good part of a second per password. A server the tests start in
# a process of its own makes its accounts there, with the settings' hashers.
settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Playwright's sync API runs an event loop in the test's thread; without this Django refuses
# the database work that live_server tests do in that thread.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# Property tests judge what the code answers, never how fast: hypothesis' deadline (200 ms an
# example) failed them on a busy machine, where an example may wait its turn for a core.
hypothesis_settings.register_profile("scorekeeper", deadline=None)
hypothesis_settings.load_profile("scorekeeper")

SKIP_BROWSER_TESTS = os.environ.get("SKIP_BROWSER_TESTS") == "1"

TESTS = Path(__file__).parent

#: What `make test` runs on PostgreSQL as well as on SQLite (marked `postgres`, run with
#: `-m postgres`): where the two databases behave differently. Everything else runs once, on
#: SQLite. docs/development.md says why each is here; a folder takes every file in it, a
#: file every test in it, and ``file::name`` that test alone.
ON_POSTGRES_TOO = (
    # pushed updates: LISTEN/NOTIFY between processes, a stream that holds no connection
    "live",
    # two gunicorn masters on one database (PostgreSQL only)
    "servers",
    # real server processes: simultaneous entries (the match row's lock), a server killed
    # mid-entry, the database restarted under the app, imports beside taps
    "access/test_concurrency.py",
    "access/test_database_restart.py",
    "access/test_import_beside_taps.py",
    # one entry per entry key, numbered changes, reverts: unique constraints and transactions
    "access/test_idempotency_and_history.py",
    # each change reads its row once, and on PostgreSQL that read is the one that locks it
    "access/test_read_once.py",
    # names unique ignoring case (an index on Lower(name)), the migrations run forwards and back
    "web/test_names.py",
    "web/test_name_lookalikes.py",
    "web/test_migration_to_seats.py",
    "web/test_migration_to_seat_turns.py",
    "web/test_migration_to_left_by_id.py",
    "nights/test_migration_to_seating_rows.py",
    # a refused entry or file leaves nothing half saved (a rolled-back transaction)
    "web/test_bad_input.py",
    "web/test_import_export.py",
    # query counts and the queries a page makes
    "web/test_one_path.py",
    "performance/test_query_budget.py",
    "performance/test_pages.py",
    "leagues/test_query_counts.py",
    "leagues/test_rating_queries.py",
    "nights/test_public.py",
    # the director's desk: its queries for 2 and 12 tables, the round clock's row locks
    "nights/test_desk.py",
    # exports read a chunk of matches at a time (server-side cursors on PostgreSQL); built
    # once however many ask at once (a unique constraint), by the worker (its queue's locks)
    "performance/test_exports.py",
    "performance/test_export_builds.py",
    "access/test_exports_beside_polls.py",
    # the cache in the database's table, the versions that key it (F() updates)
    "performance/test_cache.py",
    # bundles imported a match per transaction, and their limits
    "leagues/test_bundle.py",
    "leagues/test_bundle_limits.py",
    "leagues/test_bundle_imports.py",
    "leagues/test_bundle_largest.py",
    # check-ins and rounds unique per night, a seat taken over under the match's lock
    "nights/test_nights.py",
    # Draw and Start take the night's row first: no deadlock; a deadlock answered 503
    "nights/test_night_locks.py",
    "web/test_busy_database.py",
    # ratings kept in the transaction that finishes or corrects a match
    "leagues/test_kept_ratings.py",
    # `manage.py benchmark` makes and drops a database of its own on the server, and its
    # phones' streams are told by LISTEN/NOTIFY: the hall's run shows both (its other runs,
    # other servers and the one-request-at-a-time rows, do the same on either database)
    "performance/test_benchmark.py::test_the_hall_benchmark_plays_a_night_and_reports_it",
)

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}


def find_chromium() -> str | None:
    return (
        os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    )


def pytest_configure(config: pytest.Config) -> None:
    # Screenshots go to test-results/ (pytest-playwright's --output). Emptied once, before the
    # run, by the process that starts it: with `-n`, a worker emptying it as it starts could
    # delete what another worker has already saved there.
    if not hasattr(config, "workerinput"):
        shutil.rmtree(Path(config.getoption("--output")), ignore_errors=True)


def pytest_unconfigure(config: pytest.Config) -> None:
    """The run's SQLite database files go with it (settings.py: a file per test process): a
    thread's connection still open (the live server's, the streams' follower) leaves SQLite's
    -wal and -shm beside the database Django has deleted."""
    test_name = settings.DATABASES["default"].get("TEST", {}).get("NAME")
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3" or not test_name:
        return
    where = Path(test_name)
    for left in where.parent.glob(where.name.split(".")[0] + ".*"):
        left.unlink(missing_ok=True)


@pytest.fixture(scope="session", autouse=True)
def delete_output_dir() -> None:
    """Replaces pytest-playwright's fixture of this name, which empties test-results/ in every
    worker (pytest_configure above does it once)."""


#: the fixtures that give a test the database (live_server asks for transactional_db as the
#: test starts, not in its fixtures)
DATABASE_FIXTURES = {"db", "transactional_db", "django_db_reset_sequences", "live_server"}


def pytest_itemcollected(item: pytest.Item) -> None:
    _with_every_database(item)
    # as each test is collected: `-m postgres` chooses by the mark before any other hook runs
    if not any(_is_in(item, where) for where in ON_POSTGRES_TOO):
        return
    # a test run against a SQLite file of its own (tests/access/server.py's "sqlite" backend)
    # is the same test in either run: the SQLite run has it
    callspec = getattr(item, "callspec", None)
    if callspec is not None and "sqlite" in callspec.params.values():
        return
    item.add_marker(pytest.mark.postgres)


def _is_in(item: pytest.Item, where: str) -> bool:
    """Whether ``where`` (a folder, a file or ``file::test``) holds the test."""
    path, _, name = where.partition("::")
    in_path = item.path.is_relative_to(TESTS / path)
    return in_path and (not name or getattr(item, "originalname", item.name) == name)


def _with_every_database(item: pytest.Item) -> None:
    """A test that uses the database uses the cache's too: on SQLite the cache has a database of
    its own (settings: DATABASES["cache"]), which pytest-django would otherwise refuse."""
    marker = item.get_closest_marker("django_db")
    if marker is None and not DATABASE_FIXTURES & set(getattr(item, "fixturenames", ())):
        return
    kwargs = dict(marker.kwargs) if marker else {}
    if "databases" in kwargs:
        return
    args = marker.args if marker else ()
    item.add_marker(pytest.mark.django_db(*args, **kwargs, databases="__all__"), append=False)


#: the files of the slowest tests (15 to 100 s each: `make test` ends with them), run first. The
#: processes take the tests in the order collected, and these come late in it: one process
#: was left with the benchmark's runs while the other, done, waited for it over a minute.
SLOWEST_FIRST = (
    "performance/test_big_season.py",
    "leagues/test_bundle_largest.py",
    "performance/test_benchmark.py",
    "performance/test_benchmark_stops.py",
    "browser/test_tournament_day.py",
    "browser/test_league_night.py",
    "access/test_concurrency.py",
    "access/test_import_beside_taps.py",
)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # a stable sort: each file's tests stay together and in order (module fixtures stay shared)
    items.sort(key=lambda item: not any(_is_in(item, where) for where in SLOWEST_FIRST))
    # trylast: tests/browser/conftest.py marks its tests first.
    if not SKIP_BROWSER_TESTS:
        return
    skip = pytest.mark.skip(reason="SKIP_BROWSER_TESTS=1: browser tests not run")
    for item in items:
        if item.get_closest_marker("browser"):
            item.add_marker(skip)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    chromium = find_chromium()
    if chromium is None or not os.access(chromium, os.X_OK):
        pytest.fail(
            f"Chromium not found ({chromium or 'not on PATH'}): the browser tests need it. "
            "Install it (apt-get install chromium), point CHROMIUM at the executable, "
            "or set SKIP_BROWSER_TESTS=1 to skip them.",
            pytrace=False,
        )
    return {**browser_type_launch_args, "executable_path": chromium, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_context_args, **PHONE}


@pytest.fixture(autouse=True)
def _start_counts_from_zero(settings) -> None:
    """Each test counts the matches started without an account from zero: the counts are kept
    in the cache's table, which a transactional test's flush leaves as it is."""
    settings.RATELIMIT_CACHE_PREFIX = f"rl:{uuid.uuid4().hex}:"


@pytest.fixture(autouse=True)
def _exports_kept_apart(settings, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Each test keeps its heavy exports (leagues/exports.py) and the league bundles it uploads
    (leagues/imports.py) in folders of its own: a test's database starts its ids and versions
    again, so another test's file would match its own, or be read and deleted by another
    process's import of the same number. Named here, made only by a test that writes one."""
    base = tmp_path_factory.getbasetemp()
    settings.EXPORTS_ROOT = base / "exports" / uuid.uuid4().hex
    settings.BUNDLES_ROOT = base / "bundles" / uuid.uuid4().hex


@pytest.fixture(autouse=True)
def _in_the_default_language() -> Iterator[None]:
    """Each test begins in the site's language and leaves it as it found it: a request the test
    client makes in another language leaves that language on in the test's thread, and a date a
    later test works out to find on a page came out as "1 de diciembre de 2026"."""
    with translation.override(settings.LANGUAGE_CODE):
        yield


@pytest.fixture(autouse=True)
def _shared_cache_emptied(request: pytest.FixtureRequest) -> None:
    """Each test that uses the database begins with the shared cache empty, as a fresh site
    does. Transactional tests (a browser's live server) leave their entries in the cache's
    table, some 300 by the middle of a worker's run, and past MAX_ENTRIES the database cache
    culls a third of its entries at the next write: a kept score culled there is scored again,
    two more queries."""
    if request.node.get_closest_marker("django_db") is not None:
        caches["default"].clear()


@pytest.fixture(autouse=True)
def _local_cache_emptied() -> None:
    """Each worker's own cache keeps what it drew under the ids and versions of its rows: a
    test's database starts its ids again, so the test starts with that cache empty."""
    caches["local"].clear()


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    """A private redis-server for the test, on a free port, stopped after it; a test fails where
    the binary is missing (apt package ``redis-server``), unless SKIP_REDIS=1 says to skip."""
    server = shutil.which("redis-server")
    if server is None:
        if os.environ.get("SKIP_REDIS") == "1":
            pytest.skip("SKIP_REDIS=1 and no redis-server")
        pytest.fail(
            "redis-server is missing: apt-get install redis-server, or SKIP_REDIS=1 to skip",
            pytrace=False,
        )
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", tmp_path],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            with socket.socket() as attempt:
                if attempt.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(timeout=10)
