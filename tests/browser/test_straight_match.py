"""A whole Straight Dominoes match between two partnerships, tapped in as the table plays it."""

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
    tap_score,
)


def fill_hand_end(page: Page, out: str, pips: dict[str, int]) -> None:
    """Type the pips left, then tap who dominoed (or Blocked). Typed first, a box stays shown
    even when it is one that does not count after the domino (the partner's)."""
    page.locator("#end-hand > summary").tap()
    end = page.locator("#end-hand")
    for name, held in pips.items():
        end.get_by_role("spinbutton", name=name, exact=True).fill(str(held))
    end.get_by_role("group", name="Who dominoed?").get_by_role("radio", name=out).check()


@pytest.mark.django_db(transaction=True)
def test_a_partnership_match_to_100_is_won_by_ann_and_cy(
    page: Page, live_server: LiveServer, output_path: str
) -> None:
    seat_players(page, live_server.url, "Straight Dominoes", ["Ann", "Bob", "Cy", "Dee"])
    page.get_by_label("Four players play as partnerships").check()
    page.get_by_label("Play to").fill("100")
    page.get_by_label("Who leads the first hand").select_option(label="Ann")
    start_the_match(page, sides=2)

    sides = page.get_by_role("region", name="Totals")
    expect(sides).to_contain_text("Ann & Cy")
    expect(sides).to_contain_text("Bob & Dee")
    expect(page.get_by_test_id("next")).to_have_text("Hand 1: Ann leads.")

    # Hand 1: three scoring plays, then Ann dominoes.
    tap_score(page, "Ann", 10)
    expect_totals(page, 10, 0)
    tap_score(page, "Bob", 15)
    expect_totals(page, 10, 15)
    tap_score(page, "Cy", 20)
    expect_totals(page, 30, 15)

    fill_hand_end(page, "Ann", {"Bob": 12, "Cy": 7, "Dee": 11})
    page.get_by_role("button", name="Show the score").tap()
    check = page.locator("#end-preview").filter(has_text="Check before saving: hand 1")
    expect(check).to_be_visible()
    expect(check).to_have_attribute("aria-live", "polite")
    expect(check).to_be_in_viewport()  # not left above the screen, out of sight of the button
    # the partner's pips do not count; the opponents' 23 round to 25 as a total
    expect(check.get_by_role("listitem")).to_have_text(
        [
            "Scored in play: Ann 10, Bob 15, Cy 20.",
            "Ann dominoed.",
            "Cy's 7 pips are Ann's partner's and do not count.",
            "Opponents' pips: Bob 12 + Dee 11 = 23.",
            "23 rounds to 25 (23 is nearer 25 than 20).",
            "Ann & Cy score 25.",
            "Hand 1: Ann & Cy 55, Bob & Dee 15.",
        ]
    )
    expect_totals(page, 30, 15)  # a preview saves nothing
    save_screenshot(page, output_path, "straight-preview.png")

    page.get_by_role("button", name="Save the hand").tap()
    expect_totals(page, 55, 15)
    expect(page.get_by_test_id("next")).to_have_text("Hand 2: Ann leads.")

    # Hand 2: Bob & Dee score in play, then it blocks with Bob & Dee holding 4 + 3 = 7 pips.
    tap_score(page, "Dee", 10)
    expect_totals(page, 55, 25)
    tap_score(page, "Bob", 5)
    expect_totals(page, 55, 30)
    fill_hand_end(page, "Blocked", {"Ann": 9, "Bob": 4, "Cy": 6, "Dee": 3})
    page.get_by_role("button", name="Save the hand").tap()
    expect_totals(page, 55, 45)
    # the partner with fewer pips leads the next hand
    expect(page.get_by_test_id("next")).to_have_text("Hand 3: Dee leads.")

    # Hand 3: Ann & Cy reach 100 in play and win at once, mid-hand.
    tap_score(page, "Cy", 25)
    expect_totals(page, 80, 45)
    tap_score(page, "Ann", 20)
    expect_totals(page, 100, 45)
    expect(page.get_by_test_id("winner")).to_have_text("Ann & Cy win the match.")
    expect_no_entry_forms(page)

    assert_fits_the_phone(page)
    save_screenshot(page, output_path, "straight-final.png")
