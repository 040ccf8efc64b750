"""The seam through which the apps above tell the access rules what they know of a match:

- nights: which matches are at a league night played today (the phones holding links to them
  are the hall's own, whose starts are never counted against the address, throttle.py), and
  the path from a match to the accounts directing its night;
- leagues: the path from a match to its league's club.

access imports neither (docs/development.md, *Layers*): each plugs its part in here once, from
its ``AppConfig.ready()``, and access calls the functions below. Nothing plugged in, no match
is at a night and none has a club.

Each function adds a condition to the caller's query, and no query of its own."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass

from django.db.models import Q, QuerySet

from scorekeeper.clubs.models import AT_LEAST, Club, Role
from scorekeeper.tables.models import Player


def _at_no_night(to_match: str, day: datetime.date) -> Q:
    return Q(**{f"{to_match}pk__in": ()})


@dataclass
class _Plugged:
    """What is plugged in: the defaults until nights and leagues plug their parts."""

    at_a_night_on: Callable[[str, datetime.date], Q] = _at_no_night
    #: from a match to its club's id ("league_entry__season__league__club_id")
    match_club: str = ""
    #: from a match to the accounts that direct its night
    match_directors: str = ""
    #: from a player to the clubs they play in ("leagues__club")
    player_clubs: str = ""


_plugged = _Plugged()


def plug(
    *,
    at_a_night_on: Callable[[str, datetime.date], Q] | None = None,
    match_club: str | None = None,
    match_directors: str | None = None,
    player_clubs: str | None = None,
) -> None:
    """Plug an app's part in, from its ``AppConfig.ready()``."""
    if at_a_night_on is not None:
        _plugged.at_a_night_on = at_a_night_on
    if match_club is not None:
        _plugged.match_club = match_club
    if match_directors is not None:
        _plugged.match_directors = match_directors
    if player_clubs is not None:
        _plugged.player_clubs = player_clubs


def at_a_night_on(to_match: str, day: datetime.date) -> Q:
    """The condition on a match, as a ``filter()`` takes it, that it is a table of a league
    night played on ``day``. ``to_match``: the path from the rows asked to the match, such as
    ``"match__"``."""
    return _plugged.at_a_night_on(to_match, day)


def run_by(user_id: int) -> Q:
    """The condition on a match that the account runs it: an organizer or the owner of its
    league's club, or a director of its night."""
    ran = Q(pk__in=())
    if _plugged.match_club:
        club = _plugged.match_club.removesuffix("_id")
        ran |= Q(
            **{
                f"{club}__memberships__user_id": user_id,
                f"{club}__memberships__role__in": AT_LEAST[Role.ORGANIZER],
            }
        )
    if _plugged.match_directors:
        ran |= Q(**{f"{_plugged.match_directors}__id": user_id})
    return ran


def player_run_by(user_id: int) -> Q:
    """The condition on a player that the account runs a club the player plays in (an
    organizer or the owner of a club one of whose leagues lists them)."""
    if not _plugged.player_clubs:
        return Q(pk__in=())
    clubs = _plugged.player_clubs
    return Q(
        **{
            f"{clubs}__memberships__user_id": user_id,
            f"{clubs}__memberships__role__in": AT_LEAST[Role.ORGANIZER],
        }
    )


def player_in_a_club_with(clubs: QuerySet[Club], other_id: int) -> Q:
    """The condition on a player that they play in one of ``clubs`` in which the player
    ``other_id`` plays too (one club, both in it: a subquery, no query of its own)."""
    if not _plugged.player_clubs:
        return Q(pk__in=())
    from_player = _plugged.player_clubs
    theirs = Player.objects.filter(pk=other_id).values(from_player)
    return Q(**{f"{from_player}__in": clubs}) & Q(**{f"{from_player}__in": theirs})
