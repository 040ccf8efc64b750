"""A Straight Dominoes league run from a phone: the league, a season, matches played in it, the
standings and wall board that follow them, and a player's page with its charts."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import BrowserContext, Locator, Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.access.models import SCOREKEEPER, ShareLink
from scorekeeper.leagues.ratings import Game, latest, replay
from tests.browser.table import (
    assert_fits_the_phone,
    expect_board_ready,
    expect_no_entry_forms,
    expect_totals,
    save_screenshot,
    start_the_match,
)
from tests.clubs import organizer_of_the_club

MEMBERS = ["Ann", "Bob", "Cy", "Dee"]
TARGET = 50


def tap_score(page: Page, player: str, points: int, *totals: int) -> None:
    """Tap who scored and the points, then wait for htmx to swap in the board with these
    totals: a tap on the old board, mid-swap, would be lost."""
    entry = page.get_by_role("region", name="Record a play")
    entry.get_by_role("group", name="Who scored").get_by_role("radio", name=player).check()
    lead = entry.get_by_label("Lead: the first tile of the hand")
    if points > 10 and lead.count():
        lead.uncheck()  # more than a lead tile can make: a later tile of the hand
    entry.get_by_role("button", name=str(points), exact=True).tap()
    expect_totals(page, *totals)


def start_league_match(page: Page, season_url: str, players: list[str]) -> None:
    """From the season page: the league's target is filled in and its members are offered."""
    page.goto(season_url)
    page.get_by_role("link", name="Start a league match").tap()
    expect(page.get_by_role("heading", name="New Straight Dominoes match")).to_be_visible()
    expect(page.get_by_label("Play to")).to_have_value(str(TARGET))
    offered = page.locator("#known-players option").evaluate_all("os => os.map(o => o.value)")
    assert sorted(offered) == MEMBERS
    for seat, name in enumerate(players, 1):
        page.get_by_label(f"Seat {seat}", exact=True).fill(name)
    # the picker names the players typed
    page.get_by_label("Who leads the first hand").select_option(label=players[0])
    start_the_match(page, sides=len(players))


def standings_row(page: Page, player: str) -> Locator:
    table = page.locator("table.standings")
    return table.get_by_role("row").filter(has=page.get_by_role("rowheader", name=player))


def expect_standings(page: Page, rows: dict[str, list[str]]) -> None:
    """Rows best first: rank, then P, W, L, Win %, For, Agst, +/- after the player's name."""
    table = page.locator("table.standings")
    expect(table.get_by_role("rowheader")).to_have_text(list(rows))
    for player, cells in rows.items():
        expect(standings_row(page, player).get_by_role("cell")).to_have_text(cells)


def assert_the_standings_fit(page: Page) -> None:
    """Every column in sight: the wrapper would scroll sideways, hiding +/- off the right."""
    wrap = page.locator(".table-wrap").filter(has=page.locator("table.standings"))
    width, room = wrap.evaluate("e => [e.scrollWidth, e.clientWidth]")
    assert width <= room, f"the standings are {width}px wide in {room}px: +/- is out of sight"


def shown_after(player: str, *results: tuple[str, str]) -> int:
    """A player's rating after two-player matches (winner, loser), everyone a newcomer first."""
    games = [Game(n, ((winner,), (loser,)), (1, 2)) for n, (winner, loser) in enumerate(results)]
    return latest(replay(games))[player].after.shown


@pytest.mark.django_db(transaction=True)
def sign_in_as_organizer(page: Page, live_server: LiveServer) -> None:
    """Leagues are run by an organizer: sign in through the sign-in page as one."""
    user = get_user_model().objects.create_user("rosa", password="chalk-and-slate-42")
    organizer_of_the_club(user)
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill("rosa")
    page.get_by_label("Password").fill("chalk-and-slate-42")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("button", name="Sign out rosa")).to_be_visible()


def join_with_a_scorekeeper_link(page: Page, live_server: LiveServer, match_url: str) -> None:
    """A phone without an account joins the match as its organizer would let it: by a link."""
    match_id = int(match_url.rstrip("/").rsplit("/", 1)[1])
    link = ShareLink.objects.create(match_id=match_id, role=SCOREKEEPER, label="Table 3")
    page.goto(f"{live_server.url}/join/{link.token}/")
    page.get_by_role("button", name="Join").click()
    # Join posts the form and the answer sends the phone to the board: a navigation of the
    # test's own before that one ends would abort it, and with it the join
    expect_board_ready(page)


def test_a_league_season_is_played_and_its_standings_wall_board_and_player_pages_follow_it(
    page: Page,
    live_server: LiveServer,
    output_path: str,
    new_context: Callable[..., BrowserContext],
) -> None:
    # The league, with its members typed in and a short target.
    sign_in_as_organizer(page, live_server)
    page.goto(f"{live_server.url}/leagues/")
    expect(page.get_by_text("No league yet.")).to_be_visible()
    page.get_by_label("League name").fill("Thursday Club")
    page.get_by_label("Game").select_option(label="Straight Dominoes")
    page.get_by_label("Members").fill("Ann\nBob, Cy\n  Dee\nann")
    page.get_by_label("Play to (Straight, Sedma)").fill(str(TARGET))
    page.get_by_role("button", name="Create the league").tap()
    expect(page.get_by_role("heading", name="Thursday Club", level=1)).to_be_visible()
    expect(page.get_by_text("Straight Dominoes", exact=True)).to_be_visible()
    expect(page.get_by_text(f"House rules: target: {TARGET};")).to_be_visible()
    expect(page.get_by_text("No season yet: open one below.")).to_be_visible()
    # the typed list is split on lines and commas, trimmed, and "ann" is Ann again
    for name in MEMBERS:
        expect(page.get_by_role("link", name=name, exact=True)).to_be_visible()
    league_url = page.url

    # A season.
    page.get_by_label("Name", exact=True).fill("Autumn")
    page.get_by_label("Starts on").fill("2026-09-01")
    page.get_by_role("button", name="Open the season").tap()
    expect(page.get_by_role("heading", name="Thursday Club: Autumn")).to_be_visible()
    expect(page.get_by_text("No finished match yet.")).to_be_visible()
    season_url = page.url

    # Match 1: Ann beats Bob 50 to 15, reaching 50 in play.
    start_league_match(page, season_url, ["Ann", "Bob"])
    tap_score(page, "Ann", 20, 20, 0)
    tap_score(page, "Ann", 20, 40, 0)
    tap_score(page, "Bob", 15, 40, 15)
    tap_score(page, "Ann", 10, 50, 15)
    expect(page.get_by_test_id("winner")).to_have_text("Ann wins the match.")
    expect_no_entry_forms(page)

    page.goto(season_url)
    expect_standings(
        page,
        {
            "Ann": ["1", "1", "1", "0", "100.0", "50", "15", "35"],
            "Bob": ["2", "1", "0", "1", "0.0", "15", "50", "-35"],
        },
    )

    # Match 2: Cy beats Ann 50 to 5.
    start_league_match(page, season_url, ["Cy", "Ann"])
    tap_score(page, "Cy", 20, 20, 0)
    tap_score(page, "Ann", 5, 20, 5)
    tap_score(page, "Cy", 20, 40, 5)
    tap_score(page, "Cy", 10, 50, 5)
    expect(page.get_by_test_id("winner")).to_have_text("Cy wins the match.")
    expect_no_entry_forms(page)

    # Match 3 stays in progress: Bob 10, Dee 5.
    start_league_match(page, season_url, ["Bob", "Dee"])
    tap_score(page, "Bob", 10, 10, 0)
    tap_score(page, "Dee", 5, 10, 5)
    match_3_url = page.url

    # Ann: 1 of 2 won, 50 + 5 for, 15 + 50 against. Cy 1 of 1; Bob 0 of 1; Dee has not finished.
    page.goto(season_url)
    standings = {
        "Cy": ["1", "1", "1", "0", "100.0", "50", "5", "45"],
        "Ann": ["2", "2", "1", "1", "50.0", "55", "65", "-10"],
        "Bob": ["3", "1", "0", "1", "0.0", "15", "50", "-35"],
    }
    expect_standings(page, standings)
    expect(page.locator(".in-progress")).to_have_count(1)
    expect(page.locator(".in-progress").get_by_role("link")).to_have_text(
        [f"Straight Dominoes #{match_3_url.rstrip('/').rsplit('/', 1)[-1]}: Bob v Dee"]
    )
    expect(page.get_by_role("link", name="All 2 finished or forfeited matches")).to_be_visible()
    assert_fits_the_phone(page)
    assert_the_standings_fit(page)
    save_screenshot(page, output_path, "league-standings.png")

    # The numbers lead to the matches behind them.
    standings_row(page, "Ann").get_by_role("cell").nth(2).get_by_role("link").tap()
    expect(page.get_by_role("heading", name="Ann: won")).to_be_visible()
    behind = page.locator(".match-list > li")
    expect(behind).to_have_count(1)
    expect(behind).to_contain_text(["Ann 50 · Bob 15"])
    expect(behind).to_contain_text(["won by Ann"])
    page.go_back()
    standings_row(page, "Ann").get_by_role("cell").nth(3).get_by_role("link").tap()
    expect(page.get_by_role("heading", name="Ann: lost")).to_be_visible()
    expect(behind).to_have_count(1)
    expect(behind).to_contain_text(["Cy 50 · Ann 5"])
    expect(behind).to_contain_text(["won by Cy"])
    page.go_back()
    standings_row(page, "Ann").get_by_role("cell").nth(1).get_by_role("link").tap()
    expect(page.get_by_role("heading", name="Ann: played")).to_be_visible()
    expect(behind).to_have_count(2)

    # The wall board: the standings, and the match being played with its hand and who leads it.
    page.goto(season_url)
    page.get_by_role("link", name="Wall board").tap()
    wall = page.locator("#wall-board")
    expect(wall.get_by_role("heading", name="Thursday Club · Autumn")).to_be_visible()
    expect_standings(page, standings)
    playing = wall.locator(".wall-match")
    expect(playing.locator(".wall-side")).to_have_text(["Bob 10", "Dee 5"])
    expect(playing.get_by_test_id("wall-next")).to_have_text("Hand 1 · Bob leads")
    expect(wall.locator("#wall-poll")).to_have_attribute("hx-trigger", "every 2s, live:changed")
    assert_fits_the_phone(page)
    assert_the_standings_fit(page)
    save_screenshot(page, output_path, "league-wall.png")

    # Another phone at the table scores for Dee: the wall shows it at its next poll.
    table = new_context().new_page()
    join_with_a_scorekeeper_link(table, live_server, match_3_url)
    expect(table).to_have_url(match_3_url)
    tap_score(table, "Dee", 15, 10, 20)
    expect(playing.locator(".wall-side")).to_have_text(["Bob 10", "Dee 20"], timeout=3_000)
    expect_standings(page, standings)  # an unfinished match does not count

    # Ann's page: her record, her rating over the two matches and the score of each match.
    rating = shown_after("Ann", ("Ann", "Bob"), ("Cy", "Ann"))
    page.goto(league_url)
    page.get_by_role("link", name="Ann", exact=True).tap()
    expect(page.get_by_role("heading", name="Ann", level=1)).to_be_visible()
    game = page.locator(".player-game")
    expect(game.get_by_role("heading", name="Straight Dominoes")).to_be_visible()
    expect(game.locator(".record > span")).to_have_text(
        ["2 played", "1 won", "1 lost", "50%", f"rating {rating} provisional"]
    )
    chart = game.get_by_role("img", name="Ann's Straight Dominoes rating over time")
    expect(chart).to_be_visible()
    expect(chart.locator("polyline")).to_have_count(1)
    points = chart.locator("polyline").get_attribute("points") or ""
    assert len(points.split()) == 3, "the chart starts at 1000 and moves once per match"
    expect(game.get_by_text("Bob: beat them 1 of 1 (100%)")).to_be_visible()
    expect(game.get_by_text("Cy: beat them 0 of 1 (0%)")).to_be_visible()

    recent = page.locator(".match-list > li")
    expect(recent).to_have_count(2)
    expect(page.locator("#match-chart")).to_have_count(0)
    recent.filter(has_text="won by Cy").get_by_role("link").tap()
    score = page.locator("#match-chart")
    score_chart = score.get_by_role("img", name="Score by hand, Straight Dominoes #")
    expect(score_chart).to_be_visible()
    expect(score).to_be_in_viewport()  # the link jumps down to the chart
    expect(score_chart.locator("polyline")).to_have_count(2)
    expect(score_chart.locator("text")).to_contain_text(["Cy", "Ann"])
    expect(score.get_by_role("link", name="Open the scoreboard")).to_be_visible()
    assert_fits_the_phone(page)
    save_screenshot(page, output_path, "league-player.png")
