"""Who leads first is picked by name, however slowly the page's script arrives: names typed
into the seats before it ran are taken up when it does."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, Route, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.table import seat_players

PICKER_SCRIPT = "**/js/new_match*.js"


@pytest.mark.django_db(transaction=True)
def test_names_typed_before_the_picker_script_ran_name_its_choices(
    page: Page, live_server: LiveServer
) -> None:
    held: list[Route] = []
    page.route(PICKER_SCRIPT, lambda route: held.append(route))

    seat_players(page, live_server.url, "Straight Dominoes", ["Ann", "Bob", "Cy", "Dee"])
    (script,) = held
    with page.expect_response(PICKER_SCRIPT):
        script.continue_()

    picker = page.get_by_label("Who leads the first hand")
    expect(picker.locator("option")).to_contain_text(["Ann", "Bob", "Cy", "Dee"])
    picker.select_option(label="Cy")
    page.get_by_label("Seat 2", exact=True).fill("Bea")
    expect(picker.locator("option")).to_contain_text(["Ann", "Bea", "Cy", "Dee"])
