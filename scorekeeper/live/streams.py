"""A page's stream (server-sent events): held until the page goes, ``LIVE_STREAM_MINUTES``
pass (the browser then opens it again, saying the last event it saw) or the client goes.

It holds no database connection: the view that opens it reads what it must (who may watch,
what a reconnecting page missed) and lets go of the connection before the first byte; from
then on the stream only waits for the hub. Under ASGI it waits on the server's event loop;
under WSGI (the dev server, the test server) on the request's own thread."""

from __future__ import annotations

import random
import re
import time
from collections.abc import AsyncIterator, Iterator, Sequence

from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.db.models import Max, Min
from django.http import HttpRequest, HttpResponse, HttpResponseBase, StreamingHttpResponse
from django.utils.translation import gettext

from scorekeeper.live import fanout
from scorekeeper.live.announce import CHANGED
from scorekeeper.live.hub import Change, Drawing, Listener, hub
from scorekeeper.live.models import LiveChange

#: a comment line this often keeps proxies and phones from taking a quiet stream for dead
HEARTBEAT_SECONDS = 15.0
#: how long the browser waits before opening a cut stream again
RETRY_MS = 2000
#: a board's stream (a season's wall, a night's pages) is told at most this often: a full hall
#: plays several times a second, and a TV redrawn every two seconds shows each play, as its
#: poll did; a table's scoreboard is told of each change at once
BOARD_GAP_SECONDS = 2.0
#: a board's stream told after a quiet spell waits a moment drawn at random up to this, and is
#: told every BOARD_GAP_SECONDS from there while the hall plays on: the TVs of a hall, told of
#: the same plays, ask for their boards one after another instead of all in the same instant
#: (where each tap at a table waited behind them: docs/benchmark.md)
BOARD_SPREAD_SECONDS = 1.0


def stream(
    request: HttpRequest,
    topics: Sequence[str],
    address: str,
    *,
    shown_in: tuple[str, str] | None = None,
) -> HttpResponseBase:
    """The stream of ``topics`` for the client at ``address``; 429 past the streams one
    address may hold, 503 past the streams this process holds in all (the page then polls).
    ``shown_in``: the page's language and time zone, when the drawings of its changes drawn in
    them (hub.Drawing) are to be sent inside their events."""
    listener = Listener(topics, address, shown_in)
    refused = hub.join(
        listener, per_address=settings.LIVE_STREAMS_PER_ADDRESS, in_all=settings.LIVE_STREAMS
    )
    if refused:
        return _refused(refused)
    # read once the hub tells the stream: a change committed in between is sent twice (the
    # page asks again, and is answered 304), never missed
    try:
        missed = _missed(topics, _last_event_id(request))
    except BaseException:
        hub.leave(listener)
        raise
    fanout.follow(hub)
    _let_go_of_the_database()
    held = _HeldOnLoop if isinstance(request, ASGIRequest) else _HeldOnThread
    response = StreamingHttpResponse(
        held(listener, missed, _Pace(topics)), content_type="text/event-stream; charset=utf-8"
    )
    response["Cache-Control"] = "no-store"
    # nginx: pass each event on at once (docs/deployment.md)
    response["X-Accel-Buffering"] = "no"
    # said so that GZipMiddleware leaves the stream alone: gzip would hold events back
    response["Content-Encoding"] = "identity"
    return response


def _refused(why: str) -> HttpResponse:
    if why == "address":
        said = gettext(
            "Too many live pages are open from this address: this page asks for news every "
            "few seconds instead."
        )
        status = 429
    else:
        said = gettext(
            "The server holds as many live pages as it can: this page asks for news every few "
            "seconds instead."
        )
        status = 503
    response = HttpResponse(said, status=status, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = "60"
    return response


def _last_event_id(request: HttpRequest) -> int | None:
    """The id of the last event the page saw, sent by a browser that opens a cut stream
    again; None for a page's first stream."""
    said = request.headers.get("Last-Event-ID", "").strip()
    return int(said) if said.isdigit() and len(said) <= 18 else None


def _missed(topics: Sequence[str], last: int | None) -> list[Change]:
    """What a page that saw event ``last`` missed: the newest change of each event's name since
    (one redraw covers many). A page's first stream is sent one redraw, without an id, for a
    change between its drawing and its stream. A page whose last event is older than every
    row kept is sent one redraw."""
    if last is None:
        return [(0, topics[0], CHANGED)]
    newest = (
        LiveChange.objects.filter(topic__in=topics, id__gt=last)
        .values("event")
        .annotate(newest=Max("id"))
        .order_by("newest")
    )
    missed = [(row["newest"], topics[0], row["event"]) for row in newest]
    if not missed:
        oldest = LiveChange.objects.aggregate(oldest=Min("id"))["oldest"]
        if oldest is None or last < oldest - 1:
            missed = [(0, topics[0], CHANGED)]
    return missed


def _let_go_of_the_database() -> None:
    """Close this thread's connection before the stream starts: nothing else of the request
    reads (an in-memory database, the tests', cannot be opened again, and stays)."""
    if not connection.in_atomic_block and not fanout.in_memory_database():
        connection.close()


def frame(change: Change, drawing: Drawing | None = None) -> bytes:
    """A change's event: its data is its topic; with a drawing, the line "<topic> <after>
    <shows>" (``after`` "-" for any older version) and the drawing's lines after it, or that
    line alone for a page the drawing does not fit (its ``html`` ""): one that shows
    ``shows`` already asks nothing, another asks."""
    id, topic, event = change
    said = f"id: {id}\n" if id else ""
    data = topic
    if drawing is not None:
        data = f"{topic} {drawing.after or '-'} {drawing.shows}"
        if drawing.html:
            data += f"\n{drawing.html}"
    # the lines as SSE ends them (a browser joins them again with "\n")
    lines = "".join(f"data: {line}\n" for line in re.split(r"\r\n|\r|\n", data))
    return f"{said}event: {event}\n{lines}\n".encode()


def _framed(changes: list[Change], listener: Listener | None = None) -> bytes:
    """One frame for each event's name, its newest change: a page draws afresh once."""
    newest: dict[str, Change] = {}
    for change in changes:
        if change[2] not in newest or change[0] > newest[change[2]][0]:
            newest[change[2]] = change
    return b"".join(
        frame(change, listener.drawn(change) if listener is not None else None)
        for change in sorted(newest.values())
    )


class _Held:
    """A stream's frames; closed with its response (Django closes it when the client goes,
    or the stream ends), however far it was read: the hub lets go of it then."""

    def __init__(self, listener: Listener, missed: list[Change], pace: _Pace) -> None:
        self.listener, self.missed, self.pace = listener, missed, pace

    def close(self) -> None:
        hub.leave(self.listener)


class _HeldOnThread(_Held):
    """Read on the request's thread (WSGI)."""

    def __iter__(self) -> Iterator[bytes]:
        return _frames(self.listener, self.missed, self.pace)


class _HeldOnLoop(_Held):
    """Read on the server's event loop (ASGI)."""

    def __aiter__(self) -> AsyncIterator[bytes]:
        return _frames_async(self.listener, self.missed, self.pace)


class _Pace:
    """How long a stream lasts, and how often it may be told."""

    def __init__(self, topics: Sequence[str]) -> None:
        self.lifetime = settings.LIVE_STREAM_MINUTES * 60.0
        self.board = any(not topic.startswith("match:") for topic in topics)

    def wait(self, told_at: float, now: float) -> float:
        """The seconds to wait before telling the stream of a change, its last told at
        ``told_at``: a table's scoreboard at once; a board at most every BOARD_GAP_SECONDS,
        after a quiet spell a moment of its own later."""
        if not self.board:
            return 0.0
        if now - told_at >= BOARD_GAP_SECONDS:
            return random.uniform(0.0, BOARD_SPREAD_SECONDS)
        return told_at + BOARD_GAP_SECONDS - now


def _frames(listener: Listener, missed: list[Change], pace: _Pace) -> Iterator[bytes]:
    try:
        yield f"retry: {RETRY_MS}\n\n".encode() + _framed(missed)
        ends = time.monotonic() + pace.lifetime
        told_at = 0.0
        while (left := ends - time.monotonic()) > 0:
            if not listener.wait(min(HEARTBEAT_SECONDS, left)):
                yield b": \n\n"
                continue
            if listener.ended:
                return
            if (early := pace.wait(told_at, time.monotonic())) > 0:
                listener.rest(early)
                if listener.ended:
                    return
            told_at = time.monotonic()
            yield _framed(listener.take(), listener) or b": \n\n"
    finally:
        hub.leave(listener)


async def _frames_async(
    listener: Listener, missed: list[Change], pace: _Pace
) -> AsyncIterator[bytes]:
    try:
        yield f"retry: {RETRY_MS}\n\n".encode() + _framed(missed)
        ends = time.monotonic() + pace.lifetime
        told_at = 0.0
        while (left := ends - time.monotonic()) > 0:
            if not await listener.wait_async(min(HEARTBEAT_SECONDS, left)):
                yield b": \n\n"
                continue
            if listener.ended:
                return
            if (early := pace.wait(told_at, time.monotonic())) > 0:
                await listener.rest_async(early)
                if listener.ended:
                    return
            told_at = time.monotonic()
            yield _framed(listener.take(), listener) or b": \n\n"
    finally:
        hub.leave(listener)
