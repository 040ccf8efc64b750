"""Two phones on one match: Bea keeps score with a scorekeeper's link, Vic watches with a
viewer's link. What Bea taps shows on Vic's phone within seconds, without a reload, signed
with her name; and neither page trips the Content-Security-Policy."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper import rules
from scorekeeper.access.models import SCOREKEEPER, VIEWER, ShareLink
from scorekeeper.tables.scoring import create_match
from tests.browser.table import csp_violations, expect_no_entry_forms, expect_totals, listen

#: the poll asks every two seconds; a second more covers the answer and the swap
WITHIN = 3_000


def join(page: Page, live_server: LiveServer, link: ShareLink, name: str) -> None:
    """Open the link as scanning its QR code does, give a name, tap Join."""
    response = page.goto(f"{live_server.url}/join/{link.token}/")
    assert response is not None
    # the page is served under the policy, so a violation would show in the console
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Join").tap()
    expect(page.get_by_role("region", name="Totals")).to_be_visible()


def watch(page: Page, live_server: LiveServer, link: ShareLink) -> None:
    """Open a watch link: the scoreboard, with no name to give and nothing to tap."""
    response = page.goto(f"{live_server.url}/join/{link.token}/")
    assert response is not None
    assert "script-src 'self'" in response.headers["content-security-policy"]
    expect(page.get_by_role("region", name="Totals")).to_be_visible()
    expect(page.get_by_label("Your name")).to_have_count(0)


def tap_score(page: Page, player: str, points: int) -> None:
    entry = page.get_by_role("region", name="Record a play")
    entry.get_by_role("group", name="Who scored").get_by_role("radio", name=player).check()
    entry.get_by_role("button", name=str(points), exact=True).tap()


@pytest.mark.django_db(transaction=True)
def test_a_score_tapped_on_one_phone_shows_on_the_watching_phone_with_who_tapped_it(
    new_context: Callable[..., BrowserContext], live_server: LiveServer
) -> None:
    match = create_match(
        rules.Match("straight", ("Ann", "Bob", "Cy", "Dee"), hands=(rules.Hand(leader="Ann"),))
    )
    keeping = ShareLink.objects.create(match=match, role=SCOREKEEPER, label="Table 3")
    watching = ShareLink.objects.create(match=match, role=VIEWER, label="Table 3, watching")
    bea, vic = new_context().new_page(), new_context().new_page()
    heard_by_bea: list[str] = []
    heard_by_vic: list[str] = []
    listen(bea, heard_by_bea)
    listen(vic, heard_by_vic)

    join(bea, live_server, keeping, "Bea")
    watch(vic, live_server, watching)
    expect(vic.get_by_text("You are watching this match.")).to_be_visible()
    expect_no_entry_forms(vic)

    tap_score(bea, "Cy", 15)
    expect_totals(bea, 0, 0, 15, 0)
    expect(vic.get_by_test_id("total")).to_have_text(["0", "0", "15", "0"], timeout=WITHIN)
    expect(vic.get_by_test_id("latest")).to_contain_text("Last change: Cy scored 15, by Bea")

    tap_score(bea, "Ann", 10)
    expect_totals(bea, 10, 0, 15, 0)
    expect(vic.get_by_test_id("total")).to_have_text(["10", "0", "15", "0"], timeout=WITHIN)
    expect(vic.get_by_test_id("latest")).to_contain_text("Last change: Ann scored 10, by Bea")

    # still watching: the refreshed board brought no entry forms with it
    expect_no_entry_forms(vic)
    assert csp_violations(heard_by_bea) == []
    assert csp_violations(heard_by_vic) == []
    assert [line for line in heard_by_bea + heard_by_vic if line.startswith("page error")] == []
