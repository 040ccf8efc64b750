"""The director's desk in Chromium: a phone (390x844, a list) and a laptop (1920x1080, a grid),
axe-clean; the round clock started and paused from it and counting down; a play at a table
shows on the desk by its poll."""

from __future__ import annotations

import datetime
import re

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.leagues.models import League, Season
from scorekeeper.nights import round_draw, rounds, signing
from scorekeeper.nights.models import Dispute, Night
from scorekeeper.tables import entries
from scorekeeper.tables.models import Match
from scorekeeper.tables.recording import Author
from scorekeeper.tables.scoring import player_named
from tests.browser.table import (
    assert_fits_the_phone,
    expect_no_entry_forms,
    expect_totals,
    save_screenshot,
    tap_score,
)
from tests.browser.test_accessibility import blocking_violations
from tests.browser.test_league import sign_in_as_organizer
from tests.browser.test_straight_match import fill_hand_end
from tests.clubs import the_club

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {"phone": (390, 844), "laptop": (1920, 1080)}


def timed_night(tables: int = 6) -> Night:
    """A Straight night of 55-minute rounds in partnerships, its first round started."""
    league = League.objects.create(
        club=the_club(), name="Harris County Thursday Domino Club", game="straight"
    )
    season = Season.objects.create(
        league=league, name="Autumn 2026", starts_on=datetime.date(2026, 9, 1)
    )
    came = [player_named(f"Player {n + 1}") for n in range(tables * 4)]
    league.members.set(came)
    night = Night(season=season, played_on=datetime.date(2026, 12, 4), rounds=4, round_minutes=55)
    rounds.open_night(night, came, [])
    rounds.start_round(round_draw.draw_round(night), by=Author(name="Organizer"))
    return night


def dispute_the_last_table(night: Night) -> None:
    """The last table plays to 10 (set so here, for a short test), its first seat's player
    scores 10 and finishes it, and the side that did not keep score disputes hand 1."""
    last = night.night_rounds.get(number=1).tables.order_by("number").last()
    match = last.match
    Match.objects.filter(pk=match.pk).update(rules={**match.rules, "target": 10})
    match.refresh_from_db()
    table = Author(name=f"Table {last.number}")
    entries.play_record(match=match, player="0", points=10, by=table)
    match.refresh_from_db()
    signing.dispute_open(
        match=match,
        side=1,
        version=match.version,
        hand=1,
        reason=Dispute.Reason.POINTS,
        text="That was a five",
        via="board",
        by=table,
    )


def first_match(night: Night):
    return night.night_rounds.get(number=1).tables.order_by("number").first().match


@pytest.mark.parametrize("size", SIZES)
def test_the_desk_runs_the_round_clock_and_follows_the_tables(
    page: Page, live_server: LiveServer, size: str, output_path: str
) -> None:
    width, height = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})
    night = timed_night()
    sign_in_as_organizer(page, live_server)
    page.goto(f"{live_server.url}/nights/{night.pk}/desk/")

    tables = page.get_by_test_id("desk-table")
    expect(tables).to_have_count(6)
    expect(page.get_by_test_id("disputes")).to_have_text("0 disputes")
    expect(page.get_by_test_id("round-clock")).to_contain_text("the clock has not started")

    page.get_by_role("button", name="Start the clock").click()
    clock = page.get_by_test_id("round-clock")
    expect(clock).to_have_text(re.compile(r"Round 1 · 5[45]:\d\d left"))
    shown = clock.inner_text()
    # counted down by the page itself, second by second
    expect(clock).not_to_have_text(shown, timeout=5000)

    # a play at table 1 reaches the desk through its poll
    match = first_match(night)
    # the first seat's player scores
    entries.play_record(match=match, player="0", points=15, by=Author(name="Table 1"))
    expect(tables.first.get_by_test_id("desk-total").first).to_have_text("15", timeout=10_000)
    expect(tables.first.get_by_test_id("desk-state")).to_contain_text("Playing hand 1")

    boxes = [tables.nth(i).bounding_box() for i in range(2)]
    if size == "phone":
        assert_fits_the_phone(page)
        assert boxes[1]["y"] > boxes[0]["y"], "on a phone the tables are a list"
    else:
        assert boxes[1]["y"] == boxes[0]["y"], "on a laptop the tables are a grid"
    found = blocking_violations(page)
    assert not found, "\n".join(found)
    save_screenshot(page, output_path, f"desk-{size}.png")

    page.get_by_role("button", name="Pause").click()
    expect(clock).to_contain_text("clock paused")
    page.get_by_role("button", name="Resume").click()
    expect(clock).to_have_text(re.compile(r"Round 1 · 5[45]:\d\d left"))
    # ending the time is asked first: a mis-tap leaves the clock running
    page.get_by_role("button", name="End the round's time").click()
    expect(page.get_by_test_id("clock-end")).to_contain_text("End round 1's time now?")
    page.get_by_role("link", name="Back to the desk").click()
    expect(clock).to_have_text(re.compile(r"Round 1 · 5[45]:\d\d left"))
    page.get_by_role("button", name="End the round's time").click()
    page.get_by_role("button", name="Yes, end the time now").click()
    clock = page.get_by_test_id("round-clock")
    expect(clock).to_have_text("Round 1 · Time: last hand")
    expect(tables.first.get_by_test_id("desk-state")).to_contain_text("Time: last hand")
    found = blocking_violations(page)
    assert not found, "\n".join(found)
    # and taken back while no table has finished by it: the clock runs on
    page.get_by_role("button", name="Take the call of time back").click()
    expect(clock).to_have_text(re.compile(r"Round 1 · 5[45]:\d\d left"))
    expect(tables.first.get_by_test_id("desk-state")).not_to_contain_text("Time: last hand")


def test_a_tables_board_shows_the_round_clock_counting_down(
    page: Page, live_server: LiveServer, output_path: str
) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    night = timed_night(tables=2)
    night_round = night.night_rounds.get(number=1)
    night_round.clock_started_at = timezone.now()
    night_round.save()

    page.goto(f"{live_server.url}/matches/{first_match(night).pk}/")
    clock = page.get_by_test_id("round-clock")
    expect(clock).to_have_text(re.compile(r"Round 1 · 5[45]:\d\d left"))
    shown = clock.inner_text()
    expect(clock).not_to_have_text(shown, timeout=5000)
    assert_fits_the_phone(page)
    found = blocking_violations(page)
    assert not found, "\n".join(found)
    save_screenshot(page, output_path, "board-with-round-clock.png")


def test_a_dispute_comes_first_with_its_badge_and_a_sound(
    page: Page, live_server: LiveServer
) -> None:
    """A result disputed by the side that did not keep score: its table goes to the top, the
    badge counts it, the desk sounds."""
    page.set_viewport_size({"width": 1920, "height": 1080})
    night = timed_night(tables=3)
    sign_in_as_organizer(page, live_server)
    page.goto(f"{live_server.url}/nights/{night.pk}/desk/")
    page.get_by_role("button", name="Sound on for new disputes").click()
    expect(page.get_by_test_id("desk-table").first).to_have_attribute("data-table", "1")

    dispute_the_last_table(night)

    expect(page.get_by_test_id("disputes")).to_have_text("1 dispute", timeout=10_000)
    first = page.get_by_test_id("desk-table").first
    expect(first).to_have_attribute("data-table", "3")
    expect(first.get_by_test_id("desk-sign")).to_have_text("Disputed · Settle the dispute")
    expect(page.locator("html")).to_have_attribute("data-dispute-sound", "1")
    first.get_by_role("link", name="Settle the dispute").click()
    expect(page.get_by_test_id("dispute")).to_contain_text("That was a five")


def test_time_runs_out_mid_hand_the_board_says_last_hand_and_its_end_decides(
    page: Page, live_server: LiveServer, output_path: str
) -> None:
    """The round's clock runs out while hand 1 is being played at table 1: its board says it
    is the last hand, and the hand's end finishes the match, the side ahead winning far below
    the target of 250."""
    page.set_viewport_size({"width": 390, "height": 844})
    night = timed_night(tables=1)
    sign_in_as_organizer(page, live_server)
    page.goto(f"{live_server.url}/nights/{night.pk}/desk/")
    page.get_by_role("button", name="Start the clock").click()
    expect(page.get_by_test_id("round-clock")).to_contain_text("left")

    match = first_match(night)
    names = [seat.player.name for seat in match.seats.order_by("position")]
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    tap_score(page, names[0], 10)
    expect_totals(page, 10, 0)

    # 56 minutes into the 55-minute round
    night_round = night.night_rounds.get(number=1)
    night_round.clock_started_at = timezone.now() - datetime.timedelta(minutes=56)
    night_round.save(update_fields=["clock_started_at"])
    page.reload()
    expect(page.get_by_test_id("round-clock")).to_have_text("Round 1 · Time: last hand")

    fill_hand_end(page, names[0], {names[1]: 12, names[2]: 3, names[3]: 11})
    page.get_by_role("button", name="Save the hand").tap()
    # 10 in play and 25 for the opponents' 23 pips: 35 to 0 after the last hand
    expect(page.get_by_text(f"{names[0]} & {names[2]} win the match.")).to_be_visible()
    expect_no_entry_forms(page)
    save_screenshot(page, output_path, "time-up-last-hand.png")

    page.goto(f"{live_server.url}/nights/{night.pk}/desk/")
    expect(page.get_by_test_id("desk-state")).to_contain_text("Finished")
