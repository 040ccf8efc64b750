"""PostgreSQL as Django ships it, with a health check that costs no round trip while the
connection is sound.

A kept connection (CONN_MAX_AGE) is checked before its first use in each request
(CONN_HEALTH_CHECKS): Django asks the server ``SELECT 1``, one more round trip for every request.
In the hall benchmark that was half the questions of a poll, the most common request there is,
and at 70 tables on PostgreSQL dropping it took the machine from 77% to 70% busy, a poll's p99
from 170 to 110 ms and a tap's p50 from 81 to 59 ms. This check, in its own run, measured 76%
busy: it sends nothing to a sound connection, and two runs of the same code differ by some five
points (docs/benchmark.md, "Each change on its own").

A connection the server ended (a restart, an idle timeout, an administrator) is told by its
socket: the server's goodbye and the end of the stream are waiting to be read, while a sound
connection between two requests has nothing to say. So the socket is asked first, without
waiting; only when it has something to say is the server asked as Django asks it, and a
connection that fails is replaced before the request uses it
(tests/access/test_database_restart.py).
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base


class DatabaseWrapper(base.DatabaseWrapper):
    def is_usable(self) -> bool:
        if self.connection is None or self.connection.closed:
            return False
        # the socket asked, not the server: at 70 tables of the hall on PostgreSQL, Django's
        # SELECT 1 before each request left the machine 77% busy and the poll's p99 at 170 ms,
        # against 70% and 110 ms without it, and 76% with this check (the module's docstring)
        try:
            said, _, _ = select.select([self.connection.fileno()], [], [], 0)
        except (OSError, ValueError):
            return False
        return not said or super().is_usable()
