"""My record: the claimed player's matches, standings and ratings in every club, in one place;
the initials on public pages; the owner's data to download."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper import rules
from scorekeeper.nights import round_draw, rounds
from scorekeeper.nights.models import Night
from scorekeeper.tables.models import Player
from tests.nights.test_public import ORGANIZER, night_of, pairings_url
from tests.records.hall import account, hall, played, player, signed_in, won


@pytest.fixture
def ana(db: None) -> Player:
    """Ana Maria Lopez plays in two clubs and owns her record."""
    north = hall("North Hall", ("Ana Maria Lopez", "Bo"))
    south = hall("South Hall", ("Ana Maria Lopez", "Cy"))
    played(north.season, won("Ana Maria Lopez", "Bo"))
    played(south.season, won("Cy", "Ana Maria Lopez"))
    record = player("Ana Maria Lopez")
    record.account = account("ana")
    record.save(update_fields=["account"])
    return record


def test_my_record_shows_the_matches_and_standings_of_every_club(ana: Player) -> None:
    response = signed_in(account("ana")).get(reverse("records:my_record"))

    page = response.content.decode()
    assert response.status_code == 200
    assert "North Hall" in page and "South Hall" in page
    clubs = response.context["record"].clubs
    assert [str(kept.club) for kept in clubs] == ["North Hall", "South Hall"]
    assert [(row.won, len(kept.matches)) for kept in clubs for _, row in kept.standings] == [
        (1, 1),
        (0, 1),
    ]
    assert [rating.game for rating in response.context["record"].ratings] == ["straight"]


def test_my_record_without_a_claimed_record_explains_how_to_claim(db: None) -> None:
    response = signed_in(account("nobody")).get(reverse("records:my_record"))

    assert "Ask an organizer" in response.content.decode()
    assert reverse("records:claim_code") in response.content.decode()


def test_my_record_asks_to_sign_in(db: None) -> None:
    response = Client().get(reverse("records:my_record"))

    assert response.status_code == 302
    assert reverse("login") in response["Location"]


def test_the_owner_asks_for_initials_and_public_pages_show_them(ana: Player) -> None:
    owner = signed_in(account("ana"))
    season = ana.leagues.get(club__name="North Hall").seasons.get()
    standings = reverse("leagues:season", args=[season.league_id, season.pk])
    match = ana.matches.filter(league_entry__season=season).get()
    scoreboard = reverse("tables:scoreboard", args=[match.pk])
    assert "Ana Maria Lopez" in Client().get(standings).content.decode()

    owner.post(reverse("records:my_initials"), {"initials_only": "1"})

    wall = reverse("leagues:wall", args=[season.league_id, season.pk])
    csv = reverse("leagues:standings_csv", args=[season.league_id, season.pk])
    # the match's history says who scored: Ana alone
    history = reverse("tables:history", args=[match.pk])
    for url in (standings, scoreboard, wall, csv, history):
        page = Client().get(url).content.decode()
        assert "A. M. L." in page, url
        assert "Ana Maria Lopez" not in page, url
        # the other player keeps their whole name
        assert url == history or "Bo" in page, url


def test_a_match_being_played_is_listed_by_initials_on_the_season_page(ana: Player) -> None:
    ana.initials_only = True
    ana.save(update_fields=["initials_only"])
    season = ana.leagues.get(club__name="North Hall").seasons.get()
    played(season, rules.Match("straight", ("Ana Maria Lopez", "Bo"), rules={"target": 50}))

    page = Client().get(reverse("leagues:season", args=[season.league_id, season.pk]))

    # the standings and the list of matches being played alike
    assert "A. M. L." in page.content.decode()
    assert "Ana Maria Lopez" not in page.content.decode()


def test_the_owner_takes_the_initials_back(ana: Player) -> None:
    owner = signed_in(account("ana"))
    owner.post(reverse("records:my_initials"), {"initials_only": "1"})

    owner.post(reverse("records:my_initials"), {"initials_only": "0"})

    assert not player("Ana Maria Lopez").initials_only


def test_the_initials_switch_is_the_owners_alone(ana: Player) -> None:
    response = signed_in(account("stranger")).post(
        reverse("records:my_initials"), {"initials_only": "1"}
    )

    assert response.status_code == 302
    assert not player("Ana Maria Lopez").initials_only


def test_the_organizers_player_page_keeps_the_whole_name(ana: Player) -> None:
    ana.initials_only = True
    ana.save(update_fields=["initials_only"])
    organizer = account("organizer of North Hall")
    url = reverse("leagues:player", args=[ana.pk])

    assert "Ana Maria Lopez" in signed_in(organizer).get(url).content.decode()
    page = Client().get(url).content.decode()
    assert "A. M. L." in page
    assert "Ana Maria Lopez" not in page


def test_the_owner_downloads_their_data(ana: Player) -> None:
    response = signed_in(account("ana")).get(reverse("records:my_data"))

    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment;")
    data = json.loads(response.content)
    assert data["name"] == "Ana Maria Lopez"
    assert sorted((m["club"], m["won"]) for m in data["matches"]) == [
        ("North Hall", True),
        ("South Hall", False),
    ]
    assert all(m["date"] and m["game"] == "straight" and m["sides"] for m in data["matches"])
    assert [(s["club"], s["won"]) for s in data["standings"]] == [
        ("North Hall", 1),
        ("South Hall", 0),
    ]
    assert [r["game"] for r in data["ratings"]] == ["straight"]


def test_the_data_is_the_owners_alone(ana: Player) -> None:
    assert Client().get(reverse("records:my_data")).status_code == 302
    response = signed_in(account("stranger")).get(reverse("records:my_data"))
    assert response.status_code == 302
    assert "Content-Disposition" not in response


def test_a_nights_public_pairings_show_the_initials(db: None) -> None:
    night = night_of(("Ana Maria Lopez", "Bo", "Cy", "Di"))
    ana = player("Ana Maria Lopez")
    ana.initials_only = True
    ana.save(update_fields=["initials_only"])
    drawn = round_draw.draw_round(Night.objects.get(pk=night.pk))
    url = pairings_url(night)
    assert "A. M. L." in Client().get(url).content.decode()

    rounds.start_round(drawn, by=ORGANIZER)

    page = Client().get(url).content.decode()
    assert "A. M. L." in page
    assert "Ana Maria Lopez" not in page
    assert "Bo" in page
