"""The wall board on a TV in the hall: the board alone in large type at 1920x1080 and at
1280x720, nothing off the side, no name broken over two lines, and a play shown within three
seconds of being recorded."""

from __future__ import annotations

import datetime
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper import rules
from scorekeeper.leagues.models import League, Season
from scorekeeper.leagues.moves import season_match_add
from scorekeeper.tables import entries
from scorekeeper.tables.models import Match
from scorekeeper.tables.recording import Author
from scorekeeper.tables.scoring import create_match
from tests.browser.table import HTMX_UNANSWERED, NETWORK_DOWN, save_screenshot
from tests.clubs import the_club
from tests.leagues.season import straight_season
from tests.seated import seat_key

#: the wall asks every two seconds; a second more covers the answer and the swap
WITHIN = 3_000

TV_SIZES = {"1080p": (1920, 1080), "720p": (1280, 720)}

#: long names, a partnership of them among them: on a TV they stay whole, each on one line
PLAYING = [
    rules.Match(
        "straight",
        ("Maximiliano Hernández Castellanos", "Bartholomew", "Guadalupe Villanueva", "Wolfgang"),
        partnerships=(
            ("Maximiliano Hernández Castellanos", "Guadalupe Villanueva"),
            ("Bartholomew", "Wolfgang"),
        ),
        rules={"target": 150},
        hands=(
            rules.Hand(
                leader="Bartholomew",
                plays=(rules.Play("Bartholomew", points=10), rules.Play("Wolfgang", points=15)),
                end=rules.HandEnd(
                    "domino",
                    player="Guadalupe Villanueva",
                    pips={"Bartholomew": 12, "Wolfgang": 9},
                ),
            ),
            rules.Hand(leader="Guadalupe Villanueva", plays=(rules.Play("Wolfgang", points=5),)),
        ),
    ),
    rules.Match("straight", ("Ana", "Bo"), rules={"target": 150}, hands=(rules.Hand(leader="Bo"),)),
]


#: a finished match, so that a long name is in the standings too
WON_BY_A_LONG_NAME = rules.Match(
    "straight",
    ("Maximiliano Hernández Castellanos", "Bartholomew"),
    rules={"target": 60},
    hands=(
        rules.Hand(
            leader="Maximiliano Hernández Castellanos",
            plays=tuple(
                rules.Play("Maximiliano Hernández Castellanos", points=20) for _ in range(3)
            ),
        ),
    ),
)


def open_the_season() -> tuple[str, Match]:
    """A season with finished matches and two being played; its wall's path and the first of
    those two."""
    league = League.objects.create(
        club=the_club(),
        name="Harris County Thursday Domino Club",
        game="straight",
        rules={"target": 60},
    )
    season = Season.objects.create(
        league=league, name="Autumn 2026", starts_on=datetime.date(2026, 9, 1)
    )
    for generated in straight_season(random.Random(20260901), 8):
        if generated.finished:
            season_match_add(season=season, match=create_match(generated.value))
    season_match_add(season=season, match=create_match(WON_BY_A_LONG_NAME))
    playing = [create_match(value) for value in PLAYING]
    for match in playing:
        season_match_add(season=season, match=match)
    return f"/leagues/{league.pk}/seasons/{season.pk}/wall/", playing[0]


@pytest.fixture
def tv(browser: Browser) -> Iterator[Callable[[int, int], Page]]:
    """A TV's browser of a given size: not the phone every other browser test is."""
    opened: list[BrowserContext] = []

    def of_size(width: int, height: int) -> Page:
        context = browser.new_context(viewport={"width": width, "height": height})
        opened.append(context)
        return context.new_page()

    yield of_size
    for context in opened:
        context.close()


def assert_nothing_off_the_side(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the wall is {width}px wide: it scrolls sideways"
    wrap = page.locator(".table-wrap")
    width, room = wrap.evaluate("e => [e.scrollWidth, e.clientWidth]")
    assert width <= room, f"the standings are {width}px wide in {room}px"


def names_over_more_than_one_line(page: Page) -> list[str]:
    """Every player's name on the board (standings and tables), and the title, laid out on
    more than one line: the lines its text's boxes sit on, counted."""
    return page.evaluate(
        """() => [...document.querySelectorAll(
                '.wall-title, .wall-name, .wall-match-name, table.standings tbody th')]
              .filter(e => {
                const range = document.createRange();
                range.selectNodeContents(e);
                const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
                return lines.size > 1;
              })
              .map(e => e.textContent.trim())"""
    )


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", list(TV_SIZES))
def test_the_wall_fills_a_tv_with_every_name_on_one_line(
    tv: Callable[[int, int], Page], live_server: LiveServer, output_path: str, size: str
) -> None:
    wall, _ = open_the_season()
    width, height = TV_SIZES[size]
    page = tv(width, height)

    page.goto(live_server.url + wall)

    board = page.locator("#wall-board")
    expect(board.get_by_role("heading", level=1)).to_have_text(
        "Harris County Thursday Domino Club · Autumn 2026"
    )
    # the board alone: no site navigation or footer on a TV
    expect(page.get_by_role("navigation", name="Main")).to_have_count(0)
    expect(page.locator(".site-footer")).to_have_count(0)
    expect(board.locator(".wall-side")).to_have_text(
        [
            "Maximiliano Hernández Castellanos & Guadalupe Villanueva 20",
            "Bartholomew & Wolfgang 30",
            "Ana 0",
            "Bo 0",
        ]
    )
    expect(board.get_by_test_id("wall-next")).to_have_text(
        ["Hand 2 · Guadalupe Villanueva leads", "Hand 1 · Bo leads"]
    )
    assert_nothing_off_the_side(page)
    assert names_over_more_than_one_line(page) == []
    # large type: a tenth of the height holds at most three lines of the board's text
    size_px = float(board.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))
    assert size_px >= height / 36, f"the board's type is {size_px}px on a {height}px screen"
    save_screenshot(page, output_path, f"wall-{width}x{height}.png")


def maximiliano_scores_20(match: Match) -> None:
    """A play recorded at the first table, as another phone at the table would record it."""
    entries.play_record(
        match=match,
        player=seat_key(match, "Maximiliano Hernández Castellanos"),
        points=20,
        by=Author(name="Bea"),
    )


@pytest.mark.django_db(transaction=True)
def test_a_play_recorded_shows_on_the_wall_within_three_seconds(
    tv: Callable[[int, int], Page], live_server: LiveServer, output_path: str
) -> None:
    wall, match = open_the_season()
    page = tv(1920, 1080)
    page.goto(live_server.url + wall)
    table = page.locator(".wall-match").first
    expect(table.locator(".wall-side")).to_have_text(
        ["Maximiliano Hernández Castellanos & Guadalupe Villanueva 20", "Bartholomew & Wolfgang 30"]
    )

    maximiliano_scores_20(match)

    expect(table.locator(".wall-side")).to_have_text(
        [
            "Maximiliano Hernández Castellanos & Guadalupe Villanueva 40",
            "Bartholomew & Wolfgang 30",
        ],
        timeout=WITHIN,
    )
    save_screenshot(page, output_path, "wall-after-a-play.png")


@pytest.mark.django_db(transaction=True)
def test_after_a_play_the_tv_puts_that_table_alone_in_place(
    tv: Callable[[int, int], Page], live_server: LiveServer
) -> None:
    wall, match = open_the_season()
    page = tv(1920, 1080)
    page.goto(live_server.url + wall)
    other = page.locator(".wall-match").nth(1)
    expect(other.locator(".wall-side")).to_have_text(["Ana 0", "Bo 0"])
    poll = page.locator("#wall-poll").get_attribute("hx-get") or ""
    # marks on what is on the screen now: an element drawn again would not carry them
    page.evaluate(
        """() => {
        document.querySelectorAll(".wall-match")[1].dataset.kept = "yes";
        document.querySelector(".wall-standings").dataset.kept = "yes";
        document.querySelector(".wall-match").dataset.kept = "yes";
    }"""
    )

    maximiliano_scores_20(match)

    table = page.locator(".wall-match").first
    expect(table.locator(".wall-side").first).to_have_text(
        "Maximiliano Hernández Castellanos & Guadalupe Villanueva 40", timeout=WITHIN
    )
    expect(table).not_to_have_attribute("data-kept", "yes")
    expect(other).to_have_attribute("data-kept", "yes")
    expect(page.locator(".wall-standings")).to_have_attribute("data-kept", "yes")
    # and the poll asks from the new version
    expect(page.locator("#wall-poll")).not_to_have_attribute("hx-get", poll)


@pytest.mark.django_db(transaction=True)
def test_the_full_screen_button_fills_the_screen_and_steps_aside(
    tv: Callable[[int, int], Page], live_server: LiveServer
) -> None:
    wall, _ = open_the_season()
    page = tv(1280, 720)
    page.goto(live_server.url + wall)
    if not page.evaluate("document.fullscreenEnabled"):
        expect(page.get_by_role("button", name="Full screen")).to_have_count(0)
        return

    page.get_by_role("button", name="Full screen").click()

    page.wait_for_function("document.fullscreenElement === document.documentElement")
    expect(page.get_by_role("button", name="Full screen")).to_have_count(0)


#: the server out of reach: the board's poll, and its stream
CUT = ("**/wall/?v=*", "**/live/season/*/")
#: a stream cut: htmx says its error event as "[object Event]"
STREAM_CUT = r"\[object Event\]|EventSource"


@pytest.mark.console_errors(NETWORK_DOWN, HTMX_UNANSWERED, STREAM_CUT)
@pytest.mark.django_db(transaction=True)
def test_a_wall_that_cannot_reach_the_server_says_so_and_recovers(
    tv: Callable[[int, int], Page], live_server: LiveServer, settings: Any
) -> None:
    # the board's stream ends every second, and is opened again: so the server's going is
    # heard by the stream as by the poll
    settings.LIVE_STREAM_MINUTES = 1 / 60
    wall, _ = open_the_season()
    page = tv(1920, 1080)
    page.goto(live_server.url + wall)
    notice = page.get_by_text("No connection to the server: these scores may be out of date.")
    expect(notice).to_be_hidden()

    for cut in CUT:
        page.route(cut, lambda route: route.abort())
    expect(notice).to_be_visible(timeout=WITHIN)

    for cut in CUT:
        page.unroute(cut)
    expect(notice).to_be_hidden(timeout=WITHIN)
