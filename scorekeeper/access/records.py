"""The access helpers of a player's record: one question each, asked by every view that does it.

- ``record_for_owner``: the record the request's account owns (claimed, records/claims.py);
- ``records_for_merge``: two records of the same person, both locked, for an organizer of a
  club both play in (or the superuser);
- ``record_for_organizer``: one record, locked, for an organizer of a club the player plays
  in (a name forgotten).

The claim's code handed over asks ``player_for_organizer`` (access/clubs.py).
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest
from django.utils.translation import gettext

from scorekeeper.access import seams
from scorekeeper.access.clubs import is_superuser, player_for_organizer
from scorekeeper.clubs.models import Role
from scorekeeper.clubs.roles import clubs_where
from scorekeeper.tables.models import Player


def record_for_owner(request: HttpRequest) -> Player | None:
    """The record the request's account owns, or None (signed out, or nothing claimed)."""
    if not request.user.is_authenticated:
        return None
    return Player.objects.filter(account_id=request.user.pk).first()


def _locked(players: QuerySet[Player], *pks: int) -> list[Player]:
    """The players, locked in the order of their ids (two merges at once wait, never
    deadlock)."""
    return list(players.select_for_update().filter(pk__in=pks).order_by("pk"))


def records_for_merge(request: HttpRequest, pk: int, other_pk: int) -> tuple[Player, Player]:
    """The record kept (``pk``) and the one merged into it (``other_pk``), both locked for the
    merge (call inside its transaction): 404 for either missing, 403 unless the request runs a
    club both play in."""
    rows = {player.pk: player for player in _locked(Player.objects.all(), pk, other_pk)}
    if pk not in rows or other_pk not in rows:
        raise Http404(gettext("No such player."))
    if not is_superuser(request):
        both = (
            Player.objects.filter(pk=pk)
            .filter(
                seams.player_in_a_club_with(clubs_where(request.user, Role.ORGANIZER), other_pk)
            )
            .exists()
        )
        if not both:
            raise PermissionDenied(
                gettext("Only an organizer of a club both players play in can merge them.")
            )
    return rows[pk], rows[other_pk]


def record_for_organizer(request: HttpRequest, pk: int) -> Player:
    """The player's record, locked for a change an organizer of a club the player plays in
    makes (call inside its transaction): 404 for no such player, 403 for anyone else."""
    return player_for_organizer(request, pk, Player.objects.select_for_update())


def merge_candidates(request: HttpRequest, player: Player) -> QuerySet[Player]:
    """The records the request may merge into ``player``: those of the players who play in a
    club it runs with them (every other record, for the superuser)."""
    others = Player.objects.exclude(pk=player.pk)
    if is_superuser(request):
        return others
    clubs = clubs_where(request.user, Role.ORGANIZER)
    return others.filter(seams.player_in_a_club_with(clubs, player.pk)).distinct()
