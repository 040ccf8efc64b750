"""An entry the server could not take because the database was busy (503, nothing saved) is
sent again by the phone by itself, with the same entry key, and lands once."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Route, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper import rules
from scorekeeper.access.models import SCOREKEEPER, ShareLink
from scorekeeper.tables.models import Play
from scorekeeper.tables.scoring import create_match
from tests.browser.table import expect_totals, join


@pytest.mark.django_db(transaction=True)
def test_a_play_refused_while_the_database_is_busy_is_sent_again_and_lands_once(
    new_context: Callable[..., BrowserContext], live_server: LiveServer
) -> None:
    match = create_match(rules.Match("straight", ("Ann", "Bob"), hands=(rules.Hand(leader="Ann"),)))
    link = ShareLink.objects.create(match=match, role=SCOREKEEPER, label="Table 1")
    page = new_context().new_page()
    join(page, live_server, link, "Bea")
    sent: list[str] = []

    def busy_once(route: Route) -> None:
        sent.append(route.request.post_data or "")
        if len(sent) == 1:
            # as the app answers an entry that waited past SQLite's timeout for the lock
            route.fulfill(status=503, headers={"Retry-After": "1"}, body="busy")
        else:
            route.continue_()

    # on the context: the service worker (Background Sync) may be the one to send it again
    page.context.route("**/play/", busy_once)
    entry = page.get_by_role("region", name="Record a play")
    entry.get_by_role("group", name="Who scored").get_by_role("radio", name="Ann").check()
    # Ann leads, but her 15 is no lead tile (a lead makes 5 or 10 at most)
    entry.get_by_label("Lead: the first tile of the hand").uncheck()
    entry.get_by_role("button", name="15", exact=True).tap()

    expect_totals(page, 15, 0)
    # shown at once as waiting, then sent again after the pause the server asked for
    for _ in range(100):
        if len(sent) == 2:
            break
        page.wait_for_timeout(100)
    expect(page.locator("#outbox .outbox-list li")).to_have_count(0)
    assert len(sent) == 2
    # the same entry, key and all, was sent again
    assert sent[0] == sent[1]
    assert list(Play.objects.filter(hand__match=match).values_list("seat", "points")) == [(0, 15)]
    expect(page.get_by_text("busy")).to_have_count(0)
