"""A name is stored once: a player renamed in the admin is shown under the new name on every
board, history entry, standings row, export and match file, and no page fails."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.leagues.models import Season
from scorekeeper.tables.models import Match, Player
from tests.web.pages import HTMX
from tests.web.table import seat_of

pytestmark = pytest.mark.django_db

OLD, NEW = "Rosa", "Rosalind Q"


@pytest.fixture
def admin(admin_client_with_matches: Client) -> Client:
    return admin_client_with_matches


def rename(admin: Client, player: Player, name: str) -> None:
    response = admin.post(reverse("admin:tables_player_change", args=[player.pk]), {"name": name})
    assert response.status_code == 302, response.content.decode()[:2000]


def pages_showing(player: Player) -> list[str]:
    """Every page that shows the player: their matches' pages and exports, their league's
    pages, their own page, the lists and the ratings."""
    season = Season.objects.get()
    league, pk = season.league_id, season.pk
    urls = [
        reverse("tables:home"),
        reverse("leagues:player_list"),
        reverse("leagues:player", args=[player.pk]),
        reverse("leagues:ratings", args=["straight"]),
        reverse("leagues:league", args=[league]),
        reverse("leagues:season", args=[league, pk]),
        reverse("leagues:wall", args=[league, pk]),
        reverse("leagues:season_matches", args=[league, pk]),
        reverse("leagues:standings_csv", args=[league, pk]),
        reverse("leagues:hands_csv", args=[league, pk]),
    ]
    for match in Match.objects.filter(seats__player=player):
        for name in ("scoreboard", "history", "sheet", "export_csv", "export_json"):
            urls.append(reverse(f"tables:{name}", args=[match.pk]))
    return urls


def test_a_renamed_player_is_shown_by_the_new_name_everywhere(admin: Client) -> None:
    player = Player.objects.get(name=OLD)
    # a change in the history that names the player
    for match in Match.objects.filter(seats__player=player, finished=False, game="straight"):
        response = admin.post(
            reverse("tables:record_play", args=[match.pk]),
            {"player": seat_of(match, OLD), "points": "5", "entry_key": "k1"},
            headers=HTMX,
        )
        assert response.status_code == 200

    rename(admin, player, NEW)

    for url in pages_showing(player):
        response = admin.get(url)
        assert response.status_code == 200, url
        page = b"".join(response) if response.streaming else response.content
        text = page.decode()
        assert NEW in text, url
        assert not re.search(rf"\b{OLD}\b", text), url


def test_the_match_file_written_after_a_rename_carries_the_new_name(admin: Client) -> None:
    player = Player.objects.get(name=OLD)
    match = Match.objects.filter(seats__player=player, night_table=None).first()

    rename(admin, player, NEW)
    written = json.loads(admin.get(reverse("tables:export_json", args=[match.pk])).content)

    assert NEW in written["players"]
    names_in_hands = {play["player"] for hand in written["hands"] for play in hand.get("plays", [])}
    assert OLD not in names_in_hands
    assert NEW in names_in_hands


def test_a_play_entered_after_a_rename_is_recorded_under_the_new_name(admin: Client) -> None:
    player = Player.objects.get(name=OLD)
    match = Match.objects.filter(
        seats__player=player, finished=False, game="straight", night_table=None
    ).get()
    rename(admin, player, NEW)

    response = admin.post(
        reverse("tables:record_play", args=[match.pk]),
        {"player": seat_of(match, NEW), "points": "10", "entry_key": "k2"},
    )

    assert response.status_code == 302
    history = admin.get(reverse("tables:history", args=[match.pk])).content.decode()
    assert f"{NEW} scored 10" in history
