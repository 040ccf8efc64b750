"""A record claimed: an organizer of a club the player plays in hands over a link and a code,
used once; the signed-in account that uses it becomes the record's owner."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from scorekeeper.records.claims import claim_make
from scorekeeper.records.models import Claim
from tests.records.hall import account, hall, player, signed_in


@pytest.fixture
def north(db: None):
    return hall("North Hall", ("Ana Maria Lopez", "Bo"))


def make_claim(north, name: str = "Ana Maria Lopez") -> tuple[str, str]:
    """An organizer makes a claim through its page: the link and the code it shows."""
    organizer = signed_in(north.organizer)
    response = organizer.post(reverse("records:claim_for_player", args=[player(name).pk]))
    assert response.status_code == 200
    made = response.context["made"]
    return response.context["link"], made.code


def test_an_organizer_makes_a_claim_and_the_player_claims_it_by_its_link(north) -> None:
    link, _ = make_claim(north)
    ana = signed_in(account("ana"))

    page = ana.get(link)
    assert "Ana Maria Lopez" in page.content.decode()
    response = ana.post(link)

    assert response.status_code == 302
    assert player("Ana Maria Lopez").account == account("ana")


def test_opening_the_link_changes_nothing_until_the_player_confirms(north) -> None:
    link, _ = make_claim(north)

    signed_in(account("ana")).get(link)

    assert player("Ana Maria Lopez").account is None


def test_the_player_claims_by_typing_the_code_in_any_case_and_spacing(north) -> None:
    _, code = make_claim(north)
    typed = f" {code[:4].lower()} {code[4:]} "

    response = signed_in(account("ana")).post(reverse("records:claim_code"), {"code": typed})

    assert response.status_code == 302
    assert player("Ana Maria Lopez").account == account("ana")


def test_a_wrong_code_is_refused_and_nothing_changes(north) -> None:
    make_claim(north)

    response = signed_in(account("ana")).post(reverse("records:claim_code"), {"code": "ABCDEFGH"})

    assert response.status_code == 400
    assert "No claim has this code" in response.content.decode()
    assert player("Ana Maria Lopez").account is None


def test_a_code_that_is_not_one_is_a_clear_message(north) -> None:
    response = signed_in(account("ana")).post(reverse("records:claim_code"), {"code": "0O1"})

    assert response.status_code == 400
    assert "Type the 8 characters" in response.content.decode()


def test_a_used_code_is_refused_to_a_second_account(north) -> None:
    _, code = make_claim(north)
    signed_in(account("ana")).post(reverse("records:claim_code"), {"code": code})

    response = signed_in(account("mallory")).post(reverse("records:claim_code"), {"code": code})

    assert response.status_code == 400
    assert "used already" in response.content.decode()
    assert player("Ana Maria Lopez").account == account("ana")


def test_a_used_link_is_refused_to_a_second_account(north) -> None:
    link, _ = make_claim(north)
    signed_in(account("ana")).post(link)

    response = signed_in(account("mallory")).post(link)

    assert response.status_code == 409
    assert player("Ana Maria Lopez").account == account("ana")


def test_an_account_owns_one_record_only(north) -> None:
    _, first = make_claim(north)
    _, second = make_claim(north, "Bo")
    ana = signed_in(account("ana"))
    ana.post(reverse("records:claim_code"), {"code": first})

    response = ana.post(reverse("records:claim_code"), {"code": second})

    assert "owns one record only" in response.content.decode()
    assert player("Bo").account is None


def test_an_expired_or_revoked_claim_is_refused(north) -> None:
    ana = player("Ana Maria Lopez")
    expired = claim_make(player=ana, by=north.organizer)
    Claim.objects.filter(pk=expired.claim.pk).update(
        expires_at=timezone.now() - datetime.timedelta(minutes=1)
    )
    client = signed_in(account("ana"))

    response = client.post(reverse("records:claim_code"), {"code": expired.code})
    assert "expired" in response.content.decode()

    revoked = claim_make(player=ana, by=north.organizer)
    claim_make(player=ana, by=north.organizer)  # a new claim revokes the one before
    response = client.post(reverse("records:claim_code"), {"code": revoked.code})
    assert "revoked" in response.content.decode()
    assert player("Ana Maria Lopez").account is None


def test_wrong_codes_are_counted_and_then_refused(north, settings) -> None:
    settings.CLAIM_FAILURES_PER_HOUR = 2
    _, code = make_claim(north)
    client = signed_in(account("ana"))
    for _ in range(2):
        client.post(reverse("records:claim_code"), {"code": "ABCDEFGH"})

    response = client.post(reverse("records:claim_code"), {"code": code})

    assert response.status_code == 429
    assert player("Ana Maria Lopez").account is None


def test_only_an_organizer_of_a_club_the_player_plays_in_makes_a_claim(north) -> None:
    south = hall("South Hall", ("Cy",))
    url = reverse("records:claim_for_player", args=[player("Ana Maria Lopez").pk])

    assert signed_in(account("stranger")).post(url).status_code == 403
    assert signed_in(south.organizer).post(url).status_code == 403
    assert not Claim.objects.exists()


def test_a_claim_is_never_made_by_typing_a_name(north) -> None:
    response = signed_in(account("ana")).post(
        reverse("records:claim_code"), {"code": "Ana Maria Lopez"}
    )

    assert response.status_code == 400
    assert player("Ana Maria Lopez").account is None
