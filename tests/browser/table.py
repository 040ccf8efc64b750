"""What a player does at the table, in the browser: the steps the match tests share."""

from __future__ import annotations

import os

from playwright.sync_api import BrowserContext, Page, Route, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.access.models import ShareLink


def join(page: Page, live_server: LiveServer, link: ShareLink, name: str) -> None:
    """Open the link as scanning its QR code does, give a name, tap Join."""
    join_at(page, f"{live_server.url}/join/{link.token}/", name)


def join_at(page: Page, address: str, name: str) -> None:
    """``join`` by the link's address (a table card's, a night's table)."""
    response = page.goto(address)
    assert response is not None
    # the page is served under the policy, so a violation would show in the console
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Join").tap()
    expect_board_ready(page)


#: how long a board takes to show what was done elsewhere (the server, another phone): its poll
#: asks every 2 s, and the board of a finished match reloads itself when its poll answers that
#: the match moved (HX-Refresh: table_pages/history.py). A test waits for that reload, by
#: what it brings, and never reloads such a page itself: its own reload would race the page's,
#: and the one started second aborts the other (net::ERR_ABORTED).
POLLED = 15_000


def expect_board_ready(page: Page) -> None:
    """The board is shown and its scripts have taken over its forms.

    The board shows before its deferred scripts have run, and a tap then posts the form as a
    page of its own, not through the outbox. htmx takes the forms over at DOMContentLoaded,
    and offline.js marks the page with what the outbox holds once it has opened it."""
    expect(page.get_by_role("region", name="Totals")).to_be_visible()
    page.wait_for_load_state("domcontentloaded")
    expect_all_sent(page)


def watch(page: Page, live_server: LiveServer, link: ShareLink) -> None:
    """Open a watch link: the scoreboard, with no name to give and nothing to tap."""
    response = page.goto(f"{live_server.url}/join/{link.token}/")
    assert response is not None
    assert "script-src 'self'" in response.headers["content-security-policy"]
    expect(page.get_by_role("region", name="Totals")).to_be_visible()
    expect(page.get_by_label("Your name")).to_have_count(0)


def hold_the_first(routed: Page | BrowserContext, url: object) -> list[Route]:
    """Holds the first request to ``url`` on the network, as a slow Wi-Fi would, and lets the
    later ones through. The list it returns gets the held route, which the test lets go (its
    ``continue_`` or ``fulfill``)."""
    held: list[Route] = []

    def hold(route: Route) -> None:
        if held:
            route.continue_()
        else:
            held.append(route)

    routed.route(url, hold)
    return held


def tap_score(page: Page, player: str, points: int) -> None:
    entry = page.get_by_role("region", name="Record a play")
    entry.get_by_role("group", name="Who scored").get_by_role("radio", name=player).check()
    entry.get_by_role("button", name=str(points), exact=True).tap()


def seat_players(page: Page, home: str, game: str, players: list[str]) -> None:
    """From the home page, tap the game and type the players into the seat boxes."""
    page.goto(home)
    page.get_by_role("link", name=game, exact=True).tap()
    expect(page.get_by_role("heading", name=f"New {game} match")).to_be_visible()
    for seat, name in enumerate(players, 1):
        page.get_by_label(f"Seat {seat}", exact=True).fill(name)


def start_the_match(page: Page, sides: int) -> None:
    page.get_by_role("button", name="Start the match").tap()
    expect_totals(page, *[0] * sides)


def expect_totals(page: Page, *totals: int) -> None:
    """The big totals, in side order, as the server has them: waits until the phone has sent
    everything it holds (static/js/offline.js) and the board is swapped in."""
    expect_all_sent(page)
    expect(page.get_by_test_id("total")).to_have_text([str(total) for total in totals])


def expect_all_sent(page: Page, timeout: float = 10_000) -> None:
    """Nothing the phone entered waits in its outbox any more: the server has it all."""
    expect(page.locator("body")).to_have_attribute("data-outbox", "empty", timeout=timeout)


def expect_no_entry_forms(page: Page) -> None:
    """Once the match is won nothing more can be entered."""
    expect(page.get_by_role("button", name="Save the hand")).to_have_count(0)
    expect(page.get_by_role("button", name="Save the round")).to_have_count(0)
    expect(page.get_by_role("region", name="Record a play")).to_have_count(0)
    expect(page.get_by_role("region", name="Record a double")).to_have_count(0)


def save_screenshot(page: Page, output_path: str, name: str) -> str:
    path = os.path.join(output_path, name)
    page.screenshot(path=path, full_page=True)
    return path


def assert_fits_the_phone(page: Page) -> None:
    # measured once the page's stylesheets are in: before, a table card's link has no rule to
    # wrap it yet (690 px wide once, in a full run), though no phone draws the page that way
    page.wait_for_load_state("load")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width}px wide: it scrolls sideways"


def listen(page: Page, heard: list[str]) -> None:
    """Keep what the page says on its console, and its uncaught errors, in ``heard``."""
    page.on("console", lambda message: heard.append(message.text))
    page.on("pageerror", lambda error: heard.append(f"page error: {error}"))


def csp_violations(heard: list[str]) -> list[str]:
    return [
        line
        for line in heard
        if "content security policy" in line.lower() or "content-security-policy" in line.lower()
    ]


# What a browser logs on its console for an answer a test brings about on purpose, named in
# @pytest.mark.console_errors(...) (tests/browser/conftest.py): any other console error fails.
#: a request the network dropped: a phone offline, a flaky Wi-Fi, a server out of reach
NETWORK_DOWN = r"net::ERR_(INTERNET_DISCONNECTED|CONNECTION_RESET|FAILED)\b"
#: an entry the rules or the form refused, answered 422 with its reasons
REFUSED = r"status of 422 "
#: a link taken back or a phone signed out: the server says no (403)
FORBIDDEN = r"status of 403 "
#: an answer to a result that moved since its page was drawn: nothing signed (409)
CONFLICT = r"status of 409 "
#: the database busy: the server asks for the entry again (503), which the outbox, app.js and
#: the polls do. On SQLite a loaded machine can bring it about in any test where phones poll
#: while another writes, so the console check always lets it pass (conftest.py); a request that
#: is never sent again shows in the test's own assertions (a total, an entry stored).
BUSY = r"status of 503 |Response Status Error Code 503 from "
#: htmx's own words for a request that never got an answer
HTMX_UNANSWERED = r"htmx:(sendError|afterRequest)\b"
