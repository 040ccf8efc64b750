"""A club and the people around it, built in one place: Olive owns Corner Hall, Oscar
organizes it, Mia is a member; Sid has an account and no part in it; a visitor has none."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from scorekeeper.clubs.models import Club, Membership, Role

PASSWORD = "plenty of dominoes on the table"


@dataclass(frozen=True)
class Person:
    user: object
    client: Client


def person(username: str, club: Club | None = None, role: Role | None = None) -> Person:
    user = get_user_model().objects.create_user(username, password=PASSWORD)
    if club is not None and role is not None:
        Membership.objects.create(club=club, user=user, role=role)
    client = Client()
    client.force_login(user)
    return Person(user, client)


@pytest.fixture
def hall(db: None) -> Club:
    return Club.objects.create(name="Corner Hall")


@pytest.fixture
def olive(hall: Club) -> Person:
    """The hall's owner."""
    return person("olive", hall, Role.OWNER)


@pytest.fixture
def oscar(hall: Club) -> Person:
    """Organizes the hall's leagues and nights."""
    return person("oscar", hall, Role.ORGANIZER)


@pytest.fixture
def mia(hall: Club) -> Person:
    """A member of the hall."""
    return person("mia", hall, Role.MEMBER)


@pytest.fixture
def sid(db: None) -> Person:
    """Has an account, and no part in the hall."""
    return person("sid")


def role_in(club: Club, user) -> str | None:
    return Membership.objects.filter(club=club, user=user).values_list("role", flat=True).first()


def memberships() -> list[tuple[int, int, str]]:
    return list(Membership.objects.order_by("pk").values_list("club_id", "user_id", "role"))
