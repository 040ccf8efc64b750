from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from scorekeeper.rules import Hand, HandEnd, Match, Play
from scorekeeper.rules.matchfile import MatchFileError, dumps_match, read_match, write_match
from tests.examples import matchfile_example


def straight_file() -> dict[str, Any]:
    """The example from the README's *The match file*, as decoded JSON."""
    return matchfile_example()


def chickenfoot_file() -> dict[str, Any]:
    return {
        "game": "chickenfoot",
        "players": ["Ana", "Bo", "Cy"],
        "hands": [
            {
                "double": 6,
                "starter": "Bo",
                "end": {"how": "domino", "player": "Ana", "pips": {"Bo": 12, "Cy": 4}},
            }
        ],
    }


def sedma_file() -> dict[str, Any]:
    return {
        "game": "sedma",
        "players": ["P1", "P2", "P3", "P4"],
        "hands": [
            {
                "opener": "P2",
                "passed_opening": ["P1"],
                "plays": [{"player": "P2", "tile": "4-4"}, {"player": "P3", "tile": "4-1"}],
            }
        ],
    }


def problem(data: Any) -> MatchFileError:
    text = data if isinstance(data, str | bytes) else json.dumps(data)
    with pytest.raises(MatchFileError) as caught:
        read_match(text)
    return caught.value


def changed(data: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """A copy of ``data`` with the value at a dotted path (list items as numbers) replaced."""
    result = copy.deepcopy(data)
    *parents, last = path.split(".")
    node: Any = result
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node[key]
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return result


# -- what reads -------------------------------------------------------------------------------


def test_the_matchfile_example_reads_as_a_match() -> None:
    match = read_match(json.dumps(straight_file()))

    assert match.game == "straight"
    assert match.players == ("Ana", "Bo", "Cy", "Di")
    assert match.sides == ["Ana & Cy", "Bo & Di"]
    assert match.hands[0] == Hand(
        leader="Ana",
        plays=(Play("Ana", points=10), Play("Bo", points=15)),
        end=HandEnd("domino", player="Ana", pips={"Bo": 12, "Cy": 9, "Di": 11}),
    )
    assert match.hands[1].claimed == {"Ana": 35}


def test_a_house_rule_equal_to_the_default_is_not_kept() -> None:
    match = read_match(json.dumps(straight_file()))

    assert match.rules == {}
    assert match.rule("target") == 250


def test_a_sedma_tile_keeps_the_way_round_it_was_written() -> None:
    match = read_match(json.dumps(sedma_file()))

    assert match.hands[0].plays[1].tile == (4, 1)
    assert match.hands[0].passed_opening == ("P1",)


def test_the_last_hand_may_be_left_without_an_end() -> None:
    match = read_match(json.dumps(sedma_file()))

    assert match.hands[0].end is None


def test_a_chickenfoot_double_blank_may_name_one_player_or_several() -> None:
    one = changed(chickenfoot_file(), "hands.0.end.double_blank", "Bo")
    two = changed(chickenfoot_file(), "hands.0.end.double_blank", ["Bo", "Cy"])

    assert read_match(json.dumps(one)).hands[0].end.double_blank == ("Bo",)
    assert read_match(json.dumps(two)).hands[0].end.double_blank == ("Bo", "Cy")


def test_a_claim_may_be_keyed_by_a_partnership() -> None:
    data = changed(straight_file(), "hands.1.claimed", {"Ana & Cy": 20, "Di": 0})

    assert read_match(json.dumps(data)).hands[1].claimed == {"Ana & Cy": 20, "Di": 0}


def test_a_straight_play_may_be_marked_as_the_lead() -> None:
    data = changed(
        straight_file(), "hands.0.plays.0", {"player": "Ana", "points": 10, "lead": True}
    )

    match = read_match(json.dumps(data))

    assert match.hands[0].plays == (Play("Ana", points=10, lead=True), Play("Bo", points=15))


def test_a_play_marked_lead_false_reads_as_any_other_play() -> None:
    data = changed(
        straight_file(), "hands.0.plays.1", {"player": "Bo", "points": 15, "lead": False}
    )

    assert read_match(json.dumps(data)).hands[0].plays[1] == Play("Bo", points=15)


def test_the_lead_is_written_only_when_a_play_is_the_lead() -> None:
    data = changed(
        straight_file(), "hands.0.plays.0", {"player": "Ana", "points": 10, "lead": True}
    )

    written = write_match(read_match(json.dumps(data)))

    assert written["hands"][0]["plays"] == [
        {"player": "Ana", "points": 10, "lead": True},
        {"player": "Bo", "points": 15},
    ]
    assert read_match(json.dumps(written)) == read_match(json.dumps(data))


@pytest.mark.parametrize("value", [1, "true", None, [True]])
def test_the_lead_must_be_true_or_false(value: Any) -> None:
    play = {"player": "Ana", "points": 10, "lead": value}

    error = problem(changed(straight_file(), "hands.0.plays.0", play))

    assert (error.path, error.code) == ("hands[0].plays[0].lead", "bad-value")
    assert error.reason.startswith("expected true or false, got ")


def test_a_sedma_tile_cannot_be_marked_as_the_lead() -> None:
    play = {"player": "P2", "tile": "4-4", "lead": True}

    error = problem(changed(sedma_file(), "hands.0.plays.0", play))

    assert (error.path, error.code) == ("hands[0].plays[0].lead", "unknown-field")


def test_partners_pips_may_be_counted_together_under_their_partnership() -> None:
    data = changed(straight_file(), "hands.0.end.pips", {"Bo & Di": 23, "Cy": 9})

    match = read_match(json.dumps(data))

    assert match.hands[0].end.pips == {"Bo & Di": 23, "Cy": 9}
    assert write_match(match)["hands"][0]["end"]["pips"] == {"Bo & Di": 23, "Cy": 9}
    assert read_match(dumps_match(match)) == match


@pytest.mark.parametrize("side", ["Ana & Bo", "Di & Bo", "Bo&Di", "Bo & Di & Ana"])
def test_pips_counted_together_must_be_keyed_by_a_partnership(side: str) -> None:
    error = problem(changed(straight_file(), "hands.0.end.pips", {side: 23}))

    assert (error.path, error.code) == (f"hands[0].end.pips.{side}", "unknown-player")


def test_pips_cannot_be_counted_together_without_partnerships() -> None:
    data = changed(straight_file(), "hands.0.end.pips", {"Bo & Di": 23})
    del data["partnerships"]

    error = problem(data)

    assert (error.path, error.code) == ("hands[0].end.pips.Bo & Di", "unknown-player")


def test_pips_counted_together_must_be_a_whole_number() -> None:
    error = problem(changed(straight_file(), "hands.0.end.pips", {"Bo & Di": -1}))

    assert (error.path, error.code) == ("hands[0].end.pips.Bo & Di", "invalid-number")


@pytest.mark.parametrize("make", [straight_file, chickenfoot_file, sedma_file])
def test_writing_then_reading_gives_the_same_match(make) -> None:
    match = read_match(json.dumps(make()))

    assert read_match(dumps_match(match)) == match
    assert write_match(match)["format"] == "dominoes-match/1"


def test_the_file_may_be_given_as_bytes() -> None:
    assert read_match(json.dumps(straight_file()).encode()).game == "straight"


# -- what does not read -----------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "{", "not a match", '{"game": "straight",}', b"\xff\xfe\xfd"])
def test_text_that_is_not_json_is_refused(text: str | bytes) -> None:
    error = problem(text)

    assert error.code == "not-json"


def test_a_key_given_twice_is_refused() -> None:
    error = problem('{"game": "straight", "game": "sedma", "players": ["Ana", "Bo"]}')

    assert error.code == "not-json"
    assert "game" in error.reason


@pytest.mark.parametrize("data", [[], "straight", 3, None], ids=["list", "text", "number", "null"])
def test_a_match_must_be_an_object(data: Any) -> None:
    error = problem(json.dumps(data))

    assert (error.path, error.code) == ("(file)", "bad-value")


def test_an_unknown_game_is_refused() -> None:
    error = problem(changed(straight_file(), "game", "mexican-train"))

    assert (error.path, error.code) == ("game", "unknown-game")
    assert "mexican-train" in error.reason


def test_a_missing_game_is_refused() -> None:
    data = straight_file()
    del data["game"]

    error = problem(data)

    assert (error.path, error.code) == ("game", "missing-field")


def test_an_unknown_format_is_refused() -> None:
    error = problem(changed(straight_file(), "format", "dominoes-match/2"))

    assert (error.path, error.code) == ("format", "unknown-format")


def test_an_unknown_field_is_refused() -> None:
    error = problem(changed(straight_file(), "hands.0.winner", "Ana"))

    assert (error.path, error.code) == ("hands[0].winner", "unknown-field")


@pytest.mark.parametrize(
    ("make", "rule"),
    [(chickenfoot_file, "spinner"), (sedma_file, "round_each_hand"), (straight_file, "set")],
)
def test_a_house_rule_the_game_does_not_use_is_refused(make, rule: str) -> None:
    error = problem(changed(make(), "rules", {rule: True}))

    assert (error.path, error.code) == (f"rules.{rule}", "unknown-rule")


@pytest.mark.parametrize(
    ("make", "rule", "value", "code"),
    [
        (chickenfoot_file, "set", 8, "invalid-number"),
        (chickenfoot_file, "double_blank", 10, "invalid-number"),
        (straight_file, "target", 0, "invalid-number"),
        (straight_file, "target", -250, "invalid-number"),
        (straight_file, "spinner", "no", "bad-value"),
        (straight_file, "spinner", 0, "bad-value"),
    ],
)
def test_a_house_rule_value_outside_its_choices_is_refused(
    make, rule: str, value: Any, code: str
) -> None:
    error = problem(changed(make(), "rules", {rule: value}))

    assert (error.path, error.code) == (f"rules.{rule}", code)


@pytest.mark.parametrize(
    ("path", "where"),
    [
        ("hands.0.plays.1.player", "hands[0].plays[1].player"),
        ("hands.0.end.player", "hands[0].end.player"),
        ("hands.0.leader", "hands[0].leader"),
    ],
)
def test_an_unknown_player_is_refused(path: str, where: str) -> None:
    error = problem(changed(straight_file(), path, "Zed"))

    assert (error.path, error.code) == (where, "unknown-player")
    assert "Zed" in error.reason


def test_an_unknown_player_in_the_pips_is_refused() -> None:
    error = problem(changed(straight_file(), "hands.1.end.pips.Zed", 4))

    assert (error.path, error.code) == ("hands[1].end.pips.Zed", "unknown-player")


def test_an_unknown_player_in_a_claim_is_refused() -> None:
    error = problem(changed(straight_file(), "hands.1.claimed", {"Zed": 35}))

    assert (error.path, error.code) == ("hands[1].claimed.Zed", "unknown-player")


def test_a_side_that_is_not_a_partnership_cannot_be_claimed_for() -> None:
    error = problem(changed(straight_file(), "hands.1.claimed", {"Ana & Bo": 35}))

    assert error.code == "unknown-player"


@pytest.mark.parametrize(
    ("make", "path", "where"),
    [
        (chickenfoot_file, "hands.0.starter", "hands[0].starter"),
        (chickenfoot_file, "hands.0.end.double_blank", "hands[0].end.double_blank"),
        (sedma_file, "hands.0.opener", "hands[0].opener"),
        (sedma_file, "hands.0.passed_opening.0", "hands[0].passed_opening[0]"),
        (sedma_file, "hands.0.plays.0.player", "hands[0].plays[0].player"),
    ],
)
def test_an_unknown_player_in_any_game_is_refused(make, path: str, where: str) -> None:
    error = problem(changed(make(), path, "Zed"))

    assert (error.path, error.code) == (where, "unknown-player")


def test_negative_pips_are_refused_with_the_place_the_code_and_the_reason() -> None:
    error = problem(changed(straight_file(), "hands.1.end.pips.Bo", -3))

    assert (
        str(error) == "hands[1].end.pips.Bo: invalid-number: expected a whole number >= 0, got -3"
    )
    assert (error.path, error.code) == ("hands[1].end.pips.Bo", "invalid-number")
    assert error.reason == "expected a whole number >= 0, got -3"


def test_a_play_of_zero_points_is_refused() -> None:
    error = problem(changed(straight_file(), "hands.0.plays.0.points", 0))

    assert (error.path, error.code) == ("hands[0].plays[0].points", "invalid-number")


@pytest.mark.parametrize("value", [9.5, 9.0, True, False, "9", None])
def test_pips_must_be_a_whole_number(value: Any) -> None:
    error = problem(changed(straight_file(), "hands.1.end.pips.Bo", value))

    assert (error.path, error.code) == ("hands[1].end.pips.Bo", "invalid-number")


@pytest.mark.parametrize("value", [10.0, 12.5, True])
def test_points_must_be_a_whole_number(value: Any) -> None:
    error = problem(changed(straight_file(), "hands.0.plays.0.points", value))

    assert (error.path, error.code) == ("hands[0].plays[0].points", "invalid-number")


@pytest.mark.parametrize("value", [-5, 2.0, False])
def test_a_claim_must_be_a_whole_number(value: Any) -> None:
    error = problem(changed(straight_file(), "hands.1.claimed.Ana", value))

    assert (error.path, error.code) == ("hands[1].claimed.Ana", "invalid-number")


@pytest.mark.parametrize("value", [7, -1, 6.0])
def test_a_chickenfoot_round_double_must_be_in_the_set(value: Any) -> None:
    error = problem(changed(chickenfoot_file(), "hands.0.double", value))

    assert (error.path, error.code) == ("hands[0].double", "invalid-number")


def test_a_double_nine_round_double_may_be_nine() -> None:
    data = changed(chickenfoot_file(), "hands.0.double", 9)
    data["rules"] = {"set": 9}

    assert read_match(json.dumps(data)).hands[0].double == 9


@pytest.mark.parametrize(
    ("tile", "code"), [("4-7", "invalid-number"), ("44", "bad-value"), (44, "bad-value")]
)
def test_a_sedma_tile_must_be_a_double_six_tile(tile: Any, code: str) -> None:
    error = problem(changed(sedma_file(), "hands.0.plays.0.tile", tile))

    assert (error.path, error.code) == ("hands[0].plays[0].tile", code)


@pytest.mark.parametrize(
    ("path", "value", "where"),
    [
        ("players", "Ana, Bo", "players"),
        ("players", [], "players"),
        ("players", ["Ana", 7], "players[1]"),
        ("players", ["Ana", "  "], "players[1]"),
        ("rules", [250], "rules"),
        ("hands", {"0": {}}, "hands"),
        ("hands.0", "Ana won", "hands[0]"),
        ("hands.0.plays", {"player": "Ana", "points": 10}, "hands[0].plays"),
        ("hands.0.plays.0", ["Ana", 10], "hands[0].plays[0]"),
        ("hands.0.end", "domino", "hands[0].end"),
        ("hands.0.end.how", "won", "hands[0].end.how"),
        ("hands.1.end.pips", [3, 12, 5, 9], "hands[1].end.pips"),
        ("hands.1.claimed", 35, "hands[1].claimed"),
    ],
)
def test_a_value_of_the_wrong_type_is_refused(path: str, value: Any, where: str) -> None:
    error = problem(changed(straight_file(), path, value))

    assert (error.path, error.code) == (where, "bad-value")


def test_a_sedma_end_cannot_be_a_straight_end() -> None:
    data = changed(sedma_file(), "hands.0.end", {"how": "all-doubles"})
    assert read_match(json.dumps(data)).hands[0].end == HandEnd("all-doubles")

    error = problem(changed(straight_file(), "hands.1.end.how", "all-doubles"))
    assert (error.path, error.code) == ("hands[1].end.how", "bad-value")


def test_a_domino_must_name_the_player_who_went_out() -> None:
    data = straight_file()
    del data["hands"][0]["end"]["player"]

    error = problem(data)

    assert (error.path, error.code) == ("hands[0].end.player", "missing-field")


def test_a_player_seated_twice_is_refused() -> None:
    error = problem(changed(straight_file(), "players", ["Ana", "Bo", "Cy", "Ana"]))

    assert (error.path, error.code) == ("players[3]", "duplicate-player")


def test_partnerships_need_four_players() -> None:
    data = changed(straight_file(), "players", ["Ana", "Bo", "Cy"])
    data["partnerships"] = [["Ana", "Cy"], ["Bo"]]
    data["hands"] = []

    error = problem(data)

    assert (error.path, error.code) == ("partnerships", "bad-partnership")


def test_partnerships_are_for_straight_dominoes_only() -> None:
    data = chickenfoot_file()
    data["players"] = ["Ana", "Bo", "Cy", "Di"]
    data["partnerships"] = [["Ana", "Cy"], ["Bo", "Di"]]

    error = problem(data)

    assert (error.path, error.code) == ("partnerships", "bad-partnership")


def test_partners_must_sit_opposite() -> None:
    error = problem(changed(straight_file(), "partnerships", [["Ana", "Bo"], ["Cy", "Di"]]))

    assert (error.path, error.code) == ("partnerships[0]", "bad-partnership")


def test_partnerships_must_seat_every_player_once() -> None:
    error = problem(changed(straight_file(), "partnerships", [["Ana", "Cy"], ["Cy", "Ana"]]))

    assert (error.path, error.code) == ("partnerships[1]", "bad-partnership")


def test_a_partner_must_be_one_of_the_players() -> None:
    error = problem(changed(straight_file(), "partnerships", [["Ana", "Cy"], ["Bo", "Ed"]]))

    assert (error.path, error.code) == ("partnerships[1][1]", "unknown-player")


def test_only_the_last_hand_may_be_left_without_an_end() -> None:
    data = straight_file()
    del data["hands"][0]["end"]

    error = problem(data)

    assert (error.path, error.code) == ("hands[0].end", "missing-field")


@pytest.mark.parametrize(
    ("make", "field"),
    [(straight_file, "opener"), (chickenfoot_file, "plays"), (sedma_file, "leader")],
)
def test_a_hand_field_of_another_game_is_refused(make, field: str) -> None:
    data = make()
    data["hands"][0][field] = []

    error = problem(data)

    assert (error.path, error.code) == (f"hands[0].{field}", "unknown-field")


def test_the_error_message_is_place_code_and_reason() -> None:
    error = problem(changed(straight_file(), "game", "mexican-train"))

    assert str(error) == f"{error.path}: {error.code}: {error.reason}"
    assert isinstance(error, ValueError)


def test_a_match_read_from_a_file_is_a_plain_match_value() -> None:
    match = read_match(json.dumps(chickenfoot_file()))

    assert match == Match(
        "chickenfoot",
        ("Ana", "Bo", "Cy"),
        hands=(
            Hand(
                double=6,
                starter="Bo",
                end=HandEnd("domino", player="Ana", pips={"Bo": 12, "Cy": 4}),
            ),
        ),
    )


@pytest.mark.parametrize("depth", [5_000, 100_000])
def test_a_document_nested_too_deeply_is_refused_not_crashed_on(depth: int) -> None:
    error = problem("[" * depth + "]" * depth)

    assert (error.path, error.code) == ("(file)", "not-json")
