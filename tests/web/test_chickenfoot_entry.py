from __future__ import annotations

import pytest
from django.test import Client

from scorekeeper.tables.models import Hand, Match
from tests.web.pages import is_board_only, next_up, side_is_leading, text, totals, winner
from tests.web.table import board, chickenfoot_round, play, rows, saved, stored


def test_a_round_goes_back_to_the_scoreboard_with_everyones_pips(
    client: Client, chickenfoot_match: Match
) -> None:
    response = chickenfoot_round(client, chickenfoot_match, went_out="Bo", Ana=10, Cy=7, Di=3)

    assert saved(response, chickenfoot_match)
    page = board(client, chickenfoot_match)
    assert totals(page) == [10, 0, 7, 3]
    assert next_up(page).startswith("Round 2 starts with 5-5")


def test_a_round_sent_by_htmx_answers_with_the_board_alone(
    client: Client, chickenfoot_match: Match
) -> None:
    response = chickenfoot_round(
        client, chickenfoot_match, went_out="Bo", htmx=True, Ana=10, Cy=7, Di=3
    )

    assert response.status_code == 200
    assert is_board_only(response)
    assert totals(response) == [10, 0, 7, 3]
    assert next_up(response).startswith("Round 2 starts with 5-5")


def test_a_blocked_round_scores_everyones_pips(client: Client, chickenfoot_match: Match) -> None:
    chickenfoot_round(client, chickenfoot_match, Ana=4, Bo=9, Cy=12, Di=6)

    assert totals(board(client, chickenfoot_match)) == [4, 9, 12, 6]


def test_the_double_blank_left_in_a_hand_counts_fifty(
    client: Client, chickenfoot_match: Match
) -> None:
    chickenfoot_round(
        client, chickenfoot_match, went_out="Bo", double_blank="Di", Ana=10, Cy=7, Di=3
    )

    page = board(client, chickenfoot_match)
    assert totals(page) == [10, 0, 7, 53]
    assert "Di: 3 pips + 0-0 counted as 50 = 53." in text(page)


@pytest.mark.parametrize(("counts", "di"), [(25, 28), (0, 3)])
def test_what_the_double_blank_counts_is_a_house_rule(
    client: Client, db: None, counts: int, di: int
) -> None:
    match = stored("chickenfoot", rules={"double_blank": counts})

    chickenfoot_round(client, match, went_out="Bo", double_blank="Di", Ana=10, Cy=7, Di=3)

    assert totals(board(client, match)) == [10, 0, 7, di]


def test_each_round_starts_with_the_next_double_down(
    client: Client, chickenfoot_match: Match
) -> None:
    chickenfoot_round(client, chickenfoot_match, went_out="Bo", Ana=10, Cy=7, Di=3)
    chickenfoot_round(client, chickenfoot_match, went_out="Ana", Bo=8, Cy=2, Di=11)

    page = board(client, chickenfoot_match)
    assert totals(page) == [10, 8, 9, 14]
    assert next_up(page).startswith("Round 3 starts with 4-4")


def test_the_lowest_total_is_the_one_highlighted(client: Client, chickenfoot_match: Match) -> None:
    chickenfoot_round(client, chickenfoot_match, went_out="Cy", Ana=10, Bo=7, Di=3)

    page = board(client, chickenfoot_match)
    assert [side_is_leading(page, name) for name in ("Ana", "Bo", "Cy", "Di")] == [
        False,
        False,
        True,
        False,
    ]


def test_who_set_the_rounds_double_is_kept(client: Client, chickenfoot_match: Match) -> None:
    chickenfoot_round(
        client, chickenfoot_match, went_out="Bo", extra={"starter": "Cy"}, Ana=10, Cy=7, Di=3
    )

    hand = Hand.objects.get(match=chickenfoot_match)
    assert hand.starter_seat == 2
    assert "Round 1 started with 6-6, set by Cy." in text(board(client, chickenfoot_match))


def test_a_preview_of_a_round_shows_the_points_and_saves_nothing(
    client: Client, chickenfoot_match: Match
) -> None:
    response = chickenfoot_round(
        client,
        chickenfoot_match,
        went_out="Bo",
        double_blank="Ana",
        extra={"preview": "1"},
        Ana=10,
        Cy=7,
        Di=3,
    )

    assert response.status_code == 200
    said = text(response)
    assert "Check before saving: round 1" in said
    assert "Ana: 10 pips + 0-0 counted as 50 = 60." in said
    assert totals(response) == [0, 0, 0, 0]
    assert rows(chickenfoot_match) == (0, 0)


def test_the_lowest_total_after_the_last_round_wins(client: Client, db: None) -> None:
    match = stored("chickenfoot", "Ana", "Bo", "Cy")
    rounds = [
        ("Ana", {"Bo": 10, "Cy": 20}),
        ("Bo", {"Ana": 12, "Cy": 20}),
        ("Ana", {"Bo": 5, "Cy": 20}),
        ("Bo", {"Ana": 5, "Cy": 20}),
        ("Ana", {"Bo": 3, "Cy": 20}),
        ("Bo", {"Ana": 3, "Cy": 20}),
    ]
    for out, pips in rounds:
        chickenfoot_round(client, match, went_out=out, **pips)
    assert next_up(board(client, match)).startswith("Round 7 starts with 0-0")

    chickenfoot_round(client, match, Ana=2, Bo=2, Cy=9)

    page = board(client, match)
    # Ana 12 + 5 + 3 + 2 = 22, Bo 10 + 5 + 3 + 2 = 20, Cy 6 * 20 + 9 = 129
    assert totals(page) == [22, 20, 129]
    assert winner(page) == "Bo wins the match."
    assert "Save the round" not in text(page)


def test_a_tie_for_the_lowest_total_shares_the_win(client: Client, db: None) -> None:
    match = stored("chickenfoot", "Ana", "Bo", "Cy")
    rounds = [
        ("Ana", {"Bo": 10, "Cy": 20}),
        ("Bo", {"Ana": 10, "Cy": 20}),
        ("Ana", {"Bo": 5, "Cy": 20}),
        ("Bo", {"Ana": 5, "Cy": 20}),
        ("Ana", {"Bo": 3, "Cy": 20}),
        ("Bo", {"Ana": 3, "Cy": 20}),
        ("", {"Ana": 2, "Bo": 2, "Cy": 9}),
    ]
    for out, pips in rounds:
        chickenfoot_round(client, match, went_out=out, **pips)

    page = board(client, match)
    assert totals(page) == [20, 20, 129]
    assert winner(page) == "Ana and Bo share the win."
    assert Match.objects.get(pk=match.pk).winners == [0, 1]


def test_chickenfoot_is_not_entered_play_by_play(client: Client, chickenfoot_match: Match) -> None:
    response = play(client, chickenfoot_match, "Ana", 10)

    assert response.status_code == 404
    assert rows(chickenfoot_match) == (0, 0)
