"""A tap lands on the player and the button under the finger: after a play nobody stays picked
for the next one, and nothing on the board moves when the lead is played or Undo appears."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper import rules
from scorekeeper.access.models import SCOREKEEPER, ShareLink
from scorekeeper.tables.models import Match, Play
from scorekeeper.tables.scoring import create_match
from tests.browser.table import expect_all_sent, expect_totals, join, tap_score


def four_at_a_table(
    new_context: Callable[..., BrowserContext], live_server: LiveServer
) -> tuple[Match, Page]:
    match = create_match(
        rules.Match("straight", ("Ana", "Bo", "Cy", "Di"), hands=(rules.Hand(leader="Ana"),))
    )
    link = ShareLink.objects.create(match=match, role=SCOREKEEPER, label="Table 1")
    page = new_context().new_page()
    join(page, live_server, link, "Ana")
    return match, page


def under(page: Page, point: tuple[float, float]) -> str:
    """What a finger at ``point`` would touch: the element's id, or its words."""
    return page.evaluate(
        """([x, y]) => {
            const found = document.elementFromPoint(x, y);
            const target = found && found.closest("button, summary, label, input");
            return target ? target.id || target.textContent.trim() : "";
        }""",
        list(point),
    )


def centre(page: Page, locator) -> tuple[float, float]:
    box = locator.bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


@pytest.mark.django_db(transaction=True)
def test_a_second_players_play_is_never_recorded_for_the_first_in_one_tap(
    new_context: Callable[..., BrowserContext], live_server: LiveServer
) -> None:
    match, page = four_at_a_table(new_context, live_server)
    entry = page.get_by_role("region", name="Record a play")

    tap_score(page, "Bo", 10)
    expect_totals(page, 0, 10, 0, 0)
    # Cy scores 15, and the scorekeeper taps 15 without picking Cy first
    entry.get_by_role("button", name="15", exact=True).tap()
    expect_all_sent(page)

    expect_totals(page, 0, 10, 0, 0)
    assert Play.objects.filter(hand__match=match).count() == 1
    expect(entry.get_by_role("radio", checked=True)).to_have_count(0)
    tap_score(page, "Cy", 15)
    expect_totals(page, 0, 10, 15, 0)


@pytest.mark.django_db(transaction=True)
def test_nothing_moves_under_a_finger_when_the_lead_is_played_and_undo_appears(
    new_context: Callable[..., BrowserContext], live_server: LiveServer
) -> None:
    _, page = four_at_a_table(new_context, live_server)
    entry = page.get_by_role("region", name="Record a play")
    # the points and End the hand in sight at once, as a phone held at the table shows them
    page.locator("#end-hand > summary").scroll_into_view_if_needed()
    ten = centre(page, entry.get_by_role("button", name="10", exact=True))
    five = centre(page, entry.get_by_role("button", name="5", exact=True))
    end = centre(page, page.locator("#end-hand > summary"))
    assert entry.get_by_role("checkbox", name="Lead: the first tile of the hand").is_checked()

    page.touchscreen.tap(*ten)  # Ana leads, picked for the lead: her 10
    expect_totals(page, 10, 0, 0, 0)
    # the Lead row went and Undo came: every button is where it was
    expect(page.get_by_role("button", name="↶ Undo: Ana 10")).to_be_visible()
    assert under(page, ten) == "points-10"
    assert under(page, five) == "points-5"
    assert under(page, end) == "End the hand"

    entry.get_by_role("radio", name="Bo").check()
    page.touchscreen.tap(*five)
    expect_totals(page, 10, 5, 0, 0)
