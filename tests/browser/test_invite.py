"""Joining a club from an invitation: the owner makes a link for an organizer, a phone that has
never been to the site opens it, opens an account, comes back to the invitation, joins, and
makes a league in the club at once."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import BrowserContext, Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.clubs.models import Club, Membership, Role
from scorekeeper.leagues.models import League
from tests.browser.table import assert_fits_the_phone, save_screenshot

PASSWORD = "chalk-and-slate-42"


@pytest.mark.django_db(transaction=True)
def test_an_invited_organizer_signs_up_joins_and_makes_a_league(
    page: Page,
    live_server: LiveServer,
    output_path: str,
    new_context: Callable[..., BrowserContext],
) -> None:
    hall = Club.objects.create(name="Corner Hall")
    olive = get_user_model().objects.create_user("olive", password=PASSWORD)
    Membership.objects.create(club=hall, user=olive, role=Role.OWNER)

    # the owner signs in and makes an invitation for an organizer
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill("olive")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.get_by_role("link", name="Clubs").click()
    page.get_by_role("link", name="Corner Hall").click()
    page.get_by_role("link", name="Invite people").click()
    page.get_by_role("radio", name="Organizer").check()
    page.get_by_role("button", name="Make the invitation").click()
    expect(page.get_by_role("heading", name="Organizer · open")).to_be_visible()
    assert_fits_the_phone(page)
    save_screenshot(page, output_path, "club-invitation.png")
    address = page.get_by_test_id("share-url").inner_text()
    assert address.startswith(f"{live_server.url}/invite/")

    # another phone opens the link, opens an account and comes back to it
    phone = new_context().new_page()
    phone.goto(address)
    expect(phone.get_by_role("heading", name="Join Corner Hall as Organizer")).to_be_visible()
    phone.get_by_role("main").get_by_role("link", name="Open an account").click()
    phone.get_by_label("Username").fill("oscar")
    phone.get_by_label("Password", exact=True).fill("double six on the spinner")
    phone.get_by_label("Password confirmation").fill("double six on the spinner")
    phone.get_by_role("button", name="Open the account").click()
    expect(phone.get_by_role("heading", name="Join Corner Hall as Organizer")).to_be_visible()
    phone.get_by_role("button", name="Join the club").click()
    expect(phone.get_by_text("You are this club's Organizer.")).to_be_visible()

    # and runs the club's leagues at once
    phone.get_by_role("link", name="Make a league").click()
    phone.get_by_label("League name").fill("Thursday Fives")
    phone.get_by_role("button", name="Create the league").click()
    expect(phone.get_by_role("heading", name="Thursday Fives")).to_be_visible()
    assert League.objects.get(name="Thursday Fives").club == hall

    # the owner's list shows the invitation used
    page.reload()
    expect(page.get_by_role("heading", name="Organizer · used")).to_be_visible()
    # and the club's page its new organizer, where the owner can change the role
    page.get_by_role("link", name="Back to the club").click()
    expect(page.get_by_label("Role of oscar")).to_have_value("organizer")
    assert_fits_the_phone(page)
    save_screenshot(page, output_path, "club-members.png")
