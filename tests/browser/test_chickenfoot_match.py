"""A whole Chickenfoot match, double-six, four players: seven rounds from 6-6 down to 0-0."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.table import (
    assert_fits_the_phone,
    expect_no_entry_forms,
    expect_totals,
    save_screenshot,
    seat_players,
    start_the_match,
)

BLOCKED = "Blocked"


def fill_round(page: Page, pips: dict[str, int], went_out: str, holder: str = "") -> None:
    """Type the pips left (the player who went out needs none) and tap who went out."""
    entry = page.get_by_role("region", name="Record a round")
    for name, held in pips.items():
        entry.get_by_role("spinbutton", name=name, exact=True).fill(str(held))
    entry.get_by_role("group", name="Who went out").get_by_role(
        "radio", name=went_out, exact=True
    ).check()
    if holder:
        entry.get_by_text("0-0 held, who set the double").tap()
        entry.get_by_role("group", name="Left holding 0-0").get_by_role(
            "radio", name=holder, exact=True
        ).check()


def save_round(page: Page, number: int, totals: tuple[int, ...]) -> None:
    page.get_by_role("button", name="Save the round").tap()
    expect_totals(page, *totals)
    if number < 7:
        double = 6 - number
        expect(page.get_by_test_id("next")).to_contain_text(
            f"Round {number + 1} starts with {double}-{double}:"
        )


@pytest.mark.django_db(transaction=True)
def test_seven_rounds_with_a_double_blank_holder_are_won_by_the_lowest_total(
    page: Page, live_server: LiveServer, output_path: str
) -> None:
    seat_players(page, live_server.url, "Chickenfoot", ["Kim", "Lou", "Max", "Ned"])
    start_the_match(page, sides=4)
    expect(page.get_by_test_id("next")).to_contain_text("Round 1 starts with 6-6:")

    fill_round(page, {"Lou": 10, "Max": 5, "Ned": 20}, went_out="Kim")
    save_round(page, 1, (0, 10, 5, 20))
    fill_round(page, {"Kim": 8, "Max": 12, "Ned": 3}, went_out="Lou")
    save_round(page, 2, (8, 10, 17, 23))

    # Round 3: Ned is left holding 0-0 with 9 other pips; 0-0 counts 50.
    fill_round(page, {"Kim": 4, "Lou": 6, "Ned": 9}, went_out="Max", holder="Ned")
    page.get_by_role("button", name="Show the score").tap()
    check = page.locator("#round-preview").filter(has_text="Check before saving: round 3")
    expect(check).to_be_visible()
    expect(check).to_contain_text("Ned: 9 pips + 0-0 counted as 50 = 59.")
    expect(check).to_contain_text("Max went out.")
    expect_totals(page, 8, 10, 17, 23)  # a preview saves nothing
    save_screenshot(page, output_path, "chickenfoot-preview.png")
    save_round(page, 3, (12, 16, 17, 82))

    fill_round(page, {"Kim": 2, "Lou": 7, "Max": 5, "Ned": 11}, went_out=BLOCKED)
    save_round(page, 4, (14, 23, 22, 93))
    # Round 5: Max's last tile is 0-0 itself: 0 pips, and 50 for the double-blank.
    fill_round(page, {"Lou": 3, "Max": 0, "Ned": 4}, went_out="Kim", holder="Max")
    save_round(page, 5, (14, 26, 72, 97))
    fill_round(page, {"Kim": 6, "Lou": 5, "Max": 7}, went_out="Ned")
    save_round(page, 6, (20, 31, 79, 97))
    fill_round(page, {"Kim": 3, "Max": 2, "Ned": 1}, went_out="Lou")
    save_round(page, 7, (23, 31, 81, 98))

    expect(page.get_by_test_id("winner")).to_have_text("Kim wins the match.")
    expect_no_entry_forms(page)
    assert_fits_the_phone(page)
    save_screenshot(page, output_path, "chickenfoot-final.png")


@pytest.mark.django_db(transaction=True)
def test_four_long_names_fit_the_phone_without_scrolling_sideways(
    page: Page, live_server: LiveServer
) -> None:
    players = ["Maximiliano", "Bartholomew", "Christopher", "Alexandrina"]
    seat_players(page, live_server.url, "Chickenfoot", players)
    start_the_match(page, sides=4)
    fill_round(page, {"Bartholomew": 3, "Christopher": 4, "Alexandrina": 5}, went_out=players[0])
    save_round(page, 1, (0, 3, 4, 5))

    expect(page.get_by_role("region", name="Totals")).to_contain_text("Alexandrina")
    assert_fits_the_phone(page)
