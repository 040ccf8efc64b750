"""Settle it and `scorecheck` agree on every hand: the same hand, as the calculator's form and as
a match file, gets the same points, explanation and findings."""

from __future__ import annotations

import json
from typing import Any

from django.test import Client
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import score_match
from scorekeeper.rules.matchfile import read_match
from scorekeeper.table_pages.settle import SedmaLineForm, StraightHandForm
from tests.web.pages import text

SEDMA_NAMES = ("P1", "P2", "P3", "P4")


def test_a_player_who_passed_the_opening_and_later_sets_a_double_is_a_finding() -> None:
    # P1 passes the opening, P2 opens with 2-2, P3 lays 2-5, P4 passes, P1 sets 5-5
    response = Client().get(
        reverse("tables:settle"), {"game": "sedma", "opener": "0", "line": "- 2-2 2-5 - 5-5"}
    )

    assert response.status_code == 200
    said = text(response)
    assert "P1 passed the opening for want of a double, so cannot set 5-5" in said


def test_the_same_hand_as_a_match_file_gives_the_same_finding() -> None:
    hand = {
        "opener": "P2",
        "passed_opening": ["P1"],
        "plays": [
            {"player": "P2", "tile": "2-2"},
            {"player": "P3", "tile": "2-5"},
            {"player": "P1", "tile": "5-5"},
        ],
    }
    match = read_match(json.dumps({"game": "sedma", "players": list(SEDMA_NAMES), "hands": [hand]}))
    form = SedmaLineForm({"opener": "0", "line": "- 2-2 2-5 - 5-5"})

    assert form.is_valid(), form.errors
    assert score_match(form.cleaned_data["match"]).as_dict() == score_match(match).as_dict()
    assert [f.code for f in score_match(match).findings] == ["opener-passed-but-held-double"]


# -- every Sedma line -------------------------------------------------------------------------

TILES = [f"{a}-{b}" for a in range(7) for b in range(7)]
WORDS = st.one_of(st.sampled_from(TILES), st.sampled_from(["-", "pass"]))


def sedma_file(opener: int, words: list[str]) -> dict[str, Any]:
    """The hand a table would write down from the line: who opened, who passed before, the tiles."""
    passed: list[str] = []
    plays: list[dict[str, str]] = []
    for turn, word in enumerate(words, opener):
        player = SEDMA_NAMES[turn % 4]
        if word in ("-", "pass"):
            if not plays:
                passed.append(player)
        else:
            plays.append({"player": player, "tile": word})
    hand: dict[str, Any] = {"opener": plays[0]["player"], "plays": plays}
    if passed:
        hand["passed_opening"] = passed
    return {"game": "sedma", "players": list(SEDMA_NAMES), "hands": [hand]}


@settings(max_examples=200, deadline=None)
@given(
    opener=st.integers(0, 3),
    words=st.lists(WORDS, min_size=1, max_size=30).filter(
        lambda words: any(word not in ("-", "pass") for word in words)
    ),
)
def test_settle_it_scores_a_sedma_line_as_scorecheck_scores_the_match_file(
    opener: int, words: list[str]
) -> None:
    form = SedmaLineForm({"opener": str(opener), "line": " ".join(words)})
    assert form.is_valid(), form.errors

    settled = score_match(form.cleaned_data["match"])
    checked = score_match(read_match(json.dumps(sedma_file(opener, words))))

    assert settled.as_dict() == checked.as_dict()


# -- every Straight hand ----------------------------------------------------------------------

STRAIGHT_NAMES = ("A", "B", "C", "D")


@settings(max_examples=200, deadline=None)
@given(
    players=st.integers(2, 4),
    partnerships=st.booleans(),
    how=st.sampled_from(["domino", "blocked"]),
    out=st.integers(0, 3),
    pips=st.lists(st.integers(0, 168), min_size=4, max_size=4),
    round_each_hand=st.booleans(),
    subtract_own=st.booleans(),
)
def test_settle_it_scores_a_straight_hand_as_scorecheck_scores_the_match_file(
    players: int,
    partnerships: bool,
    how: str,
    out: int,
    pips: list[int],
    round_each_hand: bool,
    subtract_own: bool,
) -> None:
    partnerships = partnerships and players == 4
    out = out % players
    data = {"players": str(players), "how": how, "domino": str(out)}
    data.update({f"pips{seat + 1}": str(pips[seat]) for seat in range(players)})
    for name, on in (
        ("partnerships", partnerships),
        ("round_each_hand", round_each_hand),
        ("subtract_own", subtract_own),
    ):
        if on:
            data[name] = "on"
    form = StraightHandForm(data)
    assert form.is_valid(), form.errors

    names = list(STRAIGHT_NAMES[:players])
    end: dict[str, Any] = {"how": how, "pips": {names[s]: pips[s] for s in range(players)}}
    if how == "domino":
        end["player"] = names[out]
    rules = {
        name: True
        for name, on in (("round_each_hand", round_each_hand), ("subtract_own", subtract_own))
        if on
    }
    match_file: dict[str, Any] = {
        "game": "straight",
        "rules": rules,
        "players": names,
        "hands": [{"end": end}],
    }
    if partnerships:
        match_file["partnerships"] = [["A", "C"], ["B", "D"]]

    settled = score_match(form.cleaned_data["match"])
    checked = score_match(read_match(json.dumps(match_file)))

    assert settled.as_dict() == checked.as_dict()
