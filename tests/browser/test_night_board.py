"""The night's board on the hall's TV: with the few tables of a night it fills a 1920x1080 screen
in type large enough to read across the hall, as the season's wall does, without scrolling and
with every name on one line."""

from __future__ import annotations

import datetime
from collections.abc import Iterator

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.leagues.models import League, Season
from scorekeeper.nights import desk, partners, round_draw, rounds
from scorekeeper.nights.models import Night
from scorekeeper.tables.recording import Author
from scorekeeper.tables.scoring import player_named
from tests.browser.table import save_screenshot
from tests.browser.test_wall import names_over_more_than_one_line
from tests.clubs import the_club

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = (
    "Guadalupe Villanueva",
    "Bartholomew",
    "Maximiliano Hernández",
    "Wolfgang",
    "Ana",
    "Bo",
    "Cy",
    "Di",
    "Evangelina Castellanos",
    "Flo",
    "Gus",
    "Hal",
    "Ivy",
    "Jo",
    "Kai",
    "Lu",
    "Mo",
    "Ned",
    "Olga",
    "Pip",
    "Quin",
    "Ray",
    "Sol",
    "Tam",
)


def night_started(players: int) -> str:
    """A Straight night in partnerships with its first round started: its board's path."""
    league = League.objects.create(
        club=the_club(), name="Harris County Thursday Domino Club", game="straight"
    )
    season = Season.objects.create(
        league=league, name="Autumn 2026", starts_on=datetime.date(2026, 9, 1)
    )
    came = [player_named(name) for name in NAMES[:players]]
    league.members.set(came)
    night = Night(season=season, played_on=datetime.date(2026, 12, 4), rounds=3)
    rounds.open_night(night, came, [])
    drawn = round_draw.draw_round(night)
    rounds.start_round(drawn, by=Author(name="Organizer"))
    return f"/nights/{night.pk}/board/"


@pytest.fixture
def tv(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    yield context.new_page()
    context.close()


def names_px(page: Page) -> list[float]:
    return page.locator("#wall-board .wall-name").evaluate_all(
        "names => names.map(e => parseFloat(getComputedStyle(e).fontSize))"
    )


def share_of_the_screen(page: Page) -> float:
    """How much of the screen the tables cover together."""
    return page.locator("#wall-board .night-table").evaluate_all(
        """tables => tables
             .map(e => e.getBoundingClientRect())
             .reduce((sum, r) => sum + r.width * r.height, 0)
           / (innerWidth * innerHeight)"""
    )


@pytest.mark.parametrize(
    ("players", "tables", "smallest_px"),
    [(9, 2, 50), (16, 4, 42), (24, 6, 35)],
)
def test_the_nights_board_fills_a_tv_in_type_read_across_the_hall(
    tv: Page, live_server: LiveServer, output_path: str, players: int, tables: int, smallest_px: int
) -> None:
    board_path = night_started(players)

    tv.goto(live_server.url + board_path)

    board = tv.locator("#wall-board")
    expect(board.locator(".night-table")).to_have_count(tables)
    save_screenshot(tv, output_path, f"night-board-{tables}-tables.png")
    # the season's wall names its players in about 31px on this screen: the night's few tables
    # are larger still, and together they cover most of the screen
    sizes = names_px(tv)
    assert len(sizes) == 4 * tables
    assert min(sizes) >= smallest_px, f"names in {min(sizes)}px at {tables} tables"
    assert share_of_the_screen(tv) >= 0.6
    # all of it in sight: nothing below the screen, nothing off the side, no name broken
    width, height = tv.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
    )
    assert (width, height) == (1920, 1080)
    assert names_over_more_than_one_line(tv) == []


def tournament_started(tables: int) -> str:
    """A Swiss night of ``2 * tables + 1`` partnerships, round 1 started (one partnership has
    the bye) and its clock running: the board's path. The names are the long and the short
    ones of a hall, a few long enough to be cut short."""
    league = League.objects.create(
        club=the_club(), name="Harris County Thursday Domino Club", game="straight"
    )
    season = Season.objects.create(
        league=league, name="Autumn 2026", starts_on=datetime.date(2026, 9, 1)
    )
    names = [
        NAMES[n % len(NAMES)] + ("" if n < len(NAMES) else f" {n}") for n in range(4 * tables + 2)
    ]
    came = [player_named(name) for name in names]
    league.members.set(came)
    night = Night(
        season=season,
        played_on=datetime.date(2026, 12, 4),
        rounds=4,
        draw=Night.Draw.SWISS,
        round_minutes=55,
    )
    rounds.open_night(night, came, [])
    partners.partners_pair(
        night, [(a.pk, b.pk) for a, b in zip(came[0::2], came[1::2], strict=True)], []
    )
    drawn = round_draw.draw_round(night)
    rounds.start_round(drawn, by=Author(name="Organizer"))
    desk.clock_start(night_round=drawn, now=timezone.now())
    return f"/nights/{night.pk}/board/"


@pytest.mark.parametrize("tables", [2, 4, 8, 16])
def test_a_tournament_round_with_a_bye_and_the_clock_fits_a_tv(
    tv: Page, live_server: LiveServer, output_path: str, tables: int
) -> None:
    """The round's heading, its clock, every table and the bye, all on a 1920x1080 screen: at
    4 tables the board was 1093 px tall, the bye's line below the screen."""
    board_path = tournament_started(tables)

    tv.goto(live_server.url + board_path)

    board = tv.locator("#wall-board")
    expect(board.locator(".night-table")).to_have_count(tables)
    expect(board.get_by_test_id("round-clock")).to_contain_text("Round 1 ·")
    expect(board.get_by_test_id("bye")).to_contain_text("Bye:")
    save_screenshot(tv, output_path, f"tournament-board-{tables}-tables.png")
    width, height = tv.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
    )
    assert (width, height) == (1920, 1080), f"the board is {width}x{height} at {tables} tables"
    # nothing cut off inside the screen either: every table and the bye end above its bottom
    bottoms = board.locator(".night-table, [data-testid=bye]").evaluate_all(
        "shown => shown.map(e => e.getBoundingClientRect().bottom)"
    )
    assert max(bottoms) <= 1080
    assert names_over_more_than_one_line(tv) == []
    # read from across the hall: no name smaller than the season's wall at its busiest
    assert min(names_px(tv)) >= 16
