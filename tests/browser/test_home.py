from __future__ import annotations

import os

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer


# The live server answers from another thread, so the test data must be committed, not rolled back.
@pytest.mark.django_db(transaction=True)
def test_the_home_page_fits_a_phone(page: Page, live_server: LiveServer, output_path: str) -> None:
    page.goto(live_server.url)

    expect(page.get_by_role("banner")).to_contain_text("Domino Scorekeeper")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.evaluate("typeof htmx") == "object", "the bundled htmx did not load"
    page.screenshot(path=os.path.join(output_path, "home.png"), full_page=True)
