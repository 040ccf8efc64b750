"""An entry the rules call impossible is refused until the table says it happened anyway."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from scorekeeper import rules
from scorekeeper.tables.models import Hand, Match, Play
from tests.web.pages import content, is_board_only, text, text_of, totals
from tests.web.table import (
    FOUR,
    board,
    chickenfoot_round,
    domino,
    lay,
    play,
    rows,
    saved,
    stored,
)

KEPT = "Kept on purpose although the rules flag it."
NOT_A_FIVE = (
    "Hand 1, play 1: Ana scored 12, but the open ends only score when they add up to a multiple "
    "of five (5, 10, 15 ...)."
)


# -- Straight Dominoes ------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True])
def test_a_play_that_is_no_multiple_of_five_is_refused_with_the_reason(
    client: Client, straight_match: Match, htmx: bool
) -> None:
    before = rows(straight_match)

    response = play(client, straight_match, "Ana", 12, htmx=htmx)

    assert response.status_code == 422
    assert is_board_only(response) == htmx
    said = text(response)
    assert NOT_A_FIVE in said
    assert "Keep 12 for Ana anyway" in said
    assert totals(response) == [0, 0, 0, 0]
    assert rows(straight_match) == before
    assert totals(board(client, straight_match)) == [0, 0, 0, 0]


def test_a_refused_play_kept_anyway_counts_and_says_it_was_kept_on_purpose(
    client: Client, straight_match: Match
) -> None:
    response = play(client, straight_match, "Ana", 12, override="on")

    assert saved(response, straight_match)
    assert Play.objects.get(hand__match=straight_match).overridden
    page = board(client, straight_match)
    assert totals(page) == [12, 0, 0, 0]
    assert KEPT in text(page)
    assert NOT_A_FIVE in text(page)


@pytest.mark.parametrize(
    ("spinner", "points", "sentence"),
    [
        (True, 40, "Ana scored 40, but the open ends can show at most 35."),
        (
            False,
            25,
            "Ana scored 25, but the open ends can show at most 20 when the first double is no "
            "spinner.",
        ),
    ],
)
def test_a_play_higher_than_the_layout_can_show_is_refused(
    client: Client, db: None, spinner: bool, points: int, sentence: str
) -> None:
    match = stored("straight", *FOUR, rules={} if spinner else {"spinner": False})

    response = play(client, match, "Ana", points)

    assert response.status_code == 422
    assert sentence in text(response)
    assert rows(match) == (0, 0)


def test_a_domino_with_pips_left_for_the_player_who_went_out_is_refused(
    client: Client, straight_match: Match
) -> None:
    response = domino(client, straight_match, "Ana", Ana=5, Bo=12, Cy=9, Di=11)

    assert response.status_code == 422
    assert "Hand 1: Ana went out, so Ana holds no tiles, but 5 pips were entered for Ana." in text(
        response
    )
    assert Hand.objects.get(match=straight_match).end_how == ""
    assert totals(board(client, straight_match)) == [0, 0, 0, 0]


def test_a_domino_with_pips_kept_anyway_is_scored_and_marked(
    client: Client, straight_match: Match
) -> None:
    response = domino(
        client, straight_match, "Ana", Ana=5, Bo=12, Cy=9, Di=11, extra={"override": "on"}
    )

    assert saved(response, straight_match)
    hand = Hand.objects.get(match=straight_match)
    assert hand.end_how == "domino"
    assert hand.overridden
    page = board(client, straight_match)
    # 12 + 9 + 11 = 32 rounds to 30
    assert totals(page) == [30, 0, 0, 0]
    assert KEPT in text(page)


def test_a_warning_is_saved_and_shown(client: Client, db: None) -> None:
    # the table wrote 10 for Ana's hand so far; another 5 makes the app's number 15
    match = stored(
        "straight",
        *FOUR,
        hands=(
            rules.Hand(leader="Ana", plays=(rules.Play("Ana", points=10),), claimed={"Ana": 10}),
        ),
    )

    response = play(client, match, "Ana", 5)

    assert saved(response, match)
    assert rows(match) == (1, 2)
    assert not Play.objects.filter(hand__match=match, overridden=True).exists()
    page = board(client, match)
    assert totals(page) == [15, 0, 0, 0]
    said = text(page)
    assert "Hand 1: the table wrote 10 for Ana, the app makes it 15." in said
    assert KEPT not in said


def test_a_warning_sent_by_htmx_is_said_on_the_board(client: Client, db: None) -> None:
    match = stored(
        "straight",
        *FOUR,
        hands=(rules.Hand(leader="Ana", claimed={"Ana": 0}),),
    )

    response = play(client, match, "Ana", 5, htmx=True)

    assert response.status_code == 200
    assert is_board_only(response)
    warned = re.findall(r'<li class="message message-warning">(.*?)</li>', content(response), re.S)
    assert [text_of(message) for message in warned] == [
        "Hand 1: the table wrote 0 for Ana, the app makes it 5. Scored in play: Ana 5. "
        "Hand 1: Ana 5, Bo 0, Cy 0, Di 0."
    ]
    assert rows(match) == (1, 1)


# -- Chickenfoot ------------------------------------------------------------------------------

TWO_OUT = (
    "Round 1: only one player can go out, but Ana is left with no pips and no 0-0 as well as "
    "Bo, who went out."
)


def test_a_round_with_two_players_out_is_refused(client: Client, chickenfoot_match: Match) -> None:
    response = chickenfoot_round(client, chickenfoot_match, went_out="Bo", Ana=0, Cy=7, Di=3)

    assert response.status_code == 422
    assert TWO_OUT in text(response)
    assert rows(chickenfoot_match) == (0, 0)
    assert totals(board(client, chickenfoot_match)) == [0, 0, 0, 0]


def test_a_round_with_two_players_out_kept_anyway_is_scored_and_marked(
    client: Client, chickenfoot_match: Match
) -> None:
    response = chickenfoot_round(
        client, chickenfoot_match, went_out="Bo", extra={"override": "on"}, Ana=0, Cy=7, Di=3
    )

    assert saved(response, chickenfoot_match)
    assert Hand.objects.get(match=chickenfoot_match).overridden
    page = board(client, chickenfoot_match)
    assert totals(page) == [0, 0, 7, 3]
    assert KEPT in text(page)
    assert TWO_OUT in text(page)


def test_the_player_who_went_out_cannot_hold_the_double_blank(
    client: Client, chickenfoot_match: Match
) -> None:
    response = chickenfoot_round(
        client, chickenfoot_match, went_out="Bo", double_blank="Bo", Ana=4, Cy=7, Di=3
    )

    assert response.status_code == 422
    assert "Round 1: Bo went out, so Bo cannot be holding 0-0." in text(response)
    assert rows(chickenfoot_match) == (0, 0)


# -- Sedma ------------------------------------------------------------------------------------


def test_a_player_who_passed_the_opening_cannot_set_a_double_later(
    client: Client, sedma_match: Match
) -> None:
    lay(client, sedma_match, "Cy", "5-5", override="on")

    response = lay(client, sedma_match, "Ana", "3-3")

    assert response.status_code == 422
    assert (
        "Hand 1, play 2: Ana passed the opening for want of a double, so cannot set 3-3 later in "
        "the hand: there is no drawing in Sedma."
    ) in text(response)
    assert rows(sedma_match) == (1, 1)
    assert totals(board(client, sedma_match)) == [0, 0, 1, 0]


def test_a_double_set_by_a_player_who_passed_kept_anyway_counts(
    client: Client, sedma_match: Match
) -> None:
    lay(client, sedma_match, "Cy", "5-5", override="on")

    response = lay(client, sedma_match, "Ana", "3-3", override="on")

    assert saved(response, sedma_match)
    assert Play.objects.get(hand__match=sedma_match, number=2).overridden
    page = board(client, sedma_match)
    # 3-3 after 5-5: no lighter double down
    assert totals(page) == [1, 0, 1, 0]
    assert KEPT in text(page)


def test_a_double_set_twice_in_a_hand_is_refused(client: Client, sedma_match: Match) -> None:
    lay(client, sedma_match, "Ana", "4-4")

    response = lay(client, sedma_match, "Bo", "4-4")

    assert response.status_code == 422
    assert "Hand 1, play 2: 4-4 is already in the line; there is only one of each tile." in text(
        response
    )
    assert rows(sedma_match) == (1, 1)


def test_a_tile_that_does_not_match_the_line_is_refused(client: Client, sedma_match: Match) -> None:
    lay(client, sedma_match, "Ana", "1-1")

    response = lay(client, sedma_match, "Bo", "3-4")

    assert response.status_code == 422
    assert "Hand 1, play 2: 3-4 does not match the open end 1." in text(response)
    assert rows(sedma_match) == (1, 1)


def test_a_hand_lists_its_first_ten_findings_and_counts_the_rest(client: Client) -> None:
    plays = tuple(rules.Play("Ana", points=12) for _ in range(14))
    match = stored("straight", hands=(rules.Hand(leader="Ana", plays=plays),))

    page = text(board(client, match))

    assert page.count("add up to a multiple of five") == 10
    assert "And 4 more findings." in page
