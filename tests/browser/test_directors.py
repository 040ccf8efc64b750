"""A night's director in Chromium: the club's organizer names a member the night's director on
the night's page; on her own phone the director settles a dispute from the desk, and finds
neither the league's season form nor its table cards, which are the organizers'."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.clubs.models import Membership, Role
from tests.browser.test_claim import PASSWORD, sign_in
from tests.browser.test_desk import dispute_the_last_table, timed_night
from tests.browser.test_league import sign_in_as_organizer
from tests.clubs import the_club

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_organizer_names_a_director_who_settles_a_dispute_and_runs_nothing_else(
    page: Page, browser: Browser, live_server: LiveServer
) -> None:
    night = timed_night(tables=2)
    dina = get_user_model().objects.create_user("dina", password=PASSWORD)
    Membership.objects.create(club=the_club(), user=dina, role=Role.MEMBER)

    # the organizer, on the night's page
    sign_in_as_organizer(page, live_server)
    page.goto(f"{live_server.url}/nights/{night.pk}/")
    directors = page.get_by_test_id("directors")
    expect(directors).to_contain_text("No director named")
    directors.get_by_label("Member").select_option(label="dina")
    directors.get_by_role("button", name="Name the director").click()
    expect(page.get_by_text("dina directs this night")).to_be_visible()

    dispute_the_last_table(night)

    # the director, on her own phone
    phone = browser.new_context(viewport={"width": 390, "height": 844})
    director = phone.new_page()
    sign_in(director, live_server, "dina")
    director.goto(f"{live_server.url}/nights/{night.pk}/")
    director.get_by_role("link", name="Director's desk").click()
    expect(director.get_by_test_id("disputes")).to_have_text("1 dispute")
    director.get_by_role("link", name="Settle the dispute").click()
    expect(director.get_by_test_id("dispute")).to_contain_text("That was a five")
    director.get_by_test_id("settle").click()
    expect(director.get_by_text("Settled: the match is signed by the director.")).to_be_visible()

    # the league's settings are the organizers': no season form, no table cards for her
    director.goto(f"{live_server.url}/leagues/{night.season.league_id}/")
    expect(director.get_by_role("heading", level=1)).to_be_visible()
    expect(director.get_by_role("button", name="Open the season")).to_have_count(0)
    expect(
        director.get_by_role("link", name="Table cards (one a table, to laminate)")
    ).to_have_count(0)
    # nor the directors of the night, which the organizers name
    director.goto(f"{live_server.url}/nights/{night.pk}/")
    expect(director.get_by_role("button", name="Name the director")).to_have_count(0)
    phone.close()
