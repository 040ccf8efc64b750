from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.test import Client

from scorekeeper.tables.models import Hand, Match

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client_with_matches(client: Client, django_user_model) -> Client:
    call_command("demo", stdout=io.StringIO())
    admin = django_user_model.objects.create_superuser("keeper", "keeper@example.com", "s3cret!")
    client.force_login(admin)
    return client


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
    match = Match.objects.filter(game="straight", finished=False).get()
    hand = Hand.objects.filter(match=match, number=1).get()

    assert (
        admin_client_with_matches.get(f"/admin/tables/match/{match.pk}/change/").status_code == 200
    )
    assert admin_client_with_matches.get(f"/admin/tables/hand/{hand.pk}/change/").status_code == 200


def test_the_admin_is_closed_to_strangers(client: Client) -> None:
    response = client.get("/admin/tables/match/")

    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]
