"""The app on the phone the hall uses: added to the home screen from its manifest, the screen kept
awake on a scoreboard, a dark theme when the phone asks for one, and paper from the printer."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Locator, Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.hall import open_the_hall, sign_in
from tests.browser.table import assert_fits_the_phone, save_screenshot

pytestmark = pytest.mark.django_db(transaction=True)

#: records what app.js asks of the Screen Wake Lock API instead of asking the real one
WAKE_LOCK_STUB = """
window.wakeLockRequests = [];
window.wakeLockSentinels = [];
Object.defineProperty(navigator, "wakeLock", {
  configurable: true,
  value: {
    request(type) {
      window.wakeLockRequests.push(type);
      const sentinel = new EventTarget();
      sentinel.released = false;
      sentinel.release = () => {
        sentinel.released = true;
        sentinel.dispatchEvent(new Event("release"));
        return Promise.resolve();
      };
      window.wakeLockSentinels.push(sentinel);
      return Promise.resolve(sentinel);
    },
  },
});
"""


def luminance(css_color: str) -> float:
    """The relative luminance (0 black, 1 white) of a computed ``rgb(r, g, b)`` colour."""
    channels = [int(part) / 255 for part in css_color[css_color.index("(") + 1 : -1].split(",")[:3]]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def computed(locator: Locator, prop: str) -> str:
    return locator.evaluate(f"e => getComputedStyle(e).{prop}")


def test_the_manifest_is_linked_and_names_a_full_screen_app_with_icons_that_load(
    page: Page, live_server: LiveServer
) -> None:
    page.goto(live_server.url)
    href = page.locator('link[rel="manifest"]').get_attribute("href")
    assert href, "no <link rel=manifest> on the page"

    answer = page.request.get(live_server.url + href)
    assert answer.status == 200
    assert answer.headers["content-type"].startswith("application/manifest+json")
    manifest = json.loads(answer.text())
    assert manifest["name"] == "Domino Scorekeeper"
    assert manifest["start_url"] == "/"
    assert manifest["display"] in ("standalone", "fullscreen")

    sizes = {icon["sizes"]: icon for icon in manifest["icons"]}
    for size in ("192x192", "512x512"):
        assert sizes[size]["type"] == "image/png"
        icon = page.request.get(live_server.url + sizes[size]["src"])
        assert icon.status == 200, f"the {size} icon does not load"
        assert icon.headers["content-type"] == "image/png"
        assert icon.body().startswith(b"\x89PNG"), f"the {size} icon is not a PNG"
        width, height = (int(n) for n in size.split("x"))
        # the PNG header: the width and height as 4-byte big-endian numbers at bytes 16 and 20
        assert int.from_bytes(icon.body()[16:20]) == width
        assert int.from_bytes(icon.body()[20:24]) == height


def test_a_scoreboard_keeps_the_screen_awake_and_asks_again_after_the_lock_is_let_go(
    page: Page, live_server: LiveServer
) -> None:
    hall = open_the_hall()
    page.add_init_script(WAKE_LOCK_STUB)

    page.goto(live_server.url + hall.boards["straight"])

    expect(page.locator("[data-keep-awake]")).to_have_count(1)
    page.wait_for_function("window.wakeLockRequests.length > 0")
    assert page.evaluate("window.wakeLockRequests") == ["screen"]

    # the phone lets the lock go (the page was hidden); back in sight, app.js asks again
    page.evaluate("window.wakeLockSentinels[0].release()")
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_function("window.wakeLockRequests.length > 1")
    assert page.evaluate("window.wakeLockRequests") == ["screen", "screen"]


def test_a_page_without_a_scoreboard_lets_the_screen_sleep(
    page: Page, live_server: LiveServer
) -> None:
    page.add_init_script(WAKE_LOCK_STUB)

    page.goto(live_server.url)
    page.wait_for_load_state("load")

    expect(page.locator("[data-keep-awake]")).to_have_count(0)
    assert page.evaluate("window.wakeLockRequests") == []


@pytest.mark.parametrize("game", ["straight", "chickenfoot", "sedma"])
def test_the_dark_theme_follows_the_phone_and_the_scoreboard_reads_light_on_dark(
    page: Page, live_server: LiveServer, output_path: str, game: str
) -> None:
    hall = open_the_hall()
    page.emulate_media(color_scheme="dark")
    sign_in(page, live_server.url)

    page.goto(live_server.url + hall.boards[game])

    body = page.locator("body")
    assert luminance(computed(body, "backgroundColor")) < 0.05, "the page is not dark"
    assert luminance(computed(body, "color")) > 0.6, "the text is not light"
    totals = page.get_by_test_id("total")
    assert luminance(computed(totals.first, "color")) > 0.6, "the totals are not light"
    card = page.locator(".total").first
    assert luminance(computed(card, "backgroundColor")) < 0.05, "the totals sit on a light card"
    if game == "straight":
        chalk = page.locator(".chalk-tally").first
        assert luminance(computed(chalk, "color")) > 0.3, "the chalk strokes are too dark"
    # open the hands and the entry panels, so the screenshot shows everything in the dark
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    assert_fits_the_phone(page)
    save_screenshot(page, output_path, f"dark-{game}-scoreboard.png")


def test_the_light_theme_stays_light_when_the_phone_asks_for_light(
    page: Page, live_server: LiveServer
) -> None:
    page.emulate_media(color_scheme="light")

    page.goto(live_server.url)

    body = page.locator("body")
    assert luminance(computed(body, "backgroundColor")) > 0.8
    assert luminance(computed(body, "color")) < 0.05


def expect_paper(page: Page) -> None:
    """Printed: the table and the scores, no navigation, forms or buttons."""
    expect(page.get_by_role("navigation", name="Main")).to_be_hidden()
    expect(page.locator(".site-footer")).to_be_hidden()
    for form in page.locator("form").all():
        expect(form).to_be_hidden()
    for button in page.locator("button, .btn").all():
        expect(button).to_be_hidden()
    expect(page.locator("table").first).to_be_visible()
    # black on white, whatever the phone's theme
    body = page.locator("body")
    assert luminance(computed(body, "backgroundColor")) > 0.95
    assert luminance(computed(body, "color")) < 0.01


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_score_sheet_prints_its_table_without_navigation_or_buttons(
    page: Page, live_server: LiveServer, output_path: str, scheme: str
) -> None:
    hall = open_the_hall()
    page.emulate_media(color_scheme=scheme)
    sign_in(page, live_server.url)
    page.goto(live_server.url + hall.sheet("straight"))
    expect(page.get_by_role("button", name="Print")).to_be_visible()
    expect(page.get_by_role("navigation", name="Main")).to_be_visible()

    page.emulate_media(media="print")

    expect_paper(page)
    sheet = page.locator("table.sheet-table")
    expect(sheet.get_by_role("columnheader")).to_have_text(["Hand", "Ann & Cy", "Bob & Dee"])
    expect(sheet.get_by_role("row").last).to_contain_text("Total")
    expect(sheet.get_by_role("img", name="115 in chalk", exact=False)).to_be_visible()
    save_screenshot(page, output_path, f"print-score-sheet-{scheme}.png")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_standings_print_as_a_table_without_navigation_forms_or_buttons(
    page: Page, live_server: LiveServer, output_path: str, scheme: str
) -> None:
    hall = open_the_hall()
    page.emulate_media(color_scheme=scheme)
    sign_in(page, live_server.url)
    page.goto(live_server.url + hall.season)
    expect(page.get_by_role("button", name="Print the standings")).to_be_visible()
    # a forfeit form for each match in progress: the season's, and the league night's
    expect(page.get_by_role("button", name="Record forfeit").first).to_be_visible()

    page.emulate_media(media="print")

    expect_paper(page)
    standings = page.locator("table.standings")
    expect(standings.get_by_role("columnheader").first).to_have_text("#")
    expect(standings.get_by_role("rowheader").first).to_be_visible()
    save_screenshot(page, output_path, f"print-standings-{scheme}.png")
