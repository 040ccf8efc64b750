"""A page's stream (scorekeeper/live): told of each change once it commits, once however many
services announce it; a reconnecting page resumes exactly after the last event it saw; the
streams an address and a process may hold are capped, and the one refused is told why; a
quiet stream is kept alive by a heartbeat."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.core.signals import request_finished
from django.db import close_old_connections, connection, transaction
from django.http import StreamingHttpResponse
from django.test import AsyncClient, Client

from scorekeeper import rules
from scorekeeper.live import streams
from scorekeeper.live.announce import announce
from scorekeeper.live.hub import Hub, Listener
from scorekeeper.live.models import LiveChange
from scorekeeper.nights.desk import clock_start
from scorekeeper.tables import entries
from scorekeeper.tables.models import Match
from scorekeeper.tables.recording import Author
from scorekeeper.tables.scoring import create_match

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("hub")]


@pytest.fixture
def match() -> Match:
    return create_match(rules.Match("straight", ("Ann", "Bob", "Cy", "Dee")))


@pytest.fixture
def opened(hub: Hub) -> Iterator[Callable[..., StreamingHttpResponse]]:
    """Open streams with the test client; each is closed (the hub lets go) after the test."""
    held: list[StreamingHttpResponse] = []

    def open_stream(path: str, **headers: str) -> Any:
        response = Client(**headers).get(path)
        held.append(response)
        return response

    yield open_stream
    for response in held:
        close(response)
    assert hub.held() == 0


def close(response: StreamingHttpResponse) -> None:
    """Close a stream as the client going does, without letting go of the test's connection
    (closing a response says the request finished, which closes a connection left in a
    transaction, as the test client's own closing does not)."""
    request_finished.disconnect(close_old_connections)
    try:
        response.close()
    finally:
        request_finished.connect(close_old_connections)


def frame(response: StreamingHttpResponse) -> str:
    """The next frame the stream sends (it waits for one: the heartbeat bounds the wait)."""
    return next(iter_of(response)).decode()


def iter_of(response: StreamingHttpResponse) -> Iterator[bytes]:
    if not hasattr(response, "_frames"):
        response._frames = iter(response.streaming_content)  # type: ignore[attr-defined]
    frames: Iterator[bytes] = response._frames  # type: ignore[attr-defined]
    return frames


def play(match: Match, points: int = 10) -> None:
    entries.play_record(match=match, player="0", points=points, by=Author(name="Bea"))


def test_a_stream_starts_with_one_redraw_and_is_told_of_each_play(
    match: Match, opened: Callable[..., Any], django_capture_on_commit_callbacks: Any
) -> None:
    response = opened(f"/live/match/{match.pk}/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/event-stream")
    assert response["Cache-Control"] == "no-store"
    # a change between the page's drawing and its stream: the page asks once, to be sure
    assert frame(response) == f"retry: 2000\n\nevent: changed\ndata: match:{match.pk}\n\n"

    with django_capture_on_commit_callbacks(execute=True):
        play(match)
    newest = LiveChange.objects.filter(topic=f"match:{match.pk}").latest("id")
    assert frame(response) == f"id: {newest.id}\nevent: changed\ndata: match:{match.pk}\n\n"


def test_a_change_is_announced_once_per_transaction_and_not_at_all_if_rolled_back(
    match: Match, opened: Callable[..., Any], django_capture_on_commit_callbacks: Any
) -> None:
    topic = f"match:{match.pk}"
    with django_capture_on_commit_callbacks(execute=True) as told:
        with transaction.atomic():
            announce([topic])
            announce([topic, topic])
    assert LiveChange.objects.filter(topic=topic).count() == 1
    assert len(told) == 1

    with django_capture_on_commit_callbacks(execute=True) as told:
        with pytest.raises(ZeroDivisionError), transaction.atomic():
            announce([topic, "season:1"])
            raise ZeroDivisionError
    assert LiveChange.objects.filter(topic__in=[topic, "season:1"]).count() == 1
    assert told == []


def test_a_play_at_a_nights_table_tells_its_scoreboard_the_wall_and_the_nights_pages(
    django_capture_on_commit_callbacks: Any,
) -> None:
    from tests.browser.test_desk import first_match, timed_night

    night = timed_night(tables=2)
    match = first_match(night)
    season = night.season_id
    before = LiveChange.objects.order_by("-id").values_list("id", flat=True).first() or 0
    with django_capture_on_commit_callbacks(execute=True):
        play(match, 15)
    told = set(LiveChange.objects.filter(id__gt=before).values_list("topic", "event"))
    assert told == {
        (f"match:{match.pk}", "changed"),
        (f"season:{season}", "changed"),
        (f"night:{night.pk}", "changed"),
    }

    # the round clock: the night's pages redraw, each table's board its clock's line
    before = LiveChange.objects.order_by("-id").values_list("id", flat=True).first() or 0
    from django.utils import timezone

    clock_start(night_round=night.night_rounds.get(number=1), now=timezone.now())
    told = set(LiveChange.objects.filter(id__gt=before).values_list("topic", "event"))
    tables = night.night_rounds.get(number=1).tables.values_list("match_id", flat=True)
    assert told == {(f"night:{night.pk}", "changed")} | {(f"match:{pk}", "clock") for pk in tables}


def test_a_reconnecting_page_resumes_exactly_after_the_last_event_it_saw(
    match: Match, opened: Callable[..., Any], django_capture_on_commit_callbacks: Any
) -> None:
    topic = f"match:{match.pk}"
    ids = []
    for _ in range(3):
        with django_capture_on_commit_callbacks(execute=True):
            announce([topic])
        ids.append(LiveChange.objects.filter(topic=topic).latest("id").id)
    # another topic's change in between is none of this page's business
    with django_capture_on_commit_callbacks(execute=True):
        announce(["season:99"])

    first, second, third = ids
    # saw the first: missed two, told once, with the newest id (one redraw shows both)
    response = opened(f"/live/match/{match.pk}/", HTTP_LAST_EVENT_ID=str(first))
    assert frame(response) == f"retry: 2000\n\nid: {third}\nevent: changed\ndata: {topic}\n\n"
    # saw the last: nothing to tell
    response = opened(f"/live/match/{match.pk}/", HTTP_LAST_EVENT_ID=str(third))
    assert frame(response) == "retry: 2000\n\n"
    # and the next change is told
    with django_capture_on_commit_callbacks(execute=True):
        announce([topic])
    newest = LiveChange.objects.filter(topic=topic).latest("id").id
    assert frame(response) == f"id: {newest}\nevent: changed\ndata: {topic}\n\n"
    # the page's last event is older than every row kept (they go after an hour): it draws
    # itself afresh
    LiveChange.objects.filter(topic=topic).delete()
    response = opened(f"/live/match/{match.pk}/", HTTP_LAST_EVENT_ID=str(second))
    assert frame(response) == f"retry: 2000\n\nevent: changed\ndata: {topic}\n\n"


def test_streams_past_an_addresss_cap_are_refused_429_and_past_the_processs_503(
    match: Match, opened: Callable[..., Any], settings: Any
) -> None:
    settings.LIVE_STREAMS_PER_ADDRESS = 2
    settings.LIVE_STREAMS = 3
    path = f"/live/match/{match.pk}/"
    held = [opened(path, REMOTE_ADDR="10.0.0.7") for _ in range(2)]
    assert [response.status_code for response in held] == [200, 200]

    refused = opened(path, REMOTE_ADDR="10.0.0.7")
    assert refused.status_code == 429
    assert "Too many live pages are open from this address" in refused.content.decode()
    assert refused["Retry-After"] == "60"

    # another phone elsewhere: its own count
    assert opened(path, REMOTE_ADDR="10.0.0.8").status_code == 200
    full = opened(path, REMOTE_ADDR="10.0.0.9")
    assert full.status_code == 503
    assert "The server holds as many live pages as it can" in full.content.decode()

    # a page closed frees its place
    close(held[0])
    assert opened(path, REMOTE_ADDR="10.0.0.7").status_code == 200


def test_a_quiet_stream_sends_a_heartbeat(
    match: Match, opened: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(streams, "HEARTBEAT_SECONDS", 0.05)
    response = opened(f"/live/match/{match.pk}/")
    frame(response)
    assert frame(response) == ": \n\n"


def test_a_stream_of_nothing_is_not_found(opened: Callable[..., Any]) -> None:
    for path in ("/live/match/999999/", "/live/season/999999/", "/live/night/999999/"):
        assert opened(path).status_code == 404
    assert Client().post("/live/match/1/").status_code == 405


@pytest.mark.django_db(transaction=True)
def test_under_asgi_the_stream_waits_on_the_event_loop_and_is_told(match: Match, hub: Hub) -> None:
    async def follow() -> list[bytes]:
        response = await AsyncClient().get(f"/live/match/{match.pk}/")
        assert response.status_code == 200
        frames = aiter(response.streaming_content)
        first = await anext(frames)
        # another thread commits a change: the loop's stream wakes
        await asyncio.to_thread(play, match)
        second = await asyncio.wait_for(anext(frames), 10)
        await asyncio.to_thread(response.close)
        return [first, second]

    # a loop of its own, in a thread of its own: a browser test before it in this process
    # leaves Playwright's loop running in this one
    with ThreadPoolExecutor(1) as thread:
        first, second = thread.submit(asyncio.run, follow()).result()
    assert first.endswith(f"event: changed\ndata: match:{match.pk}\n\n".encode())
    assert second.startswith(b"id: ")
    assert second.endswith(f"event: changed\ndata: match:{match.pk}\n\n".encode())
    assert hub.held() == 0


@pytest.mark.django_db(transaction=True)
def test_an_open_stream_holds_no_database_connection(match: Match) -> None:
    if connection.vendor == "sqlite" and connection.is_in_memory_db():
        pytest.skip("an in-memory database cannot be let go of (it would be gone): PostgreSQL")
    response = Client().get(f"/live/match/{match.pk}/")
    try:
        assert response.status_code == 200
        assert connection.connection is None
    finally:
        response.close()


def test_a_boards_stream_is_told_at_most_every_two_seconds_and_of_the_newest_change(
    opened: Callable[..., Any], django_capture_on_commit_callbacks: Any
) -> None:
    from scorekeeper.leagues.models import Season
    from tests.browser.test_desk import timed_night

    season = Season.objects.get(pk=timed_night(tables=2).season_id)
    topic = f"season:{season.pk}"
    response = opened(f"/live/season/{season.pk}/")
    frame(response)
    with django_capture_on_commit_callbacks(execute=True):
        announce([topic])
    # (before it is read: the stream takes its time as it sends it)
    told_at = time.monotonic()
    assert frame(response).startswith("id: ")

    # two plays in the next moment: one redraw, the newest, two seconds after the last
    for _ in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            announce([topic])
    newest = LiveChange.objects.filter(topic=topic).latest("id").id
    assert frame(response) == f"id: {newest}\nevent: changed\ndata: {topic}\n\n"
    assert time.monotonic() - told_at >= streams.BOARD_GAP_SECONDS


@pytest.mark.parametrize("seed", range(5))
def test_the_tvs_of_a_hall_told_of_the_same_plays_ask_one_after_another(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Twelve wall boards' streams, told of a play after a quiet spell: each waits a moment of
    its own, within the spread, and no two ask in the same instant; while the hall plays on,
    each is told again two seconds after its last, never sooner, so they stay apart."""
    # draws of their own: the process's random numbers are left as they were
    monkeypatch.setattr(streams, "random", random.Random(seed))
    walls = [streams._Pace(["season:1"]) for _ in range(12)]
    quiet = 1000.0
    told = [quiet + wall.wait(0.0, quiet) for wall in walls]
    assert all(quiet <= at < quiet + streams.BOARD_SPREAD_SECONDS for at in told)
    in_order = sorted(told)
    assert min(b - a for a, b in zip(in_order, in_order[1:], strict=False)) > 0
    # the next play comes a moment after the first wall was told: each wall waits out its gap
    play = in_order[0] + 0.01
    again = [play + wall.wait(at, play) for wall, at in zip(walls, told, strict=True)]
    assert again == pytest.approx([at + streams.BOARD_GAP_SECONDS for at in told])
    # a table's scoreboard is told at once, however recently
    assert streams._Pace([f"match:{seed}"]).wait(play - 0.1, play) == 0.0


def test_rows_older_than_an_hour_go_but_the_newest_so_that_ids_never_go_back() -> None:
    from datetime import timedelta

    from django.utils import timezone

    from scorekeeper.live import fanout

    old = [LiveChange.objects.create(topic=f"match:{n}") for n in range(3)]
    LiveChange.objects.filter(pk__in=[row.pk for row in old]).update(
        at=timezone.now() - timedelta(hours=2)
    )
    assert fanout.prune() == 2
    assert list(LiveChange.objects.values_list("pk", flat=True)) == [old[-1].pk]
    fresh = LiveChange.objects.create(topic="match:9")
    assert fresh.pk > old[-1].pk
    assert fanout.prune() == 1
    assert list(LiveChange.objects.values_list("pk", flat=True)) == [fresh.pk]


class _AsksWhenTold(Listener):
    """A watcher's phone that asks its poll the moment its stream is told of a change."""

    def __init__(self, topics: list[str], ask: Callable[[], str]) -> None:
        super().__init__(topics, "10.0.0.9")
        self.ask = ask
        self.answers: list[str] = []

    def put(self, change: Any, drawing: Any = None) -> None:
        self.answers.append(self.ask())


@pytest.mark.django_db(transaction=True)
def test_a_watcher_told_of_a_tap_is_given_the_answer_the_entry_drew(hub: Hub) -> None:
    """Told at the commit, before the entry had drawn what the table's other phones are given,
    a watcher asking at once drew the whole board itself (every hand of the match); told once
    it is drawn, it is given the totals and the hand being played alone."""
    from django.urls import reverse

    from tests.performance.hall import long_match
    from tests.performance.test_page_weight import tap_on_the_board_as_drawn
    from tests.web.pages import HTMX
    from tests.web.table import scorekeeper_client

    scorekeeper, watcher = scorekeeper_client(), Client()
    match = long_match(hands_to=100_000, hands=3)
    tap_on_the_board_as_drawn(scorekeeper, match)  # begins the next hand
    tap_on_the_board_as_drawn(scorekeeper, match)
    match.refresh_from_db()
    shown = match.version
    poll = reverse("tables:live", args=[match.pk])
    phone = _AsksWhenTold(
        [f"match:{match.pk}"],
        lambda: watcher.get(poll, {"v": shown}, headers=HTMX).content.decode(),
    )
    assert hub.join(phone, per_address=5, in_all=5) == ""

    tap_on_the_board_as_drawn(scorekeeper, match)

    [answer] = phone.answers
    assert 'id="live-top" hx-swap-oob="true"' in answer
    assert 'id="hand-4"' in answer and 'id="hand-1"' not in answer


@pytest.mark.django_db(transaction=True)
def test_an_entry_refused_tells_nothing_and_the_next_change_is_told_at_commit(
    match: Match, hub: Hub
) -> None:
    from django.urls import reverse

    from tests.web.table import scorekeeper_client

    phone = Listener([f"match:{match.pk}"], "10.0.0.9")
    assert hub.join(phone, per_address=5, in_all=5) == ""
    scorekeeper = scorekeeper_client()
    scorekeeper.get(reverse("tables:scoreboard", args=[match.pk]))
    refused = scorekeeper.post(
        reverse("tables:record_play", args=[match.pk]), {"player": "0", "points": 7}
    )
    assert refused.status_code == 422
    assert phone.take() == []

    with transaction.atomic():
        play(match)
    [(_, topic, event)] = phone.take()
    assert (topic, event) == (f"match:{match.pk}", "changed")


@pytest.mark.parametrize("on_loop", [False, True], ids=["thread", "event loop"])
def test_a_boards_stream_waiting_out_its_gap_ends_at_once_when_ended(
    on_loop: bool, hub: Hub
) -> None:
    """A TV's stream told twice within two seconds waits before its second event; ending every
    stream (a server's shutdown, a test's end) ends it then too, not after the wait."""
    listener = Listener(["season:1"], "10.0.0.9")
    assert hub.join(listener, per_address=5, in_all=5) == ""
    pace = streams._Pace(["season:1"])
    pace.lifetime = 8.0
    # told a second time within its gap: it is to wait five seconds before telling
    pace.wait = lambda told_at, at: 5.0 if told_at else 0.0  # type: ignore[method-assign]

    def told_then_ended_within(frames_of: Callable[[], Any]) -> float:
        hub.deliver([(1, "season:1", "changed")])
        threading.Timer(0.3, lambda: hub.deliver([(2, "season:1", "changed")])).start()
        threading.Timer(0.6, hub.end_all).start()
        started = time.monotonic()
        assert [chunk.startswith(b"id: ") for chunk in frames_of()[1:]] == [True]
        return time.monotonic() - started

    if on_loop:

        async def frames() -> list[bytes]:
            return [chunk async for chunk in streams._frames_async(listener, [], pace)]

        # a loop of its own, in a thread of its own (as under ASGI, above)
        def on_a_loop() -> list[bytes]:
            with ThreadPoolExecutor(1) as thread:
                return thread.submit(asyncio.run, frames()).result()

        took = told_then_ended_within(on_a_loop)
    else:
        took = told_then_ended_within(lambda: list(streams._frames(listener, [], pace)))
    assert took < 2.0, f"the stream waited {took:.1f} s after it was ended"
    assert hub.held() == 0
