"""A club's pages: any account makes a club and owns it; a club's page is for its members; its
owner alone changes roles and takes members out, and a club keeps at least one owner; a role
taken away counts from the next request; anyone else is refused and changes nothing."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.clubs.models import Club, Invitation, Membership, Role
from scorekeeper.leagues.models import League, Season
from scorekeeper.leagues.moves import season_match_add
from tests.club_pages.conftest import Person, memberships, role_in
from tests.web.pages import content, text, text_of
from tests.web.table import stored


def test_any_account_makes_a_club_and_is_its_owner(sid: Person) -> None:
    response = sid.client.post(reverse("club_pages:new_club"), {"name": "Back Room"})

    club = Club.objects.get(name="Back Room")
    assert response["Location"] == reverse("club_pages:club", args=[club.pk])
    assert role_in(club, sid.user) == Role.OWNER
    listed = text(sid.client.get(reverse("club_pages:club_list")))
    assert "Back Room Owner" in listed


def test_a_taken_club_name_is_refused_with_the_reason(hall: Club, sid: Person) -> None:
    response = sid.client.post(reverse("club_pages:new_club"), {"name": "corner hall"})

    assert response.status_code == 422
    assert "There is already a club called corner hall. Choose another name." in text(response)
    assert list(Club.objects.values_list("name", flat=True)) == ["Corner Hall"]
    assert memberships() == []


def test_a_club_without_a_name_is_refused(sid: Person) -> None:
    response = sid.client.post(reverse("club_pages:new_club"), {"name": "  "})

    assert response.status_code == 422
    assert not Club.objects.exists()


def test_a_visitor_is_sent_to_sign_in_for_the_clubs(db: None) -> None:
    for url in (reverse("club_pages:club_list"), reverse("club_pages:new_club")):
        response = Client().get(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))


def test_my_clubs_lists_each_club_with_my_role(hall: Club, oscar: Person) -> None:
    other = Club.objects.create(name="Back Room")
    Membership.objects.create(club=other, user=oscar.user, role=Role.MEMBER)
    Club.objects.create(name="Not Mine")

    listed = text(oscar.client.get(reverse("club_pages:club_list")))

    assert "Back Room Member" in listed
    assert "Corner Hall Organizer" in listed
    assert "Not Mine" not in listed


def test_the_club_page_shows_its_leagues_and_its_members_with_their_roles(
    hall: Club, olive: Person, oscar: Person, mia: Person
) -> None:
    League.objects.create(club=hall, name="Thursday Fives", game="straight")

    page = text(mia.client.get(reverse("club_pages:club", args=[hall.pk])))

    assert "Thursday Fives" in page
    assert "mia Member" in page and "olive Owner" in page and "oscar Organizer" in page
    # a member changes nothing there
    assert "Change the role" not in page


def test_the_club_page_lists_its_own_leagues_matches_only(hall: Club, mia: Person) -> None:
    ours = League.objects.create(club=hall, name="Thursday Fives", game="straight")
    theirs = League.objects.create(
        club=Club.objects.create(name="Across Town"), name="Friday Fives", game="straight"
    )
    for league, players in ((ours, ("Ana", "Bo")), (theirs, ("Cy", "Di"))):
        season = Season.objects.create(league=league, name="Fall", starts_on=datetime.date.today())
        season_match_add(season=season, match=stored("straight", *players))
    stored("straight", "Eve", "Flo")  # a casual match: no club's

    shown = content(mia.client.get(reverse("club_pages:club", args=[hall.pk])))
    listed = text_of(shown.split('data-testid="club-matches"')[1].split("</section>")[0])

    assert "Ana, Bo" in listed
    assert "Cy" not in listed and "Eve" not in listed


def test_the_club_page_is_refused_to_a_stranger(hall: Club, olive: Person, sid: Person) -> None:
    response = sid.client.get(reverse("club_pages:club", args=[hall.pk]))

    assert response.status_code == 403
    assert "Only the club's members can do this." in text(response)


def test_the_owner_renames_the_club_and_a_taken_name_is_refused(hall: Club, olive: Person) -> None:
    Club.objects.create(name="Across Town")
    url = reverse("club_pages:rename_club", args=[hall.pk])

    taken = olive.client.post(url, {"name": "across town"}, follow=True)
    renamed = olive.client.post(url, {"name": "Corner Hall of Fame"}, follow=True)

    assert "There is already a club called across town." in text(taken)
    assert "The club is called Corner Hall of Fame now." in text(renamed)
    assert Club.objects.get(pk=hall.pk).name == "Corner Hall of Fame"


# -- roles ------------------------------------------------------------------------------------


def change_role(who: Person, club: Club, member: Person, role: str):
    url = reverse("club_pages:change_role", args=[club.pk, member.user.pk])
    return who.client.post(url, {"role": role}, follow=True)


def test_the_owner_changes_a_members_role(hall: Club, olive: Person, mia: Person) -> None:
    response = change_role(olive, hall, mia, "organizer")

    assert role_in(hall, mia.user) == Role.ORGANIZER
    assert "mia is now Organizer." in text(response)


def test_the_owner_takes_a_member_out(hall: Club, olive: Person, mia: Person) -> None:
    url = reverse("club_pages:remove_member", args=[hall.pk, mia.user.pk])

    olive.client.post(url)

    assert role_in(hall, mia.user) is None
    assert mia.client.get(reverse("club_pages:club", args=[hall.pk])).status_code == 403


def test_the_last_owner_cannot_step_down_or_be_taken_out(hall: Club, olive: Person) -> None:
    demoted = change_role(olive, hall, olive, "member")
    removed = olive.client.post(
        reverse("club_pages:remove_member", args=[hall.pk, olive.user.pk]), follow=True
    )

    for response in (demoted, removed):
        assert "A club keeps at least one owner" in text(response)
    assert role_in(hall, olive.user) == Role.OWNER


def test_an_owner_steps_down_once_there_is_another(
    hall: Club, olive: Person, oscar: Person
) -> None:
    change_role(olive, hall, oscar, "owner")

    change_role(olive, hall, olive, "member")

    assert (role_in(hall, oscar.user), role_in(hall, olive.user)) == (Role.OWNER, Role.MEMBER)


def test_a_role_that_is_no_role_is_refused(hall: Club, olive: Person, mia: Person) -> None:
    response = change_role(olive, hall, mia, "king")

    assert "Choose one of the roles" in text(response)
    assert role_in(hall, mia.user) == Role.MEMBER


def test_an_organizer_changes_no_roles(hall: Club, oscar: Person, mia: Person) -> None:
    response = change_role(oscar, hall, mia, "owner")

    assert response.status_code == 403
    assert "Only the club's owner can do this." in text(response)
    assert role_in(hall, mia.user) == Role.MEMBER


def test_a_revoked_organizer_is_refused_a_league_change_at_once(
    hall: Club, olive: Person, oscar: Person
) -> None:
    league = League.objects.create(club=hall, name="Thursday Fives", game="straight")
    season = {"name": "Autumn", "starts_on": "2026-09-01", "ends_on": "2026-12-15"}
    assert oscar.client.post(reverse("leagues:league", args=[league.pk]), season).status_code == 302

    change_role(olive, hall, oscar, "member")

    refused = oscar.client.post(
        reverse("leagues:league", args=[league.pk]), {**season, "name": "Winter"}
    )
    assert refused.status_code == 403
    assert list(league.seasons.values_list("name", flat=True)) == ["Autumn"]


# -- a stranger, a member and a visitor change nothing ---------------------------------------------


@pytest.fixture
def every_post(hall: Club, olive: Person, mia: Person) -> list[tuple[str, dict[str, str]]]:
    """Every change a club's pages take, each aimed at the hall, with what it would send."""
    invitation = Invitation.objects.create(club=hall, role=Role.MEMBER, made_by=olive.user)
    return [
        (reverse("club_pages:change_role", args=[hall.pk, mia.user.pk]), {"role": "owner"}),
        (reverse("club_pages:remove_member", args=[hall.pk, olive.user.pk]), {}),
        (reverse("club_pages:password_link", args=[hall.pk, mia.user.pk]), {}),
        (reverse("club_pages:invitations", args=[hall.pk]), {"role": "owner"}),
        (reverse("club_pages:revoke_invitation", args=[hall.pk, invitation.pk]), {}),
    ]


def rows() -> tuple[list, list]:
    return memberships(), list(Invitation.objects.order_by("pk").values())


def test_a_stranger_is_refused_every_change_and_nothing_changes(
    every_post: list[tuple[str, dict[str, str]]], sid: Person
) -> None:
    before = rows()
    for url, data in every_post:
        assert sid.client.post(url, data).status_code == 403, url
    assert rows() == before


def test_a_member_is_refused_every_change_and_nothing_changes(
    every_post: list[tuple[str, dict[str, str]]], mia: Person
) -> None:
    before = rows()
    for url, data in every_post:
        assert mia.client.post(url, data).status_code == 403, url
    assert rows() == before


def test_a_visitor_is_sent_to_sign_in_for_every_change(
    every_post: list[tuple[str, dict[str, str]]],
) -> None:
    before = rows()
    for url, data in every_post:
        response = Client().post(url, data)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("login"))
    assert rows() == before


def test_every_change_needs_its_csrf_token(
    every_post: list[tuple[str, dict[str, str]]], olive: Person
) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(olive.user)
    before = rows()
    for url, data in every_post:
        assert client.post(url, data).status_code == 403, url
    assert rows() == before


def test_a_change_is_not_taken_by_get(
    every_post: list[tuple[str, dict[str, str]]], olive: Person
) -> None:
    before = rows()
    for url, _ in every_post:
        if url.endswith("/invitations/"):
            continue  # the invitations page itself is read with GET
        assert olive.client.get(url).status_code == 405, url
    assert rows() == before
