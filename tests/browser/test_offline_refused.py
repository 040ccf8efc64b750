"""Entries made offline that the server will not take when the network is back: nothing is lost.
A revoked link says so, a signed-out phone is asked to sign in, and what waits can be saved as a
match file."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.sessions.models import Session
from django.utils import timezone
from playwright.sync_api import expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper import rules
from scorekeeper.access.models import SCOREKEEPER, ShareLink
from scorekeeper.rules.matchfile import read_match
from scorekeeper.tables.scoring import create_match
from tests.browser.offline import (
    NewContext,
    go_offline,
    go_online,
    plays_stored,
    wait_for_the_service_worker,
)
from tests.browser.table import FORBIDDEN, NETWORK_DOWN, csp_violations, join, listen, tap_score

PLAYERS = ("Ann", "Bob", "Cy", "Dee")


def new_match() -> rules.Match:
    return create_match(rules.Match("straight", PLAYERS, hands=(rules.Hand(leader="Ann"),)))


@pytest.mark.console_errors(NETWORK_DOWN, FORBIDDEN)
@pytest.mark.django_db(transaction=True)
def test_a_revoked_link_keeps_the_entries_and_they_can_be_saved_as_a_match_file(
    new_context: NewContext, live_server: LiveServer, tmp_path: Path
) -> None:
    match = new_match()
    link = ShareLink.objects.create(match=match, role=SCOREKEEPER, label="Table 2")
    context = new_context(accept_downloads=True)
    page = context.new_page()
    heard: list[str] = []
    listen(page, heard)
    join(page, live_server, link, "Bea")
    wait_for_the_service_worker(page)

    go_offline(context)
    tap_score(page, "Ann", 10)
    tap_score(page, "Bob", 15)
    expect(page.locator("#outbox .outbox-list li")).to_have_count(2)
    link.revoked_at = timezone.now()
    link.save()
    go_online(context)

    refusal = page.locator('#outbox .refusal[data-because="revoked"]')
    expect(refusal).to_contain_text("was revoked")
    expect(page.locator("#outbox .outbox-list li")).to_have_text(
        ["Not recorded Ann 10", "Waiting Bob 15"]
    )
    assert plays_stored(match) == []

    with page.expect_download() as saving:
        page.get_by_role("button", name="Save them as a match file").tap()
    saved = tmp_path / "saved.json"
    saving.value.save_as(saved)
    written = read_match(saved.read_text())
    assert [(play.player, play.points) for play in written.hands[-1].plays] == [
        ("Ann", 10),
        ("Bob", 15),
    ]
    # still there after saving: only the player drops them
    expect(page.locator("#outbox .outbox-list li")).to_have_count(2)
    assert csp_violations(heard) == []


@pytest.mark.console_errors(NETWORK_DOWN, FORBIDDEN)
@pytest.mark.django_db(transaction=True)
def test_a_phone_signed_out_while_offline_is_asked_to_sign_in_and_loses_nothing(
    new_context: NewContext, live_server: LiveServer, django_user_model
) -> None:
    match = new_match()
    keeper = django_user_model.objects.create_user("bea", password="a long pass phrase 42")
    match.created_by = keeper
    match.save()
    context = new_context()
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/?next=/matches/{match.pk}/")
    page.get_by_label("Username").fill("bea")
    page.get_by_label("Password").fill("a long pass phrase 42")
    page.get_by_role("button", name="Sign in").tap()
    expect(page.get_by_role("region", name="Totals")).to_be_visible()
    wait_for_the_service_worker(page)

    go_offline(context)
    tap_score(page, "Ann", 10)
    expect(page.locator("#outbox .outbox-list li")).to_have_count(1)
    # signed out elsewhere: the session is gone
    Session.objects.all().delete()
    go_online(context)

    refusal = page.locator('#outbox .refusal[data-because="sign-in"]')
    expect(refusal).to_contain_text("sign in")
    expect(page.locator("#outbox").get_by_role("link", name="Sign in")).to_be_visible()
    assert plays_stored(match) == []

    page.locator("#outbox").get_by_role("link", name="Sign in").tap()
    page.get_by_label("Username").fill("bea")
    page.get_by_label("Password").fill("a long pass phrase 42")
    page.get_by_role("button", name="Sign in").tap()
    # back on the board, the waiting entry goes by itself
    expect(page.locator("body")).to_have_attribute("data-outbox", "empty", timeout=15_000)
    assert plays_stored(match) == [(1, "Ann", 10)]
