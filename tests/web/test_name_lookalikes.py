"""One normalisation of names, the same on SQLite and PostgreSQL: blank-looking and invisible
names, and names that only look like another (a Cyrillic letter in a Latin name, a fullwidth
name) are refused or made the one name; "Ina" and "İna" are two players, never a 500."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.tables.models import Player
from scorekeeper.tables.names import BadName, normal_name
from scorekeeper.tables.scoring import player_named
from tests.web.table import scorekeeper_client, setup_data

pytestmark = pytest.mark.django_db

#: the probe's names, each accepted as a new player
REFUSED = {
    "blank Braille pattern alone": "\u2800",
    "Hangul filler alone": "\u3164",
    "Rosa and a Hangul filler": "Rosa\u3164",
    "Rosa with a Cyrillic o": "R\u043esa",
    "Rosa with a combining grapheme joiner": "Ro\u034fsa",
}


@pytest.mark.parametrize("name", REFUSED.values(), ids=REFUSED.keys())
def test_a_name_that_only_looks_like_a_name_is_refused(name: str) -> None:
    with pytest.raises(BadName):
        normal_name(name)


@pytest.mark.parametrize("name", REFUSED.values(), ids=REFUSED.keys())
def test_the_setup_form_refuses_it_and_starts_nothing(name: str) -> None:
    client: Client = scorekeeper_client()
    response = client.post(
        reverse("tables:new_match", args=["straight"]), setup_data("straight", "Ana", name)
    )
    assert response.status_code == 422
    assert not Player.objects.filter(name=name).exists()


def test_a_fullwidth_name_is_the_same_player() -> None:
    rosa = player_named("Rosa")

    assert normal_name("\uff32\uff4f\uff53\uff41") == "Rosa"
    assert player_named("\uff32\uff4f\uff53\uff41") == rosa


def test_names_in_one_other_script_are_kept() -> None:
    assert [normal_name(name) for name in ("Иван", "Jiří", "Łukasz", "Zoë")] == [
        "Иван",
        "Jiří",
        "Łukasz",
        "Zoë",
    ]


def test_ina_and_ina_with_a_dot_are_two_players_on_every_database() -> None:
    """The probe, on PostgreSQL: a 500, the database's lower() taking them for one name."""
    ina, dotted = player_named("Ina"), player_named("\u0130na")

    assert ina != dotted
    assert player_named("ina") == ina
    assert Player.objects.filter(name__in=["Ina", "\u0130na"]).count() == 2
