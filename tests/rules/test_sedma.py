from __future__ import annotations

import pytest

from scorekeeper.rules import Hand, HandEnd, Match, Play, Scoreboard, Severity, score_match

PLAYERS = ("P1", "P2", "P3", "P4")


def sedma(*hands: Hand, players: tuple[str, ...] = PLAYERS, **rules: int | bool) -> Match:
    return Match("sedma", players, (), dict(rules), tuple(hands))


def laid(*tiles: tuple[str, str]) -> tuple[Play, ...]:
    """Plays from (player, "a-b") pairs, in the order laid."""
    result = []
    for player, text in tiles:
        first, second = text.split("-")
        result.append(Play(player, tile=(int(first), int(second))))
    return tuple(result)


def hand(
    *tiles: tuple[str, str],
    opener: str | None = None,
    passed: tuple[str, ...] = (),
    how: str | None = "all-doubles",
) -> Hand:
    plays = laid(*tiles)
    return Hand(
        plays=plays,
        opener=opener or plays[0].player,
        passed_opening=passed,
        end=HandEnd(how) if how else None,
    )


def codes(board: Scoreboard) -> list[str]:
    return [found.code for found in board.findings]


def only(board: Scoreboard, code: str):
    found = [f for f in board.findings if f.code == code]
    assert len(found) == 1, board.findings
    return found[0]


# The worked example in docs/rules.md, the whole line player by player.
WORKED_LINE = (
    ("P1", "1-1"), ("P2", "1-2"), ("P3", "2-4"), ("P4", "4-4"), ("P1", "4-0"), ("P2", "0-0"),
    ("P3", "0-6"), ("P4", "6-6"), ("P1", "6-5"), ("P2", "5-5"), ("P3", "5-2"), ("P4", "2-2"),
    ("P1", "2-3"), ("P2", "3-3"),
)  # fmt: skip
WORKED_DOUBLES = tuple(play for play in WORKED_LINE if play[1][0] == play[1][2])
WORKED_POINTS = {"P1": 1, "P2": 11, "P3": 0, "P4": 9}

# One player holding all seven doubles sets them lightest first: 1 + 2 + ... + 7 = 28.
ALL_DOUBLES_IN_ORDER = ("1-1", "2-2", "3-3", "4-4", "5-5", "6-6", "0-0")


def all_doubles_by(player: str, passed: tuple[str, ...] = ()) -> Hand:
    return hand(*[(player, tile) for tile in ALL_DOUBLES_IN_ORDER], passed=passed)


# -- scoring ----------------------------------------------------------------------------------


def test_the_worked_example_scores_as_the_rule_book_says() -> None:
    board = score_match(sedma(hand(*WORKED_LINE)))

    assert board.hands[0].points == WORKED_POINTS
    assert board.findings == []


def test_the_worked_example_scores_the_same_from_the_doubles_only() -> None:
    assert len(WORKED_DOUBLES) == 7

    board = score_match(sedma(hand(*WORKED_DOUBLES)))

    assert board.hands[0].points == WORKED_POINTS
    assert board.findings == []


def test_a_tile_may_be_written_either_way_round_in_a_whole_line() -> None:
    flipped = tuple((player, text[::-1]) for player, text in WORKED_LINE)

    board = score_match(sedma(hand(*flipped)))

    assert board.hands[0].points == WORKED_POINTS
    assert board.findings == []


def test_the_first_double_of_a_hand_scores_one() -> None:
    board = score_match(sedma(hand(("P3", "6-6"), how=None)))

    assert board.totals == {"P1": 0, "P2": 0, "P3": 1, "P4": 0}


def test_a_double_scores_one_plus_each_lighter_double_in_the_line() -> None:
    # 6-6 after 5-5 and 2-2 (both lighter): 1 + 2; 3-3 after them: 1 + 1 (only 2-2 is lighter)
    tiles = (("P1", "5-5"), ("P2", "2-2"), ("P3", "6-6"), ("P4", "3-3"))

    board = score_match(sedma(hand(*tiles, how=None)))

    assert board.totals == {"P1": 1, "P2": 1, "P3": 3, "P4": 2}


def test_the_double_blank_counts_as_lighter_than_every_other_double() -> None:
    tiles = (("P1", "0-0"), ("P2", "1-1"))

    board = score_match(sedma(hand(*tiles, how=None)))

    assert board.totals["P2"] == 2


def test_the_double_blank_after_all_six_others_scores_seven() -> None:
    tiles = [("P1", f"{d}-{d}") for d in (6, 5, 4, 3, 2, 1)] + [("P2", "0-0")]

    board = score_match(sedma(hand(*tiles)))

    assert board.totals["P2"] == 7
    # 6-6 first scores 1, and each lower double after it finds nothing lighter: 6 x 1
    assert board.totals["P1"] == 6


def test_one_player_setting_all_doubles_lightest_first_scores_28() -> None:
    board = score_match(sedma(all_doubles_by("P1")))

    assert board.totals == {"P1": 28, "P2": 0, "P3": 0, "P4": 0}


# -- the target -------------------------------------------------------------------------------


def three_hands_to_sixty() -> list[Hand]:
    """P1 sets every double in hands 1 and 2 (56), then reaches 60 in hand 3 with 4-4."""
    return [
        all_doubles_by("P1"),
        all_doubles_by("P1", passed=("P2", "P3", "P4")),
        # P3's turn to open; 1-1 +1, 2-2 +2, 0-0 +3, then P1's 4-4 finds 1-1, 2-2, 0-0 down: +4
        hand(("P3", "1-1"), ("P4", "2-2"), ("P2", "0-0"), ("P1", "4-4"), how=None),
    ]


def test_sixty_points_do_not_reach_the_default_target_of_61() -> None:
    board = score_match(sedma(*three_hands_to_sixty()))

    assert board.totals["P1"] == 60
    assert (board.finished, board.winner) == (False, None)
    assert board.findings == []


def test_house_rule_target_60_ends_the_match_at_60() -> None:
    board = score_match(sedma(*three_hands_to_sixty(), target=60))

    assert (board.finished, board.winner, board.next) == (True, "P1", None)


def test_reaching_61_ends_the_match_at_once_and_nothing_may_follow() -> None:
    first, second, third = three_hands_to_sixty()
    # P1's 5-5 finds four lighter doubles down: +5 makes 65; P2's 3-3 comes too late
    third = Hand(
        plays=third.plays + laid(("P1", "5-5"), ("P2", "3-3")),
        opener="P3",
        end=HandEnd("target"),
    )

    board = score_match(sedma(first, second, third))

    assert board.totals["P1"] == 65
    assert (board.finished, board.winner) == (True, "P1")
    found = only(board, "after-match-end")
    assert (found.hand, found.play, found.severity) == (3, 6, Severity.ERROR)
    # the late double still counts: 1 + 1-1, 2-2, 0-0 = 4, added to P2's 3 for 0-0
    assert board.totals["P2"] == 7


def test_a_hand_after_the_match_was_won_is_after_the_match_end() -> None:
    first, second, third = three_hands_to_sixty()
    extra = hand(("P4", "6-6"), how=None)

    board = score_match(sedma(first, second, third, extra, target=60))

    found = only(board, "after-match-end")
    assert (found.hand, found.severity) == (4, Severity.ERROR)


# -- who opens --------------------------------------------------------------------------------


def test_the_next_hand_is_opened_by_the_player_left_of_the_last_opener() -> None:
    board = score_match(sedma(hand(*WORKED_DOUBLES)))

    assert board.next is not None
    assert (board.next.hand, board.next.opener) == (2, "P2")


def test_the_opener_after_the_last_seat_is_the_first_seat() -> None:
    first = hand(("P4", "6-6"), ("P1", "5-5"), how="blocked")
    second = hand(("P1", "4-4"), how=None)

    board = score_match(sedma(first, second))

    assert board.findings == []
    assert board.hands[1].finished is False
    board = score_match(sedma(first))
    assert board.next is not None
    assert (board.next.hand, board.next.opener) == (2, "P1")


def test_the_next_opener_counts_from_the_scheduled_opener_even_when_they_passed() -> None:
    # hand 2 belongs to P2, who has no double: P3 opens; hand 3 still belongs to P3, not P4
    first = hand(("P1", "6-6"), ("P2", "5-5"), how="blocked")
    second = hand(("P3", "6-6"), ("P4", "5-5"), passed=("P2",), how="blocked")

    board = score_match(sedma(first, second))

    assert board.findings == []
    assert board.next is not None
    assert board.next.opener == "P3"


def test_a_first_hand_opened_after_a_pass_schedules_from_whoever_had_the_first_turn() -> None:
    # P2 drew the lot but had no double; hand 2 belongs to P3
    first = hand(("P3", "6-6"), passed=("P2",), how="blocked")

    board = score_match(sedma(first))

    assert board.next is not None
    assert board.next.opener == "P3"


def test_an_unfinished_hand_is_the_one_that_comes_next() -> None:
    board = score_match(sedma(hand(*WORKED_DOUBLES), hand(("P2", "4-4"), how=None)))

    assert board.next is not None
    assert (board.next.hand, board.next.opener) == (2, "P2")


# -- findings ---------------------------------------------------------------------------------


def test_a_double_set_twice_in_one_hand_is_an_error() -> None:
    board = score_match(sedma(hand(("P1", "4-4"), ("P2", "3-3"), ("P3", "4-4"), how=None)))

    found = only(board, "double-repeated")
    assert (found.hand, found.play, found.severity) == (1, 3, Severity.ERROR)


def test_a_hand_must_open_with_a_double() -> None:
    board = score_match(sedma(hand(("P1", "1-2"), ("P2", "2-2"), how=None)))

    found = only(board, "bad-opening")
    assert (found.hand, found.play, found.severity) == (1, 1, Severity.ERROR)


def test_the_first_double_must_be_set_by_the_opener() -> None:
    board = score_match(sedma(hand(("P2", "6-6"), ("P3", "5-5"), opener="P1", how=None)))

    found = only(board, "bad-opening")
    assert (found.hand, found.play) == (1, 1)


def test_passes_of_the_opening_that_leave_out_the_scheduled_opener_are_a_bad_opening() -> None:
    first = hand(*WORKED_DOUBLES)
    # hand 2 belongs to P2; the passes name P3 but not P2, whose turn to open came first
    second = hand(("P4", "6-6"), passed=("P3",), how=None)

    board = score_match(sedma(first, second))

    found = only(board, "bad-opening")
    assert (found.hand, found.play, found.severity) == (2, None, Severity.ERROR)


def test_passes_of_the_opening_must_go_round_in_seat_order() -> None:
    # after P2 comes P3, not P4
    board = score_match(sedma(hand(("P1", "6-6"), passed=("P2", "P4"), how=None)))

    found = only(board, "bad-opening")
    assert (found.hand, found.severity) == (1, Severity.ERROR)


def test_a_player_who_passed_the_opening_cannot_set_a_double_later() -> None:
    tiles = (("P2", "6-6"), ("P3", "6-3"), ("P4", "3-3"), ("P1", "3-1"), ("P2", "1-1"))
    board = score_match(sedma(hand(*tiles, passed=("P1",), how=None)))

    assert board.findings == []
    late = (("P2", "6-6"), ("P3", "6-1"), ("P4", "1-5"), ("P1", "5-5"))
    board = score_match(sedma(hand(*late, passed=("P1",), how=None)))

    found = only(board, "opener-passed-but-held-double")
    assert (found.hand, found.play, found.severity) == (1, 4, Severity.ERROR)


def test_touching_halves_that_differ_are_a_chain_mismatch() -> None:
    board = score_match(sedma(hand(("P1", "1-1"), ("P2", "1-2"), ("P3", "3-4"), how=None)))

    found = only(board, "chain-mismatch")
    assert (found.hand, found.play, found.severity) == (1, 3, Severity.ERROR)


def test_a_doubles_only_list_is_not_checked_for_matching_halves() -> None:
    board = score_match(sedma(hand(("P1", "1-1"), ("P2", "5-5"), how=None)))

    assert board.findings == []


def test_the_same_tile_twice_is_impossible_even_written_the_other_way_round() -> None:
    tiles = (("P1", "1-1"), ("P2", "1-2"), ("P3", "2-1"))

    board = score_match(sedma(hand(*tiles, how=None)))

    found = only(board, "impossible-tiles")
    assert (found.hand, found.play, found.severity) == (1, 3, Severity.ERROR)


def test_a_player_cannot_lay_more_than_seven_tiles_in_a_hand() -> None:
    tiles = [("P1", t) for t in ("1-1", "1-2", "2-2", "2-3", "3-3", "3-4", "4-4")]

    assert score_match(sedma(hand(*tiles, how="domino"))).findings == []
    board = score_match(sedma(hand(*tiles, ("P1", "4-5"), how="domino")))

    found = only(board, "impossible-tiles")
    assert (found.hand, found.play) == (1, 8)


def test_a_tile_after_all_seven_doubles_are_down_is_after_the_hand_end() -> None:
    board = score_match(sedma(hand(*WORKED_LINE, ("P3", "3-4"))))

    found = only(board, "after-hand-end")
    assert (found.hand, found.play, found.severity) == (1, 15, Severity.ERROR)


def test_a_tile_after_a_player_went_out_is_after_the_hand_end() -> None:
    tiles = [("P1", t) for t in ("1-1", "1-2", "2-2", "2-3", "3-3", "3-4", "4-4")]

    board = score_match(sedma(hand(*tiles, ("P2", "4-5"), how="domino")))

    found = only(board, "after-hand-end")
    assert found.play == 8


@pytest.mark.parametrize("count", [3, 5])
def test_sedma_is_played_by_exactly_four_players(count: int) -> None:
    players = tuple(f"P{seat}" for seat in range(1, count + 1))

    board = score_match(sedma(players=players))

    found = only(board, "wrong-player-count")
    assert (found.hand, found.severity) == (None, Severity.ERROR)


def test_a_flagged_double_still_counts_in_the_totals() -> None:
    # P2 set 5-5 though P2 passed the opening; the table kept it
    board = score_match(sedma(hand(("P3", "6-6"), ("P2", "5-5"), passed=("P2",), how=None)))

    assert codes(board) == ["opener-passed-but-held-double"]
    assert board.totals["P2"] == 1
