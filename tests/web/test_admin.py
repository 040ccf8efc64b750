from __future__ import annotations

import pytest
from django.test import Client

from scorekeeper.tables.models import Hand, Match

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("model", "shown"),
    [
        ("player", "Jirka"),
        ("match", "Rosa, Earl, Lupe, Dale"),
        ("seat", "Wanda"),
        ("hand", "Lupe"),
        ("play", "Rosa"),
    ],
)
def test_every_list_in_the_admin_opens(
    admin_client_with_matches: Client, model: str, shown: str
) -> None:
    response = admin_client_with_matches.get(f"/admin/tables/{model}/")

    assert response.status_code == 200
    assert shown in response.content.decode()


def test_a_match_and_a_hand_open_in_the_admin(admin_client_with_matches: Client) -> None:
    match = Match.objects.filter(game="straight", finished=False, night_table=None).get()
    hand = Hand.objects.filter(match=match, number=1).get()

    assert (
        admin_client_with_matches.get(f"/admin/tables/match/{match.pk}/change/").status_code == 200
    )
    assert admin_client_with_matches.get(f"/admin/tables/hand/{hand.pk}/change/").status_code == 200


def test_the_admin_is_closed_to_strangers(client: Client) -> None:
    response = client.get("/admin/tables/match/")

    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]


def test_hands_and_plays_cannot_be_changed_behind_the_rules_engines_back(
    admin_client_with_matches: Client,
) -> None:
    """Totals, standings and the history follow only the app's own entries: the admin shows
    what was entered and refuses to change it."""
    match = Match.objects.filter(game="straight", finished=False, night_table=None).get()
    hand = Hand.objects.filter(match=match, number=1).get()
    play = hand.plays.first()
    before = (match.totals, match.version, list(hand.plays.values_list("points", flat=True)))

    edit_hand = admin_client_with_matches.post(
        f"/admin/tables/hand/{hand.pk}/change/", {"number": 1, "end_how": "blocked"}
    )
    edit_play = admin_client_with_matches.post(
        f"/admin/tables/play/{play.pk}/change/", {"number": 1, "seat": 0, "points": 35}
    )
    delete_play = admin_client_with_matches.post(
        f"/admin/tables/play/{play.pk}/delete/", {"post": "yes"}
    )

    assert (edit_hand.status_code, edit_play.status_code, delete_play.status_code) == (
        403,
        403,
        403,
    )
    match.refresh_from_db()
    assert (match.totals, match.version, list(hand.plays.values_list("points", flat=True))) == (
        before
    )
