"""The public pairings page on a player's phone (390x844): type a name, see the table, as one
types with JavaScript and through the form without it; and the table pages read by a screen
reader: axe-core finds nothing serious on them."""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.leagues.models import League, Season
from scorekeeper.nights import round_draw, rounds
from scorekeeper.nights.models import Night
from scorekeeper.tables.recording import Author
from scorekeeper.tables.scoring import player_named
from tests.browser.hall import ORGANIZER, PASSWORD, sign_in
from tests.browser.table import (
    REFUSED,
    assert_fits_the_phone,
    csp_violations,
    listen,
    save_screenshot,
)
from tests.browser.test_accessibility import blocking_violations
from tests.clubs import organizer_of_the_club, the_club
from tests.web.table import play, scorekeeper_client, seated_names

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ("Ana", "Bo", "Cy", "Di", "José Núñez", "Flo", "Gus", "Hal", "Ivy")


def night_started() -> Night:
    """Tonight's Straight night in partnerships, nine players: two tables and one sits out."""
    league = League.objects.create(
        club=the_club(),
        name="Harris County Thursday Domino Club",
        game="straight",
        rules={"target": 25},
    )
    season = Season.objects.create(
        league=league, name="Autumn 2026", starts_on=datetime.date(2026, 9, 1)
    )
    came = [player_named(name) for name in NAMES]
    league.members.set(came)
    night = Night(season=season, played_on=timezone.localdate(), rounds=3, seed="wall")
    rounds.open_night(night, came, [])
    rounds.start_round(round_draw.draw_round(night), by=Author(name="Organizer"))
    return night


def table_of(night: Night, name: str) -> int:
    player = player_named(name)
    return next(
        table.number
        for table in night.night_rounds.get(number=1).tables.all()
        if player.pk in table.player_ids
    )


def rows_shown(page: Page) -> list[str]:
    return page.locator("tr[data-name]:visible").evaluate_all(
        "rows => rows.map(row => row.dataset.name)"
    )


def test_typing_a_name_shows_that_players_table(
    page: Page, live_server: LiveServer, output_path: str
) -> None:
    night = night_started()
    heard: list[str] = []
    listen(page, heard)
    page.goto(f"{live_server.url}/nights/{night.pk}/pairings/")
    expect(page.get_by_role("heading", name="Round 1 of 3: by table")).to_be_visible()
    assert len(rows_shown(page)) == len(NAMES)
    assert_fits_the_phone(page)
    save_screenshot(page, output_path, "pairings.png")

    page.get_by_label("Your name").press_sequentially("jose")

    expect(page.locator("tr[data-name]:visible")).to_have_count(1)
    row = page.locator('tr[data-name="José Núñez"]')
    expect(row.locator("td").first).to_have_text(str(table_of(night, "José Núñez")))
    save_screenshot(page, output_path, "pairings-find-jose.png")
    page.get_by_label("Your name").fill("zz")
    expect(page.get_by_role("status")).to_have_text("Nobody by that name plays in this round.")
    page.get_by_label("Your name").fill("bo")
    expect(page.locator("tr[data-name]:visible")).to_have_count(1)
    expect(page.locator('tr[data-name="Bo"] td').first).to_have_text(str(table_of(night, "Bo")))
    assert_fits_the_phone(page)
    save_screenshot(page, output_path, "pairings-find-bo.png")
    assert not blocking_violations(page)
    assert not csp_violations(heard)


def test_without_javascript_the_form_finds_the_table(
    browser: Browser, live_server: LiveServer
) -> None:
    night = night_started()
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{live_server.url}/nights/{night.pk}/pairings/")

    page.get_by_label("Your name").fill("bo")
    page.get_by_role("button", name="Find my table").click()

    assert page.url.endswith("?name=bo")
    assert rows_shown(page) == ["Bo"]
    expect(page.locator('tr[data-name="Bo"] td').first).to_have_text(str(table_of(night, "Bo")))
    context.close()


@pytest.mark.console_errors(REFUSED)
def test_axe_finds_nothing_serious_on_the_table_pages(page: Page, live_server: LiveServer) -> None:
    night = night_started()
    league = night.season.league_id
    user = get_user_model().objects.create_user(ORGANIZER, password=PASSWORD)
    organizer_of_the_club(user)
    sign_in(page, live_server.url)
    for where in (
        f"/nights/{night.pk}/pairings/",
        f"/leagues/{league}/tables/9/",  # two tables tonight: table 9 is not playing
        f"/leagues/{league}/tables/cards/?count=4",
        f"/leagues/{league}/tables/cards/?count=none",
    ):
        page.goto(live_server.url + where)
        settled(page)
        found = blocking_violations(page)
        assert not found, f"{where}:\n" + "\n".join(found)


def settled(page: Page) -> None:
    """A live page's stream is open, and the one redraw it asks for on opening has settled
    (axe would read the colours of a part fading in)."""
    if page.locator("[sse-connect]").count():
        expect(page.locator("[sse-connect][data-live-open]")).to_have_count(1)
    expect(
        page.locator(".htmx-request, .htmx-swapping, .htmx-settling, .htmx-added")
    ).to_have_count(0)
    page.wait_for_timeout(500)


def pdf_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page\b", pdf))


def test_printed_pairings_list_every_name_after_the_tables(
    page: Page, live_server: LiveServer
) -> None:
    night = night_started()
    page.goto(f"{live_server.url}/nights/{night.pk}/pairings/?name=bo")
    assert rows_shown(page) == ["Bo"]

    page.emulate_media(media="print")

    # on paper every name, whatever was looked for, and the tables first
    assert rows_shown(page) == sorted(NAMES)
    by_table = page.get_by_role("heading", name="Round 1 of 3: by table").bounding_box()
    by_name = page.get_by_role("heading", name="Round 1: by name").bounding_box()
    assert by_table["y"] < by_name["y"]
    expect(page.get_by_label("Your name")).to_be_hidden()
    # by table on a page, by name on the next, the code for the wall on a third
    assert pdf_pages(page.pdf(format="A4")) == 3


def test_the_table_cards_print_four_to_an_a4_page(page: Page, live_server: LiveServer) -> None:
    night = night_started()
    user = get_user_model().objects.create_user(ORGANIZER, password=PASSWORD)
    organizer_of_the_club(user)
    sign_in(page, live_server.url)
    page.goto(f"{live_server.url}/leagues/{night.season.league_id}/tables/cards/?count=8")
    expect(page.get_by_test_id("table-card")).to_have_count(8)

    assert pdf_pages(page.pdf(format="A4")) == 2


def test_the_pairings_follow_the_night_and_keep_the_name_looked_for(
    page: Page, live_server: LiveServer
) -> None:
    night = night_started()
    page.goto(f"{live_server.url}/nights/{night.pk}/pairings/")
    page.get_by_label("Your name").fill("bo")
    expect(page.locator("tr[data-name]:visible")).to_have_count(1)
    results = page.get_by_role("heading", name="Tonight's results")
    expect(results).to_have_count(0)

    match = night.night_rounds.get(number=1).tables.get(number=1).match
    organizer = scorekeeper_client()
    assert play(organizer, match, seated_names(match)[0], 25).status_code in (200, 302)

    # the poll (every five seconds) brings the results in, and Bo's row alone stays shown
    expect(results).to_be_visible(timeout=15_000)
    assert rows_shown(page) == ["Bo"]
