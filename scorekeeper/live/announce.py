"""``announce``: a change tells the live pages it moves. Called by the services that make the
change, in its transaction (tables/recording.py for every entry and correction, the moves of a
result through tables/seams.py, and the night's services), never by a signal."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar

from django.db import transaction

from scorekeeper.live import fanout
from scorekeeper.live.hub import Change, Drawing, hub
from scorekeeper.live.models import LiveChange

log = logging.getLogger(__name__)

#: the page draws what it shows afresh
CHANGED = "changed"
#: the round clock's line alone (started, paused, resumed, ended)
CLOCK = "clock"
#: one change in this many lets go of the rows older than an hour (fanout.prune), so that they
#: go where no process follows them too
PRUNE_EVERY = 1000


class _Told:
    """What the transaction announced so far, told to the streams once it commits (run by
    ``on_commit``: a transaction rolled back tells nothing), or held until ``drawn``."""

    def __init__(self) -> None:
        self.written: set[tuple[str, str]] = set()
        self.changes: list[Change] = []
        #: what the watchers of a change are given, drawn before it is told (``drawn``)
        self.drawings: dict[int, Drawing] = {}
        self.told = False

    def __call__(self) -> None:
        self.told = True
        held = _held.get()
        if held is not None:
            held.append(self)
        else:
            self.tell()

    def tell(self) -> None:
        try:
            hub.deliver(self.changes, self.drawings, coming_back=fanout.kind() != "local")
            fanout.committed(self.changes, self.drawings)
        except Exception:
            # the change is saved: this process's pages were told first; the other
            # processes' pages catch up at their next poll
            log.exception("live: telling a change failed")


#: the changes committed inside ``told_when_drawn``, not told yet
_held: ContextVar[list[_Told] | None] = ContextVar("live_held", default=None)


@contextmanager
def told_when_drawn() -> Iterator[None]:
    """The changes committed in the block are told when the block calls ``drawn``, or at its
    end: an entry draws what the table's watchers will be given (table_pages/history.py) after
    its transaction, and a watcher told before that would draw the whole board itself. Used
    as a decorator on the entry's view."""
    held: list[_Told] = []
    token = _held.set(held)
    try:
        yield
    finally:
        _held.reset(token)
        _tell(held)


def drawn(drawings: Mapping[str, Drawing] | None = None) -> None:
    """What the watchers will be given is drawn: tell the changes held so far, each topic's
    newest change with its drawing in ``drawings``, if any (sent inside its event)."""
    held = _held.get()
    if not held:
        return
    for topic, drawing in (drawings or {}).items():
        newest = max(
            (
                (told, change[0])
                for told in held
                for change in told.changes
                if change[1] == topic and change[2] == CHANGED
            ),
            key=lambda found: found[1],
            default=None,
        )
        if newest is not None:
            told, id = newest
            told.drawings[id] = drawing
    _tell(held)


def _tell(held: list[_Told]) -> None:
    while held:
        held.pop(0).tell()


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
