"""A scoreboard with something to explain and something to flag, and a browser that asks for a
language: the cookie the switcher sets, or the Accept-Language header a phone sends."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from scorekeeper import rules
from scorekeeper.tables.models import Match
from tests.web.table import scorekeeper_client, stored

LANGUAGES = ("es", "pl", "cs")


@pytest.fixture
def flagged_match(db: None) -> Match:
    """Ana & Cy against Bo & Di. Hand 1: Ana's play of 12 (kept, but no multiple of five), Bo 10,
    then Bo dominoes with Ana 12, Cy 9 and Di 4 left: 21 rounds to 20. Bo leads hand 2."""
    return stored(
        "straight",
        "Ana",
        "Bo",
        "Cy",
        "Di",
        partnerships=(("Ana", "Cy"), ("Bo", "Di")),
        hands=(
            rules.Hand(
                leader="Ana",
                plays=(rules.Play("Ana", points=12), rules.Play("Bo", points=10)),
                end=rules.HandEnd("domino", "Bo", pips={"Ana": 12, "Cy": 9, "Di": 4}),
            ),
        ),
    )


def speaking(language: str, client: Client | None = None) -> Client:
    """A scorekeeper's browser whose language was chosen with the switcher."""
    client = client or scorekeeper_client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client
