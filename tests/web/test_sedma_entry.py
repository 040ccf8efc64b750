from __future__ import annotations

import re

import pytest
from django.test import Client

from scorekeeper import rules
from scorekeeper.tables.models import Hand, Match
from tests.web.pages import (
    content,
    double_button_disabled,
    is_board_only,
    next_up,
    text,
    text_of,
    totals,
    winner,
)
from tests.web.table import FOUR, board, lay, post, rows, saved, stored

# The worked example of docs/rules.md (*Sedma*) with Ana, Bo, Cy and Di for P1 to P4.
WORKED_LINE = [
    ("Ana", "1-1"), ("Bo", "1-2"), ("Cy", "2-4"), ("Di", "4-4"), ("Ana", "4-0"), ("Bo", "0-0"),
    ("Cy", "0-6"), ("Di", "6-6"), ("Ana", "6-5"), ("Bo", "5-5"), ("Cy", "5-2"), ("Di", "2-2"),
    ("Ana", "2-3"), ("Bo", "3-3"),
]  # fmt: skip

# Each double scores 1 + the lighter doubles down: 1, 2, 3, 4, 5, 6, and 0-0 last 1 + 6 = 7.
SEVEN_DOUBLES = [
    ("Ana", "1-1"), ("Bo", "2-2"), ("Cy", "3-3"), ("Di", "4-4"), ("Ana", "5-5"), ("Bo", "6-6"),
    ("Cy", "0-0"),
]  # fmt: skip


def test_a_double_goes_back_to_the_scoreboard_with_its_point(
    client: Client, sedma_match: Match
) -> None:
    response = lay(client, sedma_match, "Ana", "4-4")

    assert saved(response, sedma_match)
    assert totals(board(client, sedma_match)) == [1, 0, 0, 0]


def test_a_double_sent_by_htmx_answers_with_the_board_alone(
    client: Client, sedma_match: Match
) -> None:
    response = lay(client, sedma_match, "Ana", "4-4", htmx=True)

    assert response.status_code == 200
    assert is_board_only(response)
    assert totals(response) == [1, 0, 0, 0]


def test_a_double_scores_one_for_itself_and_one_for_each_lighter_double_down(
    client: Client, sedma_match: Match
) -> None:
    for player, tile in [("Ana", "2-2"), ("Bo", "5-5"), ("Cy", "4-4"), ("Di", "6-6")]:
        lay(client, sedma_match, player, tile)

    # 2-2: 1; 5-5: 1 + 2-2; 4-4: 1 + 2-2; 6-6: 1 + 2-2, 5-5, 4-4
    assert totals(board(client, sedma_match)) == [1, 2, 2, 4]


def test_the_double_blank_is_the_lightest_double(client: Client, sedma_match: Match) -> None:
    lay(client, sedma_match, "Ana", "0-0")
    lay(client, sedma_match, "Bo", "3-3")

    # 3-3 after 0-0: 1 + 1 for the 0-0 below it
    assert totals(board(client, sedma_match)) == [1, 2, 0, 0]


def test_the_double_blank_is_also_the_heaviest_double(client: Client, sedma_match: Match) -> None:
    lay(client, sedma_match, "Ana", "1-1")
    lay(client, sedma_match, "Bo", "2-2")
    lay(client, sedma_match, "Cy", "0-0")

    # 0-0 after 1-1 and 2-2: 1 + 2
    page = board(client, sedma_match)
    assert totals(page) == [1, 2, 3, 0]
    assert "Cy sets 0-0: 1 + 2 for every double already down (1-1 and 2-2) = 3." in text(page)


def test_a_double_already_down_cannot_be_tapped_again(client: Client, sedma_match: Match) -> None:
    response = lay(client, sedma_match, "Ana", "4-4", htmx=True)

    assert double_button_disabled(response, "4-4")
    assert not double_button_disabled(response, "5-5")
    page = board(client, sedma_match)
    assert double_button_disabled(page, "4-4")
    assert [double_button_disabled(page, f"{d}-{d}") for d in range(7)].count(True) == 1


def test_the_whole_line_tile_by_tile_scores_the_worked_example(
    client: Client, sedma_match: Match
) -> None:
    for player, tile in WORKED_LINE:
        response = lay(client, sedma_match, player, tile)
        assert saved(response, sedma_match), (player, tile)

    page = board(client, sedma_match)
    assert totals(page) == [1, 11, 0, 9]
    assert Hand.objects.get(match=sedma_match, number=1).end_how == "all-doubles"
    assert next_up(page).startswith("Hand 2: Bo opens with a double")


def test_the_line_so_far_is_shown_as_laid(client: Client, sedma_match: Match) -> None:
    for player, tile in WORKED_LINE[:3]:
        lay(client, sedma_match, player, tile)

    assert "1-1 · 1-2 · 2-4" in text(board(client, sedma_match))


def test_the_hand_ends_by_itself_when_all_seven_doubles_are_down(
    client: Client, sedma_match: Match
) -> None:
    for player, tile in SEVEN_DOUBLES:
        lay(client, sedma_match, player, tile)

    page = board(client, sedma_match)
    assert totals(page) == [1 + 5, 2 + 6, 3 + 7, 4]
    assert Hand.objects.get(match=sedma_match, number=1).end_how == "all-doubles"
    assert next_up(page).startswith("Hand 2: Bo opens with a double")
    # a new hand: every double can be set again
    assert not any(double_button_disabled(page, f"{d}-{d}") for d in range(7))


def test_a_player_after_the_scheduled_opener_setting_the_first_double_is_asked_at_once(
    client: Client, sedma_match: Match
) -> None:
    asked = lay(client, sedma_match, "Cy", "5-5")

    assert asked.status_code == 422
    assert (
        "Hand 1: Ana had the first turn to open, so Cy opening means Ana and Bo had no double."
    ) in text(asked)
    assert not Hand.objects.filter(match=sedma_match, number=1).exclude(opener_seat=0).exists()

    lay(client, sedma_match, "Cy", "5-5", override="on")

    hand = Hand.objects.get(match=sedma_match, number=1)
    assert hand.opener_seat == 2
    assert hand.passed_seats == [0, 1]
    assert totals(board(client, sedma_match)) == [0, 0, 1, 0]


@pytest.mark.parametrize("htmx", [False, True])
def test_a_later_player_opening_is_asked_as_a_plain_question_not_shown_as_an_error(
    client: Client, sedma_match: Match, htmx: bool
) -> None:
    asked = lay(client, sedma_match, "Cy", "5-5", htmx=htmx)

    found = re.search(r'<section class="outcome[^"]*"[^>]*>(.*?)</section>', content(asked), re.S)
    assert found is not None, "the answer asks nothing"
    assert "outcome-error" not in found.group(0)
    question = text_of(found.group(1))
    assert question.startswith(
        "Hand 1: Ana had the first turn to open, so Cy opening means Ana and Bo had no double. "
        "Is that so?"
    )
    assert "Error" not in question
    assert "cannot happen" not in question
    assert "Not saved" not in question
    assert "Yes, Cy opened with 5-5" in question
    assert "No, tap who opened" in question
    # the question is the only thing the table is asked; nothing is stored until it answers
    assert not Hand.objects.filter(match=sedma_match).exclude(opener_seat=0).exists()


def test_the_next_hand_is_opened_left_of_the_scheduled_opener_not_the_actual_one(
    client: Client, sedma_match: Match
) -> None:
    lay(client, sedma_match, "Cy", "5-5", override="on")
    for player, tile in [("Di", "1-1"), ("Cy", "2-2"), ("Di", "3-3"), ("Cy", "4-4")]:
        lay(client, sedma_match, player, tile)
    lay(client, sedma_match, "Di", "6-6")
    lay(client, sedma_match, "Cy", "0-0")

    page = board(client, sedma_match)
    # Ana had the turn to open hand 1, so Bo has it for hand 2
    assert next_up(page).startswith("Hand 2: Bo opens with a double")

    lay(client, sedma_match, "Bo", "6-6")

    second = Hand.objects.get(match=sedma_match, number=2)
    assert second.opener_seat == 1
    assert second.passed_seats == []


def test_the_first_hands_opener_with_no_double_passes_the_opening(client: Client, db: None) -> None:
    match = stored("sedma", *FOUR)

    lay(client, match, "Di", "6-6")

    hand = Hand.objects.get(match=match)
    assert hand.opener_seat == 3
    assert hand.passed_seats == []
    assert totals(board(client, match)) == [0, 0, 0, 1]


@pytest.mark.parametrize("htmx", [False, True])
def test_a_hand_ended_early_is_followed_by_the_next_opener(
    client: Client, sedma_match: Match, htmx: bool
) -> None:
    lay(client, sedma_match, "Ana", "3-3")
    lay(client, sedma_match, "Bo", "5-5")

    response = post(client, "end_hand", sedma_match, {"how": "blocked"}, htmx=htmx)

    if htmx:
        assert response.status_code == 200
        assert is_board_only(response)
        page = response
    else:
        assert saved(response, sedma_match)
        page = board(client, sedma_match)
    assert totals(page) == [1, 2, 0, 0]
    assert Hand.objects.get(match=sedma_match, number=1).end_how == "blocked"
    assert next_up(page).startswith("Hand 2: Bo opens with a double")


def test_reaching_the_target_wins_the_match_at_once(client: Client, db: None) -> None:
    match = stored("sedma", *FOUR, rules={"target": 10})

    for tile in ["1-1", "2-2", "3-3", "4-4"]:
        lay(client, match, "Ana", tile)

    page = board(client, match)
    # 1 + 2 + 3 + 4
    assert totals(page) == [10, 0, 0, 0]
    assert winner(page) == "Ana wins the match."
    assert rows(match) == (1, 4)


def test_in_the_first_hand_a_player_left_off_the_passes_cannot_set_a_double_later(
    client: Client, db: None
) -> None:
    # Ana was due (the first named); Di opened; Bo, left off the record, passed all the same
    first = rules.Hand(
        opener="Di",
        passed_opening=("Ana", "Cy"),
        plays=(rules.Play("Di", tile=(6, 6)), rules.Play("Ana", tile=(6, 1))),
    )
    match = stored("sedma", *FOUR, hands=(first,))

    refused = lay(client, match, "Bo", "1-1")

    assert refused.status_code == 422
    assert (
        "Hand 1, play 3: Bo passed the opening for want of a double, so cannot set 1-1 later"
    ) in text(refused)
    assert totals(board(client, match)) == [0, 0, 0, 1]
