"""``announce``: a change tells the live pages it moves. Called by the services that make the
change, in its transaction (tables/recording.py for every entry and correction, the moves of a
result through tables/seams.py, and the night's services), never by a signal."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from scorekeeper.live import fanout
from scorekeeper.live.hub import Change, hub
from scorekeeper.live.models import LiveChange

#: the page draws what it shows afresh
CHANGED = "changed"
#: the round clock's line alone (started, paused, resumed, ended)
CLOCK = "clock"
#: one change in this many lets go of the rows older than an hour (fanout.prune), so that they
#: go where no process follows them too
PRUNE_EVERY = 1000


class _Told:
    """What the transaction announced so far, told to the streams once it commits (run by
    ``on_commit``: a transaction rolled back tells nothing)."""

    def __init__(self) -> None:
        self.written: set[tuple[str, str]] = set()
        self.changes: list[Change] = []
        self.told = False

    def __call__(self) -> None:
        self.told = True
        hub.deliver(self.changes, coming_back=fanout.kind() != "local")
        fanout.committed(self.changes)


def announce(topics: Iterable[str], event: str = CHANGED) -> None:
    """Each topic moved: one row each (its id is the event's id), once per transaction
    however many services of the change announce it."""
    told, new_transaction = _told_in_transaction()
    topics = [topic for topic in dict.fromkeys(topics) if (topic, event) not in told.written]
    if not topics:
        return
    rows = LiveChange.objects.bulk_create(
        [LiveChange(topic=topic, event=event) for topic in topics]
    )
    changes = [(row.id, row.topic, row.event) for row in rows]
    told.written.update((topic, event) for topic in topics)
    told.changes.extend(changes)
    fanout.written(changes)
    if any(id % PRUNE_EVERY == 0 for id, _, _ in changes):
        fanout.prune()
    if new_transaction:
        transaction.on_commit(told, robust=True)


def _told_in_transaction() -> tuple[_Told, bool]:
    """This transaction's ``_Told``, found among what it runs on commit (where Django drops it
    if the transaction, or the savepoint it was made in, rolls back), made in the savepoints
    still open or outside them; else a new one."""
    connection = transaction.get_connection()
    if connection.in_atomic_block:
        open_now = set(connection.savepoint_ids)
        for savepoints, run, _ in reversed(connection.run_on_commit):
            if isinstance(run, _Told) and not run.told and savepoints <= open_now:
                return run, False
    return _Told(), True
