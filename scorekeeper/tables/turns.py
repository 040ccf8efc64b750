"""Entries take turns at a SQLite database in the order they arrive.

SQLite lets one transaction write at a time. The others wait in its busy handler, which sleeps
and tries again, each sleep longer than the last, up to a tenth of a second; under a hall's load
one entry can lose that race again and again while later ones get through, and its tap waits a
second. So entries first queue on an operating-system lock on a file beside the database: a
waiting entry is woken the moment the one before it is done. PostgreSQL queues writers on the
match's row lock itself; there, and wherever the lock is not to be had, this does nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection

try:
    import fcntl
except ImportError:  # not on POSIX: SQLite's own waiting it is
    fcntl = None


@contextmanager
def entries_in_turn() -> Iterator[None]:
    path = _queue_file()
    if path is None:
        yield
        return
    with open(path, "ab") as queue:
        fcntl.flock(queue, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(queue, fcntl.LOCK_UN)


def _queue_file() -> str | None:
    if fcntl is None or connection.vendor != "sqlite" or connection.is_in_memory_db():
        return None
    return f"{connection.settings_dict['NAME']}.entries"
