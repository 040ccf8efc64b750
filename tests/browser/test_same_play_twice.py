"""Two scorekeepers' phones at one table both enter the same play within seconds: the second
is asked whether it is another play before it counts."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper import rules
from scorekeeper.access.models import SCOREKEEPER, ShareLink
from scorekeeper.tables.models import Play
from scorekeeper.tables.scoring import create_match
from tests.browser.table import REFUSED, expect_totals, join, save_screenshot, tap_score


@pytest.mark.console_errors(REFUSED)
@pytest.mark.django_db(transaction=True)
def test_the_same_play_from_a_second_phone_asks_before_it_counts(
    new_context: Callable[..., BrowserContext], live_server: LiveServer, output_path: str
) -> None:
    match = create_match(
        rules.Match("straight", ("Ana", "Ben", "Cy", "Dale"), hands=(rules.Hand(leader="Ana"),))
    )
    link = ShareLink.objects.create(match=match, role=SCOREKEEPER, label="Table 5")
    ana, ben = new_context().new_page(), new_context().new_page()
    join(ana, live_server, link, "Ana")
    join(ben, live_server, link, "Ben")

    tap_score(ana, "Dale", 15)
    expect_totals(ana, 0, 0, 0, 15)
    tap_score(ben, "Dale", 15)

    asked = ben.get_by_role("alert")
    expect(asked).to_contain_text("Dale 15 was just entered by Ana's phone. Add another?")
    save_screenshot(ben, output_path, "asked.png")
    # not counted twice while the question stands
    expect_totals(ben, 0, 0, 0, 15)
    assert Play.objects.filter(hand__match=match).count() == 1

    # "No": nothing more, and the question goes
    ben.get_by_role("link", name="No").tap()
    expect(ben.get_by_role("alert")).to_have_count(0)
    assert Play.objects.filter(hand__match=match).count() == 1

    # the same again, and this time it was another 15 for Dale
    tap_score(ben, "Dale", 15)
    ben.get_by_role("button", name="Add another").tap()
    expect_totals(ben, 0, 0, 0, 30)
    assert Play.objects.filter(hand__match=match).count() == 2
    save_screenshot(ben, output_path, "added.png")
