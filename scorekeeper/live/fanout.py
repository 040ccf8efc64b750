"""How a change reaches the streams held by the other processes (workers, servers).

- ``redis`` (``REDIS_URL`` set): published on commit to a Redis channel, which every process
  follows with one subscription (redis-py's pub/sub).
- ``postgres`` (PostgreSQL, no Redis): ``NOTIFY`` on commit, as Redis publishes (a change
  rolled back sends nothing); every process holds one ``LISTEN``.
- ``sqlite``: every process looks for rows newer than the last it saw, every
  ``LIVE_CHECK_SECONDS``, while it holds a stream: one query for all of its streams.
- ``local`` (an in-memory database, as in tests): this process's own streams only.

Each process's follower is one thread, started with its first stream; it holds the one
connection it follows on (not a stream: a stream holds none). Rows older than an hour go.
Every process follows its own changes too: its hub told its streams of them at once, and lets
them pass when they come back.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import close_old_connections, connection, connections
from django.db.models import Max
from django.utils import timezone

from scorekeeper.live.hub import Change, Hub
from scorekeeper.live.models import LiveChange

log = logging.getLogger(__name__)

CHANNEL = "scorekeeper_live"
#: rows kept for pages that reconnect (Last-Event-ID); a page asleep longer draws itself afresh
KEPT = timedelta(hours=1)
PRUNE_EVERY = 600.0

_started: dict[str, threading.Thread] = {}
_start_lock = threading.Lock()
_redis: Any = None


def kind() -> str:
    chosen: str = settings.LIVE_FANOUT
    if chosen != "auto":
        return chosen
    if settings.REDIS_URL:
        return "redis"
    if connection.vendor == "postgresql":
        return "postgres"
    if in_memory_database():
        return "local"
    return "sqlite"


def in_memory_database() -> bool:
    """An in-memory SQLite database (the tests'): one connection's, which no other process and
    no other connection can see, nor open again once closed."""
    in_memory: bool = connection.vendor == "sqlite" and connection.is_in_memory_db()  # type: ignore[attr-defined]  # SQLite's wrapper only
    return in_memory


def payload(changes: Iterable[Change]) -> str:
    return ";".join(f"{id} {topic} {event}" for id, topic, event in changes)


def parsed(text: str | bytes) -> list[Change]:
    if isinstance(text, bytes):
        text = text.decode()
    changes = []
    for part in text.split(";"):
        id, topic, event = part.split(" ")
        changes.append((int(id), topic, event))
    return changes


def committed(changes: list[Change]) -> None:
    """The change committed (and what the watchers are given is drawn: announce.py): with
    Redis, publish it for the other processes; on PostgreSQL without Redis, NOTIFY them. A
    failure is the caller's to log (announce.py)."""
    how = kind()
    if how == "redis":
        _redis_client().publish(CHANNEL, payload(changes))
    elif how == "postgres":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, payload(changes)])


def _redis_client() -> Any:
    global _redis
    if _redis is None:
        import redis

        _redis = redis.Redis.from_url(settings.REDIS_URL)
    return _redis


def follow(hub: Hub) -> None:
    """Start this process's follower for ``hub``, once (nothing to follow for ``local``)."""
    how = kind()
    if how == "local" or how in _started:
        return
    with _start_lock:
        if how in _started:
            return
        target = {"redis": _follow_redis, "postgres": _follow_postgres, "sqlite": _follow_rows}
        thread = threading.Thread(
            target=_keep_following, args=(target[how], hub), name=f"live-{how}", daemon=True
        )
        _started[how] = thread
        thread.start()


def _keep_following(follow_once: Any, hub: Hub) -> None:
    while True:
        try:
            follow_once(hub)
        except Exception:
            log.exception("live: following changes failed; again in a second")
        finally:
            close_old_connections()
            connection.close()
        time.sleep(1)


def _follow_rows(hub: Hub) -> None:
    seconds: float = settings.LIVE_CHECK_SECONDS
    newest: int | None = _newest()
    pruned = time.monotonic()
    while True:
        time.sleep(seconds)
        if not hub.held():
            # nobody to tell: look again from the newest once a stream opens
            newest = None
            continue
        if newest is None:
            newest = _newest()
            continue
        rows = list(
            LiveChange.objects.filter(id__gt=newest)
            .order_by("id")
            .values_list("id", "topic", "event")[:1000]
        )
        if rows:
            newest = rows[-1][0]
            hub.followed(rows)
        if time.monotonic() - pruned > PRUNE_EVERY:
            pruned = time.monotonic()
            prune()


def _newest() -> int:
    found: int | None = LiveChange.objects.aggregate(newest=Max("id"))["newest"]
    return found or 0


def prune() -> int:
    """Let go of the rows older than ``KEPT``, but for the newest: SQLite numbers a new row one
    past the highest, and ids must never go back (a page's Last-Event-ID, the followers')."""
    newest = _newest()
    old = LiveChange.objects.filter(at__lt=timezone.now() - KEPT, id__lt=newest)
    deleted, _ = old.delete()
    return deleted


def _follow_postgres(hub: Hub) -> None:
    import psycopg

    params = connections["default"].get_connection_params()
    with psycopg.connect(**params, autocommit=True) as listening:
        listening.execute(f"LISTEN {CHANNEL}")
        pruned = time.monotonic()
        while True:
            for notice in listening.notifies(timeout=60.0):
                hub.followed(parsed(notice.payload))
            if time.monotonic() - pruned > PRUNE_EVERY:
                pruned = time.monotonic()
                prune()
                connection.close()


def _follow_redis(hub: Hub) -> None:
    import redis

    client = redis.Redis.from_url(settings.REDIS_URL)
    pubsub = client.pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(CHANNEL)
    pruned = time.monotonic()
    try:
        while True:
            message = pubsub.get_message(timeout=60.0)
            if message is not None and message["type"] == "message":
                hub.followed(parsed(message["data"]))
            if time.monotonic() - pruned > PRUNE_EVERY:
                pruned = time.monotonic()
                prune()
                connection.close()
    finally:
        pubsub.close()
        client.close()
