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


@pytest.mark.django_db(transaction=True)
def test_a_tap_answered_with_what_it_changed_leaves_the_hand_editable_and_the_chalk_drawn(
    new_context: Callable[..., BrowserContext], live_server: LiveServer
) -> None:
    """The answer to a tap within a hand is the buttons, the totals and that hand (no Edit and
    Delete: those on the page stay); the chalk is drawn from the strokes the page carries."""
    match, page = four_at_a_table(new_context, live_server)
    answered_in_part = []
    page.on(
        "response",
        lambda response: (
            answered_in_part.append(response.headers.get("hx-retarget") == "#play-entry")
            if "/play/" in response.url
            else None
        ),
    )

    tap_score(page, "Bo", 10)  # the hand's first play: the whole board
    expect_totals(page, 0, 10, 0, 0)
    tap_score(page, "Cy", 35)
    expect_totals(page, 0, 10, 35, 0)
    tap_score(page, "Cy", 30)
    expect_totals(page, 0, 10, 65, 0)

    assert answered_in_part == [False, True, True]
    cy = page.locator(".total").nth(2)
    expect(cy.get_by_role("img", name="65 in chalk", exact=False)).to_be_visible()
    # a house and three strokes, as wide as the strokes they point at
    drawn = cy.locator("svg.chalk use").evaluate_all(
        "uses => uses.map(use => Math.round(use.getBBox().width))"
    )
    assert drawn == [20, 20]
    hand = page.locator("#hand-1")
    if not hand.evaluate("details => details.open"):
        hand.locator("summary").tap()
    expect(hand.get_by_role("link", name="Edit")).to_be_visible()
    page.once("dialog", lambda dialog: dialog.accept())
    hand.get_by_role("button", name="Delete").tap()
    expect_totals(page, 0, 0, 0, 0)
    assert not Play.objects.filter(hand__match=match).exists()
