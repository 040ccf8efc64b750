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

import json
import logging
import threading
import time
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import close_old_connections, connection, connections
from django.db.models import Max
from django.utils import timezone

from scorekeeper.live.hub import NO_DRAWINGS, Change, Drawing, Drawings, Hub
from scorekeeper.live.models import LiveChange

log = logging.getLogger(__name__)

CHANNEL = "scorekeeper_live"
#: rows kept for pages that reconnect (Last-Event-ID); a page asleep longer draws itself afresh
KEPT = timedelta(hours=1)
PRUNE_EVERY = 600.0
#: NOTIFY's payload is at most 8000 bytes: a change's drawing larger than this is left out (the
#: pages it fits ask for it, as for a change without one)
NOTIFIED_AT_MOST = 7900
#: SQLite: how long a change's drawing waits in the cache for the followers (they look every
#: LIVE_CHECK_SECONDS)
DRAWING_KEPT_SECONDS = 60

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


def payload(changes: Iterable[Change], drawings: Drawings = NO_DRAWINGS) -> str:
    """The changes on one line ("<id> <topic> <event>;..."), and their drawings, if any, as
    JSON on the next."""
    said = ";".join(f"{id} {topic} {event}" for id, topic, event in changes)
    if drawings:
        said += "\n" + json.dumps({str(id): list(drawing) for id, drawing in drawings.items()})
    return said


def parsed(text: str | bytes) -> tuple[list[Change], dict[int, Drawing]]:
    if isinstance(text, bytes):
        text = text.decode()
    told, _, drawn = text.partition("\n")
    changes = []
    for part in told.split(";"):
        id, topic, event = part.split(" ")
        changes.append((int(id), topic, event))
    drawings = {int(id): Drawing(*fields) for id, fields in json.loads(drawn or "{}").items()}
    return changes, drawings


def committed(changes: list[Change], drawings: Drawings = NO_DRAWINGS) -> None:
    """The change committed (and what the watchers are given is drawn: announce.py): with
    Redis, publish it and its drawings for the other processes; on PostgreSQL without Redis,
    NOTIFY them (a drawing too large for NOTIFY left out); on SQLite, the drawings wait in the
    cache for the followers. A failure is the caller's to log (announce.py)."""
    how = kind()
    if how == "redis":
        _redis_client().publish(CHANNEL, payload(changes, drawings))
    elif how == "postgres":
        said = payload(changes, drawings)
        if len(said.encode()) > NOTIFIED_AT_MOST:
            said = payload(changes)
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, said])
    elif how == "sqlite" and drawings:
        cache.set_many(
            {_drawing_key(id): tuple(drawing) for id, drawing in drawings.items()},
            DRAWING_KEPT_SECONDS,
        )


def _drawing_key(id: int) -> str:
    return f"live.drawing.{id}"


def _drawings_of(changes: list[Change]) -> dict[int, Drawing]:
    """SQLite: the drawings of ``changes`` (the tables' changes) waiting in the cache."""
    keys = {_drawing_key(id): id for id, topic, _ in changes if topic.startswith("match:")}
    if not keys:
        return {}
    found = cache.get_many(list(keys))
    return {keys[key]: Drawing(*fields) for key, fields in found.items()}


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
    waited: set[int] = set()
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
            drawings = _drawings_of(rows)
            ready = _ready(rows, drawings, waited)
            waited = {row[0] for row in rows[ready:]}
            if ready:
                newest = rows[ready - 1][0]
                hub.followed(rows[:ready], drawings)
        if time.monotonic() - pruned > PRUNE_EVERY:
            pruned = time.monotonic()
            prune()


def _ready(rows: list[Change], drawings: Drawings, waited: set[int]) -> int:
    """How many of ``rows`` to tell now: up to the first table's change whose drawing is not in
    the cache yet (an entry commits, then draws what the table's watchers are given, a few
    milliseconds later), which waits for the next look, once."""
    for at, (id, topic, event) in enumerate(rows):
        drawn = topic.startswith("match:") and event == "changed"
        if drawn and id not in drawings and id not in waited:
            return at
    return len(rows)


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
                hub.followed(*parsed(notice.payload))
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
                hub.followed(*parsed(message["data"]))
            if time.monotonic() - pruned > PRUNE_EVERY:
                pruned = time.monotonic()
                prune()
                connection.close()
    finally:
        pubsub.close()
        client.close()
