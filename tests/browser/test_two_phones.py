"""Two phones on one match: Bea keeps score with a scorekeeper's link, Vic watches with a
viewer's link. What Bea taps shows on Vic's phone within seconds, without a reload, signed
with her name; and neither page trips the Content-Security-Policy."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper import rules
from scorekeeper.access.models import SCOREKEEPER, VIEWER, ShareLink
from scorekeeper.tables.scoring import create_match
from tests.browser.table import (
    csp_violations,
    expect_no_entry_forms,
    expect_totals,
    join,
    listen,
    tap_score,
    watch,
)

#: the poll asks every two seconds; a second more covers the answer and the swap
WITHIN = 3_000


@pytest.mark.django_db(transaction=True)
def test_a_score_tapped_on_one_phone_shows_on_the_watching_phone_with_who_tapped_it(
    new_context: Callable[..., BrowserContext], live_server: LiveServer
) -> None:
    match = create_match(
        rules.Match("straight", ("Ann", "Bob", "Cy", "Dee"), hands=(rules.Hand(leader="Ann"),))
    )
    keeping = ShareLink.objects.create(match=match, role=SCOREKEEPER, label="Table 3")
    watching = ShareLink.objects.create(match=match, role=VIEWER, label="Table 3, watching")
    bea, vic = new_context().new_page(), new_context().new_page()
    heard_by_bea: list[str] = []
    heard_by_vic: list[str] = []
    listen(bea, heard_by_bea)
    listen(vic, heard_by_vic)

    join(bea, live_server, keeping, "Bea")
    watch(vic, live_server, watching)
    expect(vic.get_by_text("You are watching this match.")).to_be_visible()
    expect_no_entry_forms(vic)

    tap_score(bea, "Cy", 15)
    expect_totals(bea, 0, 0, 15, 0)
    expect(vic.get_by_test_id("total")).to_have_text(["0", "0", "15", "0"], timeout=WITHIN)
    expect(vic.get_by_test_id("latest")).to_contain_text("Last change: Cy scored 15, by Bea")

    tap_score(bea, "Ann", 10)
    expect_totals(bea, 10, 0, 15, 0)
    expect(vic.get_by_test_id("total")).to_have_text(["10", "0", "15", "0"], timeout=WITHIN)
    expect(vic.get_by_test_id("latest")).to_contain_text("Last change: Ann scored 10, by Bea")

    # still watching: the refreshed board brought no entry forms with it
    expect_no_entry_forms(vic)
    assert csp_violations(heard_by_bea) == []
    assert csp_violations(heard_by_vic) == []
    assert [line for line in heard_by_bea + heard_by_vic if line.startswith("page error")] == []
