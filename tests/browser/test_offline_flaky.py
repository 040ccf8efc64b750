"""Scoring on a Wi-Fi that comes and goes: half the entries' requests fail, before or after
the server has them, and every play still lands once, in the order tapped; an entry the rules
refuse holds up the ones after it until the player fixes or drops it; a watching phone says
it is offline through a drop and catches up by itself when the network is back; and what the
player is picking or typing on the board stays as it is when an answer or the network comes
back."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import BrowserContext, Page, Response, Route, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper import rules
from scorekeeper.access.models import SCOREKEEPER, VIEWER, ShareLink
from scorekeeper.tables.models import Match
from scorekeeper.tables.scoring import create_match
from tests.browser.offline import (
    WITHIN,
    NewContext,
    go_offline,
    go_online,
    plays_stored,
    waiting,
)
from tests.browser.table import (
    HTMX_UNANSWERED,
    NETWORK_DOWN,
    REFUSED,
    csp_violations,
    expect_all_sent,
    expect_totals,
    hold_the_first,
    join,
    listen,
    tap_score,
    watch,
)

PLAYERS = ("Ann", "Bob", "Cy", "Dee")
#: where the plays are posted
PLAY_URLS = "**/matches/*/play/"

#: thirty plays round the table, 5 to 25 each. Ann leads with 10 (a lead tile makes 5 or 10);
#: each side ends on 225, short of the 250 that wins the match.
THIRTY_PLAYS = [(PLAYERS[i % 4], 5 * (1 + (i + 1) % 5)) for i in range(30)]


def straight_match() -> Match:
    """Straight, Ann & Cy against Bob & Dee, Ann leading the first hand."""
    return create_match(
        rules.Match(
            "straight",
            PLAYERS,
            partnerships=(("Ann", "Cy"), ("Bob", "Dee")),
            hands=(rules.Hand(leader="Ann"),),
        )
    )


def side_totals(plays: list[tuple[str, int]]) -> tuple[int, int]:
    """Ann & Cy's points, Bob & Dee's."""
    ann_and_cy = sum(points for player, points in plays if player in ("Ann", "Cy"))
    return ann_and_cy, sum(points for _, points in plays) - ann_and_cy


def wait_until(page: Page, done: Callable[[], bool], timeout: float = 10_000) -> None:
    """Let the page run (its events reach the test meanwhile) until ``done()``."""
    deadline = time.monotonic() + timeout / 1000
    while not done():
        assert time.monotonic() < deadline, "gave up waiting"
        page.wait_for_timeout(50)


def new_phone(new_context: NewContext, heard: list[str]) -> tuple[BrowserContext, Page]:
    context = new_context()
    page = context.new_page()
    listen(page, heard)
    return context, page


@pytest.mark.console_errors(NETWORK_DOWN, HTMX_UNANSWERED)
@pytest.mark.django_db(transaction=True)
def test_with_half_the_requests_failing_thirty_plays_land_once_in_the_order_tapped(
    new_context: NewContext, live_server: LiveServer
) -> None:
    match = straight_match()
    keeping = ShareLink.objects.create(match=match, role=SCOREKEEPER, label="Table 1")
    assert max(side_totals(THIRTY_PLAYS)) < 250
    heard: list[str] = []
    fates: Counter[str] = Counter()
    statuses: Counter[int] = Counter()
    chance = random.Random(20240615)

    def flaky(route: Route) -> None:
        """A quarter never reach the server, a quarter reach it and lose the answer."""
        roll = chance.random()
        if roll < 0.25:
            fates["never sent"] += 1
            route.abort("connectionreset")
            return
        answer = route.fetch()
        statuses[answer.status] += 1
        if roll < 0.5:
            fates["answer lost"] += 1
            route.abort("connectionreset")
        else:
            fates["answered"] += 1
            route.fulfill(response=answer)

    bea, page = new_phone(new_context, heard)
    join(page, live_server, keeping, "Bea")
    # the page's requests and the service worker's (Background Sync) alike
    bea.route(PLAY_URLS, flaky)
    for player, points in THIRTY_PLAYS:
        tap_score(page, player, points)

    expect_all_sent(page, timeout=60_000)
    expect(page.locator("#outbox .outbox-list li")).to_have_count(0)
    assert plays_stored(match) == [(1, player, points) for player, points in THIRTY_PLAYS]
    expect_totals(page, *side_totals(THIRTY_PLAYS))
    # every way of failing was tried, and the server refused nothing (a 503, the database
    # busy, is "try again")
    assert fates["never sent"] and fates["answer lost"] and fates["answered"], fates
    assert [status for status in statuses if 400 <= status < 500] == [], statuses
    assert csp_violations(heard) == []
    assert [line for line in heard if line.startswith("page error")] == []


@pytest.mark.console_errors(NETWORK_DOWN, HTMX_UNANSWERED, REFUSED)
@pytest.mark.parametrize("resolved_by", ["fixing it", "dropping it"])
@pytest.mark.django_db(transaction=True)
def test_a_play_the_rules_refuse_holds_up_the_plays_after_it_until_fixed_or_dropped(
    new_context: NewContext, live_server: LiveServer, resolved_by: str
) -> None:
    match = straight_match()
    keeping = ShareLink.objects.create(match=match, role=SCOREKEEPER, label="Table 1")
    changes_before = match.changes.count()
    heard: list[str] = []
    bea, page = new_phone(new_context, heard)
    join(page, live_server, keeping, "Bea")

    go_offline(bea)
    tap_score(page, "Ann", 10)
    # 12: the open ends only score a multiple of five; the form takes it, the rules do not
    entry = page.get_by_role("region", name="Record a play")
    entry.get_by_role("group", name="Who scored").get_by_role("radio", name="Bob").check()
    entry.get_by_text("Another number").tap()
    entry.get_by_role("spinbutton", name="Points").fill("12")
    entry.get_by_role("button", name="Record", exact=True).tap()
    tap_score(page, "Cy", 15)
    tap_score(page, "Dee", 20)
    expect(page.locator("#outbox .outbox-list li")).to_have_text(
        ["Waiting Ann 10", "Waiting Bob 12", "Waiting Cy 15", "Waiting Dee 20"]
    )

    go_online(bea)
    # Ann's lands; Bob's is refused, with why; Cy's and Dee's wait behind it
    expect(page.locator("#outbox .outbox-list li")).to_have_text(
        ["Not recorded Bob 12", "Waiting Cy 15", "Waiting Dee 20"], timeout=10_000
    )
    expect(page.locator("#board .outcome")).to_contain_text("Bob scored 12")
    expect(page.locator("#board .outcome")).to_contain_text("multiple of five")
    expect(page.locator("#outbox .outbox-refusal")).to_contain_text("Enter it again")
    expect(page.get_by_test_id("total")).to_have_text(["10", "0"])
    assert plays_stored(match) == [(1, "Ann", 10)]
    # sending again sends nothing: the refused play stops the queue
    assert page.evaluate("outbox.flush()") == "stopped"
    assert plays_stored(match) == [(1, "Ann", 10)]
    assert waiting(page)[1:] == ["Waiting Cy 15", "Waiting Dee 20"]

    if resolved_by == "fixing it":
        # the play entered again as it should be takes the refused one's place
        tap_score(page, "Bob", 10)
        expected = [(1, "Ann", 10), (1, "Bob", 10), (1, "Cy", 15), (1, "Dee", 20)]
    else:
        page.locator("#outbox").get_by_role("button", name="Drop it").tap()
        expected = [(1, "Ann", 10), (1, "Cy", 15), (1, "Dee", 20)]

    expect_all_sent(page)
    expect(page.locator("#outbox")).to_be_hidden()
    assert plays_stored(match) == expected
    assert match.changes.count() == changes_before + len(expected)
    expect_totals(page, *side_totals([(player, points) for _, player, points in expected]))
    # the board as it now stands: the refusal and its "Keep 12 for Bob anyway" are gone
    expect(page.locator("#board .outcome")).to_have_count(0)
    assert csp_violations(heard) == []
    assert [line for line in heard if line.startswith("page error")] == []


@pytest.mark.django_db(transaction=True)
def test_a_watching_phone_through_a_drop_says_it_is_offline_and_catches_up_by_itself(
    new_context: NewContext, live_server: LiveServer
) -> None:
    match = straight_match()
    keeping = ShareLink.objects.create(match=match, role=SCOREKEEPER, label="Table 1")
    watching = ShareLink.objects.create(match=match, role=VIEWER, label="Table 1, watching")
    heard: list[str] = []
    bea = new_phone(new_context, heard)[1]
    vic_phone, vic = new_phone(new_context, heard)
    join(bea, live_server, keeping, "Bea")
    watch(vic, live_server, watching)
    note = vic.locator("#offline-note")
    expect(note).to_be_hidden()
    # a mark that a reload would wipe
    vic.evaluate("window.stillTheSamePage = true")

    go_offline(vic_phone)
    expect(note).to_contain_text("Offline: as of", timeout=5_000)

    tap_score(bea, "Ann", 10)
    tap_score(bea, "Bob", 15)
    expect_all_sent(bea)
    assert plays_stored(match) == [(1, "Ann", 10), (1, "Bob", 15)]
    expect(vic.get_by_test_id("total")).to_have_text(["0", "0"])
    expect(note).to_be_visible()

    go_online(vic_phone)
    expect(vic.get_by_test_id("total")).to_have_text(["10", "15"], timeout=WITHIN + 2_000)
    expect(note).to_be_hidden(timeout=WITHIN)
    expect(vic.get_by_test_id("latest")).to_contain_text("Last change: Bob scored 15, by Bea")
    assert vic.evaluate("window.stillTheSamePage") is True
    assert csp_violations(heard) == []
    assert [line for line in heard if line.startswith("page error")] == []


@pytest.mark.django_db(transaction=True)
def test_a_player_picked_while_the_last_answer_is_on_its_way_stays_picked(
    new_context: NewContext, live_server: LiveServer
) -> None:
    """Slow Wi-Fi: Ann's 10 is tapped, Cy is picked for the next play, and only then does the
    answer to Ann's 10 come. The board the answer brings must not take back the pick: else the
    next points tapped go to whoever the server preselects (the last scorer, Ann)."""
    match = straight_match()
    keeping = ShareLink.objects.create(match=match, role=SCOREKEEPER, label="Table 1")
    heard: list[str] = []
    bea, page = new_phone(new_context, heard)
    join(page, live_server, keeping, "Bea")
    held = hold_the_first(bea, PLAY_URLS)

    tap_score(page, "Ann", 10)
    wait_until(page, lambda: bool(held))
    cy = page.get_by_role("region", name="Record a play").get_by_role("radio", name="Cy")
    cy.check()
    held[0].fulfill(response=held[0].fetch())
    expect_all_sent(page)
    expect(page.get_by_test_id("latest")).to_contain_text("Last change: Ann scored 10")

    expect(cy).to_be_checked()
    page.get_by_role("region", name="Record a play").get_by_role(
        "button", name="20", exact=True
    ).tap()
    expect_all_sent(page)
    assert plays_stored(match) == [(1, "Ann", 10), (1, "Cy", 20)]


@pytest.mark.console_errors(NETWORK_DOWN, HTMX_UNANSWERED)
@pytest.mark.django_db(transaction=True)
def test_the_hand_end_being_filled_in_stays_open_when_the_network_comes_back(
    new_context: NewContext, live_server: LiveServer
) -> None:
    """The Wi-Fi drops with nothing waiting; the player opens End the hand and starts on the
    pips; the network comes back meanwhile. The board brought to catch up must leave the panel
    open, with what was picked and typed in it."""
    match = straight_match()
    keeping = ShareLink.objects.create(match=match, role=SCOREKEEPER, label="Table 1")
    heard: list[str] = []
    bea, page = new_phone(new_context, heard)
    join(page, live_server, keeping, "Bea")
    note = page.locator("#offline-note")

    go_offline(bea)
    expect(note).to_contain_text("Offline: as of", timeout=5_000)
    page.get_by_text("End the hand").tap()
    end = page.locator(".end-form")
    end.get_by_role("radio", name="Ann").check()
    bob = end.get_by_role("spinbutton", name="Bob", exact=True)
    bob.fill("7")

    board = urlsplit(page.url).path
    # back online the page asks (its poll), then brings the whole board to catch up: wait for
    # that board to be in place
    with page.expect_response(
        lambda response: (
            urlsplit(response.url).path == board
            and response.request.headers.get("hx-request") == "true"
        )
    ):
        with page.expect_response(lambda response: _is_poll(response) and response.status < 500):
            go_online(bea)
    expect(note).to_be_hidden()
    expect(page.locator("#end-hand")).to_have_attribute("open", "")
    expect(end.get_by_role("radio", name="Ann")).to_be_checked()
    expect(bob).to_have_value("7")


def _is_poll(response: Response) -> bool:
    return "/live/" in response.url and response.request.method == "GET"
