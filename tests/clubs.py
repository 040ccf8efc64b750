"""The club the tests' leagues belong to, and its organizers (clubs/models.py)."""

from __future__ import annotations

from scorekeeper.clubs.models import Club, Membership, Role

#: the club every test league is made in unless a test makes its own
HALL = "Test Hall"


def the_club() -> Club:
    club, _ = Club.objects.get_or_create(name=HALL)
    return club


def organizer_of_the_club(user, role: Role = Role.ORGANIZER) -> None:
    """``user`` runs the test club's leagues, seasons and nights."""
    Membership.objects.update_or_create(club=the_club(), user=user, defaults={"role": role})
