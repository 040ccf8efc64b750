"""The main pages read by a screen reader and driven from a keyboard: axe-core run in the page
finds nothing serious, in the light theme and in the dark one, and the Straight entry form is
reached and used with Tab, Enter and Space."""

from __future__ import annotations

import datetime
from collections.abc import Callable

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.nights import rounds
from scorekeeper.nights.models import Night
from tests.browser.hall import Hall, open_the_hall, sign_in
from tests.browser.offline import go_offline, wait_for_the_service_worker
from tests.browser.table import HTMX_UNANSWERED, NETWORK_DOWN, REFUSED, expect_totals

AXE = Axe()

#: what a player cannot get past: the rest (moderate, minor) are advice
BLOCKING = ("serious", "critical")
#: the themes a phone may ask for; every page is checked in both
SCHEMES = ("light", "dark")

#: each page by name: where it is, and whether the organizer is signed in to see it
PAGES: dict[str, tuple[Callable[[Hall], str], bool]] = {
    "home": (lambda hall: "/", False),
    "new Straight match": (lambda hall: "/matches/new/straight/", False),
    "new Chickenfoot match": (lambda hall: "/matches/new/chickenfoot/", False),
    "new Sedma match": (lambda hall: "/matches/new/sedma/", False),
    "Straight scoreboard, watching": (lambda hall: hall.boards["straight"], False),
    "Chickenfoot scoreboard, watching": (lambda hall: hall.boards["chickenfoot"], False),
    "Sedma scoreboard, watching": (lambda hall: hall.boards["sedma"], False),
    "Straight scoreboard, keeping score": (lambda hall: hall.boards["straight"], True),
    "Chickenfoot scoreboard, keeping score": (lambda hall: hall.boards["chickenfoot"], True),
    "Sedma scoreboard, keeping score": (lambda hall: hall.boards["sedma"], True),
    "finished scoreboard": (lambda hall: hall.finished, True),
    "edit a hand": (lambda hall: f"{hall.boards['straight']}hands/1/edit/", True),
    "settle it": (lambda hall: "/settle/", False),
    "history": (lambda hall: hall.history("straight"), True),
    "share": (lambda hall: f"{hall.boards['straight']}share/", True),
    "Straight score sheet": (lambda hall: hall.sheet("straight"), False),
    "Chickenfoot score sheet": (lambda hall: hall.sheet("chickenfoot"), False),
    "leagues": (lambda hall: "/leagues/", True),
    "league": (lambda hall: hall.league, True),
    "season standings": (lambda hall: hall.season, True),
    "wall board": (lambda hall: hall.wall, False),
    "new league night": (lambda hall: f"{hall.season}nights/new/", True),
    "league night": (lambda hall: hall.night, True),
    "table cards": (lambda hall: f"{hall.night}rounds/1/cards/", True),
    "night's board": (lambda hall: f"{hall.night}board/", False),
    "director's desk": (lambda hall: f"{hall.night}desk/", True),
    "player": (lambda hall: hall.player, False),
    "sign in": (lambda hall: "/accounts/login/", False),
}


def blocking_violations(page: Page) -> list[str]:
    """What axe-core finds serious or critical on the page as it stands, in the light theme and
    then in the dark one, one line per element. The theme follows the phone's setting at once
    (no script reads it), so the page is checked in both without being loaded again, and a
    message shown once is still there for the second look. The page is left in the theme it
    was in."""
    was = "dark" if page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") else "light"
    found = []
    for scheme in SCHEMES:
        page.emulate_media(color_scheme=scheme)
        for violation in AXE.run(page).response["violations"]:
            if violation["impact"] not in BLOCKING:
                continue
            for node in violation["nodes"]:
                summary = " ".join(node.get("failureSummary", "").split())
                found.append(
                    f"{scheme}: {violation['id']} ({violation['impact']}): {violation['help']} "
                    f"at {node['target']}: {summary}"
                )
    page.emulate_media(color_scheme=was)
    return found


def open_every_disclosure(page: Page) -> None:
    """The hands, "End the hand", "Another number": what they hide is checked too."""
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("name", list(PAGES))
def test_axe_finds_nothing_serious_on_the_page(
    page: Page, live_server: LiveServer, name: str
) -> None:
    hall = open_the_hall()
    where, signed_in = PAGES[name]
    if signed_in:
        sign_in(page, live_server.url)
    page.goto(live_server.url + where(hall))
    open_every_disclosure(page)

    found = blocking_violations(page)

    assert not found, f"{name}:\n" + "\n".join(found)


def focus_path(page: Page, stop: Callable[[], bool], most: int = 60) -> list[str]:
    """Press Tab until ``stop`` says so; what had the focus after each press."""
    path = []
    for _ in range(most):
        page.keyboard.press("Tab")
        path.append(
            page.evaluate(
                """() => {
                  const e = document.activeElement;
                  const label = e.closest('label');
                  return [e.tagName.toLowerCase(), e.type || '', e.name || '',
                          (label ? label.textContent : e.textContent).trim()].join(' ');
                }"""
            )
        )
        if stop():
            return path
    raise AssertionError("Tab never got there: " + " | ".join(path))


def position(path: list[str], start: str) -> int:
    found = [index for index, stop in enumerate(path) if stop.startswith(start)]
    assert found, f"Tab never reached {start!r}: " + " | ".join(path)
    return found[0]


@pytest.mark.django_db(transaction=True)
def test_the_straight_entry_form_is_reached_in_order_and_used_with_the_keyboard(
    page: Page, live_server: LiveServer
) -> None:
    hall = open_the_hall()
    sign_in(page, live_server.url)
    page.goto(live_server.url + hall.boards["straight"])
    expect_totals(page, 115, 35)

    end_hand = page.locator("#end-hand > summary")
    path = focus_path(page, lambda: end_hand.evaluate("e => e === document.activeElement"))

    # the main navigation first, then who scored, the points, and last "End the hand"
    nav = position(path, "a  ")
    player = position(path, "input radio player")
    points = position(path, "button submit points")
    assert nav < player < points < len(path) - 1, " | ".join(path)
    assert path[-1] == "summary   End the hand"
    # the chips are one radio group: a single Tab stop, the arrow keys move between players
    assert len([stop for stop in path if stop.startswith("input radio player")]) == 1

    # Who scored: Ann (the first chip), then an arrow key to Bob; Enter on 15 records it.
    page.get_by_role("radio", name="Ann").focus()
    page.keyboard.press("ArrowRight")
    expect(page.get_by_role("radio", name="Bob")).to_be_checked()
    # the hand has plays already: no lead to tick, Tab goes straight to the points
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="5", exact=True)).to_be_focused()
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="15", exact=True)).to_be_focused()
    page.keyboard.press("Enter")
    expect_totals(page, 115, 50)

    # The focus stays on 15 in the new board, and nobody is picked (the next score is usually
    # someone else's): Bob picked again, Space on 15 records another 15 for him.
    expect(page.get_by_role("button", name="15", exact=True)).to_be_focused()
    expect(page.get_by_role("radio", checked=True)).to_have_count(0)
    page.get_by_role("radio", name="Bob").check()
    page.get_by_role("button", name="15", exact=True).focus()
    page.keyboard.press("Space")
    expect_totals(page, 115, 65)


def keep_score_on_the_straight_board(page: Page, live_server: LiveServer) -> Hall:
    """The organizer, signed in, on the hall's Straight board."""
    hall = open_the_hall()
    sign_in(page, live_server.url)
    page.goto(live_server.url + hall.boards["straight"])
    return hall


@pytest.mark.console_errors(REFUSED)
@pytest.mark.django_db(transaction=True)
def test_axe_finds_nothing_serious_in_a_previewed_hand_or_a_refused_one(
    page: Page, live_server: LiveServer
) -> None:
    hall = keep_score_on_the_straight_board(page, live_server)

    # "Show the score": what the hand would give, under the buttons (the pips typed first
    # keep Cy's box, the partner's, shown after Ann is tapped as the one who dominoed)
    page.locator("#end-hand > summary").click()
    end = page.locator("#end-hand")
    for name, held in {"Bob": 12, "Cy": 7, "Dee": 11}.items():
        end.get_by_role("spinbutton", name=name, exact=True).fill(str(held))
    end.get_by_role("group", name="Who dominoed?").get_by_role("radio", name="Ann").check()
    end.get_by_role("button", name="Show the score").click()
    expect(end.locator("#end-preview").filter(has_text="Check before saving")).to_be_visible()
    found = blocking_violations(page)
    assert not found, "preview:\n" + "\n".join(found)

    # A domino saved without the opponents' pips: refused, with the reason at the field
    page.goto(live_server.url + hall.boards["straight"])
    page.locator("#end-hand > summary").click()
    end.get_by_role("group", name="Who dominoed?").get_by_role("radio", name="Ann").check()
    end.get_by_role("button", name="Save the hand").click()
    expect(page.locator("#end-hand .error").first).to_be_visible()
    expect(end).to_contain_text("Enter Bob's pips (0 if none).")
    found = blocking_violations(page)
    assert not found, "refused:\n" + "\n".join(found)


# the board's poll, in flight as the phone goes offline, is given up (htmx logs it)
@pytest.mark.console_errors(NETWORK_DOWN, HTMX_UNANSWERED)
@pytest.mark.django_db(transaction=True)
def test_axe_finds_nothing_serious_on_a_board_offline_with_entries_waiting(
    page: Page, live_server: LiveServer
) -> None:
    """ "Offline: as of", the entries waiting to be sent and the provisional totals."""
    keep_score_on_the_straight_board(page, live_server)
    # the worker installed first: its script's fetch cut off by the drop is logged by the
    # browser, and a phone that loses the Wi-Fi that early installs it on its next page
    wait_for_the_service_worker(page)

    go_offline(page.context)
    entry = page.get_by_role("region", name="Record a play")
    entry.get_by_role("group", name="Who scored").get_by_role("radio", name="Bob").check()
    entry.get_by_role("button", name="15", exact=True).click()
    expect(page.locator("#outbox .outbox-list li")).to_have_text(["Waiting Bob 15"])
    expect(page.locator(".provisional-note [aria-hidden]")).to_have_text("+15")
    expect(page.locator(".provisional-note .visually-hidden")).to_have_text("+15 waiting")
    expect(page.locator("#offline-note")).to_contain_text("Offline: as of", timeout=10_000)

    found = blocking_violations(page)
    assert not found, "offline:\n" + "\n".join(found)


@pytest.mark.django_db(transaction=True)
def test_axe_finds_nothing_serious_on_pages_showing_a_message(
    page: Page, live_server: LiveServer
) -> None:
    """What an action says on the next page: "Round 2 started: print the table cards." on the
    table cards, a refusal on the night's page, "Link created" on the share page."""
    hall = open_the_hall()
    # a second night of the season, its players checked in and nothing drawn yet
    season = Night.objects.get().season
    night = Night.objects.create(season=season, played_on=datetime.date(2026, 9, 11))
    rounds.check_in(night, list(season.league.members.all()))
    sign_in(page, live_server.url)

    page.goto(f"{live_server.url}/nights/{night.pk}/")
    page.get_by_role("button", name="Draw round 1", exact=True).click()
    page.get_by_role("button", name="Start round 1", exact=True).click()
    expect(page.get_by_role("status")).to_contain_text("Round 1 started: print the table cards.")
    found = blocking_violations(page)
    assert not found, "table cards after Start round 1:\n" + "\n".join(found)

    page.goto(live_server.url + f"{hall.boards['straight']}share/")
    page.get_by_role("button", name="Create the link").click()
    expect(page.get_by_role("status").first).to_contain_text("Link created")
    found = blocking_violations(page)
    assert not found, "share page after a link is made:\n" + "\n".join(found)
