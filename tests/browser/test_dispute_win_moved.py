"""A dispute whose correction makes the other side reach the target earlier, settled in
Chromium: the director opens the dispute, corrects the hand's pips, saves and signs (the taps of
any correction), and the match ends where it is now won, the later hands kept in its history.

Round 2's table plays to 25 in partnerships, every hand a domino: B on 12 pips (10), A on 10
(10), B on 5 (5), A on 10 and 10: A 30, B 15. B disputes hand 1: A held 18 pips (20), so B
reached 25 at hand 3."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper import rules
from scorekeeper.nights import signing
from scorekeeper.tables import entries
from scorekeeper.tables.recording import Author
from tests.browser.hall import sign_in
from tests.browser.table import assert_fits_the_phone, csp_violations, listen
from tests.browser.test_accessibility import blocking_violations, open_every_disclosure
from tests.browser.test_signing import a_night_of_two_tables

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_director_ends_a_disputed_match_where_the_correction_makes_it_won(
    page: Page, live_server: LiveServer
) -> None:
    (match, _), _ = a_night_of_two_tables()
    names = list(match.seats.order_by("position").values_list("player__name", flat=True))
    # the seats, as the engine knows the players
    a1, b1, a2, b2 = "0", "1", "2", "3"
    by = Author("Table 1")
    for went_out, pips in (
        (b1, {a1: 6, a2: 6, b2: 3}),
        (a1, {b1: 5, b2: 5, a2: 3}),
        (b1, {a1: 3, a2: 2, b2: 3}),
        (a1, {b1: 5, b2: 5, a2: 3}),
        (a1, {b1: 5, b2: 5, a2: 3}),
    ):
        end = rules.HandEnd("domino", player=went_out, pips=pips)
        assert entries.hand_end(match=match, end=end, by=by).saved
    match.refresh_from_db()
    assert match.totals == [30, 15]
    dispute = signing.dispute_open(
        match=match,
        side=1,
        hand=1,
        reason="points",
        text=f"{names[0]} held 12, not 6",
        version=match.version,
        via=signing.BY_LINK,
        by=Author(names[1]),
    )
    page.set_viewport_size({"width": 390, "height": 844})
    heard: list[str] = []
    listen(page, heard)
    sign_in(page, live_server.url)
    page.goto(f"{live_server.url}/nights/disputes/{dispute.pk}/")

    # the taps of any correction: Edit, Save the correction, Sign the corrected result
    page.locator("#hand-1").get_by_role("link", name="Edit").click()
    expect(page.get_by_role("heading", name="Correct hand 1")).to_be_visible()
    expect(page.get_by_test_id("end-at-win-check")).to_be_checked()
    page.locator('input[name="pips_0"]').fill("12")
    page.get_by_role("button", name="Save the correction").click()

    # back on the dispute's page, which says what the correction left out of the result
    expect(page.get_by_role("heading", level=1)).to_have_text(
        f"Disputed by {names[1]} & {names[3]}"
    )
    expect(page.get_by_role("status")).to_contain_text(
        f"Hands 4-5 come after {names[1]} & {names[3]} reached 25. The match ends at hand 3"
    )
    totals = page.get_by_test_id("dispute-totals").get_by_role("listitem")
    expect(totals).to_have_text([re.compile(r" 10$"), re.compile(r" 25$")])
    expect(page.get_by_test_id("dispute-history")).to_contain_text(
        "Hand 1 corrected; the match ends at hand 3, where it was won"
    )
    assert_fits_the_phone(page)
    open_every_disclosure(page)
    assert not blocking_violations(page)
    page.get_by_role("button", name="Sign the corrected result").click()

    expect(page.get_by_test_id("closed")).to_contain_text("corrected, and signed by the director")
    match.refresh_from_db()
    assert (match.totals, match.hand_count, match.winners) == ([10, 25], 3, [1])
    # the hands after the win are in the history, and can be put back from it
    page.get_by_role("link", name="The whole history").click()
    expect(page.locator("ol.changes > li").first).to_contain_text(
        "Hand 1 corrected; the match ends at hand 3, where it was won"
    )
    assert csp_violations(heard) == []
