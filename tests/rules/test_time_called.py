"""The time rule (``last_hand``, docs/rules.md *Time called*): once the last hand ends with one
side ahead, that decision stands, and everything recorded after it is ``after-match-end``,
exactly as after a target."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules import Hand, HandEnd, Match, Play, Scoreboard, score_match

SEDMA = ("P1", "P2", "P3", "P4")
#: the seven doubles from the lightest, 0-0 last: 1 + 2 + ... + 7 = 28 for one player
ALL_DOUBLES = (1, 2, 3, 4, 5, 6, 0)


def doubles(*laid: tuple[str, int]) -> tuple[Play, ...]:
    return tuple(Play(player, tile=(d, d)) for player, d in laid)


def ended(board: Scoreboard) -> list[tuple[int | None, int | None]]:
    """Where ``after-match-end`` falls: (hand, play)."""
    return [(f.hand, f.play) for f in board.findings if f.code == "after-match-end"]


def says(board: Scoreboard, number: int) -> str:
    return " ".join(str(line) for line in board.hands[number - 1].explanation)


def sedma_decided_at_time_for_p2(*later: Hand) -> Match:
    """P1 28, P2 28; hand 3, the last when time was called, leaves P2 ahead 43 to 34."""
    return Match(
        "sedma",
        SEDMA,
        rules={"last_hand": 3},
        hands=(
            Hand(opener="P1", plays=doubles(*(("P1", d) for d in ALL_DOUBLES))),
            Hand(opener="P2", plays=doubles(*(("P2", d) for d in ALL_DOUBLES))),
            # P3 was due; P3 and P4 had no double, P1 opens
            Hand(
                opener="P1",
                plays=doubles(("P1", 1), ("P1", 2), ("P1", 3), ("P2", 4), ("P2", 5), ("P2", 6)),
                end=HandEnd("blocked"),
            ),
            *later,
        ),
    )


def test_sedma_decided_at_time_stands_though_the_other_reaches_61_a_hand_later() -> None:
    # hand 4: P4 was due and had no double; P1 sets all seven, 28, and reaches 62
    fourth = Hand(opener="P1", plays=doubles(*(("P1", d) for d in ALL_DOUBLES)))
    match = sedma_decided_at_time_for_p2(fourth)

    board = score_match(match)

    assert (board.finished, board.winner) == (True, "P2")
    assert "Time is up after hand 3: P2 is ahead with 43 and wins the match." in says(board, 3)
    # the points kept after the end still count; the win is not P1's
    assert board.totals["P1"] == 62
    assert "wins the match" not in says(board, 4)
    assert ended(board) == [(4, None)]
    assert all("P2 had won the match" in f.message for f in board.errors)


def test_every_sedma_hand_after_the_decision_at_time_is_after_the_end() -> None:
    fourth = Hand(opener="P1", plays=doubles(*(("P1", d) for d in ALL_DOUBLES)))
    fifth = Hand(opener="P1", plays=doubles(("P1", 1)))
    sixth = Hand(opener="P2", plays=doubles(("P2", 6)))

    board = score_match(sedma_decided_at_time_for_p2(fourth, fifth, sixth))

    assert board.winner == "P2"
    assert ended(board) == [(4, None), (5, None), (6, None)]


def straight(*hands: Hand, last_hand: int = 2) -> Match:
    return Match(
        "straight", ("Ana", "Bo"), rules={"target": 100, "last_hand": last_hand}, hands=hands
    )


def played(scorer: str, *points: int, ended_by: str | None = None) -> Hand:
    """``scorer``'s plays; ``ended_by`` dominoes with the other holding no pips."""
    other = "Bo" if ended_by == "Ana" else "Ana"
    end = HandEnd("domino", player=ended_by, pips={other: 0}) if ended_by else None
    return Hand(plays=tuple(Play(scorer, points=p) for p in points), end=end)


def test_straight_decided_at_time_stands_though_the_other_reaches_the_target_later() -> None:
    board = score_match(
        straight(
            played("Ana", 35, 10, ended_by="Ana"),
            played("Bo", 20, ended_by="Bo"),
            # after the decision: Bo reaches 125, the target being 100
            played("Bo", 35, 35, 35, ended_by="Bo"),
            played("Bo", 5),
        )
    )

    assert (board.finished, board.winner) == (True, "Ana")
    assert board.totals == {"Ana": 45, "Bo": 130}
    assert board.next is None
    assert "wins the match" not in says(board, 3)
    assert ended(board) == [(3, None), (4, None)]


def test_a_target_reached_before_the_last_hand_ends_wins_as_always() -> None:
    # Bo reaches 100 during hand 2, the last: the target wins before the hand's end
    board = score_match(
        straight(played("Ana", 35, 10, ended_by="Ana"), played("Bo", 35, 35, 30, ended_by="Bo"))
    )

    assert board.winner == "Bo"
    assert "Time is up" not in says(board, 2)
    assert ended(board) == [(2, None)]


def test_chickenfoot_decided_at_time_stands_though_more_rounds_were_kept() -> None:
    kim_out = Hand(end=HandEnd("domino", player="Kim", pips={"Lee": 5}))
    lee_out = Hand(end=HandEnd("domino", player="Lee", pips={"Kim": 20}))
    # Kim lowest after round 2, the last when time was called; had all seven rounds been
    # played, Lee would stand lowest
    match = Match(
        "chickenfoot",
        ("Kim", "Lee"),
        rules={"last_hand": 2},
        hands=(kim_out, kim_out, *[lee_out] * 5),
    )

    board = score_match(match)

    assert (board.finished, board.winner) == (True, "Kim")
    assert board.totals == {"Kim": 100, "Lee": 10}
    assert ended(board) == [(number, None) for number in range(3, 8)]
    assert board.findings[0].message.startswith("Round 3: ")


@given(
    hands=st.lists(
        st.tuples(
            st.sampled_from(["Ana", "Bo"]),
            st.lists(st.sampled_from([5, 10, 15, 20, 25, 30, 35]), min_size=1, max_size=3),
        ),
        min_size=1,
        max_size=10,
    ),
    last=st.integers(1, 10),
)
def test_whichever_comes_first_decides_the_target_or_the_end_of_the_last_hand(
    hands: list[tuple[str, list[int]]], last: int
) -> None:
    """The target reached (mid-hand) or the first hand from the last that ends with one side
    ahead: the first of the two wins; every hand after the one it came in is after the end."""
    running = {"Ana": 0, "Bo": 0}
    winner, deciding, mid_hand = None, None, []
    for number, (scorer, points) in enumerate(hands, 1):
        for play, scored in enumerate(points, 1):
            if winner is not None and deciding == number:
                mid_hand.append((number, play))
            running[scorer] += scored
            if winner is None and running[scorer] >= 100:
                winner, deciding = scorer, number
        if deciding == number and mid_hand[-1:] != [(number, None)]:
            # the end of the hand, recorded after the target was reached in it
            mid_hand.append((number, None))
        if winner is None and number >= last and running["Ana"] != running["Bo"]:
            winner, deciding = max(running, key=running.__getitem__), number

    board = score_match(straight(*(played(s, *p, ended_by=s) for s, p in hands), last_hand=last))

    assert board.winner == winner
    assert board.finished is (winner is not None)
    if deciding is not None:
        after = [(number, None) for number in range(deciding + 1, len(hands) + 1)]
        assert sorted(ended(board), key=str) == sorted(mid_hand + after, key=str)
