"""Who runs a night: the organizers of its league's club, and the accounts they name its
directors. A director runs that night only (its rounds, clock, desk, disputes and corrections of
its matches): not its league's settings, nor another night. The access helpers ask access/clubs.py
with the paths from a night to its club and its directors."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import QuerySet
from django.http import HttpRequest

from scorekeeper.access.clubs import (
    directs,
    locked_for_director,
    locked_in_club,
    require_director,
)
from scorekeeper.clubs.models import Membership
from scorekeeper.nights.models import Night

#: a night as its pages read it: with its season and league
NIGHTS = Night.objects.select_related("season__league")
#: from a night to its club, and to its directors
CLUB = "season__league__club"
DIRECTORS = "directors"


def night_for_director(request: HttpRequest, pk: int) -> Night:
    """The night locked for a change its directors or its club's organizers make: a check-in,
    a draw, a round started, partners paired, a player leaving."""
    return locked_for_director(request, NIGHTS, club=CLUB, directors=DIRECTORS, pk=pk)


def require_runs_night(request: HttpRequest, pk: int) -> None:
    """Refused (403) unless the request runs the night: the pages and buttons only its
    directors and its club's organizers open (the desk, the table cards, the round clock's
    buttons), asked before anything else is read."""
    require_director(request, Night.objects.all(), club=CLUB, directors=DIRECTORS, pk=pk)


def night_for_organizer(request: HttpRequest, pk: int) -> Night:
    """The night locked for its club's organizers alone: its directors named or removed."""
    return locked_in_club(request, NIGHTS, club=CLUB, pk=pk)


def runs_night(request: HttpRequest, night: Night) -> bool:
    """Whether the request runs the night: its page shows the buttons to those who may."""
    return directs(request, Night.objects.all(), club=CLUB, directors=DIRECTORS, pk=night.pk)


def may_direct(night: Night) -> QuerySet[AbstractBaseUser]:
    """Who may be named the night's director: the members of its league's club."""
    members = Membership.objects.filter(club_id=night.season.league.club_id)
    users: QuerySet[AbstractBaseUser] = get_user_model()._default_manager.filter(
        pk__in=members.values("user_id")
    )
    return users.order_by("username")
