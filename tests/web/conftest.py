"""The matches the web tests start from: one of each game, just started, as the setup form
stores them (create_match is what the setup view calls)."""

from __future__ import annotations

import pytest
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
