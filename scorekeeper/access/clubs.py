"""The access helpers of a club's rows: one question each, asked by every view that does it.

A role in one club gives nothing in another (clubs/models.py). The site's superuser, who runs
the server, holds every role everywhere.

- ``club_role``: the request's role in a club, or None (worked out once per request);
- ``runs_club``: whether it may run the club's leagues, seasons and nights (its organizers
  and its owner); ``clubs_run``: the clubs it may run, where it may make a league;
- ``club_for``: the club, refused (403) to anyone without the role asked;
- ``require_club_role``: the same question where the view has the club's id already;
- ``locked_in_club``: a row of the club's (a league, a season, a night) locked for a change
  its organizers make; ``locked_for_director``: a night's row, for its directors too;
- ``runs_match``: whether the request runs the match's club or directs its night (the paths
  to both are plugged in by leagues and nights, access/seams.py);
- ``runs_player``, ``player_for_organizer``: a player's record, for an organizer of a club
  the player plays in (a merge, a name forgotten, a claim's code handed over).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.core.exceptions import PermissionDenied
from django.db.models import F, Model, Q, QuerySet
from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext

from scorekeeper.access import seams
from scorekeeper.clubs.models import AT_LEAST, Club, Role
from scorekeeper.clubs.roles import clubs_where, holds, roles_of
from scorekeeper.tables.models import Match, Player

RowT = TypeVar("RowT", bound=Model)

ORGANIZER_ONLY = "Only an organizer of this club can do this. Sign in as one."


def club_roles(request: HttpRequest) -> dict[int, Role]:
    """Every club the request's account belongs to, with its role there: read once."""
    if "_club_roles" not in request.__dict__:
        request.__dict__["_club_roles"] = roles_of(request.user)
    roles: dict[int, Role] = request.__dict__["_club_roles"]
    return roles


def is_superuser(request: HttpRequest) -> bool:
    return bool(request.user.is_authenticated and request.user.is_superuser)


def club_role(request: HttpRequest, club_id: int | None) -> Role | None:
    if club_id is None:
        return None
    if is_superuser(request):
        return Role.OWNER
    return club_roles(request).get(club_id)


def runs_club(request: HttpRequest, club_id: int | None) -> bool:
    """Its organizers and owner run a club's leagues, seasons and nights."""
    return holds(club_role(request, club_id), Role.ORGANIZER)


def runs_any_club(request: HttpRequest) -> bool:
    return is_superuser(request) or any(
        holds(role, Role.ORGANIZER) for role in club_roles(request).values()
    )


def clubs_run(request: HttpRequest) -> QuerySet[Club]:
    """The clubs whose leagues the request may run: where a new league may be made."""
    if is_superuser(request):
        return Club.objects.all()
    return clubs_where(request.user, Role.ORGANIZER)


def require_club_role(request: HttpRequest, club_id: int | None, at_least: Role) -> None:
    """Refused (403) and nothing changes, unless the request holds ``at_least`` in the club."""
    if not holds(club_role(request, club_id), at_least):
        if at_least == Role.OWNER:
            raise PermissionDenied(gettext("Only the club's owner can do this."))
        if at_least == Role.ORGANIZER:
            raise PermissionDenied(gettext(ORGANIZER_ONLY))
        raise PermissionDenied(gettext("Only the club's members can do this."))


def club_for(request: HttpRequest, pk: int, at_least: Role) -> Club:
    """The club, for someone holding ``at_least`` in it: 404 for no such club, 403 else."""
    club = get_object_or_404(Club, pk=pk)
    require_club_role(request, club.pk, at_least)
    return club


def locked_in_club(
    request: HttpRequest, rows: QuerySet[RowT], *, club: str, **lookup: object
) -> RowT:
    """The row of ``rows`` that ``lookup`` finds, locked for a change an organizer of its club
    makes (``club``: the path from the row to its club, "league__club"): 404 for no such row,
    403 for anyone else. Its own row alone is locked, not those it is read with."""
    row: RowT = get_object_or_404(
        rows.select_for_update(of=("self",)).annotate(_club_id=F(f"{club}_id")), **lookup
    )
    require_club_role(request, vars(row)["_club_id"], Role.ORGANIZER)
    row._locked_for_change = True  # type: ignore[attr-defined]  # a mark, read below
    return row


def locked_for_director(
    request: HttpRequest, rows: QuerySet[RowT], *, club: str, directors: str, **lookup: object
) -> RowT:
    """As ``locked_in_club``, for the row's directors too (``directors``: the path from the row
    to the accounts that direct it, "directors")."""
    row: RowT = get_object_or_404(rows.select_for_update(of=("self",)), **lookup)
    require_director(
        request, type(row)._default_manager.all(), club=club, directors=directors, pk=row.pk
    )
    row._locked_for_change = True  # type: ignore[attr-defined]
    return row


def directs(
    request: HttpRequest, rows: QuerySet[Model], *, club: str, directors: str, **lookup: object
) -> bool:
    """Whether the request runs the row of ``rows`` that ``lookup`` finds (a night): an
    organizer or the owner of its club, or one of the accounts that direct it. One query, once
    per request and row."""
    user = request.user
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    key = f"_directs_{rows.model._meta.label}_{sorted(lookup.items())}"
    if key not in request.__dict__:
        ran = Q(
            **{
                f"{club}__memberships__user_id": user.pk,
                f"{club}__memberships__role__in": AT_LEAST[Role.ORGANIZER],
            }
        ) | Q(**{f"{directors}__id": user.pk})
        request.__dict__[key] = rows.filter(**lookup).filter(ran).exists()
    return bool(request.__dict__[key])


def require_director(
    request: HttpRequest, rows: QuerySet[Model], *, club: str, directors: str, **lookup: object
) -> None:
    """Refused (403) unless the request runs the row (``directs``)."""
    if not directs(request, rows, club=club, directors=directors, **lookup):
        raise PermissionDenied(
            gettext("Only this night's director or the club's organizers can do this.")
        )


def runs_match(request: HttpRequest, match: Match) -> bool:
    """Whether the request may change any of the match's results: an organizer of the club its
    league belongs to, or a director of the night it is played at. Casual matches have no
    club: only their owner and links change them. One query, once per request and match."""
    return _asked_once(request, Match, match.pk, seams.run_by)


def runs_player(request: HttpRequest, player: Player) -> bool:
    """Whether the request runs a club the player plays in. One query, once per request and
    player."""
    return _asked_once(request, Player, player.pk, seams.player_run_by)


def _asked_once(
    request: HttpRequest, model: type[Model], pk: int, run_by: Callable[[int], Q]
) -> bool:
    """Whether the request's account runs the row ``pk`` of ``model``, as ``run_by`` says for
    an account: the site's administrator runs everything, nobody signed out anything. Asked of
    the database once per request and row."""
    user = request.user
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    asked: dict[tuple[str, int], bool] = request.__dict__.setdefault("_runs", {})
    key = (model._meta.label, pk)
    if key not in asked:
        rows = model._default_manager.filter(pk=pk)
        asked[key] = rows.filter(run_by(user.pk)).exists()
    return asked[key]


def player_for_organizer(
    request: HttpRequest, pk: int, rows: QuerySet[Player] | None = None
) -> Player:
    """The player's record, for an organizer of a club the player plays in: 404 for no such
    player, 403 for anyone else. Read from ``rows`` (locked, for a change: access/records.py)."""
    player: Player = get_object_or_404(Player.objects.all() if rows is None else rows, pk=pk)
    if not runs_player(request, player):
        raise PermissionDenied(
            gettext("Only an organizer of a club this player plays in can do this.")
        )
    return player


def was_locked(row: Model) -> bool:
    """Whether ``row`` was read locked by the helpers above for the change being made."""
    return getattr(row, "_locked_for_change", False)
