"""Where a match ends (rules/match_end.py): the entries recorded after it was decided, and the
match ended there, as a director settles a dispute that moved the win."""

from __future__ import annotations

from scorekeeper.rules import Hand, score_match
from scorekeeper.rules.match_end import after_the_win
from scorekeeper.rules.scoreboard import LAST_HAND
from tests.rules.test_straight import domino, plays, straight


def test_a_match_without_entries_after_the_win_has_nothing_to_end() -> None:
    won = Hand(plays=plays(("Ana", 35), ("Ana", 10)), end=domino("Ana", Bo=3))

    assert after_the_win(straight(won, players=("Ana", "Bo"), target=50)) is None


def test_hands_after_the_win_leave_the_match_ended_where_it_was_won() -> None:
    won = Hand(plays=plays(("Ana", 35), ("Ana", 10)), end=domino("Ana", Bo=3))
    extra = Hand(plays=plays(("Bo", 10)), end=domino("Bo", Ana=9))
    match = straight(won, extra, extra, players=("Ana", "Bo"), target=50)

    found = after_the_win(match)

    assert (found.hand, found.play, found.later) == (1, None, (2, 3))
    assert (found.winner, found.reached) == ("Ana", 50)
    assert found.ended.hands == (won,)
    assert found.board.totals == {"Ana": 50, "Bo": 0}
    assert not any(f.code == "after-match-end" for f in found.board.findings)


def test_a_win_within_a_hand_ends_the_match_at_that_play() -> None:
    hand = Hand(
        plays=plays(("Ana", 30), ("Bo", 20), ("Ana", 25), ("Bo", 35)),
        end=domino("Bo", Ana=10),
    )
    match = straight(hand, Hand(plays=plays(("Bo", 5))), players=("Ana", "Bo"), target=50)

    found = after_the_win(match)

    assert (found.hand, found.play, found.later) == (1, 3, (2, 2))
    assert found.ended.hands == (Hand(plays=hand.plays[:3]),)
    assert found.board.totals == {"Ana": 55, "Bo": 20}
    assert found.board.winner == "Ana"


def test_a_match_decided_at_time_ends_with_the_hand_that_decided_it() -> None:
    first = Hand(plays=plays(("Ana", 30)), end=domino("Ana", Bo=3))
    second = Hand(plays=plays(("Bo", 10)), end=domino("Bo", Ana=4))
    third = Hand(plays=plays(("Bo", 25)))
    match = straight(first, second, third, players=("Ana", "Bo"), target=250)
    timed = match.__class__(
        match.game, match.players, match.partnerships, {**match.rules, LAST_HAND: 2}, match.hands
    )

    found = after_the_win(timed)

    assert score_match(timed).winner == "Ana"
    assert (found.hand, found.play, found.later, found.reached) == (2, None, (3, 3), None)
    assert found.board.totals == {"Ana": 35, "Bo": 15}
