"""Django's PostgreSQL backend, with a cheaper check of a kept connection.

Each app server keeps its connection between requests (CONN_MAX_AGE), and Django checks it
before a request uses it (CONN_HEALTH_CHECKS), so a connection the server has closed (a restart,
an idle timeout) is replaced instead of failing the request. Django's check asks the server
(``SELECT 1``): one more round trip on every request, a third of a cached page's. Here the
connection's socket is looked at first. A connection left idle has nothing to read, so a quiet
socket means it is as the last request left it. A server that ends a connection says so and
closes it, which makes the socket readable: only then is the server asked, as Django does.
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base
from psycopg import pq


class DatabaseWrapper(base.DatabaseWrapper):
    def is_usable(self) -> bool:
        connection = self.connection
        if connection is None or connection.closed:
            return False
        if connection.info.transaction_status != pq.TransactionStatus.IDLE:
            # in a transaction, or broken: let the server say
            return super().is_usable()
        try:
            readable, _, _ = select.select([connection.fileno()], [], [], 0)
        except (OSError, ValueError):
            return False
        return super().is_usable() if readable else True
