"""What the engine is told beyond a player's pips and points survives being stored: a play marked
as the lead, and partners' pips counted together. Each reads back as it was stored, in the match
file the match exports and in the hands its history keeps; a count together follows a renamed
player."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scorekeeper import rules
from scorekeeper.rules.matchfile import write_match
from scorekeeper.tables.changes import with_written_hands
from scorekeeper.tables.models import Change, Hand, Match, Play, Player
from scorekeeper.tables.scoring import create_match, match_file_value, with_everything
from scorekeeper.tables.seats import by_name, by_seat
from tests.web.table import FOUR, scorekeeper_client

TEAMS = (("Ana", "Cy"), ("Bo", "Di"))

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


def written_after(match) -> rules.Match:
    """The match as its first change keeps it, players by name."""
    seating = with_everything(Match.objects.filter(pk=match.pk)).get().seating()
    change = Change.objects.get(match=match, number=1)
    return by_name(with_written_hands(by_seat(seating), change.after), seating.players)


# -- the lead ---------------------------------------------------------------------------------


def test_a_play_marked_as_the_lead_is_stored_as_the_lead() -> None:
    match = create_match(LED)

    stored = Play.objects.filter(hand__match=match).order_by("hand__number", "number")
    assert list(stored.values_list("points", "lead")) == [(10, True), (15, False), (25, True)]


def test_a_stored_lead_reads_back_as_the_same_match() -> None:
    match = create_match(LED)

    assert match_file_value(with_everything(Match.objects.filter(pk=match.pk)).get()) == LED


def test_a_lead_kept_too_high_is_stored_as_kept_on_purpose() -> None:
    match = create_match(LED)

    play = Play.objects.get(hand__match=match, hand__number=2, number=1)
    assert (play.lead, play.overridden) == (True, True)
    board = rules.score_match(
        match_file_value(with_everything(Match.objects.filter(pk=match.pk)).get())
    )
    assert [(f.code, f.hand, f.play) for f in board.errors] == [("lead-too-high", 2, 1)]


def test_the_history_keeps_the_lead() -> None:
    match = create_match(LED)

    assert written_after(match) == LED


def test_the_exported_match_file_marks_the_lead() -> None:
    match = create_match(LED)

    exported = scorekeeper_client().get(reverse("tables:export_json", args=[match.pk]))

    written = json.loads(exported.content)
    assert written["hands"][0]["plays"] == [
        {"player": "Ana", "points": 10, "lead": True},
        {"player": "Bo", "points": 15},
    ]


# -- partners' pips counted together ----------------------------------------------------------

COUNTED = rules.Match(
    "straight",
    FOUR,
    partnerships=TEAMS,
    hands=(
        rules.Hand(
            leader="Ana",
            end=rules.HandEnd("domino", player="Ana", pips={"Bo & Di": 23, "Cy": 9}),
        ),
        rules.Hand(
            leader="Ana",
            end=rules.HandEnd("domino", player="Di", pips={"Ana & Cy": 12, "Bo & Di": 4}),
        ),
    ),
)


def test_pips_counted_together_are_stored_by_the_partners_seats() -> None:
    match = create_match(COUNTED)

    stored = Hand.objects.filter(match=match).order_by("number")
    assert list(stored.values_list("pips", flat=True)) == [
        {"1 & 3": 23, "2": 9},
        {"0 & 2": 12, "1 & 3": 4},
    ]


def test_pips_counted_together_read_back_as_the_same_match() -> None:
    match = create_match(COUNTED)

    value = match_file_value(with_everything(Match.objects.filter(pk=match.pk)).get())

    assert value == COUNTED
    assert rules.score_match(value).totals == {"Ana & Cy": 25, "Bo & Di": 10}


def test_the_history_keeps_pips_counted_together() -> None:
    match = create_match(COUNTED)

    assert written_after(match) == COUNTED


def test_pips_counted_together_follow_a_renamed_player() -> None:
    match = create_match(COUNTED)
    bo = Player.objects.get(name="Bo")
    bo.name = "Bob"
    bo.save()

    value = match_file_value(with_everything(Match.objects.filter(pk=match.pk)).get())

    assert value.hands[0].end.pips == {"Bob & Di": 23, "Cy": 9}
    assert rules.score_match(value).totals == {"Ana & Cy": 25, "Bob & Di": 10}
    exported = scorekeeper_client().get(reverse("tables:export_json", args=[match.pk]))
    assert json.loads(exported.content)["hands"][1]["end"]["pips"] == {
        "Ana & Cy": 12,
        "Bob & Di": 4,
    }


def test_an_imported_match_file_with_pips_counted_together_exports_the_same() -> None:
    client = scorekeeper_client()
    document = write_match(COUNTED)

    response = client.post(
        reverse("tables:import_match"),
        {"file": SimpleUploadedFile("match.json", json.dumps(document).encode())},
    )

    assert response.status_code == 302, response.content.decode()[:2000]
    match = Match.objects.get()
    exported = client.get(reverse("tables:export_json", args=[match.pk]))
    assert json.loads(exported.content) == document
