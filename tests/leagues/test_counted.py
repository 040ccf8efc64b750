"""Ratings and player records count the matches played in a league season or started by a
signed-in scorekeeper; what a phone without an account starts counts for nothing there, so a
rating cannot be bought with made-up matches."""

from __future__ import annotations

import datetime
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper import rules
from scorekeeper.leagues.models import League, Season
from scorekeeper.leagues.moves import season_match_add
from scorekeeper.leagues.ratings import Game, rate_game
from scorekeeper.tables.models import Match
from scorekeeper.tables.scoring import create_match
from tests.access.conftest import account
from tests.clubs import the_club
from tests.web.pages import text
from tests.web.table import setup_data

pytestmark = pytest.mark.django_db


def earl_beats_dale() -> rules.Match:
    """One hand to 50: Earl scores 30 and 20."""
    plays = (rules.Play("Earl", points=30), rules.Play("Earl", points=20))
    return rules.Match(
        "straight", ("Earl", "Dale"), rules={"target": 50}, hands=(rules.Hand(plays=plays),)
    )


def one_win() -> tuple[int, int]:
    """The winner's and the loser's rating after one match between newcomers."""
    winner, loser = rate_game(Game(1, (("Earl",), ("Dale",)), (1, 2)), {}, {})
    return winner.after.shown, loser.after.shown


def ratings_page() -> str:
    return text(Client().get(reverse("leagues:ratings", args=["straight"])))


def player_page(name: str) -> str:
    person = Match.objects.filter(seats__player__name=name).first().seats.get(player__name=name)
    return text(Client().get(reverse("leagues:player", args=[person.player_id])))


def started_by_a_phone(phone: Client) -> Match:
    """A phone without an account starts Earl against Dale to 50 and plays the hand out."""
    phone.post(
        reverse("tables:new_match", args=["straight"]),
        setup_data("straight", "Earl", "Dale", target="50", first="1"),
    )
    match = Match.objects.latest("pk")
    for _ in range(2):
        phone.post(
            reverse("tables:record_play", args=[match.pk]),
            # Earl, in the first seat
            {"player": "0", "points": "25", "entry_key": uuid.uuid4().hex},
        )
    match.refresh_from_db()
    assert match.finished
    return match


def test_matches_a_phone_without_an_account_starts_move_no_rating() -> None:
    """The probe: 30 one-hand wins of Earl over Dale moved Dale's (Elo) rating from 1516 to
    1302."""
    phone = Client()
    started_by_a_phone(phone)
    for _ in range(29):
        create_match(earl_beats_dale())  # what a start without an account stores

    assert "No finished match yet." in ratings_page()
    assert "Dale No matches yet." in player_page("Dale")


def test_a_match_a_signed_in_scorekeeper_started_moves_the_ratings() -> None:
    create_match(earl_beats_dale(), user=account("rosa"))
    for _ in range(5):
        create_match(earl_beats_dale())

    page = ratings_page()

    earl, dale = one_win()
    assert f"Earl {earl} provisional 1" in page
    assert f"Dale {dale} provisional 1" in page


def test_a_league_match_counts_whoever_started_it() -> None:
    league = League.objects.create(club=the_club(), name="Thursday Fives", game="straight")
    season = Season.objects.create(league=league, name="Autumn", starts_on=datetime.date.today())
    season_match_add(season=season, match=create_match(earl_beats_dale()))
    create_match(earl_beats_dale())

    assert f"Earl {one_win()[0]} provisional 1" in ratings_page()
    assert "1 played" in player_page("Earl")
    assert "1 won" in player_page("Earl")
