"""A tournament's sheets to print, as Chromium prints them on A4: the standings of 33
partnerships and a round of 16 tables with its bye each fit one page."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.nights.models import Night
from tests.browser.test_night_board import tournament_started

pytestmark = pytest.mark.django_db(transaction=True)


def printed_pages(page: Page) -> int:
    """The pages Chromium prints the page on, on A4 upright."""
    pdf = page.pdf(format="A4")
    return len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf))


def test_a_tournaments_standings_and_its_round_print_on_one_page_each(
    page: Page, live_server: LiveServer, output_path: str
) -> None:
    tournament_started(16)
    night = Night.objects.get()

    page.goto(f"{live_server.url}/nights/{night.pk}/")
    page.get_by_role("link", name="Print the standings").click()
    standings = page.get_by_test_id("tournament-standings")
    expect(standings.get_by_role("rowheader")).to_have_count(33)
    expect(page.get_by_role("button", name="Print")).to_be_visible()
    page.emulate_media(media="print")
    expect(page.get_by_role("button", name="Print")).to_be_hidden()
    page.screenshot(path=f"{output_path}/standings-sheet.png", full_page=True)
    assert printed_pages(page) == 1

    page.emulate_media(media="screen")
    page.goto(f"{live_server.url}/nights/{night.pk}/")
    page.get_by_role("link", name="Print round 1").click()
    expect(page.get_by_role("heading", name="Round 1 of 4: pairings and results")).to_be_visible()
    expect(page.locator("table.round-sheet tbody tr")).to_have_count(16)
    expect(page.get_by_test_id("bye")).to_contain_text("Bye: ")
    page.screenshot(path=f"{output_path}/round-sheet.png", full_page=True)
    assert printed_pages(page) == 1
