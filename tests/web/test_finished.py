"""A finished match takes no more entries; a rematch starts again with the same table."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper import rules
from scorekeeper.tables.models import Match, Seat
from tests.web.pages import is_board_only, text, totals, winner
from tests.web.table import FOUR, board, chickenfoot_round, lay, play, rows, stored

OVER = "The match is over: nothing more can be recorded. Start a rematch?"


def won_straight() -> Match:
    """Ana & Cy reached 50 in the first hand's play."""
    return stored(
        "straight",
        *FOUR,
        partnerships=(("Ana", "Cy"), ("Bo", "Di")),
        rules={"target": 50, "round_each_hand": True},
        hands=(
            rules.Hand(
                leader="Ana",
                plays=(rules.Play("Ana", points=30), rules.Play("Cy", points=20)),
            ),
        ),
    )


def finished_chickenfoot() -> Match:
    """Seven rounds of a double-six set: Ana went out of every one."""
    end = rules.HandEnd("domino", player="Ana", pips={"Bo": 5, "Cy": 6, "Di": 7})
    return stored("chickenfoot", *FOUR, hands=tuple(rules.Hand(end=end) for _ in range(7)))


def test_a_play_after_the_match_is_won_is_refused(client: Client, db: None) -> None:
    match = won_straight()
    assert winner(board(client, match)) == "Ana & Cy win the match."

    response = play(client, match, "Bo", 10)

    assert response.status_code == 302
    page = board(client, match)
    assert text(page).count(OVER) == 1
    assert totals(page) == [50, 0]
    assert rows(match) == (1, 2)


def test_a_play_sent_by_htmx_after_the_match_is_won_is_refused(client: Client, db: None) -> None:
    match = won_straight()

    response = play(client, match, "Bo", 10, htmx=True)

    assert response.status_code == 422
    assert is_board_only(response)
    assert text(response).count(OVER) == 1
    assert totals(response) == [50, 0]
    assert rows(match) == (1, 2)


def test_a_round_after_the_last_round_is_refused(client: Client, db: None) -> None:
    match = finished_chickenfoot()
    assert winner(board(client, match)) == "Ana wins the match."

    response = chickenfoot_round(client, match, went_out="Bo", Ana=1, Cy=2, Di=3, htmx=True)

    assert response.status_code == 422
    assert OVER in text(response)
    assert totals(response) == [0, 35, 42, 49]
    assert rows(match) == (7, 0)


def test_a_double_after_the_match_is_won_is_refused(client: Client, db: None) -> None:
    match = stored("sedma", *FOUR, rules={"target": 3})
    lay(client, match, "Ana", "1-1")
    lay(client, match, "Ana", "2-2")
    assert winner(board(client, match)) == "Ana wins the match."

    lay(client, match, "Bo", "3-3")

    assert totals(board(client, match)) == [3, 0, 0, 0]
    assert rows(match) == (1, 2)


@pytest.mark.parametrize("htmx", [False, True])
def test_a_rematch_seats_the_same_players_under_the_same_rules(
    client: Client, db: None, htmx: bool
) -> None:
    match = won_straight()

    response = client.post(
        reverse("tables:rematch", args=[match.pk]), headers={"HX-Request": "true"} if htmx else {}
    )

    again = Match.objects.exclude(pk=match.pk).get()
    url = reverse("tables:scoreboard", args=[again.pk])
    if htmx:
        assert response["HX-Redirect"] == url
    else:
        assert response.status_code == 302
        assert response["Location"] == url
    assert again.game == "straight"
    assert again.rules == {"target": 50, "round_each_hand": True}
    seats = Seat.objects.filter(match=again).order_by("position")
    assert [(seat.player.name, seat.team) for seat in seats] == [
        ("Ana", 0),
        ("Bo", 1),
        ("Cy", 0),
        ("Di", 1),
    ]
    assert rows(again) == (0, 0)
    page = board(client, again)
    assert totals(page) == [0, 0]
    assert winner(page) is None


def test_a_rematch_leaves_the_finished_match_as_it_was(client: Client, db: None) -> None:
    match = finished_chickenfoot()

    client.post(reverse("tables:rematch", args=[match.pk]))

    assert rows(match) == (7, 0)
    assert winner(board(client, match)) == "Ana wins the match."
    again = Match.objects.exclude(pk=match.pk).get()
    assert totals(board(client, again)) == [0, 0, 0, 0]
