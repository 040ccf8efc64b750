"""A league night's table at a phone's size (390x844): the match ends on the scorekeeper's
phone, the board hands it over to the other side, who agree with one tap, and the result is
signed and locked; at another table the other side disagrees from its own phone, through the
link under the finished board's QR code. axe-core finds nothing serious on either."""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.leagues.models import League, Season
from scorekeeper.nights import round_draw, rounds
from scorekeeper.nights.models import Night
from scorekeeper.tables import entries
from scorekeeper.tables.models import Match
from scorekeeper.tables.recording import Author
from scorekeeper.tables.scoring import player_named
from tests.browser.hall import ORGANIZER, PASSWORD, sign_in
from tests.browser.offline import NewContext
from tests.browser.table import (
    CONFLICT,
    POLLED,
    assert_fits_the_phone,
    csp_violations,
    join_at,
    listen,
    save_screenshot,
)
from tests.browser.test_accessibility import blocking_violations, open_every_disclosure
from tests.clubs import organizer_of_the_club, the_club

pytestmark = pytest.mark.django_db(transaction=True)

MEMBERS = ("Ana", "Bo", "Cy", "Di", "Eve", "Flo", "Gus", "Hal")


def a_night_of_two_tables() -> list[tuple[Match, str]]:
    """A Straight league playing to 25, a night of eight started: each table's match and its
    card's scorekeeper link."""
    league = League.objects.create(
        club=the_club(), name="Friday Fives", game="straight", rules={"target": 25}
    )
    league.members.set([player_named(name) for name in MEMBERS])
    season = Season.objects.create(
        league=league, name="Winter", starts_on=datetime.date(2026, 12, 1)
    )
    user = get_user_model().objects.create_user(ORGANIZER, password=PASSWORD)
    organizer_of_the_club(user)
    night = Night.objects.create(season=season, played_on=datetime.date(2026, 12, 4))
    rounds.check_in(night, list(league.members.all()))
    drawn = round_draw.draw_round(night)
    rounds.start_round(drawn, by=Author(name=ORGANIZER, user=user))
    tables = drawn.tables.select_related("match", "link").order_by("number")
    return [(table.match, f"/join/{table.link.token}/") for table in tables]


def finish(match: Match) -> tuple[str, str]:
    """Seat 2 scores 10, then seat 1 scores 25 and wins; each side's name, seat 1's first."""
    seats = list(match.seats.order_by("position").values_list("player__name", flat=True))
    by = Author("T")
    # the engine knows the players by seat
    entries.play_record(match=match, player="1", points=10, by=by, override=True)
    entries.play_record(match=match, player="0", points=25, by=by, override=True)
    return f"{seats[0]} & {seats[2]}", f"{seats[1]} & {seats[3]}"


def test_the_other_side_signs_on_the_phone_handed_over_or_disputes_from_its_own(
    page: Page,
    new_context: NewContext,
    live_server: LiveServer,
    output_path: str,
) -> None:
    (first, first_link), (second, second_link) = a_night_of_two_tables()
    heard: list[str] = []
    listen(page, heard)
    join_at(page, live_server.url + first_link, "Table 1")
    keepers, others = finish(first)

    # the board reloads itself at its next poll, the match finished on the server
    sign = page.get_by_test_id("sign")
    expect(sign.get_by_role("heading")).to_have_text(f"Hand the phone to {others}", timeout=POLLED)
    expect(sign).to_contain_text(f"{others}: do you agree with this result?")
    assert_fits_the_phone(page)
    open_every_disclosure(page)
    assert not blocking_violations(page)
    save_screenshot(page, output_path, "sign-handed-over.png")

    sign.get_by_role("button", name="Agree").tap()

    expect(page.get_by_test_id("signed")).to_have_text(
        re.compile(rf"Signed by {re.escape(others)} at \d\d:\d\d")
    )
    # nothing on the board offers a correction the table may no longer make
    expect(page.get_by_role("button", name=re.compile("Undo"))).to_have_count(0)
    expect(page.get_by_role("link", name="Edit")).to_have_count(0)
    assert_fits_the_phone(page)
    save_screenshot(page, output_path, "sign-signed.png")

    # at table 2, the other side answers on its own phone, from the link on the finished board
    scorekeeper = new_context().new_page()
    join_at(scorekeeper, live_server.url + second_link, "Table 2")
    finish(second)
    expect(scorekeeper.get_by_test_id("sign")).to_be_visible(timeout=POLLED)
    scorekeeper.get_by_text("Or sign on your own phone").tap()
    link = scorekeeper.get_by_test_id("sign-link").get_attribute("href")
    own = new_context().new_page()
    own.goto(link)
    expect(own.get_by_role("heading", level=1)).to_contain_text("do you agree with this result?")
    assert_fits_the_phone(own)
    assert not blocking_violations(own)
    own.get_by_label("Which hand").select_option(index=0)
    own.get_by_label("Pips counted wrong").check()
    own.get_by_label("In a few words").fill("Cy held 7, not 12")
    own.get_by_role("button", name="Send: we disagree").tap()

    expect(own.get_by_test_id("disputed")).to_contain_text("Hand 1: Pips counted wrong.")
    save_screenshot(own, output_path, "sign-disputed.png")
    # the scorekeeper's board reloads itself when its poll hears of the dispute
    expect(scorekeeper.get_by_test_id("disputed")).to_contain_text(
        "Pips counted wrong", timeout=POLLED
    )

    # the organizer opens the dispute from the board, reads the hand and confirms the result
    director = new_context().new_page()
    listen(director, heard)
    sign_in(director, live_server.url)
    director.goto(f"{live_server.url}/matches/{second.pk}/")
    director.get_by_role("link", name="Settle the dispute").tap()
    expect(director.get_by_role("heading", level=1)).to_have_text(re.compile("^Disputed by "))
    expect(director.get_by_test_id("dispute-history")).to_contain_text("scored 25")
    assert_fits_the_phone(director)
    open_every_disclosure(director)
    assert not blocking_violations(director)
    save_screenshot(director, output_path, "sign-dispute-page.png")
    director.get_by_role("button", name="Confirm the result and sign").tap()
    expect(director.get_by_test_id("closed")).to_contain_text(
        "confirmed as it was, and signed by the director"
    )
    own.reload()
    expect(own.get_by_role("heading", level=1)).to_contain_text("Signed by the director at")
    assert not csp_violations(heard)


@pytest.mark.console_errors(CONFLICT)
def test_an_agree_to_a_result_undone_since_signs_nothing_and_shows_the_new_one(
    page: Page, new_context: NewContext, live_server: LiveServer, output_path: str
) -> None:
    """The other side opens its link on "10 - 25"; the scorekeeper undoes the 25 and enters 25
    for the other side instead; the Agree tapped on the page drawn before signs nothing: the
    page shows the result as it now stands and asks again."""
    (first, first_link), _ = a_night_of_two_tables()
    heard: list[str] = []
    listen(page, heard)
    join_at(page, live_server.url + first_link, "Table 1")
    keepers, others = finish(first)
    sign = page.get_by_test_id("sign")
    expect(sign).to_be_visible(timeout=POLLED)
    page.get_by_text("Or sign on your own phone").tap()
    link = page.get_by_test_id("sign-link").get_attribute("href")
    # the scorekeeper's board has reloaded itself already (its poll now answers 304): it may
    # be left, and is, so that it does not reload itself again beside the answer tested below
    page.goto("about:blank")
    own = new_context().new_page()
    listen(own, heard)
    own.goto(link)
    expect(own.locator(".sign-totals")).to_have_text(re.compile(rf"{keepers} 25\s*{others} 10"))

    by = Author("T")
    entries.undo_last(match=first, by=by)
    # the second seat's player
    entries.play_record(match=first, player="1", points=25, by=by, override=True)
    with own.expect_response(lambda response: response.request.method == "POST") as answer:
        own.get_by_role("button", name="Agree", exact=True).tap()

    assert answer.value.status == 409
    expect(own.get_by_role("status")).to_contain_text(
        "The result changed since this page was shown, and nothing was signed."
    )
    expect(own.locator(".sign-totals")).to_have_text(re.compile(rf"{keepers} 0\s*{others} 35"))
    heading = own.get_by_role("heading", level=1)
    expect(heading).to_have_text(f"{others}: do you agree with this result?")
    assert not Match.objects.filter(pk=first.pk, signature__isnull=False).exists()
    assert_fits_the_phone(own)
    save_screenshot(own, output_path, "sign-result-moved.png")

    own.get_by_role("button", name="Agree", exact=True).tap()
    expect(heading).to_have_text(re.compile(rf"Signed by {re.escape(others)} at \d\d:\d\d"))
    assert not csp_violations(heard)
