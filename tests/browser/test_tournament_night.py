"""A Swiss tournament night on the organizer's phone: eight players of a Straight league come,
are paired into four fixed partnerships, round 1 is drawn and started; once it is played the
night's page and the TV show the standings by partnership, and axe finds nothing serious on
either page.

The matches are played to 25, so one play of 25 wins one at once."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.nights.models import Night, NightRound
from scorekeeper.tables import entries
from scorekeeper.tables.recording import Author
from tests.browser.hall import sign_in
from tests.browser.table import (
    assert_fits_the_phone,
    csp_violations,
    listen,
    save_screenshot,
)
from tests.browser.test_accessibility import blocking_violations
from tests.browser.test_league_night import (
    MEMBERS,
    TARGET,
    assert_nothing_off_the_side,
    open_the_league,
)

pytestmark = pytest.mark.django_db(transaction=True)

CAME = MEMBERS[:8]
PARTNERS = list(zip(CAME[0::2], CAME[1::2], strict=True))


@pytest.fixture
def tv(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    yield context.new_page()
    context.close()


def test_a_swiss_night_pairs_partnerships_draws_and_shows_the_standings(
    page: Page, tv: Page, live_server: LiveServer, output_path: str
) -> None:
    heard: list[str] = []
    listen(page, heard)
    season, season_path = open_the_league()
    sign_in(page, live_server.url)

    page.goto(live_server.url + season_path)
    page.get_by_role("link", name="New league night").tap()
    page.get_by_label("The draw").select_option(Night.Draw.SWISS)
    page.get_by_label("Rounds").fill("3")
    for name in CAME:
        page.get_by_label(name, exact=True).check()
    # the usual tie-breaks are ticked for the organizer
    tiebreaks = page.locator("fieldset.tiebreaks")
    expect(tiebreaks.get_by_label("Point difference")).to_be_checked()
    expect(tiebreaks.get_by_label("Buchholz (opponents' match points)")).to_be_checked()
    expect(tiebreaks.get_by_label("Head-to-head")).to_be_checked()
    expect(tiebreaks.get_by_label("Wins")).not_to_be_checked()
    assert_fits_the_phone(page)
    page.get_by_role("button", name="Start the night").tap()
    expect(page).to_have_url(re.compile(r"/nights/\d+/$"))
    night = Night.objects.get(season=season)
    night_url = page.url

    # the partnerships: a partner picked for the first of each two
    partners = page.get_by_test_id("partners")
    for first, second in PARTNERS:
        partners.get_by_label(first, exact=True).select_option(label=second)
    partners.get_by_role("button", name="Save the partnerships").tap()
    expect(page.get_by_text("Partnerships saved: 4.")).to_be_visible()

    page.get_by_role("button", name="Draw round 1", exact=True).tap()
    expect(page.get_by_role("heading", name="Round 1: the draw")).to_be_visible()
    expect(page.get_by_test_id("seed")).to_have_text("Paired by the standings: no rematch.")
    expect(page.locator("#draw .night-table")).to_have_count(2)
    assert blocking_violations(page) == []

    page.get_by_role("button", name="Start round 1", exact=True).tap()
    expect(page.get_by_role("heading", name="Table cards, round 1")).to_be_visible()
    sides = page.get_by_test_id("card-sides")
    expect(sides).to_have_count(2)
    pairs = {" & ".join(pair) for pair in PARTNERS} | {" & ".join(p[::-1]) for p in PARTNERS}
    for text in sides.all_inner_texts():
        one, other = text.split(" against ")
        assert one in pairs and other in pairs, text

    # round 1 played: seats 1 & 3 win at each table
    played = NightRound.objects.get(night=night, number=1)
    winners = []
    for table in played.tables.order_by("number"):
        seats = list(table.match.seats.order_by("position").values_list("player__name", flat=True))
        entries.play_record(match=table.match, player="0", points=TARGET, by=Author(name="Table"))
        winners.append(f"{seats[0]} & {seats[2]}")

    page.goto(night_url)
    standings = page.get_by_test_id("tournament-standings")
    expect(standings.get_by_role("rowheader")).to_have_count(4)
    expect(standings.get_by_role("rowheader").nth(0)).to_have_text(winners[0])
    # the two winners are level on everything: the second row says so
    expect(standings.get_by_role("row").nth(2)).to_contain_text("Still tied")
    assert_fits_the_phone(page)
    assert blocking_violations(page) == []
    save_screenshot(page, output_path, "tournament-night-standings.png")

    tv.goto(f"{live_server.url}/nights/{night.pk}/board/")
    board = tv.get_by_test_id("tournament-standings")
    expect(board.get_by_role("rowheader")).to_have_count(4)
    expect(tv.get_by_role("heading", name="Standings after round 1 of 3")).to_be_visible()
    assert_nothing_off_the_side(tv)
    assert blocking_violations(tv) == []
    save_screenshot(tv, output_path, "tournament-night-board.png")
    assert csp_violations(heard) == []
