"""Invitations: the owner or an organizer makes a link for one role, shown with its QR code;
it brings one person in, in that role; used, revoked or expired it answers 410, and a link
never made 404. An organizer invites members and organizers, never an owner."""

from __future__ import annotations

import datetime
from urllib.parse import urlencode

from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scorekeeper.clubs import invitations as links
from scorekeeper.clubs.invitations import token_of
from scorekeeper.clubs.models import Club, Invitation, Role
from tests.club_pages.conftest import Person, memberships, role_in
from tests.web.pages import text


def invite(who: Person, club: Club, role: str):
    return who.client.post(reverse("club_pages:invitations", args=[club.pk]), {"role": role})


def link_of(invitation: Invitation) -> str:
    return reverse("club_pages:invitation", args=[token_of(invitation)])


def test_the_owner_makes_an_invitation_shown_as_a_link_and_a_qr_code(
    hall: Club, olive: Person
) -> None:
    response = invite(olive, hall, "organizer")

    invitation = Invitation.objects.get()
    assert response["Location"] == reverse("club_pages:invitations", args=[hall.pk])
    assert (invitation.club, invitation.role, invitation.made_by) == (
        hall,
        Role.ORGANIZER,
        olive.user,
    )
    page = olive.client.get(reverse("club_pages:invitations", args=[hall.pk])).content.decode()
    assert "<svg" in page
    assert 'data-testid="share-url">http://testserver/invite/' in page
    assert "Revoke this invitation" in page


def test_an_organizer_invites_organizers_and_members_but_never_an_owner(
    hall: Club, oscar: Person
) -> None:
    page = oscar.client.get(reverse("club_pages:invitations", args=[hall.pk])).content.decode()
    assert 'value="organizer"' in page and 'value="owner"' not in page

    refused = invite(oscar, hall, "owner")

    assert refused.status_code == 422
    assert "Only the club's owner can invite an owner." in text(refused)
    assert not Invitation.objects.exists()
    assert invite(oscar, hall, "member").status_code == 302


def test_the_list_says_how_each_invitation_stands(hall: Club, olive: Person, mia: Person) -> None:
    now = timezone.now()
    Invitation.objects.create(club=hall, role=Role.MEMBER, used_at=now, used_by=mia.user)
    Invitation.objects.create(club=hall, role=Role.MEMBER, revoked_at=now)
    Invitation.objects.create(club=hall, role=Role.MEMBER, expires_at=now)
    Invitation.objects.create(club=hall, role=Role.ORGANIZER)

    page = text(olive.client.get(reverse("club_pages:invitations", args=[hall.pk])))

    assert "Organizer · open" in page
    assert "Member · used" in page and "Used by mia." in page
    assert "Member · revoked" in page
    assert "Member · expired" in page
    assert page.count("Revoke this invitation") == 1


def test_a_visitor_is_asked_to_sign_in_or_sign_up_and_come_back(hall: Club, olive: Person) -> None:
    invitation = Invitation.objects.create(club=hall, role=Role.ORGANIZER, made_by=olive.user)
    url = link_of(invitation)

    response = Client().get(url)

    assert response.status_code == 200
    assert "Join Corner Hall as Organizer" in text(response)
    page = response.content.decode()
    back = urlencode({"next": url})
    assert f'href="/accounts/login/?{back}"' in page
    assert f'href="/accounts/signup/?{back}"' in page


def test_accepting_makes_a_membership_in_the_invitations_role(
    hall: Club, olive: Person, sid: Person
) -> None:
    invitation = Invitation.objects.create(club=hall, role=Role.ORGANIZER, made_by=olive.user)

    response = sid.client.post(link_of(invitation))

    assert response["Location"] == reverse("club_pages:club", args=[hall.pk])
    assert role_in(hall, sid.user) == Role.ORGANIZER
    invitation.refresh_from_db()
    assert invitation.used_by == sid.user
    # runs the club's leagues at once: the league form offers the club
    assert "Corner Hall" in text(sid.client.get(reverse("leagues:league_list")))


def test_accepting_twice_is_harmless(hall: Club, sid: Person) -> None:
    invitation = Invitation.objects.create(club=hall, role=Role.MEMBER)
    sid.client.post(link_of(invitation))

    again = sid.client.post(link_of(invitation))
    opened = sid.client.get(link_of(invitation))

    assert again["Location"] == opened["Location"] == reverse("club_pages:club", args=[hall.pk])
    assert role_in(hall, sid.user) == Role.MEMBER


def test_a_member_holding_as_much_leaves_the_invitation_for_someone_else(
    hall: Club, oscar: Person
) -> None:
    invitation = Invitation.objects.create(club=hall, role=Role.MEMBER)

    assert "You are this club's Organizer already" in text(oscar.client.get(link_of(invitation)))
    oscar.client.post(link_of(invitation))

    assert role_in(hall, oscar.user) == Role.ORGANIZER
    assert Invitation.objects.get().used_at is None


def test_a_visitor_who_taps_join_is_sent_to_sign_in_and_nothing_changes(hall: Club) -> None:
    invitation = Invitation.objects.create(club=hall, role=Role.MEMBER)

    response = Client().post(link_of(invitation))

    assert response["Location"].startswith(reverse("login"))
    assert memberships() == []
    assert Invitation.objects.get().used_at is None


def test_a_used_invitation_answers_410(hall: Club, sid: Person, mia: Person) -> None:
    invitation = Invitation.objects.create(club=hall, role=Role.ORGANIZER)
    sid.client.post(link_of(invitation))
    before = memberships()

    for response in (mia.client.get(link_of(invitation)), mia.client.post(link_of(invitation))):
        assert response.status_code == 410
        assert "was used already" in text(response)
    assert memberships() == before


def test_an_invitation_used_by_another_phone_meanwhile_says_it_was_used(
    hall: Club, sid: Person, mia: Person, monkeypatch
) -> None:
    """Read open by the page, taken by another phone before this one's Join locks it: the
    answer says how the locked row stands."""
    invitation = Invitation.objects.create(club=hall, role=Role.ORGANIZER)
    read_open = links.invitation_of(token_of(invitation))
    sid.client.post(link_of(invitation))
    monkeypatch.setattr(links, "invitation_of", lambda token: read_open)
    before = memberships()

    response = mia.client.post(link_of(invitation))

    assert response.status_code == 410
    assert "was used already" in text(response)
    assert memberships() == before


def test_a_revoked_invitation_answers_410(hall: Club, olive: Person, sid: Person) -> None:
    invitation = Invitation.objects.create(club=hall, role=Role.MEMBER)
    olive.client.post(reverse("club_pages:revoke_invitation", args=[hall.pk, invitation.pk]))

    response = sid.client.post(link_of(invitation))

    assert response.status_code == 410
    assert "was revoked" in text(response)
    assert role_in(hall, sid.user) is None


def test_an_expired_invitation_answers_410(hall: Club, sid: Person) -> None:
    invitation = Invitation.objects.create(club=hall, role=Role.MEMBER)
    Invitation.objects.update(expires_at=timezone.now() - datetime.timedelta(minutes=1))

    response = sid.client.post(link_of(invitation))

    assert response.status_code == 410
    assert "has expired" in text(response)
    assert role_in(hall, sid.user) is None


def test_a_link_never_made_answers_404(hall: Club, sid: Person) -> None:
    invitation = Invitation.objects.create(club=hall, role=Role.OWNER)
    token = token_of(invitation)
    forged = token[:-2] + ("AA" if not token.endswith("AA") else "BB")

    for url in (
        reverse("club_pages:invitation", args=[forged]),
        reverse("club_pages:invitation", args=["anything"]),
    ):
        assert sid.client.get(url).status_code == 404
        assert sid.client.post(url).status_code == 404
    assert role_in(hall, sid.user) is None


def test_an_invitation_of_another_club_is_not_revoked_through_this_one(
    hall: Club, olive: Person
) -> None:
    other = Invitation.objects.create(club=Club.objects.create(name="Back Room"), role="member")

    response = olive.client.post(reverse("club_pages:revoke_invitation", args=[hall.pk, other.pk]))

    assert response.status_code == 404
    assert Invitation.objects.get().revoked_at is None
