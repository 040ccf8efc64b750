"""The rulings docs/rules.md and docs/findings.md spell out for cases a first reading leaves
open."""

from __future__ import annotations

from scorekeeper.rules import Hand, HandEnd, Match, Play, Scoreboard, Severity, score_match


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


def test_partners_level_on_pips_after_a_hand_whose_leader_was_never_recorded_name_nobody() -> None:
    # nobody recorded who led hand 1: Ana and Cy both hold 4, and the rules cannot tell
    blocked = HandEnd("blocked", pips={"Ana": 4, "Bo": 10, "Cy": 4, "Di": 9})
    teams = (("Ana", "Cy"), ("Bo", "Di"))
    match = Match("straight", ("Ana", "Bo", "Cy", "Di"), teams, hands=(Hand(end=blocked),))

    board = score_match(match)

    assert (board.next.hand, board.next.leader) == (2, None)
    assert str(board.next.says) == "Hand 2: the rules cannot tell who leads; the table says."
    assert board.totals == {"Ana & Cy": 20, "Bo & Di": 0}


def test_the_leads_player_is_the_leader_where_nothing_before_says_who_leads() -> None:
    # hand 1 has no leader, but Cy's first play is marked the lead: Cy led, so Cy first from Cy
    blocked = HandEnd("blocked", pips={"Ana": 4, "Bo": 10, "Cy": 4, "Di": 9})
    teams = (("Ana", "Cy"), ("Bo", "Di"))
    hand = Hand(plays=(Play("Cy", points=5, lead=True),), end=blocked)
    match = Match("straight", ("Ana", "Bo", "Cy", "Di"), teams, hands=(hand,))

    board = score_match(match)

    assert board.findings == []
    assert board.next.leader == "Cy"


# -- the lead flag ----------------------------------------------------------------------------

TWO = ("Ana", "Bo")


def lead_findings(*hands: Hand) -> list[tuple[int, int, str]]:
    board = score_match(Match("straight", TWO, hands=hands))
    return [(f.hand, f.play, f.message) for f in board.findings if f.code == "lead-misplaced"]


def test_the_lead_on_the_first_play_by_the_leader_is_fine() -> None:
    assert lead_findings(Hand(leader="Bo", plays=(Play("Bo", points=10, lead=True),))) == []


def test_the_lead_on_a_later_play_is_misplaced() -> None:
    hand = Hand(leader="Ana", plays=(Play("Ana", points=5), Play("Ana", points=10, lead=True)))

    assert lead_findings(hand) == [
        (
            1,
            2,
            "Hand 1, play 2: Ana's play is marked as the lead, but the lead is the hand's first "
            "play.",
        )
    ]


def test_two_leads_in_a_hand_are_misplaced() -> None:
    hand = Hand(
        leader="Ana",
        plays=(Play("Ana", points=5, lead=True), Play("Bo", points=10, lead=True)),
    )

    assert lead_findings(hand) == [
        (1, 2, "Hand 1, play 2: Bo's play is marked as the lead, but play 1 already led the hand.")
    ]


def test_the_lead_by_anyone_but_the_recorded_leader_is_misplaced() -> None:
    hand = Hand(leader="Ana", plays=(Play("Bo", points=10, lead=True),))

    assert lead_findings(hand) == [
        (1, 1, "Hand 1, play 1: Bo's play is marked as the lead, but Ana leads this hand.")
    ]


def test_a_leader_worked_out_from_the_hand_before_counts_as_recorded() -> None:
    # Ana dominoed hand 1, so Ana leads hand 2
    first = Hand(leader="Bo", end=HandEnd("domino", player="Ana", pips={"Bo": 10}))
    second = Hand(plays=(Play("Bo", points=5, lead=True),))

    assert lead_findings(first, second) == [
        (2, 1, "Hand 2, play 1: Bo's play is marked as the lead, but Ana leads this hand.")
    ]


def test_where_nothing_says_who_leads_the_leads_player_leads() -> None:
    # a first hand with no leader; after a blocked tie whose leader nobody knew
    tie = Hand(end=HandEnd("blocked", pips={"Ana": 5, "Bo": 5}))
    second = Hand(plays=(Play("Bo", points=10, lead=True),))

    assert lead_findings(Hand(plays=(Play("Bo", points=10, lead=True),))) == []
    assert lead_findings(tie, second) == []


def test_a_misplaced_lead_is_an_error_and_its_points_still_count() -> None:
    hand = Hand(leader="Ana", plays=(Play("Bo", points=10, lead=True),))

    board = score_match(Match("straight", TWO, hands=(hand,)))

    assert [(f.code, f.severity) for f in board.findings] == [("lead-misplaced", Severity.ERROR)]
    assert board.totals == {"Ana": 0, "Bo": 10}


# -- Sedma: a passed_opening that leaves some of those in between off -------------------------


def test_a_partial_passed_opening_is_bad_and_those_left_off_passed_all_the_same() -> None:
    # hand 2 is P2's to open; P4 opens it; the record names P3 but not P2
    line = (
        Play("P4", tile=(6, 6)),
        Play("P1", tile=(6, 1)),
        Play("P2", tile=(1, 1)),
    )
    second = Hand(opener="P4", passed_opening=("P3",), plays=line)

    board = score_match(Match("sedma", PLAYERS, hands=(FIRST, second)))

    assert codes(board) == ["bad-opening", "opener-passed-but-held-double"]
    assert (board.findings[1].hand, board.findings[1].play) == (2, 3)
    assert "P2 passed the opening" in board.findings[1].message
    # kept on purpose, P2's double still scores
    assert board.hands[1].points["P2"] == 1


# -- Sedma: the first hand, where no earlier hand says who was due ----------------------------


def test_in_the_first_hand_the_first_named_pass_was_due_and_those_left_off_passed_too() -> None:
    # P1 was due (the first named); P4 opens; the record leaves P2 off, who sets 1-1 later
    line = (
        Play("P4", tile=(6, 6)),
        Play("P1", tile=(6, 1)),
        Play("P2", tile=(1, 1)),
    )
    first = Hand(opener="P4", passed_opening=("P1", "P3"), plays=line)

    board = score_match(Match("sedma", PLAYERS, hands=(first,)))

    assert codes(board) == ["bad-opening", "opener-passed-but-held-double"]
    assert (board.findings[1].hand, board.findings[1].play) == (1, 3)
    assert "P2 passed the opening" in board.findings[1].message
    # kept on purpose, P2's double still scores
    assert board.hands[0].points["P2"] == 1


def test_in_the_first_hand_one_named_pass_means_the_players_up_to_the_opener_passed() -> None:
    # P2 was due and had no double; P4 opens, so P3 had none either: P3's 3-3 cannot be
    line = (Play("P4", tile=(6, 6)), Play("P1", tile=(1, 1)), Play("P3", tile=(3, 3)))
    first = Hand(opener="P4", passed_opening=("P2",), plays=line)

    board = score_match(Match("sedma", PLAYERS, hands=(first,)))

    assert codes(board) == ["bad-opening", "opener-passed-but-held-double"]
    assert (board.findings[1].hand, board.findings[1].play) == (1, 3)
    assert "P3 passed the opening" in board.findings[1].message


def test_in_the_first_hand_every_pass_named_in_order_is_no_finding() -> None:
    line = (Play("P4", tile=(6, 6)), Play("P1", tile=(1, 1)))
    first = Hand(opener="P4", passed_opening=("P2", "P3"), plays=line, end=HandEnd("blocked"))

    board = score_match(Match("sedma", PLAYERS, hands=(first,)))

    assert board.findings == []
    # P2 was due, so hand 2 is P3's to open
    assert board.next is not None and board.next.opener == "P3"
