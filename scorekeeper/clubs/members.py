"""A club made, and its members' roles changed or taken away: what its owner does. A club never
loses its last owner, who alone can hand its roles on."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction

from scorekeeper.clubs.models import Club, Membership, Role

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class NameTaken(Exception):
    """Another club has that name already."""


class LastOwner(Exception):
    """The change would leave the club without an owner."""


def club_create(*, name: str, owner: User) -> Club:
    """A new club, ``owner`` its owner: both rows or neither (a club nobody owns could never be
    run)."""
    try:
        with transaction.atomic():
            club = Club.objects.create(name=name)
            Membership.objects.create(club=club, user=owner, role=Role.OWNER)
    except IntegrityError as taken:
        # two people naming their clubs alike at the same moment: the form checked before
        raise NameTaken from taken
    return club


def club_rename(*, club: Club, name: str) -> None:
    """The club under a new name (the one a migration gave an existing hall, "Our hall", is
    its owner's to change)."""
    club.name = name
    try:
        with transaction.atomic():
            club.save(update_fields=["name"])
    except IntegrityError as taken:
        raise NameTaken from taken


def _locked_membership(club_id: int, user_id: int) -> Membership | None:
    """The member's row, with the club's row locked: two owners changing each other's roles at
    the same moment are taken one after the other, so the last owner check sees both."""
    Club.objects.select_for_update().filter(pk=club_id).first()
    return Membership.objects.filter(club_id=club_id, user_id=user_id).first()


def _owners_left(club_id: int, without: Membership) -> bool:
    return (
        Membership.objects.filter(club_id=club_id, role=Role.OWNER).exclude(pk=without.pk).exists()
    )


def member_role_change(*, club_id: int, user_id: int, role: Role) -> Membership | None:
    """The member's new role (None: no such member); LastOwner when the club's last owner would
    step down."""
    with transaction.atomic():
        membership = _locked_membership(club_id, user_id)
        if membership is None:
            return None
        if (
            membership.role == Role.OWNER
            and role != Role.OWNER
            and not _owners_left(club_id, membership)
        ):
            raise LastOwner
        membership.role = role
        membership.save(update_fields=["role"])
    return membership


def member_remove(*, club_id: int, user_id: int) -> bool:
    """The member leaves the club (False: no such member); LastOwner for its last owner."""
    with transaction.atomic():
        membership = _locked_membership(club_id, user_id)
        if membership is None:
            return False
        if membership.role == Role.OWNER and not _owners_left(club_id, membership):
            raise LastOwner
        membership.delete()
    return True
