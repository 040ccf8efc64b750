"""Handing a match on from a phone: the share page makes a watch link, shows it whole and copies
it with the Share button; the phone that opens it watches at once. Settle it shares its answer
the same way."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.table import (
    assert_fits_the_phone,
    save_screenshot,
    seat_players,
    start_the_match,
)

#: headless Chromium on Linux has no share sheet; removed outright so the copy is what is tested
WITHOUT_SHARE_SHEET = "delete Navigator.prototype.share;"

#: a phone with a share sheet: what it is handed is kept to be looked at
WITH_SHARE_SHEET = """
Navigator.prototype.share = function (data) {
  window.sharedThroughTheSheet = data;
  return Promise.resolve();
};
"""


def allow_the_clipboard(page: Page, live_server: LiveServer) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)


def assert_shown_whole(page: Page) -> None:
    """The link is on the screen from its first character to its last: nothing is cut off."""
    shown = page.get_by_test_id("share-url").first
    expect(shown).to_be_visible()
    width, room = shown.evaluate("e => [e.scrollWidth, e.clientWidth]")
    assert width <= room, f"the link is {width}px wide in {room}px: its end is cut off"
    assert_fits_the_phone(page)


def start_a_match_and_open_its_share_page(page: Page, live_server: LiveServer) -> None:
    seat_players(page, live_server.url, "Straight Dominoes", ["Ann", "Bob"])
    start_the_match(page, sides=2)
    page.get_by_role("link", name="Share").tap()
    expect(page.get_by_role("heading", name="Share Straight Dominoes")).to_be_visible()


@pytest.mark.django_db(transaction=True)
def test_a_watch_link_is_made_copied_with_share_and_opened_without_a_tap(
    page: Page,
    live_server: LiveServer,
    output_path: str,
    new_context: Callable[..., BrowserContext],
) -> None:
    page.add_init_script(WITHOUT_SHARE_SHEET)
    allow_the_clipboard(page, live_server)
    start_a_match_and_open_its_share_page(page, live_server)

    # watching is chosen already: one tap makes the link most people are handed
    expect(page.get_by_role("radio", name="Viewer (watch only)")).to_be_checked()
    page.get_by_label("Label (optional").fill("Table 3, watching")
    page.get_by_role("button", name="Create the link").tap()
    expect(
        page.get_by_role("heading", name="Viewer (watch only): Table 3, watching")
    ).to_be_visible()
    address = page.get_by_test_id("share-url").inner_text()
    assert address.startswith(f"{live_server.url}/join/")
    assert_shown_whole(page)

    page.get_by_role("button", name="Share").tap()
    expect(page.get_by_role("status").filter(has_text="Link copied.")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == address
    save_screenshot(page, output_path, "share-watch-link.png")

    # the phone at the next table opens the link: the scoreboard, nothing to type or tap
    watcher = new_context().new_page()
    watcher.goto(address)
    expect(watcher.get_by_test_id("total")).to_have_text(["0", "0"])
    expect(watcher.get_by_text("You are watching this match.")).to_be_visible()
    expect(watcher.get_by_label("Your name")).to_have_count(0)
    assert watcher.url.endswith(page.url.split("/share/")[0].removeprefix(live_server.url) + "/")


@pytest.mark.django_db(transaction=True)
def test_share_hands_the_link_to_the_phones_share_sheet_where_there_is_one(
    page: Page, live_server: LiveServer
) -> None:
    page.add_init_script(WITH_SHARE_SHEET)
    start_a_match_and_open_its_share_page(page, live_server)
    page.get_by_role("button", name="Create the link").tap()
    address = page.get_by_test_id("share-url").inner_text()

    page.get_by_role("button", name="Share").tap()

    page.wait_for_function("window.sharedThroughTheSheet !== undefined")
    shared = page.evaluate("window.sharedThroughTheSheet")
    assert shared["url"] == address
    assert shared["title"].startswith("Straight Dominoes #")
    expect(page.get_by_text("Link copied.")).to_have_count(0)


@pytest.mark.django_db(transaction=True)
def test_without_javascript_the_link_is_there_to_select_and_no_button_that_does_nothing(
    new_context: Callable[..., BrowserContext], live_server: LiveServer
) -> None:
    page = new_context(java_script_enabled=False).new_page()
    page.goto(f"{live_server.url}/settle/?game=straight&players=2&how=domino&domino=0&pips2=12")

    expect(page.get_by_test_id("share-url")).to_have_text(page.url)
    expect(page.get_by_role("button", name="Share")).to_have_count(0)
    assert_shown_whole(page)


@pytest.mark.django_db(transaction=True)
def test_settle_its_answer_is_copied_with_share(
    page: Page, live_server: LiveServer, output_path: str
) -> None:
    page.add_init_script(WITHOUT_SHARE_SHEET)
    allow_the_clipboard(page, live_server)
    page.goto(f"{live_server.url}/settle/")
    page.get_by_role("radio", name="Domino").check()
    page.get_by_label("Who dominoed").select_option(label="Seat 1")
    for seat, (name, pips) in enumerate([("Ann", ""), ("Bob", 12), ("Cy", 7), ("Dee", 11)], 1):
        page.get_by_label(f"Seat {seat}", exact=True).fill(name)
        page.get_by_label(f"Seat {seat} pips").fill(str(pips))
    page.get_by_role("button", name="Settle it").tap()
    expect(page.get_by_role("heading", name="Who scores what")).to_be_visible()

    answer = page.locator("#result")
    expect(answer.get_by_test_id("share-url")).to_have_text(page.url)
    assert_shown_whole(page)
    answer.get_by_role("button", name="Share").tap()

    expect(answer.get_by_role("status")).to_have_text("Link copied.")
    assert page.evaluate("navigator.clipboard.readText()") == page.url
    save_screenshot(page, output_path, "settle-share.png")
