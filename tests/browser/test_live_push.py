"""Live pages follow by push (scorekeeper/live, static/js/live.js): with their polls turned off,
a watcher's phone shows a play within a second of the tap, and the night's TV board and the desk
change; a stream cut or refused falls back to polling and the page still follows; a phone back
from a while offline catches up, nothing lost or doubled; a TV without JavaScript still
refreshes itself."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import BrowserContext, Page, Route, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper import rules
from scorekeeper.access.models import SCOREKEEPER, VIEWER, ShareLink
from scorekeeper.nights.desk import clock_start
from scorekeeper.tables import entries
from scorekeeper.tables.models import Match
from scorekeeper.tables.recording import Author
from scorekeeper.tables.scoring import create_match
from tests.browser.table import expect_totals, hold_the_first, join, tap_score, watch
from tests.browser.test_desk import first_match, timed_night
from tests.browser.test_league import sign_in_as_organizer
from tests.browser.test_offline_flaky import wait_until

pytestmark = pytest.mark.django_db(transaction=True)

#: a page's timer polls do not ask: only the stream makes it ask (live.js)
POLLS_OFF = "window.scorekeeperPolls = false;"
#: within a second of the tap's answer
PUSHED = 1_000
#: the poll's two seconds, its answer and the swap
POLLED = 4_000
#: Chromium's word for a stream the server refused or the test cut, and htmx's (an error event,
#: a poll that could not be sent while offline)
STREAM_REFUSED = (
    r"(status of (429|503)|EventSource|ERR_FAILED|ERR_INTERNET_DISCONNECTED"
    r"|\[object Event\]|htmx:(afterRequest|sendError))"
)


def two_phones(
    new_context: Callable[..., BrowserContext], live_server: LiveServer, *, polls: bool
) -> tuple[Page, Page, BrowserContext]:
    """Bea keeps score of a new match, Vic watches it (his polls off unless ``polls``)."""
    match = create_match(
        rules.Match("straight", ("Ann", "Bob", "Cy", "Dee"), hands=(rules.Hand(leader="Ann"),))
    )
    keeping = ShareLink.objects.create(match=match, role=SCOREKEEPER, label="Table 3")
    watching = ShareLink.objects.create(match=match, role=VIEWER, label="Table 3, watching")
    vic_context = new_context()
    if not polls:
        vic_context.add_init_script(POLLS_OFF)
    bea, vic = new_context().new_page(), vic_context.new_page()
    join(bea, live_server, keeping, "Bea")
    watch(vic, live_server, watching)
    return bea, vic, vic_context


def stream_open(page: Page) -> None:
    """Wait until the page's stream is held (live.js says so on the page)."""
    expect(page.locator("[sse-connect][data-live-open]")).to_have_count(1)


def test_a_play_shows_on_the_watchers_phone_within_a_second_with_its_polls_off(
    new_context: Callable[..., BrowserContext], live_server: LiveServer
) -> None:
    bea, vic, _ = two_phones(new_context, live_server, polls=False)
    asked = questions_after_the_first(vic)
    for player, points, totals in [("Cy", 15, (0, 0, 15, 0)), ("Ann", 10, (10, 0, 15, 0))]:
        tap_score(bea, player, points)
        # the tap answered: Bea's board shows it
        expect_totals(bea, *totals)
        expect(vic.get_by_test_id("total")).to_have_text(
            [str(total) for total in totals], timeout=PUSHED
        )
    expect(vic.get_by_test_id("latest")).to_contain_text("Last change: Ann scored 10, by Bea")
    # each play came inside its event, drawn by Bea's tap for the table's watchers: the
    # watcher asked nothing
    assert asked == []


def in_spanish(context: BrowserContext, live_server: LiveServer) -> None:
    """The phone's pages in Spanish from their next load (the language a visitor picks)."""
    context.add_cookies([{"name": "django_language", "value": "es", "url": live_server.url}])


def questions_after_the_first(page: Page) -> list[str]:
    """The scoreboard's questions (its poll's address) after the one its first stream makes it
    ask (a change between the page and its stream): the page is loaded again, heard from its
    start, and that first question answered."""
    asked: list[str] = []
    first: list[str] = []
    page.on("requestfinished", lambda request: first.append(request.url))
    page.reload()
    stream_open(page)
    wait_until(page, lambda: any("/live/?v=" in url for url in first))
    page.on("request", lambda request: "/live/?v=" in request.url and asked.append(request.url))
    return asked


def test_the_scorekeeper_told_of_its_own_tap_asks_nothing(
    new_context: Callable[..., BrowserContext], live_server: LiveServer
) -> None:
    """Bea's stream tells her page of her own tap while it is being sent, with the version the
    tap made: the tap's answer brings that version, and the page asks nothing (it asked after
    each tap, answered 304, and before that had the whole board drawn for it again)."""
    bea, vic, _ = two_phones(new_context, live_server, polls=False)
    asked = questions_after_the_first(bea)
    for player, points, totals in [("Cy", 15, (0, 0, 15, 0)), ("Ann", 10, (10, 0, 15, 0))]:
        tap_score(bea, player, points)
        expect_totals(bea, *totals)
        # the tap's event has reached the table: Vic's phone shows the play
        expect(vic.get_by_test_id("total")).to_have_text(
            [str(total) for total in totals], timeout=PUSHED
        )
    # a moment for a question Bea's page would ask once told
    bea.wait_for_timeout(1_000)
    assert asked == []
    # a change she did not make (entered on another phone): told, her page asks
    entries.play_record(match=Match.objects.get(), player="1", points=5, by=Author(name="Dee"))
    expect_totals(bea, 10, 5, 15, 0)
    assert asked


def test_a_watcher_in_another_language_is_told_and_asks(
    new_context: Callable[..., BrowserContext], live_server: LiveServer
) -> None:
    """Bea's taps draw the board in English; Vic's phone is in Spanish: told of each play, it
    asks for its board in Spanish."""
    bea, vic, vic_context = two_phones(new_context, live_server, polls=False)
    in_spanish(vic_context, live_server)
    asked = questions_after_the_first(vic)
    tap_score(bea, "Cy", 15)
    expect_totals(bea, 0, 0, 15, 0)
    expect(vic.get_by_test_id("total")).to_have_text(["0", "0", "15", "0"], timeout=PUSHED)
    expect(vic.get_by_test_id("latest")).to_contain_text("Cy")
    assert vic.locator("html").get_attribute("lang") == "es"
    # it asked (a page the drawing fits asks nothing: above), as often as its stream told it
    assert asked


def test_a_play_told_while_the_last_is_drawn_is_shown_too(
    new_context: Callable[..., BrowserContext], live_server: LiveServer
) -> None:
    # a phone in another language than the taps' asks for each board (above)
    bea, vic, vic_context = two_phones(new_context, live_server, polls=False)
    in_spanish(vic_context, live_server)
    vic.reload()
    stream_open(vic)
    held = hold_the_first(vic_context, re.compile(r".*/live/\?v="))
    tap_score(bea, "Cy", 15)
    expect_totals(bea, 0, 0, 15, 0)
    # the watcher asks for the first play; its answer is read before the second is tapped and
    # reaches the phone only after the second play's event has
    for _ in range(30):
        if held:
            break
        vic.wait_for_timeout(100)
    assert held, "the watcher did not ask after the first play"
    answer = held[0].fetch()
    tap_score(bea, "Ann", 10)
    expect_totals(bea, 10, 0, 15, 0)
    vic.wait_for_timeout(1_000)
    held[0].fulfill(response=answer)
    expect(vic.get_by_test_id("total")).to_have_text(["10", "0", "15", "0"], timeout=PUSHED)


def test_the_nights_board_and_the_desk_change_by_push(
    new_context: Callable[..., BrowserContext], live_server: LiveServer
) -> None:
    night = timed_night(tables=2)
    tv = new_context()
    tv.add_init_script(POLLS_OFF)
    board = tv.new_page()
    board.goto(f"{live_server.url}/nights/{night.pk}/board/")
    director = new_context()
    director.add_init_script(POLLS_OFF)
    desk = director.new_page()
    sign_in_as_organizer(desk, live_server)
    desk.goto(f"{live_server.url}/nights/{night.pk}/desk/")
    stream_open(board)
    stream_open(desk)
    tables = desk.get_by_test_id("desk-table")
    expect(tables).to_have_count(2)

    entries.play_record(match=first_match(night), player="0", points=15, by=Author(name="T1"))
    expect(tables.first.get_by_test_id("desk-total").first).to_have_text("15", timeout=PUSHED * 3)
    expect(board.locator("#wall-board")).to_contain_text("15", timeout=PUSHED * 3)

    # the round clock, started elsewhere: the desk's line says it runs
    clock_start(night_round=night.night_rounds.get(number=1), now=timezone.now())
    expect(desk.get_by_test_id("round-clock")).to_have_text(
        re.compile(r"Round 1 · 5[45]:\d\d left"), timeout=PUSHED * 3
    )


@pytest.mark.console_errors(STREAM_REFUSED)
def test_a_stream_cut_twice_falls_back_to_polling_and_the_page_follows(
    new_context: Callable[..., BrowserContext], live_server: LiveServer, settings: Any
) -> None:
    # every stream ends after a second; each one opened again is cut by the network
    settings.LIVE_STREAM_MINUTES = 1 / 60
    bea, vic, vic_context = two_phones(new_context, live_server, polls=True)
    stream_open(vic)
    opened: list[str] = []

    def cut(route: Route) -> None:
        opened.append(route.request.url)
        route.abort()

    vic_context.route(re.compile(r".*/live/match/\d+/$"), cut)
    vic.wait_for_timeout(4_000)
    assert opened, "the stream was not opened again"
    tap_score(bea, "Cy", 15)
    expect(vic.get_by_test_id("total")).to_have_text(["0", "0", "15", "0"], timeout=POLLED)
    # given up: no stream is asked for again in the while a poll takes
    count = len(opened)
    vic.wait_for_timeout(3_000)
    assert len(opened) == count


@pytest.mark.console_errors(STREAM_REFUSED)
def test_a_stream_past_the_addresss_cap_is_refused_and_the_page_polls(
    new_context: Callable[..., BrowserContext], live_server: LiveServer, settings: Any
) -> None:
    settings.LIVE_STREAMS_PER_ADDRESS = 1
    bea, vic, _ = two_phones(new_context, live_server, polls=True)
    # Bea's board holds the one stream this address may; Vic's is refused (429)
    tap_score(bea, "Cy", 15)
    expect(vic.get_by_test_id("total")).to_have_text(["0", "0", "15", "0"], timeout=POLLED)


@pytest.mark.console_errors(STREAM_REFUSED)
def test_a_phone_back_from_a_while_offline_catches_up_with_nothing_lost_or_doubled(
    new_context: Callable[..., BrowserContext], live_server: LiveServer
) -> None:
    bea, vic, vic_context = two_phones(new_context, live_server, polls=True)
    stream_open(vic)
    vic_context.set_offline(True)
    for player, points in [("Cy", 15), ("Ann", 10), ("Cy", 5)]:
        tap_score(bea, player, points)
    expect_totals(bea, 10, 0, 20, 0)
    vic.wait_for_timeout(3_000)
    vic_context.set_offline(False)
    expect(vic.get_by_test_id("total")).to_have_text(["10", "0", "20", "0"], timeout=POLLED * 2)
    expect(vic.get_by_test_id("latest")).to_contain_text("Last change: Cy scored 5, by Bea")


def test_a_tv_without_javascript_still_refreshes_itself(
    new_context: Callable[..., BrowserContext], live_server: LiveServer
) -> None:
    night = timed_night(tables=2)
    tv = new_context(java_script_enabled=False).new_page()
    tv.goto(f"{live_server.url}/nights/{night.pk}/board/")
    expect(tv.locator("#wall-board")).not_to_contain_text("15")
    entries.play_record(match=first_match(night), player="0", points=15, by=Author(name="T1"))
    # the page's own refresh, every ten seconds
    expect(tv.locator("#wall-board")).to_contain_text("15", timeout=12_000)
