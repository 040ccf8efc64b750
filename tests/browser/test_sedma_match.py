"""A whole Sedma match to 15, entered with the doubles buttons."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.table import (
    REFUSED,
    assert_fits_the_phone,
    expect_no_entry_forms,
    expect_totals,
    save_screenshot,
    seat_players,
    start_the_match,
)


def set_double(page: Page, player: str, double: int) -> None:
    entry = page.get_by_role("region", name="Record a double")
    entry.get_by_role("group", name="Who set it").get_by_role(
        "radio", name=player, exact=True
    ).check()
    entry.get_by_role("button", name=f"{double}-{double}", exact=True).tap()


def double_button(page: Page, double: int):
    return page.get_by_role("button", name=f"{double}-{double}", exact=True)


@pytest.mark.django_db(transaction=True)
def test_a_match_to_15_is_won_by_jan_setting_5_5(
    page: Page, live_server: LiveServer, output_path: str
) -> None:
    seat_players(page, live_server.url, "Sedma", ["Eva", "Jan", "Petr", "Zuzana"])
    page.get_by_label("Play to").fill("15")
    page.get_by_label("Who opens the first hand").select_option(label="Eva")
    start_the_match(page, sides=4)

    # Hand 1, the doubles of the rule book's worked example: Eva 1, Jan 11, Petr 0, Zuzana 9.
    set_double(page, "Eva", 1)
    expect_totals(page, 1, 0, 0, 0)
    expect(double_button(page, 1)).to_be_disabled()
    set_double(page, "Zuzana", 4)  # 1 + 1-1
    expect_totals(page, 1, 0, 0, 2)
    set_double(page, "Jan", 0)  # 1 + every double down
    expect_totals(page, 1, 3, 0, 2)
    expect(page.get_by_label("The line so far")).to_have_text("1-1 · 4-4 · 0-0")
    save_screenshot(page, output_path, "sedma-hand.png")
    set_double(page, "Zuzana", 6)  # 1 + 1-1, 4-4 and 0-0
    expect_totals(page, 1, 3, 0, 6)
    set_double(page, "Jan", 5)
    expect_totals(page, 1, 7, 0, 6)
    set_double(page, "Zuzana", 2)  # 1 + 1-1 and 0-0
    expect_totals(page, 1, 7, 0, 9)
    for double in (0, 1, 2, 4, 5, 6):
        expect(double_button(page, double)).to_be_disabled()
    set_double(page, "Jan", 3)
    expect_totals(page, 1, 11, 0, 9)

    # All seven doubles are down: the hand is over and Jan, left of Eva, opens the next.
    expect(page.get_by_test_id("next")).to_have_text(
        "Hand 2: Jan opens with a double; without one, the turn passes to the left."
    )
    for double in range(7):
        expect(double_button(page, double)).to_be_enabled()

    # Hand 2: Jan reaches 15 with 5-5 (1 + 3-3 and 2-2) and wins at once.
    set_double(page, "Jan", 3)
    expect_totals(page, 1, 12, 0, 9)
    set_double(page, "Petr", 2)
    expect_totals(page, 1, 12, 1, 9)
    set_double(page, "Zuzana", 6)
    expect_totals(page, 1, 12, 1, 12)
    set_double(page, "Jan", 5)
    expect_totals(page, 1, 15, 1, 12)
    expect(page.get_by_test_id("winner")).to_have_text("Jan wins the match.")
    expect_no_entry_forms(page)

    assert_fits_the_phone(page)
    save_screenshot(page, output_path, "sedma-final.png")


@pytest.mark.console_errors(REFUSED)
@pytest.mark.django_db(transaction=True)
def test_a_later_player_opening_is_a_question_answered_with_one_tap(
    page: Page, live_server: LiveServer
) -> None:
    seat_players(page, live_server.url, "Sedma", ["Eva", "Jan", "Petr", "Zuzana"])
    page.get_by_label("Who opens the first hand").select_option(label="Eva")
    start_the_match(page, sides=4)

    # Eva was due: Petr opening means Eva and Jan had no double, legal, so asked, not refused
    set_double(page, "Petr", 5)

    asked = page.locator(".outcome")
    expect(asked).to_contain_text(
        "Hand 1: Eva had the first turn to open, so Petr opening means Eva and Jan had no "
        "double. Is that so?"
    )
    expect(asked).not_to_contain_text("Error")
    expect(asked).not_to_contain_text("cannot happen")
    expect(asked).not_to_have_class("outcome card outcome-error")
    expect_totals(page, 0, 0, 0, 0)
    asked.get_by_role("button", name="Yes, Petr opened with 5-5").tap()

    expect_totals(page, 0, 0, 1, 0)
    expect(page.locator(".outcome")).to_have_count(0)
    # the next hand goes left of Eva, who was due, whoever opened this one
    # 6-6: 1 + 5-5; 1-1: 1; 2-2: 2; 3-3: 3; 4-4: 4; 0-0: 1 + the six others
    for double, total in ((6, 2), (1, 3), (2, 5), (3, 8), (4, 12), (0, 19)):
        set_double(page, "Zuzana", double)
        expect_totals(page, 0, 0, 1, total)
    expect(page.get_by_test_id("next")).to_have_text(
        "Hand 2: Jan opens with a double; without one, the turn passes to the left."
    )
