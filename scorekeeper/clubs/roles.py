"""Who holds which role in which club: the questions the access helpers ask (access/clubs.py)."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db.models import QuerySet

from scorekeeper.clubs.models import AT_LEAST, Club, Membership, Role


def roles_of(user: AbstractBaseUser | AnonymousUser) -> dict[int, Role]:
    """Every club ``user`` belongs to, with their role there."""
    if not user.is_authenticated:
        return {}
    rows = Membership.objects.filter(user_id=user.pk).values_list("club_id", "role")
    return {club_id: Role(role) for club_id, role in rows}


def clubs_where(user: AbstractBaseUser | AnonymousUser, at_least: Role) -> QuerySet[Club]:
    """The clubs in which ``user`` holds ``at_least`` or a stronger role."""
    if not user.is_authenticated:
        return Club.objects.none()
    return Club.objects.filter(
        memberships__user_id=user.pk, memberships__role__in=AT_LEAST[at_least]
    ).distinct()


def holds(role: Role | None, at_least: Role) -> bool:
    return role is not None and role in AT_LEAST[at_least]
