"""A player switches the scoreboard's language with the switcher in the footer, in Chromium."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.table import (
    assert_fits_the_phone,
    expect_totals,
    save_screenshot,
    seat_players,
    start_the_match,
)

#: what the scoreboard says in each language once Bob has scored 15 in the first hand
SCOREBOARD = {
    "es": ("Manos", "Mano 1: sale Ann.", "Puntos durante el juego: Bob 15.", "Anotar una jugada"),
    "pl": (
        "Rozdania",
        "Rozdanie 1: wychodzi Ann.",
        "Punkty w trakcie gry: Bob 15.",
        "Zapisz zagranie",
    ),
    "cs": ("Rozdání", "Rozdání 1: vynáší Ann.", "Body během hry: Bob 15.", "Zapsat tah"),
    "en": ("Hands", "Hand 1: Ann leads.", "Scored in play: Bob 15.", "Record a play"),
}


def switch_to(page: Page, language: str) -> None:
    """Pick the language in the footer and send the form, as a player without JavaScript would."""
    switcher = page.locator("form.language-switcher")
    switcher.get_by_role("combobox").select_option(language)
    switcher.get_by_role("button").tap()


@pytest.mark.django_db(transaction=True)
def test_the_footer_switcher_turns_the_scoreboard_into_each_language(
    page: Page, live_server: LiveServer, output_path: str
) -> None:
    seat_players(page, live_server.url, "Straight Dominoes", ["Ann", "Bob"])
    page.get_by_label("Who leads the first hand").select_option(label="Ann")
    start_the_match(page, sides=2)
    page.get_by_role("radio", name="Bob", exact=True).check()
    page.get_by_role("button", name="15", exact=True).tap()
    expect_totals(page, 0, 15)
    scoreboard = page.url

    for language, (hands, next_up, explanation, entry) in SCOREBOARD.items():
        switch_to(page, language)

        expect(page.locator("html")).to_have_attribute("lang", language)
        assert page.url == scoreboard
        expect(page.get_by_role("heading", name=hands, exact=True)).to_be_visible()
        expect(page.get_by_test_id("next")).to_have_text(next_up)
        expect(page.locator("#hand-1 .explanation")).to_contain_text(explanation)
        expect(page.get_by_role("region", name=entry)).to_be_visible()
        expect_totals(page, 0, 15)
        assert_fits_the_phone(page)
        save_screenshot(page, output_path, f"scoreboard-{language}.png")


@pytest.mark.django_db(transaction=True)
def test_a_tap_after_switching_answers_in_the_chosen_language(
    page: Page, live_server: LiveServer
) -> None:
    seat_players(page, live_server.url, "Straight Dominoes", ["Ann", "Bob"])
    page.get_by_label("Who leads the first hand").select_option(label="Ann")
    start_the_match(page, sides=2)
    switch_to(page, "es")
    expect(page.locator("html")).to_have_attribute("lang", "es")

    # the board htmx swaps in after the tap is in Spanish too
    entry = page.get_by_role("region", name="Anotar una jugada")
    # Bob: Ann leads, and her lead tile could make no more than 10
    entry.get_by_role("group", name="Quién anotó").get_by_role("radio", name="Bob").check()
    entry.get_by_role("button", name="20", exact=True).tap()

    expect_totals(page, 0, 20)
    expect(page.locator("#hand-1 .explanation")).to_contain_text("Puntos durante el juego: Bob 20.")
