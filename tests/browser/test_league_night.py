"""A league night in the hall: nine players of a Straight Dominoes league check in on the
organizer's phone, three rounds are drawn and started, two tables keep score on their own phones
through the links on their table cards, and the night's board on the TV follows every play, then
shows the night's results and the season's standings.

The matches are played to 25, so one play of 25 wins one at once."""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import pytest
from django.contrib.auth import get_user_model
from django.utils import formats, timezone
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.leagues.models import League, Season
from scorekeeper.nights.models import Night, NightRound
from scorekeeper.tables import entries
from scorekeeper.tables.models import Player
from scorekeeper.tables.recording import Author
from scorekeeper.tables.scoring import player_named
from tests.browser.hall import ORGANIZER, PASSWORD, sign_in
from tests.browser.table import (
    assert_fits_the_phone,
    csp_violations,
    expect_no_entry_forms,
    expect_totals,
    join_at,
    listen,
    save_screenshot,
)
from tests.clubs import organizer_of_the_club, the_club

pytestmark = pytest.mark.django_db(transaction=True)

MEMBERS = ("Ana", "Bo", "Cy", "Di", "Eve", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kai", "Lu")
#: who came tonight: nine, so two tables of four and one sits out each round
CAME = MEMBERS[:9]
ROUNDS = 3
TARGET = 25

#: the board asks every two seconds; a second more covers the answer and the swap
WITHIN = 3_000


@dataclass
class Played:
    """A table's match as the test played it: its seats in order (partners sit opposite, seats
    1 & 3 against 2 & 4) and each side's total."""

    seats: list[str]
    totals: list[int]

    @property
    def sides(self) -> list[list[str]]:
        return [self.seats[0::2], self.seats[1::2]]

    def side_texts(self) -> list[str]:
        """Each side as the night's board shows it: the partners' names and their total."""
        pairs = zip(self.sides, self.totals, strict=True)
        return [f"{' & '.join(side)} {total}" for side, total in pairs]


@dataclass
class Record:
    played: int = 0
    won: int = 0
    points_for: int = 0
    points_against: int = 0

    @property
    def lost(self) -> int:
        return self.played - self.won

    @property
    def difference(self) -> int:
        return self.points_for - self.points_against

    @property
    def win_percent(self) -> str:
        return f"{100 * self.won / self.played:.1f}"


def expected_records(matches: list[Played]) -> dict[str, Record]:
    """Worked out from the seats and the plays the test made: the side that reached the target
    won; every player counts their side's points for and the other side's against."""
    records: dict[str, Record] = {}
    for match in matches:
        winner = next(n for n, total in enumerate(match.totals) if total >= TARGET)
        for n, side in enumerate(match.sides):
            for name in side:
                record = records.setdefault(name, Record())
                record.played += 1
                record.won += n == winner
                record.points_for += match.totals[n]
                record.points_against += match.totals[1 - n]
    return records


def open_the_league(members: Sequence[str] = MEMBERS) -> tuple[Season, str]:
    """A Straight league of ``members`` (the twelve) playing to 25, a season, and an
    organizer; the season's path."""
    league = League.objects.create(
        club=the_club(), name="Friday Fives", game="straight", rules={"target": TARGET}
    )
    league.members.set([player_named(name) for name in members])
    season = Season.objects.create(
        league=league, name="Winter", starts_on=datetime.date(2026, 12, 1)
    )
    user = get_user_model().objects.create_user(ORGANIZER, password=PASSWORD)
    organizer_of_the_club(user)
    return season, f"/leagues/{league.pk}/seasons/{season.pk}/"


@pytest.fixture
def tv(browser: Browser) -> Iterator[Page]:
    """The hall's TV: a browser at 1920x1080, not the phone every other browser is."""
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    yield context.new_page()
    context.close()


def draw_round(page: Page, night_url: str, night: Night, number: int) -> None:
    """On the night's page: draw the round from the night's own seed, shown on the page."""
    page.goto(night_url)
    page.get_by_role("button", name=f"Draw round {number}", exact=True).tap()
    expect(page.get_by_role("heading", name=f"Round {number}: the draw")).to_be_visible()
    seed = f"{night.seed}-{number}"
    expect(page.get_by_test_id("seed")).to_contain_text(f"Drawn from the seed {seed}")
    expect(page.locator("#draw .night-table")).to_have_count(2)


def start_round(page: Page, night: Night, number: int) -> list[Played]:
    """Start the drawn round: the table cards, a card a table with its seats and its link. The
    seats each card shows are the tables' matches' seats."""
    page.get_by_role("button", name=f"Start round {number}", exact=True).tap()
    expect(page.get_by_role("heading", name=f"Table cards, round {number}")).to_be_visible()
    cards = page.locator("article.table-card")
    expect(cards).to_have_count(2)
    started = NightRound.objects.get(night=night, number=number)
    tables = []
    for n, table in enumerate(started.tables.order_by("number"), start=1):
        assert table.number == n
        seats = list(table.match.seats.order_by("position").values_list("player__name", flat=True))
        card = cards.nth(n - 1)
        expect(card.get_by_role("heading", name=f"Table {n}")).to_be_visible()
        expect(card.locator(".night-seats li")).to_have_text(
            [f"Seat {seat}: {name}" for seat, name in enumerate(seats, start=1)]
        )
        expect(card.locator("figure.qr svg")).to_have_count(1)
        expect(card.get_by_test_id("card-link")).to_have_text("Keep score at this table")
        tables.append(Played(seats, [0, 0]))
    return tables


def sitting_out(night: Night, number: int) -> str:
    """Who sits the round out, by name, as the draw stored it."""
    (pk,) = NightRound.objects.get(night=night, number=number).sitting_out_ids
    return Player.objects.get(pk=pk).name


def join_the_table(page: Page, card_link: str, name: str) -> None:
    """A phone opens its table's card link, as scanning its QR code does, and joins."""
    join_at(page, card_link, name)
    expect_totals(page, 0, 0)


def tap_score(page: Page, player: str, points: int, *totals: int) -> None:
    """Tap who scored and the points, then wait for htmx to swap in the board with these
    totals: a tap on the old board, mid-swap, would be lost."""
    entry = page.get_by_role("region", name="Record a play")
    entry.get_by_role("group", name="Who scored").get_by_role(
        "radio", name=player, exact=True
    ).check()
    lead = entry.get_by_label("Lead: the first tile of the hand")
    if points > 10 and lead.count():
        lead.uncheck()  # more than a lead tile can make: a later tile of the hand
    entry.get_by_role("button", name=str(points), exact=True).tap()
    expect_totals(page, *totals)


def board_table(board: Locator, number: int) -> Locator:
    return board.locator(f'.night-table[data-table="{number}"]')


def win_on_the_server(night: Night, number: int, tables: list[Played]) -> None:
    """Seat 1 scores 25 at every table of the round: seats 1 & 3 win 25 to 0."""
    started = NightRound.objects.get(night=night, number=number)
    for table, played in zip(started.tables.order_by("number"), tables, strict=True):
        entries.play_record(
            match=table.match,
            # seat 1, as the engine knows the player
            player="0",
            points=TARGET,
            by=Author(name="Table scorer"),
        )
        played.totals = [TARGET, 0]


def night_cells(record: Record) -> list[object]:
    """A row of tonight's results after the rank: played, won, lost, points, difference."""
    return [record.played, record.won, record.lost, record.points_for, record.difference]


def season_cells(record: Record) -> list[object]:
    """A row of the season's standings after the rank: P, W, L, Win %, For, Agst, +/-."""
    return [
        record.played,
        record.won,
        record.lost,
        record.win_percent,
        record.points_for,
        record.points_against,
        record.difference,
    ]


def assert_nothing_off_the_side(page: Page) -> None:
    """Every column of the board's tables in sight on the TV: none scrolls sideways, cutting
    the last numbers off."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the board is {width}px wide: it scrolls sideways"
    cut = page.locator("#wall-board table").evaluate_all(
        """tables => tables
            .map(t => [t.closest('.table-wrap') || t.parentElement, t])
            .filter(([box, t]) => box.scrollWidth > box.clientWidth
                                  || t.getBoundingClientRect().right > innerWidth)
            .map(([box, t]) => `${t.className}: ${box.scrollWidth}px in ${box.clientWidth}px`)"""
    )
    assert cut == [], f"tables cut off on the TV: {cut}"


def expect_rows(
    table: Locator, records: dict[str, Record], cells: Callable[[Record], list[object]]
) -> None:
    """A row a player, in any order (ties are broken by rules tested elsewhere); each row's
    cells after the rank. A player's name may carry the mark of results not signed yet."""
    expect(table.get_by_role("rowheader")).to_have_count(len(records))
    for name, record in records.items():
        named = re.compile(rf"^{re.escape(name)}( \d+ provisional)?$")
        row = table.get_by_role("row").filter(has=table.page.get_by_role("rowheader", name=named))
        shown = row.get_by_role("cell")
        expect(shown).to_have_count(1 + len(cells(record)))
        for n, value in enumerate(cells(record), start=1):
            expect(shown.nth(n)).to_have_text(str(value))


def test_a_nine_player_straight_night_is_drawn_played_on_phones_and_shown_on_the_tv(
    page: Page,
    tv: Page,
    live_server: LiveServer,
    output_path: str,
    new_context: Callable[..., BrowserContext],
) -> None:
    heard: list[str] = []
    listen(page, heard)
    listen(tv, heard)
    season, season_path = open_the_league()
    sign_in(page, live_server.url)

    # The organizer's phone: a new night from the season page, the nine who came ticked.
    page.goto(live_server.url + season_path)
    page.get_by_role("link", name="New league night").tap()
    expect(page.get_by_role("heading", name="New league night")).to_be_visible()
    before = timezone.localdate()
    day = page.get_by_label("Date").input_value()
    assert day in {before.isoformat(), timezone.localdate().isoformat()}
    expect(page.get_by_label("The draw")).to_have_value(Night.Draw.BLIND)
    expect(page.get_by_label("The draw").locator("option:checked")).to_have_text(
        "Blind draw: random partners and tables"
    )
    expect(page.get_by_label("Rounds")).to_have_value(str(ROUNDS))
    for name in CAME:
        page.get_by_label(name, exact=True).check()
    assert_fits_the_phone(page)
    page.get_by_role("button", name="Start the night").tap()
    expect(page).to_have_url(re.compile(r"/nights/\d+/$"))

    night = Night.objects.get(season=season)
    assert str(night.played_on) == day
    night_url = f"{live_server.url}/nights/{night.pk}/"
    assert page.url == night_url
    shown_day = formats.date_format(night.played_on, "DATE_FORMAT")
    expect(page.get_by_role("heading", name=f"League night, {shown_day}")).to_be_visible()
    expect(page.get_by_role("heading", name="9 players here")).to_be_visible()
    expect(page.get_by_test_id("here")).to_have_text(", ".join(CAME))

    # Round 1 drawn: its seed on the page, two tables of four and one sitting out.
    draw_round(page, night_url, night, 1)
    expect(page.locator("#draw").get_by_test_id("sitting-out")).to_have_text(
        f"Sitting out: {sitting_out(night, 1)}"
    )
    assert_fits_the_phone(page)
    save_screenshot(page, output_path, "night-round-1-drawn.png")

    # The TV opens the night's board through the night page's link: nothing started yet.
    board_path = page.get_by_role("link", name="Night's board (TV)").get_attribute("href")
    assert board_path == f"/nights/{night.pk}/board/"
    tv.goto(live_server.url + board_path)
    board = tv.locator("#wall-board")
    expect(board).to_have_attribute("hx-trigger", "every 2s, live:changed")
    expect(board.get_by_text("The first round has not started yet.")).to_be_visible()

    # Round 1 started: the table cards, and the TV shows the round at its next poll.
    tables = start_round(page, night, 1)
    out = sitting_out(night, 1)
    assert sorted(tables[0].seats + tables[1].seats + [out]) == sorted(CAME)
    expect(page.get_by_text(f"Sitting out: {out}")).to_be_visible()
    assert_fits_the_phone(page)
    save_screenshot(page, output_path, "night-table-cards.png")
    links = [
        page.locator(f'article.table-card[data-table="{n}"]')
        .get_by_test_id("card-link")
        .get_attribute("href")
        for n in (1, 2)
    ]
    assert all(link and link.startswith(f"{live_server.url}/join/") for link in links)
    assert links[0] != links[1]

    expect(board.get_by_role("heading", name=f"Round 1 of {ROUNDS}")).to_be_visible(timeout=WITHIN)
    expect(board.locator(".night-table")).to_have_count(2)
    for n, table in enumerate(tables, start=1):
        expect(board_table(board, n).get_by_role("heading")).to_contain_text(f"Table {n}")
        expect(board_table(board, n).locator(".wall-side")).to_have_text(table.side_texts())
    expect(board.get_by_test_id("sitting-out")).to_have_text(f"Sitting out: {out}")

    # A phone at each table joins through its card's link.
    phones = [new_context().new_page() for _ in tables]
    for n, (phone, link) in enumerate(zip(phones, links, strict=True), start=1):
        listen(phone, heard)
        assert link is not None
        join_the_table(phone, link, f"Table {n} phone")
    first, second = tables

    # Table 1: seat 1 leads for 10. Table 2: seat 2 leads for 5. The TV follows each.
    tap_score(phones[0], first.seats[0], 10, 10, 0)
    first.totals = [10, 0]
    expect(board_table(board, 1).locator(".wall-side")).to_have_text(
        first.side_texts(), timeout=WITHIN
    )
    tap_score(phones[1], second.seats[1], 5, 0, 5)
    second.totals = [0, 5]
    expect(board_table(board, 2).locator(".wall-side")).to_have_text(
        second.side_texts(), timeout=WITHIN
    )
    expect(board_table(board, 1)).to_contain_text(f"{first.seats[0]} & {first.seats[2]} 10")
    save_screenshot(tv, output_path, "night-board-round-1.png")
    save_screenshot(phones[0], output_path, "night-table-1-scoreboard.png")

    # Then 25 at each table wins it: seats 2 & 4 at table 1, seats 1 & 3 at table 2.
    tap_score(phones[0], first.seats[1], TARGET, 10, TARGET)
    first.totals = [10, TARGET]
    tap_score(phones[1], second.seats[0], TARGET, TARGET, 5)
    second.totals = [TARGET, 5]
    for phone, winners in ((phones[0], first.sides[1]), (phones[1], second.sides[0])):
        expect(phone.get_by_test_id("winner")).to_have_text(f"{' & '.join(winners)} win the match.")
        expect_no_entry_forms(phone)
    save_screenshot(phones[1], output_path, "night-table-2-won.png")
    for n, table, winners in ((1, first, first.sides[1]), (2, second, second.sides[0])):
        shown = board_table(board, n)
        expect(shown.locator(".badge")).to_have_text("Done", timeout=WITHIN)
        expect(shown.locator(".wall-side")).to_have_text(table.side_texts())
        expect(shown).to_contain_text(f"{' & '.join(winners)} won")
    expect(board.locator(".night-table.done")).to_have_count(2)
    played = list(tables)

    # Rounds 2 and 3: drawn and started from the night page; their tables play on the server.
    for number in range(2, ROUNDS + 1):
        draw_round(page, night_url, night, number)
        tables = start_round(page, night, number)
        out = sitting_out(night, number)
        assert sorted(tables[0].seats + tables[1].seats + [out]) == sorted(CAME)
        expect(board.get_by_role("heading", name=f"Round {number} of {ROUNDS}")).to_be_visible(
            timeout=WITHIN
        )
        expect(board.get_by_test_id("sitting-out")).to_have_text(f"Sitting out: {out}")
        for n, table in enumerate(tables, start=1):
            expect(board_table(board, n).locator(".wall-side")).to_have_text(table.side_texts())
        win_on_the_server(night, number, tables)
        played += tables
        if number < ROUNDS:
            for n, table in enumerate(tables, start=1):
                expect(board_table(board, n).locator(".badge")).to_have_text("Done", timeout=WITHIN)
                expect(board_table(board, n).locator(".wall-side")).to_have_text(table.side_texts())

    # Byes went round: three different players sat out.
    outs = {sitting_out(night, number) for number in range(1, ROUNDS + 1)}
    assert len(outs) == ROUNDS

    # The night is over: the TV shows tonight's results and the season's standings.
    records = expected_records(played)
    assert set(records) == set(CAME)
    assert sorted(record.played for record in records.values()) == [2] * 3 + [3] * 6
    results = board.get_by_role("region", name="Tonight's results")
    expect(results).to_be_visible(timeout=WITHIN)
    expect(board.get_by_role("heading", name=f"Round {ROUNDS} of {ROUNDS}")).to_have_count(0)
    expect_rows(results, records, night_cells)
    standings = board.get_by_role("region", name="Standings, Winter")
    expect(standings).to_be_visible()
    expect_rows(standings, records, season_cells)
    save_screenshot(tv, output_path, "night-board-results.png")

    # The season's page lists the night, and its standings count the night's matches.
    page.goto(live_server.url + season_path)
    nights = page.get_by_role("link", name=f"League night, {shown_day}")
    expect(nights).to_have_attribute("href", f"/nights/{night.pk}/")
    expect_rows(page.locator("table.standings"), records, season_cells)
    assert_fits_the_phone(page)
    save_screenshot(page, output_path, "night-season-standings.png")

    assert csp_violations(heard) == []
    assert [line for line in heard if line.startswith("page error")] == []
    # on the TV every column of both tables is in sight
    assert_nothing_off_the_side(tv)
