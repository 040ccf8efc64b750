"""Through a Wi-Fi drop the board says "Offline: as of 02:30" in the one clock the board's own
times use ("Last change: ..., 02:30."): the hall's time zone, 24 hours, whatever the phone's own
clock and language say."""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable

import pytest
from django.utils import timezone
from playwright.sync_api import BrowserContext, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper import rules
from scorekeeper.access.models import SCOREKEEPER, ShareLink
from scorekeeper.tables.scoring import create_match
from tests.browser.offline import go_offline
from tests.browser.table import HTMX_UNANSWERED, NETWORK_DOWN, expect_totals, join, tap_score


def hall_clock(at: datetime.datetime) -> str:
    return timezone.localtime(at).strftime("%H:%M")


@pytest.mark.console_errors(NETWORK_DOWN, HTMX_UNANSWERED)
@pytest.mark.django_db(transaction=True)
def test_the_offline_note_tells_the_time_as_the_board_does(
    new_context: Callable[..., BrowserContext], live_server: LiveServer
) -> None:
    match = create_match(
        rules.Match("straight", ("Ann", "Bob", "Cy", "Dee"), hands=(rules.Hand(leader="Ann"),))
    )
    link = ShareLink.objects.create(match=match, role=SCOREKEEPER, label="Table 1")
    # a phone set to a 12-hour clock, fourteen hours ahead of UTC (the hall's is the server's)
    page = new_context(locale="en-US", timezone_id="Pacific/Kiritimati").new_page()
    join(page, live_server, link, "Bea")
    before = timezone.now()
    tap_score(page, "Ann", 10)
    expect_totals(page, 10, 0, 0, 0)

    go_offline(page.context)
    tap_score(page, "Bob", 15)
    note = page.locator("#offline-note")
    expect(note).to_contain_text("Offline: as of", timeout=10_000)
    after = timezone.now()

    shown = re.fullmatch(r"Offline: as of (.+)", note.inner_text().strip())
    assert shown, note.inner_text()
    # the last contact was between the last entry and the drop: a minute of those on the hall's
    # clock
    minutes = {hall_clock(before)}
    while before < after:
        before += datetime.timedelta(seconds=30)
        minutes.add(hall_clock(min(before, after)))
    assert shown.group(1) in minutes, shown.group(1)
    latest = page.get_by_test_id("latest").inner_text()
    assert re.search(r", \d\d:\d\d\.$", latest), latest
