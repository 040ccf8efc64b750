"""Scoring through a Wi-Fi drop: what is tapped offline waits on the phone, through a reload
and a closed tab, and lands on the server exactly once, in the order tapped."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserType, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper import rules
from scorekeeper.access.models import SCOREKEEPER, VIEWER, ShareLink
from scorekeeper.tables.scoring import create_match
from tests.browser.offline import (
    WITHIN,
    NewContext,
    expect_nothing_waiting,
    go_offline,
    go_online,
    phone,
    plays_stored,
    stored,
    wait_for_the_service_worker,
    waiting,
)
from tests.browser.table import (
    HTMX_UNANSWERED,
    NETWORK_DOWN,
    csp_violations,
    join,
    listen,
    tap_score,
)

PLAYERS = ("Ann", "Bob", "Cy", "Dee")
#: ten plays, tapped with the Wi-Fi down (player, points)
TEN_PLAYS = [
    ("Ann", 10),
    ("Bob", 15),
    ("Cy", 5),
    ("Dee", 20),
    ("Ann", 5),
    ("Cy", 10),
    ("Bob", 10),
    ("Dee", 15),
    ("Ann", 20),
    ("Cy", 25),
]

#: what the board lists as waiting
TAPPED = [f"Waiting {player} {points}" for player, points in TEN_PLAYS] + [
    "Waiting End of the hand: Ann (scored when the phone is back online)"
]


@pytest.mark.django_db(transaction=True)
def test_plays_and_a_hand_end_tapped_offline_land_once_in_order_after_reload_and_reopening(
    browser_type: BrowserType,
    browser_type_launch_args: dict[str, Any],
    browser_context_args: dict[str, Any],
    new_context: NewContext,
    live_server: LiveServer,
    tmp_path: Path,
) -> None:
    match = create_match(
        rules.Match(
            "straight",
            PLAYERS,
            partnerships=(("Ann", "Cy"), ("Bob", "Dee")),
            hands=(rules.Hand(leader="Ann"),),
        )
    )
    keeping = ShareLink.objects.create(match=match, role=SCOREKEEPER, label="Table 1")
    board = f"{live_server.url}/matches/{match.pk}/"
    changes_before = match.changes.count()
    heard: list[str] = []

    with phone(browser_type, browser_type_launch_args, browser_context_args, tmp_path) as bea:
        page = bea.pages[0] if bea.pages else bea.new_page()
        listen(page, heard)
        join(page, live_server, keeping, "Bea")
        wait_for_the_service_worker(page)

        go_offline(bea)
        for player, points in TEN_PLAYS:
            tap_score(page, player, points)
        page.get_by_text("End the hand").tap()
        end = page.locator(".end-form")
        end.get_by_role("radio", name="Ann").check()
        end.get_by_role("spinbutton", name="Bob", exact=True).fill("7")
        end.get_by_role("spinbutton", name="Dee", exact=True).fill("6")
        end.get_by_role("button", name="Save the hand").tap()

        expect(page.locator("#outbox .outbox-list li")).to_have_count(11)
        assert waiting(page) == TAPPED
        # the choices are for an entry the server refused: none is
        expect(page.locator("#outbox").get_by_role("button")).to_have_count(0)
        # Ann & Cy: 10 + 5 + 5 + 10 + 20 + 25; Bob & Dee: 15 + 20 + 10 + 15
        expect(page.get_by_test_id("total")).to_have_text(["75", "60"])
        expect(page.locator("#offline-note")).to_contain_text("Offline: as of")

        page.reload()
        expect(page.locator("#offline-note")).to_contain_text("Offline: as of")
        expect(page.locator("#outbox .outbox-list li")).to_have_count(11)
        expect(page.get_by_test_id("total")).to_have_text(["75", "60"])
        assert plays_stored(match) == []

    switched_on = phone(
        browser_type, browser_type_launch_args, browser_context_args, tmp_path, offline=True
    )
    with switched_on as bea:
        go_offline(bea)
        page = bea.pages[0] if bea.pages else bea.new_page()
        listen(page, heard)
        page.goto(board)
        expect(page.locator("#offline-note")).to_contain_text("Offline: as of")
        # still waiting on the phone: all eleven, or (if Background Sync got a moment of network
        # as the phone was switched on) the last of them
        expect(page.locator("#outbox .outbox-list li").first).to_be_visible()
        still = waiting(page)
        assert still == TAPPED[len(TAPPED) - len(still) :]

        go_online(bea)
        expect_nothing_waiting(page)
        expect(page.locator("#offline-note")).to_be_hidden()

    assert plays_stored(match) == [(1, player, points) for player, points in TEN_PLAYS]
    hand = stored(match).hands[0]
    assert (hand.end.how, hand.end.player) == ("domino", "Ann")
    assert {name: pips for name, pips in hand.end.pips.items() if pips} == {"Bob": 7, "Dee": 6}
    assert match.changes.count() == changes_before + 11

    # a second phone, watching, sees the same board
    watching = ShareLink.objects.create(match=match, role=VIEWER, label="Table 1, watching")
    vic = new_context().new_page()
    listen(vic, heard)
    vic.goto(f"{live_server.url}/join/{watching.token}/")
    expect(vic.locator("#live-history #hand-1")).to_be_visible(timeout=WITHIN)
    assert csp_violations(heard) == []


@pytest.mark.console_errors(NETWORK_DOWN, HTMX_UNANSWERED)
@pytest.mark.django_db(transaction=True)
def test_undo_offline_takes_back_the_newest_entry_still_waiting(
    new_context: NewContext, live_server: LiveServer
) -> None:
    match = create_match(rules.Match("straight", PLAYERS, hands=(rules.Hand(leader="Ann"),)))
    keeping = ShareLink.objects.create(match=match, role=SCOREKEEPER, label="Table 1")
    bea = new_context()
    page = bea.new_page()
    join(page, live_server, keeping, "Bea")
    tap_score(page, "Ann", 10)
    expect_nothing_waiting(page)

    go_offline(bea)
    tap_score(page, "Bob", 15)
    tap_score(page, "Cy", 5)
    expect(page.locator("#outbox .outbox-list li")).to_have_count(2)
    page.locator(".undo-form button").first.tap()
    expect(page.locator("#outbox .outbox-list li")).to_have_text(["Waiting Bob 15"])

    go_online(bea)
    expect_nothing_waiting(page)
    assert plays_stored(match) == [(1, "Ann", 10), (1, "Bob", 15)]

    # with nothing waiting, Undo goes to the server
    page.locator(".undo-form button").first.tap()
    expect(page.locator("body")).to_have_attribute("data-outbox", "empty")
    expect(page.get_by_test_id("total")).to_have_text(["10", "0", "0", "0"])
    assert plays_stored(match) == [(1, "Ann", 10)]
