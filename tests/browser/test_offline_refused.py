"""Entries made offline that the server will not take when the network is back: nothing is lost.
A revoked link says so, a signed-out phone is asked to sign in, and what waits can be saved as a
match file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.sessions.models import Session
from django.utils import timezone
from playwright.sync_api import expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper import rules
from scorekeeper.access.models import SCOREKEEPER, ShareLink
from scorekeeper.nights import signing
from scorekeeper.rules.matchfile import read_match
from scorekeeper.tables.recording import Author
from scorekeeper.tables.scoring import create_match
from tests.browser.offline import (
    NewContext,
    go_offline,
    go_online,
    plays_stored,
    wait_for_the_service_worker,
)
from tests.browser.table import (
    FORBIDDEN,
    HTMX_UNANSWERED,
    NETWORK_DOWN,
    csp_violations,
    expect_board_ready,
    join,
    join_at,
    listen,
    tap_score,
)
from tests.browser.test_signing import a_night_of_two_tables, finish

PLAYERS = ("Ann", "Bob", "Cy", "Dee")


def new_match() -> rules.Match:
    return create_match(rules.Match("straight", PLAYERS, hands=(rules.Hand(leader="Ann"),)))


@pytest.mark.console_errors(NETWORK_DOWN, HTMX_UNANSWERED, FORBIDDEN)
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


@pytest.mark.console_errors(NETWORK_DOWN, HTMX_UNANSWERED, FORBIDDEN)
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


#: a stream refused by the test: htmx says its error event as "[object Event]"
NO_STREAM = r"\[object Event\]|EventSource|net::ERR_FAILED"


@pytest.mark.console_errors(FORBIDDEN, NO_STREAM)
@pytest.mark.django_db(transaction=True)
def test_an_undo_refused_for_good_is_said_and_leaves_the_outbox(
    new_context: NewContext, live_server: LiveServer
) -> None:
    """The scorekeeper taps Undo a moment after the other side signed on its own phone: the
    server refuses it (403, the result is locked) and no retry can change that. The board says
    so, in the server's words, and the Undo is not kept as an entry waiting to be sent."""
    (match, card), _ = a_night_of_two_tables()
    page = new_context().new_page()
    # a board that has not heard yet: it holds no stream (it would be told at once)
    page.route(re.compile(r".*/live/match/\d+/$"), lambda route: route.abort())
    heard: list[str] = []
    listen(page, heard)
    join_at(page, live_server.url + card, "Table 1")
    keepers, others = finish(match)
    page.reload()
    expect_board_ready(page)
    undo = page.get_by_role("button", name=re.compile("Undo"))
    expect(undo).to_be_visible()
    # the other side signs from its own phone; this board has not heard yet
    match.refresh_from_db()
    signing.match_sign(
        match=match,
        side=1,
        version=match.version,
        via=signing.BY_LINK,
        by=Author(name="Bo"),
    )

    undo.tap()

    refusal = page.locator('#board-messages .refusal[data-because="locked"]')
    expect(refusal).to_contain_text(f"Signed by {others} at", timeout=10_000)
    expect(refusal).to_contain_text("only the league's organizer can correct the result now")
    expect(page.locator("body")).to_have_attribute("data-outbox", "empty")
    expect(page.locator("#outbox")).to_be_hidden()
    expect(page.get_by_role("button", name="Try again")).to_be_hidden()
    # the board as the server has it: signed, nothing to undo
    expect(page.get_by_test_id("signed")).to_contain_text(f"Signed by {others}")
    expect(page.get_by_role("button", name=re.compile("Undo"))).to_have_count(0)
    match.refresh_from_db()
    assert match.totals == [25, 10]
    # nothing of it waits on the phone: opened again, the board has no outbox to show
    page.reload()
    expect_board_ready(page)
    expect(page.locator("#outbox")).to_be_hidden()
    assert csp_violations(heard) == []
