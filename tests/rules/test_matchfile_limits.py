"""The match file reader's bounds: far above what a set allows is refused, below it is kept."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import Hand, HandEnd, Match, Play, limits, score_match
from scorekeeper.rules.matchfile import MatchFileError, dumps_match, read_match


def straight(**hand: Any) -> dict[str, Any]:
    return {"game": "straight", "players": ["A", "B"], "hands": [hand]}


def refused(data: Any) -> MatchFileError:
    text = data if isinstance(data, str | bytes) else json.dumps(data)
    with pytest.raises(MatchFileError) as caught:
        read_match(text)
    return caught.value


# -- numbers ----------------------------------------------------------------------------------


def test_three_billion_pips_are_refused_as_an_invalid_number() -> None:
    error = refused(straight(end={"how": "domino", "player": "A", "pips": {"B": 3_000_000_000}}))

    assert (error.path, error.code) == ("hands[0].end.pips.B", "invalid-number")
    assert "1092" in error.reason


@pytest.mark.parametrize("pips", [169, 500, limits.MOST_PIPS])
def test_pips_above_the_set_but_within_bounds_are_kept_and_flagged(pips: int) -> None:
    match = read_match(
        json.dumps(straight(end={"how": "domino", "player": "A", "pips": {"B": pips}}))
    )

    board = score_match(match)

    assert "pips-exceed-set" in [f.code for f in board.findings]
    assert board.totals["A"] == 5 * ((pips + 2) // 5)


def test_a_play_above_the_bound_is_refused_and_one_within_it_is_kept_and_flagged() -> None:
    over = refused(straight(plays=[{"player": "A", "points": limits.MOST_PLAY_POINTS + 1}]))
    kept = read_match(json.dumps(straight(plays=[{"player": "A", "points": 1000}])))

    assert (over.path, over.code) == ("hands[0].plays[0].points", "invalid-number")
    assert [f.code for f in score_match(kept).findings] == ["play-too-high"]


@pytest.mark.parametrize(
    ("data", "path"),
    [
        (
            {"game": "straight", "rules": {"target": 10**12}, "players": ["A", "B"]},
            "rules.target",
        ),
        ({**straight(end={"how": "blocked"}, claimed={"A": 10**9})}, "hands[0].claimed.A"),
        (
            {"game": "sedma", "rules": {"target": 99_999}, "players": ["A", "B", "C", "D"]},
            "rules.target",
        ),
    ],
)
def test_a_target_or_a_claim_beyond_any_match_is_refused(data: dict, path: str) -> None:
    error = refused(data)

    assert (error.path, error.code) == (path, "invalid-number")


def test_a_number_of_thousands_of_digits_is_quoted_short() -> None:
    text = json.dumps(straight(end={"how": "blocked", "pips": {"A": 1}})).replace(
        '"A": 1', '"A": ' + "9" * 4000
    )

    error = refused(text)

    assert error.code in ("invalid-number", "not-json")
    assert len(str(error)) < 300


# -- sizes ------------------------------------------------------------------------------------


def test_more_hands_than_the_limit_are_refused() -> None:
    hand = {"end": {"how": "blocked", "pips": {"A": 1, "B": 2}}}
    data = {"game": "straight", "players": ["A", "B"], "hands": [hand] * (limits.MOST_HANDS + 1)}

    error = refused(data)

    assert (error.path, error.code) == ("hands", "too-many")
    assert str(limits.MOST_HANDS) in error.reason


def test_more_plays_in_a_hand_than_the_limit_are_refused() -> None:
    plays = [{"player": "A", "points": 5}] * (limits.MOST_PLAYS + 1)

    error = refused(straight(plays=plays))

    assert (error.path, error.code) == ("hands[0].plays", "too-many")


def test_more_players_than_the_limit_are_refused_but_a_wrong_count_below_it_is_a_finding() -> None:
    many = [f"P{seat}" for seat in range(limits.MOST_PLAYERS + 1)]
    error = refused({"game": "chickenfoot", "players": many})
    nine = read_match(json.dumps({"game": "chickenfoot", "players": many[:9]}))

    assert (error.path, error.code) == ("players", "too-many")
    assert [f.code for f in score_match(nine).findings] == ["wrong-player-count"]


def test_a_file_larger_than_the_limit_is_refused_before_it_is_parsed() -> None:
    text = " " * limits.MOST_FILE_BYTES + json.dumps(straight())

    error = refused(text)

    assert (error.path, error.code) == ("(file)", "too-large")


def test_lists_nested_deeper_than_a_match_are_refused() -> None:
    deep: Any = 1
    for _ in range(20):
        deep = [deep]

    error = refused({"game": "straight", "players": deep})

    assert error.code == "too-deep"


@pytest.mark.parametrize("depth", [10_000, 100_000])
def test_lists_nested_deeper_than_the_parser_goes_are_refused(depth: int) -> None:
    error = refused("[" * depth + "]" * depth)

    assert error.code in ("not-json", "too-deep")


# -- names and the messages that quote the file -----------------------------------------------


def test_a_name_longer_than_the_tables_keep_is_refused() -> None:
    error = refused({"game": "straight", "players": ["A" * 41, "B"]})

    assert (error.path, error.code) == ("players[0]", "bad-value")


@pytest.mark.parametrize("name", ["\ud800", "A\x00", "Bo\udfff"])
def test_a_name_with_a_lone_surrogate_or_a_nul_is_refused_with_a_printable_message(
    name: str,
) -> None:
    error = refused(json.dumps({"game": "straight", "players": [name, "B"]}))

    assert (error.path, error.code) == ("players[0]", "bad-value")
    str(error).encode("utf-8")


def test_a_lone_surrogate_as_a_field_name_gives_a_printable_message() -> None:
    error = refused('{"game": "straight", "players": ["A", "B"], "\\ud800": 1}')

    assert error.code == "unknown-field"
    str(error).encode("utf-8")


def test_a_huge_wrong_value_is_quoted_short() -> None:
    error = refused({"game": "x" * 500_000, "players": ["A", "B"]})

    assert error.code == "unknown-game"
    assert len(str(error)) < 300


# -- the largest match the limits allow -------------------------------------------------------


def largest_straight() -> Match:
    names = tuple(f"{seat}" * limits.MOST_NAME_LENGTH for seat in range(1, 5))
    plays = tuple(
        Play(names[i % 4], points=limits.MOST_PLAY_POINTS) for i in range(limits.MOST_PLAYS)
    )
    end = HandEnd("domino", player=names[0], pips=dict.fromkeys(names[1:], limits.MOST_PIPS))
    hands = tuple(
        Hand(plays=plays, end=end, claimed={names[0]: limits.MOST_CLAIMED})
        for _ in range(limits.MOST_HANDS)
    )
    return Match("straight", names, rules={"target": limits.MOST_TARGET}, hands=hands)


def test_the_largest_match_the_limits_allow_is_written_and_read_back() -> None:
    match = largest_straight()
    text = dumps_match(match)

    assert len(text.encode()) <= limits.MOST_FILE_BYTES
    assert read_match(text) == match


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(["pips", "points", "target", "claimed"]),
    st.integers(min_value=limits.MOST_PIPS + limits.MOST_TARGET, max_value=10**300),
)
def test_any_number_far_above_a_set_is_refused_wherever_it_stands(where: str, big: int) -> None:
    data: dict[str, Any] = {
        "game": "straight",
        "players": ["A", "B"],
        "hands": [{"end": {"how": "domino", "player": "A", "pips": {"B": 3}}}],
    }
    if where == "pips":
        data["hands"][0]["end"]["pips"]["B"] = big
    elif where == "points":
        data["hands"][0]["plays"] = [{"player": "B", "points": big}]
    elif where == "target":
        data["rules"] = {"target": big}
    else:
        data["hands"][0]["claimed"] = {"A": big}

    error = refused(data)

    assert error.code == "invalid-number"
    assert len(str(error)) < 300
