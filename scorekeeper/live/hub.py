"""This process's open streams, by topic: each change is handed to the streams of its topic,
once, whichever way it came (from this process's own commit at once, or from any process's by
the fan-out, which brings this process's own changes back too), and the caps on how many
streams are held."""

from __future__ import annotations

import asyncio
import threading
from collections import Counter, defaultdict, deque
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import NamedTuple

#: a change as streams are told of it: its id, its topic, its event's name
Change = tuple[int, str, str]


class Drawing(NamedTuple):
    """What a change's watchers are given, drawn once by the change that made it (a table's
    entry: table_pages/history.draw_for_watchers), sent inside the change's event to the
    streams of pages it fits: a watcher's scoreboard in that language and time zone, showing
    ``after`` (or, when ``after`` is "", any version older than ``shows``). Such a page puts it
    in place as its poll's answer, and does not ask."""

    language: str
    timezone: str
    after: str
    shows: str
    html: str


#: the drawings of changes, by the change's id
Drawings = Mapping[int, Drawing]
NO_DRAWINGS: Drawings = MappingProxyType({})

#: how many of its own changes the hub remembers until the fan-out brings them back (it does
#: within a moment; more are forgotten, should the fan-out be away)
REMEMBERED = 4096


class Listener:
    """One open stream: what it waits for, and the changes handed to it since it last took
    them. Filled by any thread; waited on by the request's thread (WSGI) or its event loop
    (ASGI)."""

    def __init__(
        self, topics: Iterable[str], address: str, shown_in: tuple[str, str] | None = None
    ) -> None:
        self.topics = frozenset(topics)
        self.address = address
        #: the language and time zone of a page given the drawings that fit it (None: never)
        self.shown_in = shown_in
        self._items: deque[Change] = deque()
        self._drawings: dict[int, Drawing] = {}
        self._taken_drawings: dict[int, Drawing] = {}
        self._lock = threading.Lock()
        self._ready = threading.Event()
        self._ended = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._loop_ready: asyncio.Event | None = None
        self._loop_ended: asyncio.Event | None = None
        #: the hub holding it (a test may hold a hub of its own beside the process's)
        self.held_by: Hub | None = None

    def put(self, change: Change, drawing: Drawing | None = None) -> None:
        """Hand the stream a change and its drawing: the drawing itself when it fits the
        stream's page, else which version it shows (``html`` ""): a page showing that version
        already (the scorekeeper's, given it by its own entry's answer) need not ask."""
        with self._lock:
            self._items.append(change)
            if drawing is not None:
                fits = self.shown_in == (drawing.language, drawing.timezone)
                self._drawings[change[0]] = drawing if fits else drawing._replace(html="")
        self._wake()

    @property
    def ended(self) -> bool:
        """Whether the stream was ended (``end``)."""
        return self._ended.is_set()

    def end(self) -> None:
        """Wake the stream to end it (Hub.end_all)."""
        self._ended.set()
        self._wake()

    def _wake(self) -> None:
        with self._lock:
            loop, loop_ready, loop_ended = self._loop, self._loop_ready, self._loop_ended
        self._ready.set()
        if loop is not None and loop_ready is not None and loop_ended is not None:
            try:
                loop.call_soon_threadsafe(loop_ready.set)
                if self.ended:
                    loop.call_soon_threadsafe(loop_ended.set)
            except RuntimeError:  # the loop has closed: the stream is gone
                pass

    def take(self) -> list[Change]:
        """The changes handed to the stream since it last took them (their drawings: ``drawn``)."""
        with self._lock:
            items = list(self._items)
            self._items.clear()
            self._taken_drawings, self._drawings = self._drawings, {}
            self._ready.clear()
            if self._loop_ready is not None:
                self._loop_ready.clear()
        return items

    def drawn(self, change: Change) -> Drawing | None:
        """The drawing handed with ``change``, last taken: the one that fits the stream's page,
        or which version it shows (``put``)."""
        with self._lock:
            return self._taken_drawings.get(change[0])

    def wait(self, seconds: float) -> bool:
        """Whether a change came within ``seconds`` (a thread's stream)."""
        return self._ready.wait(seconds)

    def rest(self, seconds: float) -> None:
        """Wait ``seconds`` (a board's pace) or until the stream is ended (a thread's stream)."""
        self._ended.wait(seconds)

    async def wait_async(self, seconds: float) -> bool:
        """Whether a change came within ``seconds`` (a stream on an event loop)."""
        loop_ready, _ = self._on_loop()
        try:
            await asyncio.wait_for(loop_ready.wait(), seconds)
        except TimeoutError:
            return False
        return True

    async def rest_async(self, seconds: float) -> None:
        """Wait ``seconds`` (a board's pace) or until the stream is ended (on an event loop)."""
        _, loop_ended = self._on_loop()
        try:
            await asyncio.wait_for(loop_ended.wait(), seconds)
        except TimeoutError:
            pass

    def _on_loop(self) -> tuple[asyncio.Event, asyncio.Event]:
        """The stream's events on the running loop, made the first time it waits there."""
        if self._loop_ready is None or self._loop_ended is None:
            loop_ready, loop_ended = asyncio.Event(), asyncio.Event()
            with self._lock:
                self._loop = asyncio.get_running_loop()
                self._loop_ready, self._loop_ended = loop_ready, loop_ended
                if self._items or self.ended:
                    loop_ready.set()
                if self.ended:
                    loop_ended.set()
        return self._loop_ready, self._loop_ended


class Hub:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_topic: defaultdict[str, set[Listener]] = defaultdict(set)
        self._by_address: Counter[str] = Counter()
        self._held = 0
        self._own: deque[int] = deque(maxlen=REMEMBERED)
        self._own_ids: set[int] = set()

    def join(self, listener: Listener, *, per_address: int, in_all: int) -> str:
        """Hold ``listener``'s stream, or say why not: "address" (its address holds
        ``per_address`` already) or "full" (the process holds ``in_all``); "" when held."""
        with self._lock:
            if self._held >= in_all:
                return "full"
            if self._by_address[listener.address] >= per_address:
                return "address"
            self._held += 1
            listener.held_by = self
            self._by_address[listener.address] += 1
            for topic in listener.topics:
                self._by_topic[topic].add(listener)
        return ""

    def leave(self, listener: Listener) -> None:
        """Let go of ``listener``'s stream (once, however often it is said)."""
        with self._lock:
            if listener.held_by is not self:
                return
            listener.held_by = None
            for topic in listener.topics:
                held = self._by_topic.get(topic)
                if held is not None and listener in held:
                    held.discard(listener)
                    if not held:
                        del self._by_topic[topic]
            self._held -= 1
            self._by_address[listener.address] -= 1
            if not self._by_address[listener.address]:
                del self._by_address[listener.address]

    def held(self) -> int:
        return self._held

    def end_all(self) -> None:
        """End every stream held: each page opens its own again (a server's tests end theirs
        with the test)."""
        with self._lock:
            listeners = set().union(*self._by_topic.values())
        for listener in listeners:
            listener.end()

    def deliver(
        self,
        changes: Iterable[Change],
        drawings: Drawings = NO_DRAWINGS,
        *,
        coming_back: bool = False,
    ) -> int:
        """Hand each change (and its drawing, if any) to the streams of its topic, at once;
        ``coming_back``: the change was this process's own, and the fan-out will bring it
        back, to be let pass then. Says how many streams were told."""
        changes = list(changes)
        with self._lock:
            if coming_back:
                for change in changes:
                    if len(self._own) == self._own.maxlen:
                        self._own_ids.discard(self._own[0])
                    self._own.append(change[0])
                    self._own_ids.add(change[0])
            told = [
                (listener, change)
                for change in changes
                for listener in self._by_topic.get(change[1], ())
            ]
        return self._put(told, drawings)

    def followed(self, changes: Iterable[Change], drawings: Drawings = NO_DRAWINGS) -> int:
        """Changes the fan-out brought, this process's own among them (told already)."""
        told: list[tuple[Listener, Change]] = []
        with self._lock:
            for change in changes:
                if change[0] in self._own_ids:
                    self._own_ids.discard(change[0])
                    continue
                told.extend((listener, change) for listener in self._by_topic.get(change[1], ()))
        return self._put(told, drawings)

    @staticmethod
    def _put(told: list[tuple[Listener, Change]], drawings: Drawings) -> int:
        for listener, change in told:
            listener.put(change, drawings.get(change[0]))
        return len(told)


#: this process's hub
hub = Hub()
