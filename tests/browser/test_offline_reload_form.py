"""Reloaded offline mid-hand, the board's form follows what waits on the phone: the lead that
waits to be sent is played, so Lead is no longer ticked and every points button is offered."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserType, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper import rules
from scorekeeper.access.models import SCOREKEEPER, ShareLink
from scorekeeper.tables.scoring import create_match
from tests.browser.offline import go_offline, phone, wait_for_the_service_worker
from tests.browser.table import join, tap_score


@pytest.mark.django_db(transaction=True)
def test_reloaded_offline_the_waiting_lead_unticks_lead(
    browser_type: BrowserType,
    browser_type_launch_args: dict[str, Any],
    browser_context_args: dict[str, Any],
    live_server: LiveServer,
    tmp_path: Path,
) -> None:
    match = create_match(
        rules.Match("straight", ("Ann", "Bob", "Cy", "Dee"), hands=(rules.Hand(leader="Ann"),))
    )
    keeping = ShareLink.objects.create(match=match, role=SCOREKEEPER, label="Table 1")

    with phone(browser_type, browser_type_launch_args, browser_context_args, tmp_path) as bea:
        page = bea.pages[0] if bea.pages else bea.new_page()
        join(page, live_server, keeping, "Bea")
        wait_for_the_service_worker(page)
        lead = page.get_by_role("checkbox", name="Lead: the first tile of the hand")
        expect(lead).to_be_checked()

        go_offline(bea)
        tap_score(page, "Ann", 10)
        expect(page.locator("#outbox .outbox-list li")).to_have_count(1)
        page.reload()

        expect(page.locator("#offline-note")).to_contain_text("Offline: as of")
        expect(page.locator("#outbox .outbox-list li")).to_have_count(1)
        expect(lead).not_to_be_checked()
        expect(page.get_by_role("button", name="15", exact=True)).to_be_visible()
        expect(page.get_by_role("radio", checked=True)).to_have_count(0)
