"""One normalisation of names, the same on SQLite and PostgreSQL: blank-looking and invisible
names, and names that only look like another (a Cyrillic letter in a Latin name, a fullwidth
name) are refused or made the one name; "Ina" and "İna" are two players, never a 500."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from scorekeeper.tables.models import Match, Player
from scorekeeper.tables.names import BadName, name_look, normal_name
from scorekeeper.tables.scoring import player_named
from tests.web.pages import text
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


# -- names that look alike as whole words (Unicode's skeletons, TR39) ------------------------------

#: the probe's pair: "АНА" all in Cyrillic letters, "AHA" all in Latin ones
CYRILLIC_AHA, LATIN_AHA = "\u0410\u041d\u0410", "AHA"


def test_a_name_in_one_script_that_looks_like_another_in_another_is_the_same_look() -> None:
    assert name_look(CYRILLIC_AHA) == name_look(LATIN_AHA)
    assert name_look("\u0421\u043e\u0440\u0430") == name_look("Copa")  # Сора, Copa
    assert name_look("Ana") != name_look("Anna")
    assert name_look("Иван") != name_look("Ivan")


def test_two_seats_whose_names_look_alike_are_refused_and_start_nothing() -> None:
    """The probe: an all-Cyrillic "АНА" sat down beside a Latin "AHA"."""
    client: Client = scorekeeper_client()

    response = client.post(
        reverse("tables:new_match", args=["straight"]),
        setup_data("straight", LATIN_AHA, CYRILLIC_AHA),
    )

    assert response.status_code == 422
    assert f"{CYRILLIC_AHA} looks like {LATIN_AHA}" in response.content.decode()
    assert not Player.objects.exists()


def test_a_name_that_looks_like_a_known_player_in_another_script_is_refused() -> None:
    player_named(LATIN_AHA)
    client: Client = scorekeeper_client()

    response = client.post(
        reverse("tables:new_match", args=["straight"]),
        setup_data("straight", CYRILLIC_AHA, "Bo"),
    )

    assert response.status_code == 422
    assert (
        f"{CYRILLIC_AHA} looks like the known player {LATIN_AHA}: write {LATIN_AHA} to seat them"
        in response.content.decode()
    )
    assert list(Player.objects.values_list("name", flat=True)) == [LATIN_AHA]


def test_the_known_player_in_the_other_script_is_still_seated_under_their_own_name() -> None:
    aha = player_named(CYRILLIC_AHA)
    client: Client = scorekeeper_client()

    response = client.post(
        reverse("tables:new_match", args=["straight"]),
        setup_data("straight", CYRILLIC_AHA, "Bo"),
    )

    assert response.status_code == 302
    assert aha.seats.count() == 1


@pytest.mark.parametrize(
    ("members", "refusal"),
    [
        (
            f"{LATIN_AHA}, {CYRILLIC_AHA}",
            f"{CYRILLIC_AHA} looks like {LATIN_AHA}: give each player a name that tells them apart",
        ),
        (CYRILLIC_AHA, f"{CYRILLIC_AHA} looks like the known player {LATIN_AHA}"),
    ],
    ids=["both", "one known"],
)
def test_a_league_member_whose_name_looks_like_another_is_refused(
    members: str, refusal: str
) -> None:
    player_named(LATIN_AHA)
    client: Client = scorekeeper_client()

    response = client.post(
        reverse("leagues:league_list"),
        {"name": "Friday Fives", "game": "straight", "members": members},
    )

    assert response.status_code == 422
    assert refusal in response.content.decode()
    assert not Player.objects.filter(name=CYRILLIC_AHA).exists()


def test_a_player_cannot_be_renamed_into_a_look_alike_of_another(admin_client: Client) -> None:
    player_named(LATIN_AHA)
    bo = player_named("Bo")

    response = admin_client.post(
        reverse("admin:tables_player_change", args=[bo.pk]), {"name": CYRILLIC_AHA}
    )

    assert response.status_code == 200
    assert f"{CYRILLIC_AHA} looks like the known player {LATIN_AHA}" in response.content.decode()
    bo.refresh_from_db()
    assert bo.name == "Bo"


def test_a_match_file_naming_a_look_alike_of_a_known_player_is_refused() -> None:
    player_named(LATIN_AHA)
    client: Client = scorekeeper_client()
    document = {"game": "straight", "players": [CYRILLIC_AHA, "Bo"], "hands": []}
    upload = SimpleUploadedFile("m.json", json.dumps(document).encode())

    response = client.post(reverse("tables:import_match"), {"file": upload})

    assert response.status_code == 422
    assert f"look-alike: {CYRILLIC_AHA!r} is the known player {LATIN_AHA!r}" in text(response)
    assert not Match.objects.exists()


def test_a_match_file_seating_two_look_alikes_is_refused() -> None:
    client: Client = scorekeeper_client()
    document = {"game": "straight", "players": [LATIN_AHA, CYRILLIC_AHA], "hands": []}
    upload = SimpleUploadedFile("m.json", json.dumps(document).encode())

    response = client.post(reverse("tables:import_match"), {"file": upload})

    assert response.status_code == 422
    assert f"players[1]: look-alike: {CYRILLIC_AHA!r} looks like {LATIN_AHA!r}" in text(response)
    assert not Player.objects.exists()
