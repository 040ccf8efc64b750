"""The board and the history say what happened in the board's own words: what an undo took
back, each change numbered once, and the hands a change kept listed as the board lists them."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper import rules
from scorekeeper.tables.models import Match
from tests.web.pages import content, text
from tests.web.table import FOUR, board, chickenfoot_round, domino, play, post, stored

pytestmark = pytest.mark.django_db


def history(client: Client, match: Match) -> str:
    response = client.get(reverse("tables:history", args=[match.pk]))
    assert response.status_code == 200
    return content(response)


def test_the_last_change_says_what_the_undo_took_back(
    client: Client, straight_match: Match
) -> None:
    play(client, straight_match, "1", 15)
    post(client, "undo", straight_match, {})

    assert "Last change: Undo of Bo 15" in text(board(client, straight_match))


def test_each_change_in_the_history_is_numbered_once(client: Client, straight_match: Match) -> None:
    play(client, straight_match, "2", 5)

    page = history(client, straight_match)

    assert '<li id="change-2" value="2">' in page
    assert "2. Cy scored 5" not in page
    assert "<strong>Cy scored 5</strong>" in page


def test_the_history_shows_the_hands_before_and_after_as_the_board_does(
    client: Client, straight_match: Match
) -> None:
    play(client, straight_match, "0", 10)
    play(client, straight_match, "1", 5)

    page = history(client, straight_match)

    assert "<li>Hand 1: Ana 10, Bo 5</li>" in page
    assert "<pre" not in page and "&#x27;plays&#x27;" not in page


def test_sedma_the_whole_line_stays_open_until_the_hand_is_done(client: Client) -> None:
    match = stored("sedma", *FOUR, hands=(rules.Hand(opener="Ana"),))
    post(client, "record_play", match, {"player": "0", "other_tile": "6-6"}, htmx=True)
    assert '<details class="other-points">' in content(board(client, match))

    post(client, "record_play", match, {"player": "1", "other_tile": "6-5"}, htmx=True)

    assert '<details class="other-points" open>' in content(board(client, match))


def test_the_end_of_hand_preview_says_this_hand_and_the_totals_it_makes(
    client: Client, straight_match: Match
) -> None:
    play(client, straight_match, "0", 10)
    ended = {"out": "0", "pips_1": "10", "pips_2": "10", "pips_3": "5", "preview": "1"}

    response = post(client, "end_hand", straight_match, ended, htmx=True)

    said = text(response)
    assert "Ana 35 this hand, total 35" in said
    assert "Bo 0 this hand, total 0" in said


def test_the_preview_says_nothing_of_a_partners_pips_left_empty(
    client: Client, partners_match: Match
) -> None:
    ended = {"out": "0", "side_1": "20", "preview": "1"}  # Ana dominoed; Cy's box left empty

    said = text(post(client, "end_hand", partners_match, ended, htmx=True))

    assert "Ana dominoed." in said
    assert "Cy's 0 pips" not in said and "Cy's" not in said


def test_the_history_lists_a_chickenfoot_round_with_the_pips_left(client: Client) -> None:
    """A round has no plays to list: who went out and what each hand held say what it was."""
    match = stored("chickenfoot", *FOUR)
    chickenfoot_round(client, match, went_out="Bo", Ana=12, Cy=3, Di=20)
    chickenfoot_round(client, match, Ana=4, Bo=7, Cy=9, Di=1, double_blank="3")

    page = history(client, match)

    assert "<li>Round 1: Bo went out; pips left: Ana 12, Cy 3, Di 20</li>" in page
    assert "<li>Round 2: blocked; pips left: Ana 4, Bo 7, Cy 9, Di 1 + 0-0</li>" in page
    assert "—" not in page


def test_the_history_lists_a_straight_hand_with_the_pips_left(
    client: Client, straight_match: Match
) -> None:
    play(client, straight_match, "0", 10)
    domino(client, straight_match, "Ana", Bo=12, Cy=9, Di=11)

    page = history(client, straight_match)

    assert "<li>Hand 1: Ana 10. Hand ended: Ana dominoed; pips left: Bo 12, Cy 9, Di 11</li>" in (
        page
    )
