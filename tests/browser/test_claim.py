"""A player's record claimed from two phones: the organizer makes the claim on theirs and
reads the code out; the player, signed in on their own, types it and sees their record."""

from __future__ import annotations

import datetime
from collections.abc import Callable

from django.contrib.auth import get_user_model
from playwright.sync_api import BrowserContext, Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper import rules
from scorekeeper.leagues.models import League, Season, SeasonMatch
from scorekeeper.tables.models import Player
from scorekeeper.tables.scoring import create_match, player_named
from tests.clubs import HALL, organizer_of_the_club, the_club

PASSWORD = "chalk-and-slate-42"


def sign_in(page: Page, live_server: LiveServer, username: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("button", name=f"Sign out {username}")).to_be_visible()


def test_an_organizer_hands_over_a_code_and_the_player_sees_their_record(
    page: Page, live_server: LiveServer, new_context: Callable[..., BrowserContext]
) -> None:
    league = League.objects.create(club=the_club(), name="Thursday Club", game="straight")
    league.members.set([player_named("Ana Maria Lopez"), player_named("Bo")])
    season = Season.objects.create(
        league=league, name="Autumn", starts_on=datetime.date(2026, 9, 1)
    )
    create_match(
        rules.Match(
            "straight",
            ("Ana Maria Lopez", "Bo"),
            rules={"target": 50},
            hands=(rules.Hand(plays=(rules.Play("Ana Maria Lopez", points=50),)),),
        ),
        also_write=lambda match: SeasonMatch.objects.create(season=season, match=match),
    )
    users = get_user_model().objects
    organizer_of_the_club(users.create_user("rosa", password=PASSWORD))
    users.create_user("ana", password=PASSWORD)
    ana = Player.objects.get(name="Ana Maria Lopez")

    # the organizer, on the player's page, makes the claim and reads its code
    sign_in(page, live_server, "rosa")
    page.goto(f"{live_server.url}/players/{ana.pk}/")
    page.get_by_role("link", name="Claim of the record").click()
    page.get_by_role("button", name="Make a claim").click()
    code = page.get_by_test_id("claim-code").inner_text()
    assert len(code) == 8

    # the player, on their own phone, types it in
    phone = new_context().new_page()
    sign_in(phone, live_server, "ana")
    phone.goto(f"{live_server.url}/me/")
    expect(phone.get_by_test_id("no-record")).to_be_visible()
    phone.get_by_role("link", name="Type a code").click()
    phone.get_by_label("Code").fill(code.lower())
    phone.get_by_role("button", name="Claim").click()

    expect(phone.get_by_test_id("record-name")).to_have_text("Ana Maria Lopez")
    club = phone.get_by_test_id("record-club")
    expect(club.get_by_role("heading", name=HALL)).to_be_visible()
    expect(club.get_by_text("Ana Maria Lopez 50")).to_be_visible()
    phone.context.close()
