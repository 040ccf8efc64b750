"""A seat handed over mid-match (*Leaving early* on the night's page), as the table's phone sees
it: at its next poll every entry form names the player who took the seat, in each game, and
the phone's console stays clean (no htmx ``oobErrorNoTarget``: the poll's answer sends only
parts the page has)."""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, ConsoleMessage, Locator, Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.access.models import VIEWER, ShareLink
from scorekeeper.leagues.models import League, Season
from scorekeeper.nights import round_draw, rounds
from scorekeeper.nights.models import Night
from scorekeeper.tables.models import Player
from scorekeeper.tables.recording import Author
from scorekeeper.tables.scoring import player_named
from tests.browser.table import BUSY, join_at, watch
from tests.clubs import the_club

pytestmark = pytest.mark.django_db(transaction=True)

#: five players: one table of four, and one sitting out who takes the seat
FIVE = ("Ana", "Bo", "Cy", "Di", "Eve")
ORGANIZER = Author(name="Organizer")
#: the board asks every two seconds; a second more covers the answer and the swap
WITHIN = 3_000


def a_night_at_one_table(game: str) -> Night:
    """A league night of ``game`` for the five, its round 1 started: one table, one out."""
    league = League.objects.create(club=the_club(), name="Coop", game=game, rules={})
    members = [player_named(name) for name in FIVE]
    league.members.set(members)
    season = Season.objects.create(
        league=league, name="Winter", starts_on=datetime.date(2026, 12, 1)
    )
    night = Night(
        season=season,
        played_on=datetime.date(2026, 12, 4),
        rounds=1,
        partnerships=game == "straight",
        most_at_a_table=4,
    )
    rounds.open_night(night, members, [])
    rounds.start_round(round_draw.draw_round(night), by=ORGANIZER)
    return night


def who_went_out(page: Page, game: str) -> Locator:
    """Where the board asks who ended the hand or round."""
    if game == "straight":
        return page.get_by_role("group", name="Who dominoed?")
    return page.get_by_role("group", name="Who went out?")


def open_the_end_form(page: Page, game: str) -> None:
    if game == "straight":
        page.locator("#end-hand > summary").tap()
    elif game == "sedma":
        page.locator("#end-early > summary").tap()
    else:
        page.get_by_text("0-0 held, who set the double").tap()


def expect_the_seat_named(page: Page, game: str, name: str) -> None:
    """Every entry form names ``name`` in the seat handed over (seat 2)."""
    if game == "chickenfoot":
        expect(who_went_out(page, game).get_by_role("radio")).to_have_count(5)
        expect(who_went_out(page, game).get_by_role("radio").nth(1)).to_have_accessible_name(name)
        pips = page.get_by_role("group", name="Pips left in each hand").get_by_role("spinbutton")
        expect(pips.nth(1)).to_have_accessible_name(name)
        held = page.get_by_role("group", name="Left holding 0-0").get_by_role("radio")
        expect(held.nth(2)).to_have_accessible_name(name)  # after "Nobody"
        starter = page.get_by_label("Who set the round's double").locator("option")
        expect(starter.nth(2)).to_have_text(name)  # after "—"
    elif game == "straight":
        scored = page.get_by_role("group", name="Who scored").get_by_role("radio")
        expect(scored.nth(1)).to_have_accessible_name(name)
        expect(who_went_out(page, game).get_by_role("radio").nth(1)).to_have_accessible_name(name)
        pips = page.get_by_role("group", name="Pips left").get_by_role("spinbutton")
        expect(pips.nth(1)).to_have_accessible_name(name)
    else:
        laid = page.get_by_role("group", name="Who set it").get_by_role("radio")
        expect(laid.nth(1)).to_have_accessible_name(name)
        out = page.get_by_label("Who went out").locator("option")
        expect(out.nth(2)).to_have_text(name)  # after "—"


def console_errors(page: Page) -> list[str]:
    """The errors ``page`` logs on its console from now on, and its uncaught errors (a poll that
    found the database busy, answered 503 and asked again, aside: ``table.BUSY``)."""
    errors: list[str] = []

    def heard(message: ConsoleMessage) -> None:
        if message.type == "error" and not re.search(BUSY, message.text):
            errors.append(message.text)

    page.on("console", heard)
    page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
    return errors


@pytest.mark.parametrize("game", ["chickenfoot", "straight", "sedma"])
def test_the_entry_forms_follow_a_seat_handed_over_at_the_next_poll(
    page: Page,
    new_context: Callable[..., BrowserContext],
    live_server: LiveServer,
    game: str,
) -> None:
    night = a_night_at_one_table(game)
    (table,) = night.night_rounds.get().tables.all()
    (spare,) = night.night_rounds.get().sitting_out_ids
    seats = list(table.match.seats.order_by("position").values_list("player__name", flat=True))
    leaving, taking = seats[1], Player.objects.get(pk=spare).name
    errors = console_errors(page)
    join_at(page, f"{live_server.url}/join/{table.link.token}/", "Table one")
    open_the_end_form(page, game)
    expect_the_seat_named(page, game, leaving)
    # a phone watching the table: its page has no entry forms
    watcher = new_context().new_page()
    watched_errors = console_errors(watcher)
    watch(watcher, live_server, ShareLink.objects.create(match=table.match, role=VIEWER))

    rounds.leave(
        night,
        Player.objects.get(name=leaving),
        replacement=Player.objects.get(pk=spare),
        by=ORGANIZER,
    )

    # the totals follow at the next poll, and so does every form, without a reload
    for phone in (page, watcher):
        expect(phone.locator(".total .side-name").filter(has_text=taking)).to_have_count(
            1, timeout=WITHIN
        )
    expect_the_seat_named(page, game, taking)
    assert page.get_by_text(leaving, exact=True).count() == 0
    assert errors == []
    assert watched_errors == []
