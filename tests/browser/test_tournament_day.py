"""A tournament day end to end, in Chromium: a 4-round Swiss event of 12 partnerships on 6
tables, run from the director's desk on a laptop (1920x1080) and played on phones (390x844).

The organizer creates the night (Swiss, 4 rounds of 55 minutes, "finish the hand"), checks in
24 players, pairs the 12 partnerships, draws round 1, starts it and starts the round clock on the
desk. A player finds their table by typing their name on the public pairings page. Each of four
tables keeps score on a phone joined through its card's scorekeeper link: table 1's result is
signed on the same phone handed over, table 2's from the other side's own phone, table 3's is
disputed; table 4 is mid-hand when the clock runs out, its board says "last hand" and the end of
that hand ends the match, the side ahead winning below the target. The director opens the
dispute from the desk, corrects the hand through its Edit (the history keeps it) and signs; the
standings show the corrected result and round 2 is paired by them, without a rematch.

The director's taps are counted: the test fails if a round or a dispute costs more of them.
The matches are played to 25."""

from __future__ import annotations

import datetime
import re
from collections import Counter
from collections.abc import Callable, Iterator

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.nights.live import clock_moved
from scorekeeper.nights.models import Night, NightRound
from scorekeeper.tables import entries
from scorekeeper.tables.recording import Author
from tests.browser.hall import ORGANIZER, sign_in
from tests.browser.table import (
    assert_fits_the_phone,
    csp_violations,
    expect_no_entry_forms,
    expect_totals,
    listen,
    save_screenshot,
)
from tests.browser.test_accessibility import blocking_violations
from tests.browser.test_league_night import join_the_table, open_the_league, tap_score
from tests.browser.test_straight_match import fill_hand_end

pytestmark = pytest.mark.django_db(transaction=True)

MEMBERS = (
    *"Ana Bo Cy Di Eve Flo Gus Hal Ivy Jo Kai Lu Mo Ned Oli Pia Quin Rae Sam Tess".split(),
    *"Uma Vic Wes".split(),
    "José Núñez",
)
#: the twelve partnerships, each as the organizer pairs them: a partner picked for the first
PARTNERS = list(zip(MEMBERS[0::2], MEMBERS[1::2], strict=True))
TARGET = 25
ROUNDS = 4
MINUTES = 55
#: the desk asks every 3 seconds, the pairings page every 5: room for a poll on a busy machine
POLLED = 15_000

#: what the director may tap for each thing done at the desk (typing a number is no tap)
BUDGET = {
    # Draw, Start, back to the night, Director's desk, Start the clock
    "a round": 5,
    # the desk's Settle the dispute, Edit, Save the correction (back on the dispute's page),
    # Sign the corrected result
    "a dispute corrected": 4,
}


class Director:
    """The organizer at the desk's laptop: clicks, each counted for what it was done for."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.taps: Counter[str] = Counter()

    def tap(self, target: Locator, doing: str) -> None:
        target.click()
        self.taps[doing] += 1

    def pick(self, select: Locator, doing: str, **option: str) -> None:
        """Pick an option of a select: one tap, as a phone's or a laptop's list takes it."""
        select.select_option(**option)
        self.taps[doing] += 1


@pytest.fixture
def laptop(browser: Browser) -> Iterator[Page]:
    """The director's desk: a laptop at 1920x1080, not a phone."""
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    yield context.new_page()
    context.close()


def seats_of(night: Night, number: int) -> list[list[str]]:
    """Each table's players by name in seat order (seats 1 & 3 against 2 & 4), table by table."""
    tables = NightRound.objects.get(night=night, number=number).tables.order_by("number")
    return [
        list(table.match.seats.order_by("position").values_list("player__name", flat=True))
        for table in tables
    ]


def entries_of(night: Night, number: int) -> list[tuple[frozenset[int], frozenset[int]]]:
    """Each table's two partnerships, by the players' ids, as the round was drawn."""
    tables = NightRound.objects.get(night=night, number=number).tables.order_by("number")
    return [(frozenset(t.player_ids[0::2]), frozenset(t.player_ids[1::2])) for t in tables]


def sides(seats: list[str]) -> tuple[str, str]:
    """The side keeping score (seat 1's) and the side asked to sign, as the pages name them."""
    return f"{seats[0]} & {seats[2]}", f"{seats[1]} & {seats[3]}"


def play_to_the_end(phone: Page, seats: list[str]) -> None:
    """Seat 1 leads for 10, seat 2 scores 15, seat 3 scores 20: seats 1 & 3 win 30 to 15."""
    tap_score(phone, seats[0], 10, 10, 0)
    tap_score(phone, seats[1], 15, 10, 15)
    tap_score(phone, seats[2], 20, 30, 15)
    expect(phone.get_by_test_id("winner")).to_have_text(f"{sides(seats)[0]} win the match.")
    expect_no_entry_forms(phone)


def desk_table(desk: Page, number: int) -> Locator:
    return desk.locator(f'[data-testid="desk-table"][data-table="{number}"]')


def standing(page: Page, players: tuple[str, str]) -> Locator:
    """A partnership's row of the standings, its cells after the entry's name: place, played,
    won, lost, match points, point difference, Buchholz, head-to-head, tie decided by."""
    one, other = (re.escape(name) for name in players)
    named = re.compile(rf"^({one} & {other}|{other} & {one})$")
    table = page.get_by_test_id("tournament-standings")
    row = table.get_by_role("row").filter(has=page.get_by_role("rowheader", name=named))
    return row.get_by_role("cell")


def test_a_swiss_tournament_day_from_the_desk_and_the_tables_phones(
    laptop: Page,
    new_context: Callable[..., BrowserContext],
    live_server: LiveServer,
    output_path: str,
) -> None:
    heard: list[str] = []
    listen(laptop, heard)
    season, season_path = open_the_league(MEMBERS)
    director = Director(laptop)
    tap = director.tap
    sign_in(laptop, live_server.url)

    # -- The night: Swiss, 4 rounds of 55 minutes, "finish the hand", the 24 who came.
    laptop.goto(live_server.url + season_path)
    tap(laptop.get_by_role("link", name="New league night"), "the night")
    director.pick(laptop.get_by_label("The draw", exact=True), "the night", value=Night.Draw.SWISS)
    laptop.get_by_label("Rounds", exact=True).fill(str(ROUNDS))
    for name in MEMBERS:
        tap(laptop.get_by_label(name, exact=True), "the night")
    laptop.get_by_label("Round length, in minutes").fill(str(MINUTES))
    when = laptop.get_by_label("When the time is up")
    expect(when).to_have_value(Night.AtTime.FINISH_HAND)
    expect(when.locator("option:checked")).to_have_text(
        "Finish the hand being played, then the higher total wins"
    )
    for name in MEMBERS:
        expect(laptop.get_by_label(name, exact=True)).to_be_checked()
    tap(laptop.get_by_role("button", name="Start the night"), "the night")
    expect(laptop).to_have_url(re.compile(r"/nights/\d+/$"))
    night = Night.objects.get(season=season)
    assert (night.draw, night.rounds, night.round_minutes, night.at_time) == (
        Night.Draw.SWISS,
        ROUNDS,
        MINUTES,
        Night.AtTime.FINISH_HAND,
    )
    night_url = laptop.url
    expect(laptop.get_by_role("heading", name="24 players here")).to_be_visible()

    # -- The 12 partnerships: a partner picked for the first of each two.
    partners = laptop.get_by_test_id("partners")
    for first, second in PARTNERS:
        director.pick(partners.get_by_label(first, exact=True), "the partnerships", label=second)
    tap(partners.get_by_role("button", name="Save the partnerships"), "the partnerships")
    expect(laptop.get_by_text("Partnerships saved: 12.")).to_be_visible()

    # -- Round 1: drawn (6 tables, paired by the standings), started: the table cards.
    tap(laptop.get_by_role("button", name="Draw round 1", exact=True), "a round")
    expect(laptop.get_by_role("heading", name="Round 1: the draw")).to_be_visible()
    expect(laptop.get_by_test_id("seed")).to_have_text("Paired by the standings: no rematch.")
    expect(laptop.locator("#draw .night-table")).to_have_count(6)
    tap(laptop.get_by_role("button", name="Start round 1", exact=True), "a round")
    expect(laptop.get_by_role("heading", name="Table cards, round 1")).to_be_visible()
    expect(laptop.locator("article.table-card")).to_have_count(6)
    links = []
    for number in range(1, 7):
        card = laptop.locator(f'article.table-card[data-table="{number}"]')
        link = card.get_by_test_id("card-link").get_attribute("href")
        assert link and link.startswith(f"{live_server.url}/join/"), link
        links.append(link)
    assert len(set(links)) == 6
    seats = seats_of(night, 1)
    assert sorted(name for table in seats for name in table) == sorted(MEMBERS)
    pairs = {frozenset(pair) for pair in PARTNERS}
    for table in seats:
        assert {frozenset(table[0::2]), frozenset(table[1::2])} <= pairs, table

    # Tables 5 and 6 play on their own (on the server): seat 1 scores 25 and their side wins.
    round_1 = NightRound.objects.get(night=night, number=1)
    for table in round_1.tables.filter(number__in=(5, 6)).select_related("match"):
        # seat 1, as the engine knows the player
        entries.play_record(match=table.match, player="0", points=TARGET, by=Author(name="Table"))

    # -- The desk: every table, no dispute, the clock started by the director.
    tap(laptop.get_by_role("link", name="Back to the night"), "a round")
    tap(laptop.get_by_role("link", name="Director's desk"), "a round")
    expect(laptop.get_by_role("heading", name="Director's desk")).to_be_visible()
    expect(laptop.get_by_test_id("desk-table")).to_have_count(6)
    expect(laptop.get_by_test_id("disputes")).to_have_text("0 disputes")
    clock = laptop.get_by_test_id("round-clock")
    expect(clock).to_contain_text("the clock has not started")
    tap(laptop.get_by_role("button", name="Start the clock"), "a round")
    expect(clock).to_have_text(re.compile(r"Round 1 · 5[45]:\d\d left"))

    # -- A player's phone, without signing in: the pairings page finds José's table.
    player = new_context().new_page()
    listen(player, heard)
    player.goto(f"{live_server.url}/nights/{night.pk}/pairings/")
    expect(player.get_by_role("heading", name=f"Round 1 of {ROUNDS}: by table")).to_be_visible()
    expect(player.get_by_test_id("round-clock")).to_have_text(
        re.compile(r"Round 1 · 5[45]:\d\d left")
    )
    expect(player.locator("tr[data-name]:visible")).to_have_count(24)
    player.get_by_label("Your name").press_sequentially("jose")
    expect(player.locator("tr[data-name]:visible")).to_have_count(1)
    jose = next(n for n, table in enumerate(seats, start=1) if "José Núñez" in table)
    row = player.locator('tr[data-name="José Núñez"]')
    expect(row.locator("td").first).to_have_text(str(jose))
    # the partner, for the whole day
    expect(row.locator("td").nth(2)).to_have_text("Wes")
    assert_fits_the_phone(player)
    save_screenshot(player, output_path, "tournament-day-pairings-found-by-name.png")
    found = blocking_violations(player)
    assert not found, "the pairings page:\n" + "\n".join(found)
    player.context.close()

    # -- Four tables keep score on phones joined through their cards' links.
    phones = [new_context().new_page() for _ in range(4)]
    for number, phone in enumerate(phones, start=1):
        listen(phone, heard)
        join_the_table(phone, links[number - 1], f"Table {number} phone")
    first, second, third, fourth = phones

    # Table 4 is mid-hand: seat 1 has led for 10.
    tap_score(fourth, seats[3][0], 10, 10, 0)

    # Table 1: the match ends; the board hands the phone over; one tap on Agree signs it.
    play_to_the_end(first, seats[0])
    signers = sides(seats[0])[1]
    sign = first.get_by_test_id("sign")
    expect(sign.get_by_role("heading")).to_have_text(f"Hand the phone to {signers}")
    expect(sign).to_contain_text(f"{signers}: do you agree with this result?")
    assert_fits_the_phone(first)
    save_screenshot(first, output_path, "tournament-day-handed-over.png")
    sign.get_by_role("button", name="Agree", exact=True).tap()
    expect(first.get_by_test_id("signed")).to_have_text(
        re.compile(rf"Signed by {re.escape(signers)} at \d\d:\d\d")
    )

    # Table 2: the other side signs on its own phone, through the link under the board's QR.
    play_to_the_end(second, seats[1])
    signers = sides(seats[1])[1]
    second.get_by_text("Or sign on your own phone").tap()
    own_link = second.get_by_test_id("sign-link").get_attribute("href")
    assert own_link and own_link.startswith(f"{live_server.url}/nights/sign/"), own_link
    own = new_context().new_page()
    listen(own, heard)
    own.goto(own_link)
    own_heading = own.get_by_role("heading", level=1)
    expect(own_heading).to_contain_text(f"{signers}: do you agree with this result?")
    own.get_by_role("button", name="Agree", exact=True).tap()
    expect(own_heading).to_have_text(re.compile(rf"Signed by {re.escape(signers)} at \d\d:\d\d"))
    own.context.close()
    # the scorekeeper's board reloads itself when its poll hears of the signature
    expect(second.get_by_test_id("signed")).to_have_text(
        re.compile(rf"Signed by {re.escape(signers)} at \d\d:\d\d"), timeout=POLLED
    )

    # Table 3: the other side disagrees on the phone handed over: hand 1, wrong points.
    play_to_the_end(third, seats[2])
    keepers, disputers = sides(seats[2])
    disputer = seats[2][1]
    third.get_by_test_id("sign").get_by_role("link", name="Disagree", exact=True).tap()
    expect(third.get_by_role("heading", level=1)).to_contain_text(
        f"{disputers}: do you agree with this result?"
    )
    third.get_by_label("Which hand").select_option(index=0)
    third.get_by_label("Wrong points").check()
    third.get_by_label("In a few words").fill(f"{disputer} scored 20, not 15")
    third.get_by_role("button", name="Send: we disagree").tap()
    expect(third.get_by_test_id("disputed")).to_contain_text("Hand 1: Wrong points.")
    expect(third.get_by_role("region", name="Totals")).to_be_visible()

    # -- The desk, without a reload: the dispute first, with its badge; tables 1 and 2 signed.
    expect(laptop.get_by_test_id("disputes")).to_have_text("1 dispute", timeout=POLLED)
    top = laptop.get_by_test_id("desk-table").first
    expect(top).to_have_attribute("data-table", "3")
    expect(top.get_by_test_id("desk-sign")).to_have_text("Disputed · Settle the dispute")
    for number in (1, 2):
        expect(desk_table(laptop, number).get_by_test_id("desk-sign")).to_have_text("Signed")
    expect(desk_table(laptop, 4).get_by_test_id("desk-state")).to_contain_text("Playing hand 1")
    save_screenshot(laptop, output_path, "tournament-day-desk-dispute-first.png")
    found = blocking_violations(laptop)
    assert not found, "the desk:\n" + "\n".join(found)

    # -- The clock runs out while table 4 plays hand 1 (turned back: nobody waits 55 minutes).
    round_1.refresh_from_db()
    assert round_1.clock_started_at is not None
    round_1.clock_started_at = timezone.now() - datetime.timedelta(minutes=MINUTES + 1)
    round_1.save(update_fields=["clock_started_at"])
    # the pages' own count would reach nought 55 minutes on, and ask then: told now instead
    clock_moved(round_1)
    expect(clock).to_have_text("Round 1 · Time: last hand", timeout=POLLED)
    expect(desk_table(laptop, 4).get_by_test_id("desk-state")).to_contain_text("Time: last hand")
    fourth.reload()
    expect(fourth.get_by_test_id("round-clock")).to_have_text("Round 1 · Time: last hand")
    save_screenshot(fourth, output_path, "tournament-day-last-hand.png")
    # Seat 2 dominoes; seats 1 and 3 hold 2 and 1: 3 pips, 5 for seats 2 & 4. The hand has
    # ended, so has the match: seats 1 & 3 are ahead, 10 to 5, far below the target.
    names = seats[3]
    fill_hand_end(fourth, names[1], {names[0]: 2, names[2]: 1, names[3]: 6})
    fourth.get_by_role("button", name="Save the hand").tap()
    expect_totals(fourth, 10, 5)
    expect(fourth.get_by_test_id("winner")).to_have_text(f"{sides(names)[0]} win the match.")
    expect_no_entry_forms(fourth)
    expect(desk_table(laptop, 4).get_by_test_id("desk-state")).to_contain_text(
        "Finished", timeout=POLLED
    )
    for phone in phones:
        phone.context.close()

    # -- The director settles the dispute from the desk: the hand corrected, then signed.
    tap(top.get_by_role("link", name="Settle the dispute"), "a dispute corrected")
    expect(laptop.get_by_role("heading", level=1)).to_have_text(f"Disputed by {disputers}")
    dispute = laptop.get_by_test_id("dispute")
    expect(dispute).to_contain_text("Hand 1: Wrong points.")
    expect(dispute).to_contain_text(f"{disputer} scored 20, not 15")
    expect(dispute).to_contain_text("on the scorekeeper's phone")
    expect(laptop.get_by_test_id("dispute-totals")).to_contain_text(f"{keepers} 30")
    expect(laptop.get_by_test_id("dispute-history")).to_contain_text(f"{disputer} scored 15")
    save_screenshot(laptop, output_path, "tournament-day-dispute.png")

    tap(laptop.locator("#hand-1").get_by_role("link", name="Edit"), "a dispute corrected")
    expect(laptop.get_by_role("heading", name="Correct hand 1")).to_be_visible()
    laptop.get_by_label("Points of play 2", exact=True).fill("20")
    tap(laptop.get_by_role("button", name="Save the correction"), "a dispute corrected")
    expect(laptop.get_by_text("Hand 1 corrected; the totals follow.")).to_be_visible()
    # back on the dispute's page, the totals as corrected
    expect(laptop.get_by_role("heading", level=1)).to_have_text(f"Disputed by {disputers}")
    expect(laptop.get_by_test_id("dispute-totals").get_by_role("listitem")).to_have_text(
        [re.compile(r" 30$"), re.compile(r" 20$")]
    )
    tap(laptop.get_by_role("button", name="Sign the corrected result"), "a dispute corrected")
    expect(laptop.get_by_test_id("closed")).to_contain_text("corrected, and signed by the director")
    expect(laptop.get_by_test_id("dispute-totals")).to_contain_text(f"{disputers} 20")
    expect(laptop.get_by_test_id("dispute-history")).to_contain_text("Hand 1 corrected")

    # the match's history keeps the correction, by the director
    laptop.get_by_role("link", name="The whole history").click()
    newest = laptop.locator("ol.changes > li").first
    expect(newest).to_contain_text("Hand 1 corrected")
    expect(newest).to_contain_text(f"by {ORGANIZER}")

    # the desk: table 3 signed, no dispute left
    laptop.goto(f"{live_server.url}/nights/{night.pk}/desk/")
    expect(laptop.get_by_test_id("disputes")).to_have_text("0 disputes")
    expect(desk_table(laptop, 3).get_by_test_id("desk-sign")).to_have_text("Signed")
    expect(laptop.get_by_test_id("desk-table").first).to_have_attribute("data-table", "1")

    # -- The standings: table 3's result as corrected (30 to 20), table 4's as time decided it.
    laptop.goto(night_url)
    expect(laptop.get_by_test_id("tournament-standings").get_by_role("rowheader")).to_have_count(12)
    table_3 = seats[2]
    # played, won, lost, match points, point difference
    expect(standing(laptop, (table_3[0], table_3[2])).nth(1)).to_have_text("1")
    expect(standing(laptop, (table_3[0], table_3[2])).nth(2)).to_have_text("1")
    expect(standing(laptop, (table_3[0], table_3[2])).nth(5)).to_have_text("10")
    expect(standing(laptop, (table_3[1], table_3[3])).nth(3)).to_have_text("1")
    expect(standing(laptop, (table_3[1], table_3[3])).nth(5)).to_have_text("-10")
    expect(standing(laptop, (names[0], names[2])).nth(5)).to_have_text("5")
    expect(standing(laptop, (names[1], names[3])).nth(5)).to_have_text("-5")
    save_screenshot(laptop, output_path, "tournament-day-standings.png")

    # -- Round 2 is paired by those standings: winners meet winners, nobody meets again.
    tap(laptop.get_by_role("button", name="Draw round 2", exact=True), "round 2")
    expect(laptop.get_by_role("heading", name="Round 2: the draw")).to_be_visible()
    expect(laptop.locator("#draw .night-table")).to_have_count(6)
    met = {frozenset(table) for table in entries_of(night, 1)}
    winners = {table[0] for table in entries_of(night, 1)}  # seats 1 & 3 won every table
    for one, other in entries_of(night, 2):
        assert frozenset((one, other)) not in met, "a rematch in round 2"
        assert (one in winners) == (other in winners), "round 2 not paired by the standings"
    save_screenshot(laptop, output_path, "tournament-day-round-2-drawn.png")

    # -- The director's taps, each thing done counted (reported with the screenshots).
    said = ", ".join(f"{doing}: {count}" for doing, count in director.taps.items())
    with open(f"{output_path}/director-taps.txt", "w") as counted:
        counted.write(said + "\n")
    print(f"The director's taps: {said}")
    for doing, most in BUDGET.items():
        assert director.taps[doing] <= most, f"{doing}: {director.taps[doing]} taps, budget {most}"
    assert not csp_violations(heard), csp_violations(heard)
