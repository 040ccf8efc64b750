"""A board's poll overtaken by a tap: the poll was asked at the version before the tap, the
tap's answer came first and put a new poll in its place, then the old poll's answer arrived.
That late answer is for a board no longer shown: the phone drops it, keeps the tap's totals,
and its console stays clean (no htmx ``oobErrorNoTarget`` for the parts the answer fills)."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper import rules
from scorekeeper.access.models import SCOREKEEPER, ShareLink
from scorekeeper.tables.scoring import create_match
from tests.browser.table import expect_totals, hold_the_first, join, tap_score

POLL = re.compile(r"/matches/\d+/live/\?v=")
#: the board's stream, refused here: the board polls, as a page without one does (a stream's
#: event makes it ask the same address, so a late answer is handled the same way)
STREAM = re.compile(r"/live/match/\d+/$")
#: htmx says the refused stream's error event as "[object Event]"
NO_STREAM = r"\[object Event\]|EventSource|net::ERR_FAILED"


@pytest.mark.console_errors(NO_STREAM)
@pytest.mark.django_db(transaction=True)
def test_a_poll_answered_after_a_tap_is_dropped_and_the_tap_stays_shown(
    new_context: Callable[..., BrowserContext], live_server: LiveServer
) -> None:
    match = create_match(
        rules.Match("straight", ("Ann", "Bob", "Cy", "Dee"), hands=(rules.Hand(leader="Ann"),))
    )
    keeping = ShareLink.objects.create(match=match, role=SCOREKEEPER, label="Table 3")
    page = new_context().new_page()
    page.route(STREAM, lambda route: route.abort())
    join(page, live_server, keeping, "Bea")
    tap_score(page, "Cy", 15)
    expect_totals(page, 0, 0, 15, 0)

    held = hold_the_first(page, POLL)
    with page.expect_request(POLL):
        pass  # the board's next poll, asked at the version before the tap, is held
    # a play that only adds to the hand: its answer replaces the poll, the totals and the hand
    tap_score(page, "Ann", 10)
    expect_totals(page, 10, 0, 15, 0)

    (late,) = held
    with page.expect_response(lambda response: response.request == late.request) as answered:
        late.continue_()
    # the server answers the late poll with the board after the tap, drawn for the old page
    assert answered.value.status == 200
    with page.expect_response(POLL):
        pass  # a poll of the new board's, answered after the late one was handled
    expect_totals(page, 10, 0, 15, 0)
    expect(page.get_by_test_id("latest")).to_contain_text("Ann scored 10")
