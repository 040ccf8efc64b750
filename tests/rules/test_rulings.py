"""The rulings shared/RULES.md spells out for cases the first reading left open."""

from __future__ import annotations

from scorekeeper.rules import Hand, HandEnd, Match, Play, Scoreboard, score_match


def codes(board: Scoreboard) -> list[str]:
    return [found.code for found in board.findings]


# -- every finding that applies ---------------------------------------------------------------


def test_a_play_of_37_is_both_not_a_multiple_of_five_and_too_high() -> None:
    match = Match("straight", ("Ana", "Bo"), hands=(Hand(plays=(Play("Ana", points=37),)),))

    board = score_match(match)

    assert sorted(codes(board)) == ["play-not-multiple-of-five", "play-too-high"]
    assert {(f.hand, f.play) for f in board.findings} == {(1, 1)}
    assert board.totals == {"Ana": 37, "Bo": 0}


def test_a_play_of_22_without_a_spinner_is_both_findings_too() -> None:
    match = Match(
        "straight",
        ("Ana", "Bo"),
        rules={"spinner": False},
        hands=(Hand(plays=(Play("Bo", points=22),)),),
    )

    assert sorted(codes(score_match(match))) == ["play-not-multiple-of-five", "play-too-high"]


# -- a Chickenfoot round beyond the last ------------------------------------------------------


def test_a_round_kept_beyond_the_last_counts_but_does_not_change_the_winner() -> None:
    kim_out = [Hand(end=HandEnd("domino", player="Kim", pips={"Lee": 1})) for _ in range(7)]
    lee_out = Hand(end=HandEnd("domino", player="Lee", pips={"Kim": 10}))
    match = Match("chickenfoot", ("Kim", "Lee"), hands=(*kim_out, lee_out))

    board = score_match(match)

    assert board.totals == {"Kim": 10, "Lee": 7}
    assert board.winner == "Kim"
    assert board.finished is True
    assert "too-many-rounds" in codes(board)


def test_without_a_round_beyond_the_last_the_lowest_total_wins() -> None:
    rounds = [Hand(end=HandEnd("domino", player="Kim", pips={"Lee": 1})) for _ in range(6)]
    last = Hand(end=HandEnd("domino", player="Lee", pips={"Kim": 10}))

    board = score_match(Match("chickenfoot", ("Kim", "Lee"), hands=(*rounds, last)))

    assert (board.totals, board.winner) == ({"Kim": 10, "Lee": 6}, "Lee")


# -- Sedma: passes of the opening the table did not write down --------------------------------

PLAYERS = ("P1", "P2", "P3", "P4")
FIRST = Hand(
    opener="P1",
    plays=tuple(
        Play(player, tile=(d, d))
        for player, d in zip(PLAYERS * 2, (1, 2, 3, 4, 5, 6, 0), strict=False)
    ),
    end=HandEnd("all-doubles"),
)


def test_a_later_opener_means_the_players_in_between_passed() -> None:
    # hand 2 is P2's to open; P4 opens it, so P2 and P3 had no double
    second = Hand(opener="P4", plays=(Play("P4", tile=(6, 6)),))

    board = score_match(Match("sedma", PLAYERS, hands=(FIRST, second)))

    assert "bad-opening" not in codes(board)
    assert board.findings == []


def test_one_of_those_taken_to_have_passed_setting_a_double_later_is_an_error() -> None:
    line = (
        Play("P4", tile=(6, 6)),
        Play("P1", tile=(6, 1)),
        Play("P2", tile=(1, 1)),
    )
    second = Hand(opener="P4", plays=line)

    board = score_match(Match("sedma", PLAYERS, hands=(FIRST, second)))

    assert codes(board) == ["opener-passed-but-held-double"]
    assert (board.findings[0].hand, board.findings[0].play) == (2, 3)
    assert "P2" in board.findings[0].message


# -- who leads after a blocked hand won by partners level on pips -----------------------------


def test_partners_level_on_pips_the_one_first_from_the_hands_leader_leads_next() -> None:
    # Di led; after Di come Ana, Bo, Cy: Ana and Cy both hold 4, and Ana plays first
    blocked = HandEnd("blocked", pips={"Ana": 4, "Bo": 10, "Cy": 4, "Di": 9})
    teams = (("Ana", "Cy"), ("Bo", "Di"))
    match = Match(
        "straight", ("Ana", "Bo", "Cy", "Di"), teams, hands=(Hand(leader="Di", end=blocked),)
    )

    assert score_match(match).next.leader == "Ana"


def test_counting_from_the_leader_can_pass_over_the_first_seat() -> None:
    # Bo led; after Bo come Cy, Di, Ana: Cy plays before Ana
    blocked = HandEnd("blocked", pips={"Ana": 4, "Bo": 10, "Cy": 4, "Di": 9})
    teams = (("Ana", "Cy"), ("Bo", "Di"))
    match = Match(
        "straight", ("Ana", "Bo", "Cy", "Di"), teams, hands=(Hand(leader="Bo", end=blocked),)
    )

    assert score_match(match).next.leader == "Cy"
