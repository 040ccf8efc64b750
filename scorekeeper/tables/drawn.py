"""What a board polled every few seconds makes of each table, cached so that a poll after a tap at
one table makes that table alone: the wall board's matches being played, the night's board and
the director's desk."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import TypeVar

from django.core.cache import cache, caches

#: how long a table's drawing at one version is cached in the shared cache: a table that plays on
#: moves to a new version within seconds
TABLE_CACHED = 10 * 60

Made = TypeVar("Made")


def cached_drawings(
    keys: dict[int, str],
    make: Callable[[list[int]], dict[int, Made]],
    *,
    shared_key: str,
    page: Collection[str] | None = None,
) -> dict[int, Made]:
    """What ``make`` makes of each table (by id) at the version its key names: from the worker's
    own cache ("local"), else from what the page cached in the shared cache under ``shared_key``
    (one entry for the page's tables: on PostgreSQL each entry of the database cache written
    costs three queries), else made for the tables missing from both: a fixed number of queries.

    A board's poll is answered by whichever worker is free. In its own cache alone, each worker
    made every table again after each play: in the hall benchmark at 100 tables (each tapped
    every 8 s) the night's board took 360 ms at p50 and 680 at p99, and the wall boards (one per
    ten tables) spent a fifth of the app's CPU making tables on PostgreSQL.

    ``page``: the keys of every table the page shows, when ``keys`` are those of some of them
    (the tables that moved): the shared entry keeps the others' drawings."""
    local = caches["local"]
    found = local.get_many(list(keys.values()))
    shared: dict = {}
    if len(found) < len(keys):
        shared = cache.get(shared_key) or {}
        from_shared = {
            key: shared[key] for key in keys.values() if key not in found and key in shared
        }
        local.set_many(from_shared)
        found.update(from_shared)
    missing = [pk for pk, key in keys.items() if key not in found]
    if missing:
        fresh = {keys[pk]: value for pk, value in make(missing).items()}
        local.set_many(fresh)
        found.update(fresh)
        # the page's tables as they now are: those at an older version are left out
        kept = {key: shared[key] for key in page or () if key in shared}
        kept.update((key, found[key]) for key in keys.values() if key in found)
        cache.set(shared_key, kept, TABLE_CACHED)
    return {pk: found[key] for pk, key in keys.items() if key in found}
