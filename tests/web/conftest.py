"""The matches the web tests start from: one of each game, just started, as the setup form
stores them (create_match is what the setup view calls)."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.test import Client

from scorekeeper import rules
from scorekeeper.tables.models import Match
from tests.web.table import FOUR, scorekeeper_client, stored


@pytest.fixture
def straight_match(db: None) -> Match:
    """Ana, Bo, Cy and Di each for themselves, to 250; Ana leads the first hand."""
    return stored("straight", *FOUR, hands=(rules.Hand(leader="Ana"),))


@pytest.fixture
def partners_match(db: None) -> Match:
    """Ana & Cy against Bo & Di, to 250; Ana leads the first hand."""
    return stored(
        "straight",
        *FOUR,
        partnerships=(("Ana", "Cy"), ("Bo", "Di")),
        hands=(rules.Hand(leader="Ana"),),
    )


@pytest.fixture
def chickenfoot_match(db: None) -> Match:
    """Ana, Bo, Cy and Di with a double-six set: seven rounds, 6-6 down to 0-0."""
    return stored("chickenfoot", *FOUR)


@pytest.fixture
def sedma_match(db: None) -> Match:
    """Ana, Bo, Cy and Di in playing order, to 61; Ana has the first turn to open."""
    return stored("sedma", *FOUR, hands=(rules.Hand(opener="Ana"),))


@pytest.fixture
def client(db: None) -> Client:
    """The table tests enter scores as someone who may: the hall's organizer."""
    return scorekeeper_client()


@pytest.fixture
def admin_client_with_matches(client: Client, django_user_model) -> Client:
    """A superuser in the admin, with the demo's matches and league to look at."""
    call_command("demo", stdout=io.StringIO())
    admin = django_user_model.objects.create_superuser("keeper", "keeper@example.com", "s3cret!")
    client.force_login(admin)
    return client
