"""A match entered at the table holds at most as many hands as a match file (one limit, in
rules/limits.py): the play or hand end that would start one more is refused, even kept on
purpose, with what to do (start a rematch). A phone once took a match to 1,400 hands, after
which every tap and page of it cost a second."""

from __future__ import annotations

import pytest
from django.test import Client

from scorekeeper import rules
from scorekeeper.rules import limits
from scorekeeper.tables.models import Hand, Match
from scorekeeper.tables.scoring import create_match
from tests.web.table import blocked, domino, play, post, scorekeeper_client

pytestmark = pytest.mark.django_db


@pytest.fixture
def longest() -> Match:
    """A Straight match of as many hands as a match holds, far from its target: every hand
    ended by Ana going out with Bo holding nothing."""
    end = rules.HandEnd("domino", player="Ana", pips={"Bo": 0})
    value = rules.Match(
        "straight",
        ("Ana", "Bo"),
        rules={"target": limits.MOST_TARGET},
        hands=(rules.Hand(plays=(rules.Play("Ana", points=5),), end=end),) * limits.MOST_HANDS,
    )
    return create_match(value)


@pytest.fixture
def client() -> Client:
    return scorekeeper_client()


@pytest.mark.parametrize("htmx", [False, True])
def test_a_play_that_starts_one_hand_too_many_is_refused_with_what_to_do(
    client: Client, longest: Match, htmx: bool
) -> None:
    response = play(client, longest, "Ana", 5, htmx=htmx, follow=not htmx)

    page = response.content.decode()
    assert "at most 100 hands" in page
    assert "Start a rematch" in page
    assert "Keep 5 for Ana anyway" not in page
    assert Hand.objects.filter(match=longest).count() == limits.MOST_HANDS


def test_kept_on_purpose_it_is_still_refused(client: Client, longest: Match) -> None:
    play(client, longest, "Ana", 5, override="on")
    blocked(client, longest, Ana=0, Bo=0, extra={"override": "on"})

    assert Hand.objects.filter(match=longest).count() == limits.MOST_HANDS
    assert Match.objects.get(pk=longest.pk).version == longest.version


def test_a_hand_of_the_longest_match_can_still_be_corrected(client: Client, longest: Match) -> None:
    """Changing a hand it holds adds none: the table can still fix its record."""
    response = post(client, "undo", longest, {})
    assert response.status_code in (200, 302)
    assert Match.objects.get(pk=longest.pk).version == longest.version + 1
    domino(client, longest, "Ana", Bo=0)
    assert Hand.objects.filter(match=longest).count() == limits.MOST_HANDS
