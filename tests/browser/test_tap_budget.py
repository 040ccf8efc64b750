"""The taps of each thing done at the table, counted at a phone's size (390x844): each test
fails if its count grows. Typing names or pips is not a tap; opening a panel, picking a player
and saving are. Every step leaves a screenshot in the test's output folder."""

from __future__ import annotations

import datetime
from collections.abc import Callable

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Locator, Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper import rules
from scorekeeper.leagues.models import League, Season
from scorekeeper.nights.models import Night
from scorekeeper.tables.models import Match
from scorekeeper.tables.scoring import create_match, player_named
from tests.browser.hall import ORGANIZER, PASSWORD, sign_in
from tests.browser.table import expect_totals, save_screenshot
from tests.clubs import organizer_of_the_club, the_club

pytestmark = pytest.mark.django_db(transaction=True)

#: what each action may cost, in taps
BUDGET = {
    "straight play": 2,
    "domino hand end": 3,
    "blocked hand end": 3,
    "chickenfoot round": 2,
    "sedma double": 2,
    "new straight match": 2,
    "rematch": 1,
    # an 18-player Swiss night in partnerships, from the season's page to round 1 started:
    # New league night, the draw, Everyone came, the 2 who stayed home unticked, Start the
    # night, 9 partners picked, Save the partnerships, Draw round 1, Start round 1 (before
    # "Everyone came", each of the 18 was ticked: 33 taps)
    "tournament night to round 1": 18,
    # the next night, the same pairs: "Same partners as last night" instead of 9 picks and Save
    "tournament night to round 1, last night's partners": 9,
}


class Taps:
    """Taps the phone's screen and counts the taps; a screenshot after each."""

    def __init__(self, page: Page, output_path: str, action: str, *, shots: bool = True) -> None:
        self.page, self.output_path, self.action = page, output_path, action
        self.count = 0
        #: a screenshot after each tap; a long errand of long pages takes its last one only
        self.shots = shots

    def tap(self, target: Locator, *, then: Callable[[], None] | None = None) -> None:
        """Tap ``target``; ``then`` waits for what the tap brings (a page it opens) before the
        screenshot is taken."""
        target.tap()
        self.count += 1
        if then is not None:
            then()
        if self.shots:
            self.shot()

    def shot(self, step: str = "") -> None:
        name = f"{self.action.replace(' ', '-')}-{self.count}{'-' + step if step else ''}.png"
        save_screenshot(self.page, self.output_path, name)

    def within_budget(self) -> None:
        assert self.count <= BUDGET[self.action], (
            f"{self.action}: {self.count} taps, the budget is {BUDGET[self.action]}"
        )


@pytest.fixture
def signed_in(page: Page, live_server: LiveServer) -> LiveServer:
    """The hall's organizer, signed in on the phone: they keep score of the matches they
    start and of the club's league matches."""
    user = get_user_model().objects.create_user(ORGANIZER, password=PASSWORD)
    organizer_of_the_club(user)
    sign_in(page, live_server.url)
    return live_server


def started_here(value: rules.Match) -> Match:
    """A casual match the signed-in organizer started: they keep its score."""
    return create_match(value, user=get_user_model().objects.get(username=ORGANIZER))


def open_board(page: Page, live_server: LiveServer, match: Match) -> None:
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    expect(page.get_by_role("region", name="Totals")).to_be_visible()


def partners_match() -> Match:
    return started_here(
        rules.Match(
            "straight",
            ("Ana", "Ben", "Cy", "Dale"),
            partnerships=(("Ana", "Cy"), ("Ben", "Dale")),
            hands=(rules.Hand(leader="Ana"),),
        )
    )


def test_a_straight_play_is_two_taps(page: Page, signed_in: LiveServer, output_path: str) -> None:
    match = partners_match()
    open_board(page, signed_in, match)
    taps = Taps(page, output_path, "straight play")
    entry = page.get_by_role("region", name="Record a play")

    taps.tap(entry.get_by_role("radio", name="Ben"))
    taps.tap(entry.get_by_role("button", name="15", exact=True))

    expect_totals(page, 0, 15)
    taps.within_budget()


def test_the_lead_offers_only_five_and_ten(
    page: Page, signed_in: LiveServer, output_path: str
) -> None:
    match = partners_match()
    open_board(page, signed_in, match)
    entry = page.get_by_role("region", name="Record a play")

    expect(entry.get_by_label("Lead: the first tile of the hand")).to_be_checked()
    expect(entry.get_by_role("button", name="15", exact=True)).to_be_hidden()
    entry.get_by_role("button", name="10", exact=True).tap()
    expect_totals(page, 10, 0)
    # the hand's next play is no lead: every number is offered again
    expect(entry.get_by_label("Lead: the first tile of the hand")).to_have_count(0)
    expect(entry.get_by_role("button", name="35", exact=True)).to_be_visible()
    save_screenshot(page, output_path, "after-the-lead.png")


def test_ending_a_hand_by_domino_is_three_taps_plus_the_pips(
    page: Page, signed_in: LiveServer, output_path: str
) -> None:
    match = partners_match()
    open_board(page, signed_in, match)
    taps = Taps(page, output_path, "domino hand end")
    end = page.locator("#end-hand")

    taps.tap(end.locator("summary"))
    taps.tap(end.get_by_role("radio", name="Ana"))
    # the other side counted their tiles together
    end.get_by_label("Ben & Dale together").fill("23")
    expect(end.get_by_role("status").or_(end.locator(".end-preview"))).to_contain_text(
        "Ben & Dale's pips, counted together: 23."
    )
    save = end.get_by_role("button", name="Save the hand")
    expect(save).to_be_in_viewport()
    taps.shot("the-score")
    taps.tap(save)

    expect_totals(page, 25, 0)
    taps.within_budget()


def test_ending_a_blocked_hand_is_three_taps_plus_the_pips(
    page: Page, signed_in: LiveServer, output_path: str
) -> None:
    match = partners_match()
    open_board(page, signed_in, match)
    taps = Taps(page, output_path, "blocked hand end")
    end = page.locator("#end-hand")

    taps.tap(end.locator("summary"))
    taps.tap(end.get_by_role("radio", name="Blocked"))
    for name, pips in {"Ana": 3, "Ben": 12, "Cy": 5, "Dale": 9}.items():
        end.get_by_role("spinbutton", name=name, exact=True).fill(str(pips))
    save = end.get_by_role("button", name="Save the hand")
    expect(save).to_be_in_viewport()
    taps.tap(save)

    # Ana & Cy hold 8, Ben & Dale 21: Ana & Cy score round5(21) = 20
    expect_totals(page, 20, 0)
    taps.within_budget()


def test_a_chickenfoot_round_is_two_taps_plus_the_pips(
    page: Page, signed_in: LiveServer, output_path: str
) -> None:
    match = started_here(rules.Match("chickenfoot", ("Ana", "Ben", "Cy")))
    open_board(page, signed_in, match)
    taps = Taps(page, output_path, "chickenfoot round")
    entry = page.get_by_role("region", name="Record a round")

    # who went out is a choice the table makes: nothing is picked until it is tapped
    expect(entry.get_by_role("radio", name="Blocked")).not_to_be_checked()
    taps.tap(entry.get_by_role("radio", name="Cy"))
    entry.get_by_role("spinbutton", name="Ana", exact=True).fill("12")
    entry.get_by_role("spinbutton", name="Ben", exact=True).fill("7")
    save = entry.get_by_role("button", name="Save the round")
    expect(save).to_be_in_viewport()
    taps.tap(save)

    expect_totals(page, 12, 7, 0)
    taps.within_budget()


def test_a_sedma_double_is_at_most_two_taps_and_the_turn_moves_left(
    page: Page, signed_in: LiveServer, output_path: str
) -> None:
    match = started_here(
        rules.Match("sedma", ("Ana", "Ben", "Cy", "Dale"), hands=(rules.Hand(opener="Ana"),))
    )
    open_board(page, signed_in, match)
    entry = page.get_by_role("region", name="Record a double")
    taps = Taps(page, output_path, "sedma double")

    # Ana opens: she is picked already, one tap lays her double
    expect(entry.get_by_role("radio", name="Ana")).to_be_checked()
    taps.tap(entry.get_by_role("button", name="3-3", exact=True))
    expect_totals(page, 1, 0, 0, 0)
    # the turn moves to the left: Ben is picked next
    expect(entry.get_by_role("radio", name="Ben")).to_be_checked()
    taps.within_budget()

    taps = Taps(page, output_path, "sedma double")
    taps.tap(entry.get_by_role("radio", name="Dale"))
    taps.tap(entry.get_by_role("button", name="5-5", exact=True))
    expect_totals(page, 1, 0, 0, 2)
    taps.within_budget()


def test_a_new_straight_match_for_four_named_players_is_two_taps(
    page: Page, live_server: LiveServer, output_path: str
) -> None:
    page.goto(live_server.url)
    taps = Taps(page, output_path, "new straight match")

    taps.tap(
        page.get_by_role("link", name="Straight Dominoes", exact=True),
        then=lambda: expect(page.get_by_label("Seat 1", exact=True)).to_be_visible(),
    )
    for seat, name in enumerate(["Ana", "Ben", "Cy", "Dale"], 1):
        page.get_by_label(f"Seat {seat}", exact=True).fill(name)
    # the picker of who leads names the players typed
    leader = page.get_by_label("Who leads the first hand")
    expect(leader.locator("option")).to_contain_text(["Decide at the table", "Ana", "Ben"])
    taps.shot("typed")
    sides = page.get_by_role("region", name="Totals")
    taps.tap(
        page.get_by_role("button", name="Start the match"),
        then=lambda: expect(sides).to_be_visible(),
    )

    # four players at Straight start as two partnerships
    expect(sides).to_contain_text("Ana & Cy")
    expect(sides).to_contain_text("Ben & Dale")
    taps.within_budget()


def test_a_rematch_is_one_tap(page: Page, signed_in: LiveServer, output_path: str) -> None:
    match = partners_match()
    open_board(page, signed_in, match)
    taps = Taps(page, output_path, "rematch")

    taps.tap(
        page.get_by_role("button", name="Rematch"),
        then=lambda: expect(page).not_to_have_url(f"{signed_in.url}/matches/{match.pk}/"),
    )

    expect(page.get_by_role("region", name="Totals")).to_contain_text("Ben & Dale")
    taps.within_budget()


#: a league of twenty; eighteen come to its tournament nights, in nine partnerships
LEAGUE = (
    *"Ana Bo Cy Di Eve Flo Gus Hal Ivy Jo Kai Lu Mo Ned Oli Pia Quin Rae".split(),
    "Sam",
    "Tess",
)
CAME = LEAGUE[:18]


def tournament_night_to_round_1(page: Page, season_path: str, taps: Taps, *, again: bool) -> None:
    """From the season's page: a Swiss night of the 18 who came, partnered, round 1 started."""
    page.goto(season_path)
    taps.tap(
        page.get_by_role("link", name="New league night"),
        then=lambda: expect(page.get_by_role("heading", name="New league night")).to_be_visible(),
    )
    # "Everyone came" draws the form again with every box ticked: it comes first
    taps.tap(
        page.get_by_role("button", name="Everyone came"),
        then=lambda: expect(page.get_by_label("Tess", exact=True)).to_be_checked(),
    )
    for absent in LEAGUE[18:]:
        taps.tap(page.get_by_label(absent, exact=True))
    page.get_by_label("The draw", exact=True).select_option(Night.Draw.SWISS)
    taps.count += 1  # a pick from a list: one tap, as the desk's tests count it
    page.get_by_label("Rounds", exact=True).fill("4")
    taps.tap(
        page.get_by_role("button", name="Start the night"),
        then=lambda: expect(page.get_by_role("heading", name="18 players here")).to_be_visible(),
    )
    partners = page.get_by_test_id("partners")
    if again:
        taps.tap(partners.get_by_role("button", name="Same partners as last night"))
    else:
        for first, second in zip(CAME[0::2], CAME[1::2], strict=True):
            partners.get_by_label(first, exact=True).select_option(label=second)
            taps.count += 1
        taps.tap(partners.get_by_role("button", name="Save the partnerships"))
    expect(page.get_by_text("Partnerships saved: 9.")).to_be_visible()
    taps.tap(page.get_by_role("button", name="Draw round 1", exact=True))
    expect(page.locator("#draw .night-table")).to_have_count(4)
    expect(page.get_by_test_id("bye")).to_contain_text("Bye: ")
    taps.tap(
        page.get_by_role("button", name="Start round 1", exact=True),
        then=lambda: expect(
            page.get_by_role("heading", name="Table cards, round 1")
        ).to_be_visible(),
    )


def test_an_18_player_tournament_night_is_started_in_few_taps(
    page: Page, signed_in: LiveServer, output_path: str
) -> None:
    league = League.objects.create(
        club=the_club(), name="Friday Fives", game="straight", rules={"target": 25}
    )
    league.members.set([player_named(name) for name in LEAGUE])
    season = Season.objects.create(
        league=league, name="Winter", starts_on=datetime.date(2026, 12, 1)
    )
    season_path = f"{signed_in.url}/leagues/{league.pk}/seasons/{season.pk}/"

    first = Taps(page, output_path, "tournament night to round 1", shots=False)
    tournament_night_to_round_1(page, season_path, first, again=False)
    first.shot()
    print(f"The organizer's taps to round 1 of an 18-player tournament night: {first.count}")
    first.within_budget()

    following = Taps(
        page, output_path, "tournament night to round 1, last night's partners", shots=False
    )
    tournament_night_to_round_1(page, season_path, following, again=True)
    following.shot()
    print(f"The same with last night's partners: {following.count}")
    following.within_budget()
