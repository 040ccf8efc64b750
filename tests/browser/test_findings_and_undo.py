"""What the table sees when it enters something the rules make impossible, and taking it back."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.table import REFUSED, expect_totals, seat_players, start_the_match

KEEP_IT = "Keep it anyway: the table agrees this is what happened"


def start_ann_against_bob(page: Page, home: str) -> None:
    seat_players(page, home, "Straight Dominoes", ["Ann", "Bob"])
    page.get_by_label("Who leads the first hand").select_option(label="Ann")
    start_the_match(page, sides=2)


@pytest.mark.django_db(transaction=True)
def test_a_tap_updates_the_scoreboard_in_place_without_loading_a_page(
    page: Page, live_server: LiveServer
) -> None:
    start_ann_against_bob(page, live_server.url)
    address = page.url
    page.evaluate("window.__marker = 1")

    with page.expect_request("**/play/") as sent:
        page.get_by_role("radio", name="Bob", exact=True).check()
        page.get_by_role("button", name="15", exact=True).tap()
    expect_totals(page, 0, 15)

    assert sent.value.headers.get("hx-request") == "true"
    assert page.evaluate("window.__marker") == 1, "the page was reloaded, not updated in place"
    assert page.url == address


@pytest.mark.console_errors(REFUSED)
@pytest.mark.django_db(transaction=True)
def test_a_play_of_12_is_refused_in_words_until_the_table_keeps_it_anyway(
    page: Page, live_server: LiveServer
) -> None:
    start_ann_against_bob(page, live_server.url)

    entry = page.get_by_role("region", name="Record a play")
    entry.get_by_role("radio", name="Ann", exact=True).check()
    # no lead tile: 12 is wrong only for not being a multiple of five
    entry.get_by_label("Lead: the first tile of the hand").uncheck()
    other = entry.locator("details", has_text="Another number")
    other.get_by_text("Another number", exact=True).tap()
    other.get_by_label("Points").fill("12")
    other.get_by_role("button", name="Record").tap()

    refused = page.get_by_role("alert").filter(has_text="it was not saved")
    expect(refused).to_contain_text(
        "Hand 1, play 1: Ann scored 12, but the open ends only score when they add up to a "
        "multiple of five (5, 10, 15 ...)."
    )
    expect(refused).to_contain_text("it was not saved")
    expect_totals(page, 0, 0)
    expect(page.get_by_role("region", name="Hands")).not_to_contain_text("Ann 12")

    # the refusal is its own form: one tap keeps the play as it was entered
    refused.get_by_role("button", name="Keep 12 for Ann anyway").tap()
    expect_totals(page, 12, 0)
    expect(refused).to_have_count(0)
    # kept on purpose, but still flagged where the table can see it
    expect(page.get_by_role("status")).to_contain_text("Ann scored 12, but the open ends")
    hand = page.locator("#hand-1")
    expect(hand).to_contain_text("Kept on purpose although the rules flag it.")
    expect(page.get_by_label(KEEP_IT)).to_have_count(0)


@pytest.mark.console_errors(REFUSED)
@pytest.mark.django_db(transaction=True)
def test_pips_for_the_player_who_dominoed_are_refused_and_undo_takes_entries_back(
    page: Page, live_server: LiveServer
) -> None:
    start_ann_against_bob(page, live_server.url)
    page.get_by_role("radio", name="Ann", exact=True).check()
    page.get_by_role("button", name="10", exact=True).tap()
    expect_totals(page, 10, 0)

    page.locator("#end-hand > summary").tap()
    end = page.locator("#end-hand")
    # Ann's box is typed in before she is tapped as the one who went out: it stays shown
    end.get_by_role("spinbutton", name="Ann", exact=True).fill("5")
    end.get_by_role("spinbutton", name="Bob", exact=True).fill("20")
    end.get_by_role("group", name="Who dominoed?").get_by_role("radio", name="Ann").check()
    end.get_by_role("button", name="Save the hand").tap()

    refused = end.locator(".end-preview").filter(has_text="Not saved: hand 1")
    expect(refused).to_contain_text(
        "Hand 1: Ann went out, so Ann holds no tiles, but 5 pips were entered for Ann."
    )
    expect(refused).to_be_in_viewport()
    expect_totals(page, 10, 0)
    expect(page.get_by_test_id("next")).to_have_text("Hand 1: Ann leads.")

    # the table insists: Ann scores Bob's 20 pips all the same
    end.get_by_label(KEEP_IT).check()
    end.get_by_role("button", name="Save the hand").tap()
    expect_totals(page, 30, 0)
    expect(page.get_by_test_id("next")).to_have_text("Hand 2: Ann leads.")

    # Undo says what it takes back: the end of the hand, then Ann's play
    page.get_by_role("button", name="↶ Undo: end of hand 1").tap()
    expect_totals(page, 10, 0)
    expect(page.get_by_test_id("next")).to_have_text("Hand 1: Ann leads.")
    page.get_by_role("button", name="↶ Undo: Ann 10").tap()
    expect_totals(page, 0, 0)
    expect(page.get_by_role("button", name="↶ Undo")).to_have_count(0)
