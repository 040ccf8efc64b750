"""Settle it: one hand scored from the address bar, for any table in the hall."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.web.pages import content, text

WORKED_LINE = "1-1 1-2 2-4 4-4 4-0 0-0 0-6 6-6 6-5 5-5 5-2 2-2 2-3 3-3"
NAMES = {"name1": "Ana", "name2": "Bo", "name3": "Cy", "name4": "Di"}
PARTNERS = {"game": "straight", "players": "4", "partnerships": "on", **NAMES}


def settle(client: Client, **params: str):
    return client.get(reverse("tables:settle"), params)


def result(response) -> dict[str, int]:
    """Who scores what, as the answer shows it."""
    found = re.findall(
        r'<span data-side="([^"]*)"><strong>[^<]*</strong>\s*(\d+)</span>', content(response)
    )
    return {unescape(side): int(points) for side, points in found}


def test_a_domino_in_partnership_play_scores_the_opponents_pips_only(client: Client) -> None:
    response = settle(
        client, **PARTNERS, how="domino", domino="0", pips2="12", pips3="9", pips4="11"
    )

    assert response.status_code == 200
    assert result(response) == {"Ana & Cy": 25, "Bo & Di": 0}
    said = text(response)
    assert "Cy's 9 pips are Ana's partner's and do not count." in said
    assert "23 rounds to 25 (23 is nearer 25 than 20)." in said


def test_a_blocked_hand_in_partnership_play_compares_combined_pips(client: Client) -> None:
    response = settle(
        client, **PARTNERS, how="blocked", pips1="3", pips2="12", pips3="5", pips4="9"
    )

    assert response.status_code == 200
    # Ana & Cy 3 + 5 = 8 against Bo & Di 12 + 9 = 21, which rounds to 20
    assert result(response) == {"Ana & Cy": 20, "Bo & Di": 0}
    assert "21 rounds to 20 (21 is nearer 20 than 25)." in text(response)


def test_a_blocked_tie_in_partnership_play_scores_nobody(client: Client) -> None:
    response = settle(client, **PARTNERS, how="blocked", pips1="5", pips2="6", pips3="6", pips4="5")

    assert result(response) == {"Ana & Cy": 0, "Bo & Di": 0}
    assert "tie for the fewest pips (11): nobody scores." in text(response)


def test_the_opponents_pips_are_rounded_together(client: Client) -> None:
    response = settle(
        client, game="straight", players="3", how="domino", domino="2", pips1="13", pips2="13"
    )

    # seats without names are A, B and C; 13 + 13 = 26 rounds to 25, not 15 + 15
    assert result(response) == {"A": 0, "B": 0, "C": 25}


def test_rounding_each_hand_is_a_house_rule_here_too(client: Client) -> None:
    response = settle(
        client,
        game="straight",
        players="3",
        how="domino",
        domino="2",
        pips1="13",
        pips2="13",
        round_each_hand="on",
    )

    assert result(response) == {"A": 0, "B": 0, "C": 30}


def test_the_sedma_worked_example_scores_as_in_the_rule_book(client: Client) -> None:
    response = settle(client, game="sedma", line=WORKED_LINE, opener="0")

    assert response.status_code == 200
    assert result(response) == {"P1": 1, "P2": 11, "P3": 0, "P4": 9}
    assert "All seven doubles are down." in text(response)


def test_a_sedma_line_follows_the_turns_from_the_opener_with_passes(client: Client) -> None:
    # Cy opens with 1-1, Di passes, Ana lays 1-2, Bo 2-2
    response = settle(client, game="sedma", line="1-1 - 1-2 2-2", opener="2", **NAMES)

    assert result(response) == {"Ana": 0, "Bo": 2, "Cy": 1, "Di": 0}


def test_the_empty_calculator_answers_nothing_yet(client: Client) -> None:
    for game in ("straight", "sedma"):
        response = settle(client, game=game)

        assert response.status_code == 200
        assert result(response) == {}


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"how": "blocked", "pips1": "-3"}, "Pips cannot be negative."),
        ({"how": "blocked", "pips1": "many"}, "Enter a whole number."),
        ({"how": "blocked", "pips1": "200"}, "Ensure this value is less than or equal to 168."),
        ({"how": "domino"}, "Pick who dominoed."),
        ({"how": "domino", "players": "2", "domino": "3"}, "Pick who dominoed."),
        ({"how": "blocked", "pips4": ""}, "Enter D's pips (0 if none)."),
        ({"how": "blocked", "players": "3", "partnerships": "on"}, "Partnerships need 4 players."),
        ({"how": "blocked", "name1": "Bo", "name2": "bo"}, "Give each seat a different name."),
        ({"how": "blocked", "players": "9"}, "Select a valid choice."),
    ],
)
def test_a_straight_hand_that_cannot_be_scored_says_why(
    client: Client, params: dict[str, str], message: str
) -> None:
    defaults = {"game": "straight", "pips1": "1", "pips2": "2", "pips3": "3", "pips4": "4"}

    response = settle(client, **{**defaults, **params})

    assert response.status_code == 422
    assert message in text(response)
    assert result(response) == {}


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("1-1 x", '"x" is not a tile: write tiles like 4-4 or 1-2.'),
        ("7-7", "7-7: a double-six set has halves from 0 to 6."),
        ("- pass", "Write at least the opening double."),
        ("", "This field is required."),
    ],
)
def test_a_sedma_line_that_cannot_be_read_says_why(client: Client, line: str, message: str) -> None:
    response = settle(client, game="sedma", line=line, opener="0")

    assert response.status_code == 422
    assert message in text(response)
    assert result(response) == {}


FIELDS = [
    "game",
    "players",
    "partnerships",
    "how",
    "domino",
    "round_each_hand",
    "subtract_own",
    "line",
    "opener",
    *[f"name{seat}" for seat in range(1, 5)],
    *[f"pips{seat}" for seat in range(1, 5)],
]
VALUES = st.one_of(
    st.text(max_size=30),
    st.integers(min_value=-1000, max_value=100_000).map(str),
    st.sampled_from(["straight", "sedma", "domino", "blocked", "on", "4", "0", WORKED_LINE]),
)


@settings(max_examples=60, deadline=None)
@given(params=st.dictionaries(st.sampled_from(FIELDS), VALUES, max_size=10))
def test_no_input_makes_the_calculator_fail(params: dict[str, str]) -> None:
    # the calculator stores nothing, so one client serves every example
    response = Client().get(reverse("tables:settle"), params)

    assert response.status_code in {200, 422}
