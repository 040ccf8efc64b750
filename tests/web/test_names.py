"""A name is stored once, trimmed and in one Unicode form, and names that differ only in case
and spaces are one player: a look-alike of a known player is refused with the name to use."""

from __future__ import annotations

import json
import unicodedata

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse

from scorekeeper.tables.models import Match, Player
from scorekeeper.tables.names import BadName, name_key, normal_name
from scorekeeper.tables.scoring import player_named
from tests.access.conftest import everything
from tests.web.pages import text
from tests.web.table import setup_data

pytestmark = pytest.mark.django_db


def upload(client: Client, players: list[str]):
    document = {
        "game": "straight",
        "players": players,
        "hands": [{"plays": [{"player": players[0], "points": 10}]}],
    }
    raw = json.dumps(document).encode()
    return client.post(reverse("tables:import_match"), {"file": SimpleUploadedFile("m.json", raw)})


def seated(match: Match) -> list[str]:
    return list(match.seats.order_by("position").values_list("player__name", flat=True))


# -- the rules of a name ---------------------------------------------------------------------------


def test_a_name_is_trimmed_spaced_once_and_composed() -> None:
    decomposed = unicodedata.normalize("NFD", "José")
    assert normal_name(f"  {decomposed}   Luis ") == "José Luis"
    assert normal_name(f"  {decomposed}   Luis ") == unicodedata.normalize("NFC", "José Luis")


@pytest.mark.parametrize("bad", ["Ana\x00", "A\tna", "Ana\r", "Ana\u202eoB", "\u200b"])
def test_control_characters_nul_and_right_to_left_overrides_are_refused(bad: str) -> None:
    with pytest.raises(BadName):
        normal_name(bad)


def test_names_differing_only_in_case_and_spaces_are_the_same_player() -> None:
    assert name_key("Ana Maria") == name_key("ana maria") == name_key(" AnaMaria ")
    assert name_key("Ana\u200bMaria") == name_key("AnaMaria")
    assert name_key("Ana") != name_key("Anna")


# -- the setup form (a phone starting a match, an organizer, anyone who may start) ----------------


def test_two_seats_for_the_same_player_are_refused(client: Client) -> None:
    response = client.post(
        reverse("tables:new_match", args=["straight"]), setup_data("straight", "Ana", "ana ")
    )

    assert response.status_code == 422
    assert "ana and Ana are the same player" in text(response)
    assert not Match.objects.exists()


def test_a_known_player_typed_another_way_is_refused_with_the_name_to_use(client: Client) -> None:
    player_named("Ana Maria")
    before = everything()

    response = client.post(
        reverse("tables:new_match", args=["straight"]),
        setup_data("straight", "anamaria", "Bo"),
    )

    assert response.status_code == 422
    assert "anamaria looks like the known player Ana Maria: write Ana Maria to seat them" in text(
        response
    )
    assert everything() == before


def test_a_known_name_with_stray_spaces_seats_the_known_player(client: Client) -> None:
    ana = player_named("Ana")

    client.post(
        reverse("tables:new_match", args=["straight"]), setup_data("straight", "  Ana ", "Bo")
    )

    assert seated(Match.objects.get()) == ["Ana", "Bo"]
    assert Match.objects.get().seats.get(position=0).player == ana
    assert Player.objects.count() == 2


def test_a_name_with_a_control_character_is_refused(client: Client) -> None:
    response = client.post(
        reverse("tables:new_match", args=["straight"]), setup_data("straight", "A\tna", "Bo")
    )

    assert response.status_code == 422
    assert "A name cannot hold control characters" in text(response)
    assert not Player.objects.exists()


# -- imports ---------------------------------------------------------------------------------------


def test_an_imported_name_with_a_trailing_space_is_the_known_player(client: Client) -> None:
    """The probe: "Ana" and "Ana " imported as two players."""
    upload(client, ["Ana", "Bo"])
    upload(client, ["Ana ", "Bo"])

    assert Player.objects.count() == 2
    assert [seated(match) for match in Match.objects.order_by("pk")] == [["Ana", "Bo"]] * 2


def test_a_file_seating_one_player_twice_is_refused(client: Client) -> None:
    response = upload(client, ["Ana", "ANA "])

    assert response.status_code == 422
    assert "players[1]: duplicate-player: 'ANA ' is the same player as 'Ana'" in text(response)
    assert not Match.objects.exists()


def test_a_file_naming_a_known_player_another_way_is_refused(client: Client) -> None:
    upload(client, ["Ana", "Bo"])

    response = upload(client, ["ANA", "Bo"])

    assert response.status_code == 422
    assert "players[0]: look-alike: 'ANA' is the known player 'Ana'" in text(response)
    assert Match.objects.count() == 1


# -- leagues and the admin -------------------------------------------------------------------------


def test_a_league_member_typed_another_way_is_refused(client: Client) -> None:
    player_named("Ana")

    response = client.post(
        reverse("leagues:league_list"),
        {"name": "Friday Fives", "game": "straight", "members": "ana, Bo, Bo "},
    )

    assert response.status_code == 422
    assert "ana looks like the known player Ana" in text(response)


def test_an_admin_cannot_rename_a_player_into_another(admin_client: Client) -> None:
    player_named("Ana")
    bo = player_named("Bo")

    response = admin_client.post(
        reverse("admin:tables_player_change", args=[bo.pk]), {"name": " ana"}
    )

    assert response.status_code == 200
    assert "ana is the same player as Ana." in text(response)
    bo.refresh_from_db()
    assert (bo.name, bo.key) == ("Bo", "bo")


# -- players kept before keys ----------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_players_told_apart_only_by_spaces_before_keys_stay_apart_and_the_first_is_found() -> None:
    before = [("tables", "0004_seats_not_names")]
    after = [("tables", "0005_player_key")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps.get_model("tables", "Player")
    first, second = (old.objects.create(name=name).pk for name in ("Ana", "Ana "))

    executor = MigrationExecutor(connection)
    executor.migrate(after)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    kept = dict(Player.objects.values_list("pk", "name"))
    assert kept == {first: "Ana", second: "Ana "}
    assert player_named("ana").pk == first
