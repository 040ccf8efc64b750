from __future__ import annotations

import pytest

from scorekeeper.rules import Hand, HandEnd, Match, Scoreboard, Severity, score_match

PLAYERS = ("Ana", "Bo", "Cy")


def chickenfoot(*rounds: Hand, players: tuple[str, ...] = PLAYERS, **rules: int | bool) -> Match:
    return Match("chickenfoot", players, (), dict(rules), tuple(rounds))


def out(
    player: str, *, double: int | None = None, blank: tuple[str, ...] = (), **pips: int
) -> Hand:
    return Hand(double=double, end=HandEnd("domino", player=player, pips=pips, double_blank=blank))


def blocked(*, double: int | None = None, blank: tuple[str, ...] = (), **pips: int) -> Hand:
    return Hand(double=double, end=HandEnd("blocked", pips=pips, double_blank=blank))


def codes(board: Scoreboard) -> list[str]:
    return [found.code for found in board.findings]


def only(board: Scoreboard, code: str):
    found = [f for f in board.findings if f.code == code]
    assert len(found) == 1, board.findings
    return found[0]


def full_game(highest: int) -> list[Hand]:
    """Every round of a double-``highest`` game, each with its own double recorded."""
    return [out("Ana", double=double, Bo=5, Cy=7) for double in range(highest, -1, -1)]


# -- rounds -----------------------------------------------------------------------------------


@pytest.mark.parametrize("highest", [6, 9, 12])
def test_rounds_start_with_descending_doubles_down_to_double_blank(highest: int) -> None:
    board = score_match(chickenfoot(*full_game(highest), set=highest))

    assert len(board.hands) == highest + 1
    assert board.findings == []
    assert board.finished is True


@pytest.mark.parametrize("highest", [6, 9, 12])
def test_a_game_is_not_over_before_the_double_blank_round(highest: int) -> None:
    board = score_match(chickenfoot(*full_game(highest)[:-1], set=highest))

    assert board.finished is False
    assert board.winner is None
    assert board.next is not None
    assert (board.next.hand, board.next.double) == (highest + 1, 0)


@pytest.mark.parametrize("highest", [6, 9, 12])
def test_the_first_round_needs_the_highest_double(highest: int) -> None:
    board = score_match(chickenfoot(set=highest))

    assert board.next is not None
    assert (board.next.hand, board.next.double) == (1, highest)


@pytest.mark.parametrize(("played", "next_double"), [(1, 5), (3, 3), (6, 0)])
def test_the_next_round_needs_the_next_lower_double(played: int, next_double: int) -> None:
    board = score_match(chickenfoot(*full_game(6)[:played]))

    assert board.next is not None
    assert (board.next.hand, board.next.double) == (played + 1, next_double)


def test_rounds_without_a_recorded_double_follow_the_descending_order() -> None:
    rounds = [out("Ana", Bo=5, Cy=7) for _ in range(3)]

    board = score_match(chickenfoot(*rounds, set=9))

    assert board.findings == []
    assert board.next is not None
    assert board.next.double == 6


# -- scoring ----------------------------------------------------------------------------------


def test_every_player_scores_their_own_pips_and_the_player_out_scores_nothing() -> None:
    board = score_match(chickenfoot(out("Bo", Ana=12, Cy=4)))

    assert board.hands[0].points == {"Ana": 12, "Bo": 0, "Cy": 4}


def test_in_a_blocked_round_everyone_scores_their_own_pips() -> None:
    board = score_match(chickenfoot(blocked(Ana=3, Bo=9, Cy=14)))

    assert board.totals == {"Ana": 3, "Bo": 9, "Cy": 14}


def test_the_points_add_up_round_by_round() -> None:
    board = score_match(chickenfoot(out("Bo", Ana=12, Cy=4), out("Ana", Bo=6, Cy=10)))

    assert board.totals == {"Ana": 12, "Bo": 6, "Cy": 14}
    assert board.hands[0].running == {"Ana": 12, "Bo": 0, "Cy": 4}


def test_a_double_blank_left_in_hand_counts_50() -> None:
    board = score_match(chickenfoot(out("Ana", blank=("Bo",), Bo=7, Cy=4)))

    assert board.hands[0].points == {"Ana": 0, "Bo": 57, "Cy": 4}


@pytest.mark.parametrize(("rule", "points"), [(0, 7), (25, 32), (50, 57)])
def test_house_rule_double_blank_sets_what_it_counts(rule: int, points: int) -> None:
    board = score_match(chickenfoot(out("Ana", blank=("Bo",), Bo=7, Cy=4), double_blank=rule))

    assert board.totals["Bo"] == points


def test_a_player_holding_only_the_double_blank_is_not_a_second_player_out() -> None:
    board = score_match(chickenfoot(out("Ana", blank=("Bo",), Bo=0, Cy=4)))

    assert board.findings == []
    assert board.totals["Bo"] == 50


# -- winning ----------------------------------------------------------------------------------


def test_the_lowest_total_after_the_last_round_wins() -> None:
    rounds = [out("Ana", Bo=5, Cy=3)] * 6 + [out("Cy", Ana=40, Bo=2)]

    board = score_match(chickenfoot(*rounds))

    # Ana 40, Bo 32, Cy 18
    assert board.totals == {"Ana": 40, "Bo": 32, "Cy": 18}
    assert (board.finished, board.winner, board.next) == (True, "Cy", None)
    assert board.lowest_wins is True


def test_a_tie_for_the_lowest_total_shares_the_win() -> None:
    rounds = [out("Ana", Bo=5, Cy=9)] * 6 + [out("Bo", Ana=30, Cy=1)]

    board = score_match(chickenfoot(*rounds))

    # Ana 30, Bo 30, Cy 55
    assert board.winner == ["Ana", "Bo"]


def test_nobody_wins_while_rounds_remain() -> None:
    board = score_match(chickenfoot(out("Ana", Bo=5, Cy=9)))

    assert (board.finished, board.winner) == (False, None)


# -- findings ---------------------------------------------------------------------------------


def test_a_round_double_out_of_descending_order_is_an_error() -> None:
    board = score_match(
        chickenfoot(out("Ana", double=6, Bo=5, Cy=5), out("Ana", double=6, Bo=5, Cy=5))
    )

    found = only(board, "wrong-round-double")
    assert (found.hand, found.severity) == (2, Severity.ERROR)
    assert "5-5" in found.message


def test_a_round_double_from_the_wrong_set_is_an_error() -> None:
    board = score_match(chickenfoot(out("Ana", double=6, Bo=5, Cy=5), set=9))

    assert codes(board) == ["wrong-round-double"]


@pytest.mark.parametrize(("highest", "rounds"), [(6, 8), (9, 11)])
def test_more_rounds_than_the_set_has_is_an_error(highest: int, rounds: int) -> None:
    hands = [out("Ana", Bo=5, Cy=5) for _ in range(rounds)]

    board = score_match(chickenfoot(*hands, set=highest))

    found = only(board, "too-many-rounds")
    assert (found.hand, found.severity) == (rounds, Severity.ERROR)


def test_the_player_who_went_out_cannot_hold_pips() -> None:
    board = score_match(chickenfoot(out("Ana", Ana=3, Bo=5, Cy=5)))

    found = only(board, "domino-with-pips")
    assert (found.hand, found.severity) == (1, Severity.ERROR)


def test_a_second_player_left_with_no_pips_is_an_error() -> None:
    board = score_match(chickenfoot(out("Ana", Bo=0, Cy=5)))

    found = only(board, "two-players-out")
    assert (found.hand, found.severity) == (1, Severity.ERROR)


def test_two_players_with_no_pips_in_a_blocked_round_is_an_error() -> None:
    board = score_match(chickenfoot(blocked(Ana=0, Bo=0, Cy=5)))

    assert codes(board) == ["two-players-out"]


@pytest.mark.parametrize(
    ("highest", "count", "fine"),
    [
        (6, 1, False),
        (6, 2, True),
        (6, 4, True),
        (6, 5, False),
        (9, 5, True),
        (9, 8, True),
        (9, 9, False),
        (12, 8, True),
        (12, 9, False),
    ],
)
def test_the_number_of_players_depends_on_the_set(highest: int, count: int, fine: bool) -> None:
    players = tuple(f"P{seat}" for seat in range(1, count + 1))

    board = score_match(chickenfoot(players=players, set=highest))

    if fine:
        assert board.findings == []
    else:
        found = only(board, "wrong-player-count")
        assert found.severity == Severity.ERROR


def test_the_double_blank_cannot_be_held_by_two_players() -> None:
    board = score_match(chickenfoot(out("Ana", blank=("Bo", "Cy"), Bo=5, Cy=5)))

    found = only(board, "impossible-double-blank")
    assert (found.hand, found.severity) == (1, Severity.ERROR)


def test_the_double_blank_cannot_be_held_in_the_round_it_starts() -> None:
    rounds = full_game(6)[:-1] + [out("Ana", double=0, blank=("Bo",), Bo=5, Cy=5)]

    board = score_match(chickenfoot(*rounds))

    found = only(board, "impossible-double-blank")
    assert (found.hand, found.severity) == (7, Severity.ERROR)


def test_the_double_blank_cannot_be_held_in_the_seventh_round_even_unrecorded() -> None:
    rounds = full_game(6)[:-1] + [out("Ana", blank=("Bo",), Bo=5, Cy=5)]

    board = score_match(chickenfoot(*rounds))

    assert codes(board) == ["impossible-double-blank"]


def test_the_player_who_went_out_cannot_hold_the_double_blank() -> None:
    board = score_match(chickenfoot(out("Ana", blank=("Ana",), Bo=5, Cy=5)))

    assert "impossible-double-blank" in codes(board)


@pytest.mark.parametrize(
    ("highest", "left_after_first_double"),
    [(6, 168 - 12), (9, 495 - 18), (12, 1092 - 24)],
)
def test_one_hand_cannot_hold_more_pips_than_the_set_leaves_off_the_table(
    highest: int, left_after_first_double: int
) -> None:
    most = chickenfoot(out("Ana", Bo=left_after_first_double), players=("Ana", "Bo"), set=highest)
    too_many = chickenfoot(
        out("Ana", Bo=left_after_first_double + 1), players=("Ana", "Bo"), set=highest
    )

    assert score_match(most).findings == []
    found = only(score_match(too_many), "pips-exceed-set")
    assert (found.hand, found.severity) == (1, Severity.ERROR)


def test_all_hands_together_cannot_hold_more_pips_than_the_set_leaves() -> None:
    # round 1 of double-six: 168 - 12 = 156 pips are off the table
    most = chickenfoot(blocked(Ana=78, Bo=78), players=("Ana", "Bo"))
    too_many = chickenfoot(blocked(Ana=78, Bo=79), players=("Ana", "Bo"))

    assert score_match(most).findings == []
    assert codes(score_match(too_many)) == ["pips-exceed-set"]


def test_a_lower_round_double_leaves_more_pips_off_the_table() -> None:
    # round 3 starts with 4-4: 168 - 8 = 160; round 7 with 0-0: all 168
    early = full_game(6)[:2]
    third = chickenfoot(*early, out("Ana", double=4, Bo=80, Cy=80))
    third_over = chickenfoot(*early, out("Ana", double=4, Bo=80, Cy=81))
    last = chickenfoot(*full_game(6)[:-1], out("Ana", double=0, Bo=84, Cy=84))
    last_over = chickenfoot(*full_game(6)[:-1], out("Ana", double=0, Bo=84, Cy=85))

    assert score_match(third).findings == []
    assert codes(score_match(third_over)) == ["pips-exceed-set"]
    assert score_match(last).findings == []
    assert codes(score_match(last_over)) == ["pips-exceed-set"]


def test_a_flagged_round_still_counts_in_the_totals() -> None:
    board = score_match(chickenfoot(out("Ana", Ana=3, Bo=5, Cy=6)))

    assert codes(board) == ["domino-with-pips"]
    assert board.totals == {"Ana": 3, "Bo": 5, "Cy": 6}
