"""Two clubs, a league and a season in each, the players who play there and the people who run
them: the personas of the records' tests, built in one place."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper import rules
from scorekeeper.clubs.models import Club, Membership, Role
from scorekeeper.leagues.models import League, Season, SeasonMatch
from scorekeeper.tables.models import Match, Player
from scorekeeper.tables.scoring import create_match, player_named


def account(username: str) -> User:
    user, _ = get_user_model().objects.get_or_create(username=username)
    return user


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def won(winner: str, loser: str) -> rules.Match:
    """One hand to 50: the winner scores 30 and 20."""
    return rules.Match(
        "straight",
        (winner, loser),
        rules={"target": 50},
        hands=(rules.Hand(plays=(rules.Play(winner, points=30), rules.Play(winner, points=20))),),
    )


def played(season: Season, value: rules.Match) -> Match:
    return create_match(
        value, also_write=lambda match: SeasonMatch.objects.create(season=season, match=match)
    )


@dataclass
class Hall:
    club: Club
    league: League
    season: Season
    organizer: User


def hall(name: str, members: tuple[str, ...]) -> Hall:
    """A club with its league, a season and an organizer; ``members`` play in the league."""
    club = Club.objects.create(name=name)
    league = League.objects.create(club=club, name=f"{name} League", game="straight")
    league.members.set([player_named(member) for member in members])
    season = Season.objects.create(
        league=league, name="Autumn", starts_on=datetime.date(2026, 9, 1)
    )
    organizer = account(f"organizer of {name}")
    Membership.objects.create(club=club, user=organizer, role=Role.ORGANIZER)
    return Hall(club, league, season, organizer)


def player(name: str) -> Player:
    return Player.objects.get(name=name)
