"""A member who forgot their password: the club's owner makes a one-time link, shown once, that
sets a new one. It works once; it is refused for the site's staff, for an account that is not
the club's member, and for a member of a club the owner does not own."""

from __future__ import annotations

import re

from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from scorekeeper.clubs.models import Club, Membership, Role
from tests.club_pages.conftest import Person
from tests.web.pages import text

NEW_PASSWORD = "double six on the spinner"


def password_link(who: Person, club: Club, member) -> str:
    response = who.client.post(reverse("club_pages:password_link", args=[club.pk, member.pk]))
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    found = re.search(
        r'data-testid="share-url">http://testserver(/accounts/reset/[^<]+)<',
        response.content.decode(),
    )
    assert found is not None
    return found.group(1)


def set_password(client: Client, link: str, password: str = NEW_PASSWORD):
    """Open the link and set the password, as the member does on their phone."""
    opened = client.get(link, follow=True)
    form_url = opened.redirect_chain[-1][0] if opened.redirect_chain else link
    return client.post(
        form_url, {"new_password1": password, "new_password2": password}, follow=True
    )


def test_the_owners_link_sets_a_new_password_once(hall: Club, olive: Person, mia: Person) -> None:
    link = password_link(olive, hall, mia.user)

    done = set_password(Client(), link)

    assert "Your new password is set" in text(done)
    mia.user.refresh_from_db()
    assert mia.user.check_password(NEW_PASSWORD)
    again = set_password(Client(), link, "another long password here")
    assert "This link no longer works" in text(again)
    mia.user.refresh_from_db()
    assert mia.user.check_password(NEW_PASSWORD)


def test_a_weak_new_password_is_refused_with_the_reason(
    hall: Club, olive: Person, mia: Person
) -> None:
    link = password_link(olive, hall, mia.user)

    refused = set_password(Client(), link, "12345678")

    assert "This password is too common." in text(refused)
    mia.user.refresh_from_db()
    assert not mia.user.check_password("12345678")


def test_refused_for_the_sites_staff_and_superusers(hall: Club, olive: Person) -> None:
    for flag in ("is_staff", "is_superuser"):
        admin = get_user_model().objects.create_user(f"admin_{flag}", **{flag: True})
        Membership.objects.create(club=hall, user=admin, role=Role.MEMBER)
        url = reverse("club_pages:password_link", args=[hall.pk, admin.pk])

        response = olive.client.post(url)

        assert response.status_code == 403
        assert "/accounts/reset/" not in response.content.decode()


def test_refused_for_an_account_that_is_not_the_clubs_member(
    hall: Club, olive: Person, sid: Person
) -> None:
    response = olive.client.post(reverse("club_pages:password_link", args=[hall.pk, sid.user.pk]))

    assert response.status_code == 403
    assert "not a member of the club" in text(response)


def test_refused_for_a_member_of_a_club_the_owner_does_not_own(
    hall: Club, olive: Person, mia: Person
) -> None:
    Membership.objects.create(
        club=Club.objects.create(name="Back Room"), user=mia.user, role="owner"
    )

    response = olive.client.post(reverse("club_pages:password_link", args=[hall.pk, mia.user.pk]))

    assert response.status_code == 403
    assert "belongs to a club you do not own" in text(response)


def test_refused_to_an_organizer(hall: Club, oscar: Person, mia: Person) -> None:
    response = oscar.client.post(reverse("club_pages:password_link", args=[hall.pk, mia.user.pk]))

    assert response.status_code == 403
