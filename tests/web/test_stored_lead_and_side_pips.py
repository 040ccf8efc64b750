"""What the engine is told beyond a player's pips and points survives being stored: a play marked
as the lead reads back as it was stored, in the match file the match exports and in the hands
its history keeps."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from scorekeeper import rules
from scorekeeper.tables.changes import with_kept_hands
from scorekeeper.tables.models import Change, Play
from scorekeeper.tables.scoring import create_match, match_value, refetch
from scorekeeper.tables.seats import by_name, by_seat
from tests.web.table import FOUR, scorekeeper_client

pytestmark = pytest.mark.django_db

LED = rules.Match(
    "straight",
    FOUR,
    hands=(
        rules.Hand(
            leader="Ana",
            plays=(
                rules.Play("Ana", points=10, lead=True),
                rules.Play("Bo", points=15),
            ),
            end=rules.HandEnd("domino", player="Ana", pips={"Bo": 12, "Cy": 9, "Di": 11}),
        ),
        rules.Hand(leader="Ana", plays=(rules.Play("Ana", points=25, lead=True),)),
    ),
)


def kept_after(match) -> rules.Match:
    """The match as its first change keeps it, players by name."""
    seating = refetch(match).seating()
    change = Change.objects.get(match=match, number=1)
    return by_name(with_kept_hands(by_seat(seating), change.after), seating.players)


# -- the lead ---------------------------------------------------------------------------------


def test_a_play_marked_as_the_lead_is_stored_as_the_lead() -> None:
    match = create_match(LED)

    stored = Play.objects.filter(hand__match=match).order_by("hand__number", "number")
    assert list(stored.values_list("points", "lead")) == [(10, True), (15, False), (25, True)]


def test_a_stored_lead_reads_back_as_the_same_match() -> None:
    match = create_match(LED)

    assert match_value(refetch(match)) == LED


def test_a_lead_kept_too_high_is_stored_as_kept_on_purpose() -> None:
    match = create_match(LED)

    play = Play.objects.get(hand__match=match, hand__number=2, number=1)
    assert (play.lead, play.overridden) == (True, True)
    board = rules.score_match(match_value(refetch(match)))
    assert [(f.code, f.hand, f.play) for f in board.errors] == [("lead-too-high", 2, 1)]


def test_the_history_keeps_the_lead() -> None:
    match = create_match(LED)

    assert kept_after(match) == LED


def test_the_exported_match_file_marks_the_lead() -> None:
    match = create_match(LED)

    exported = scorekeeper_client().get(reverse("tables:export_json", args=[match.pk]))

    written = json.loads(exported.content)
    assert written["hands"][0]["plays"] == [
        {"player": "Ana", "points": 10, "lead": True},
        {"player": "Bo", "points": 15},
    ]
