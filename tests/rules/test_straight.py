from __future__ import annotations

import json

import pytest

from scorekeeper.rules import Hand, HandEnd, Match, Play, Scoreboard, Severity, score_match
from scorekeeper.rules.findings import CODES
from scorekeeper.rules.matchfile import read_match
from tests.examples import matchfile_example

FOUR = ("Ana", "Bo", "Cy", "Di")
TEAMS = (("Ana", "Cy"), ("Bo", "Di"))
ANA_CY, BO_DI = "Ana & Cy", "Bo & Di"


def straight(
    *hands: Hand,
    players: tuple[str, ...] = FOUR,
    partnerships: tuple[tuple[str, ...], ...] = (),
    **rules: int | bool,
) -> Match:
    return Match("straight", players, partnerships, dict(rules), tuple(hands))


def partners(*hands: Hand, **rules: int | bool) -> Match:
    return straight(*hands, partnerships=TEAMS, **rules)


def plays(*scores: tuple[str, int]) -> tuple[Play, ...]:
    return tuple(Play(player, points=points) for player, points in scores)


def domino(player: str, **pips: int) -> HandEnd:
    return HandEnd("domino", player=player, pips=pips)


def blocked(winner: str | None = None, **pips: int) -> HandEnd:
    return HandEnd("blocked", player=winner, pips=pips)


def codes(board: Scoreboard) -> list[str]:
    return [found.code for found in board.findings]


def only(board: Scoreboard, code: str):
    found = [f for f in board.findings if f.code == code]
    assert len(found) == 1, board.findings
    return found[0]


# -- scoring during play ----------------------------------------------------------------------


def test_a_scoring_play_counts_for_the_players_partnership() -> None:
    hand = Hand(plays=plays(("Bo", 15), ("Ana", 5), ("Di", 10)))

    board = score_match(partners(hand))

    assert board.hands[0].points == {ANA_CY: 5, BO_DI: 25}
    assert board.totals == {ANA_CY: 5, BO_DI: 25}


def test_without_partnerships_each_player_keeps_their_own_plays() -> None:
    hand = Hand(plays=plays(("Bo", 15), ("Ana", 5), ("Di", 10), ("Bo", 20)))

    board = score_match(straight(hand))

    assert board.sides == list(FOUR)
    assert board.totals == {"Ana": 5, "Bo": 35, "Cy": 0, "Di": 10}


def test_every_side_appears_in_a_hands_points_even_on_zero() -> None:
    board = score_match(straight(Hand(plays=plays(("Cy", 10)))))

    assert board.hands[0].points == {"Ana": 0, "Bo": 0, "Cy": 10, "Di": 0}


# -- the end of a hand ------------------------------------------------------------------------


def test_a_domino_scores_the_opponents_pips_rounded_on_the_total() -> None:
    hand = Hand(end=domino("Ana", Bo=13, Cy=13))

    board = score_match(straight(hand, players=("Ana", "Bo", "Cy")))

    # 13 + 13 = 26 rounds to 25; rounding each hand would give 15 + 15 = 30
    assert board.hands[0].points == {"Ana": 25, "Bo": 0, "Cy": 0}


@pytest.mark.parametrize(("pips", "scored"), [(22, 20), (23, 25), (2, 0), (3, 5)])
def test_a_domino_against_one_opponent_rounds_to_the_nearest_five(pips: int, scored: int) -> None:
    board = score_match(straight(Hand(end=domino("Bo", Ana=pips)), players=("Ana", "Bo")))

    assert board.totals == {"Ana": 0, "Bo": scored}


def test_a_domino_does_not_count_the_partners_pips() -> None:
    hand = Hand(end=domino("Ana", Bo=12, Cy=30, Di=11))

    board = score_match(partners(hand))

    # Bo 12 + Di 11 = 23, rounds to 25; Cy's 30 belong to Ana's own side
    assert board.hands[0].points == {ANA_CY: 25, BO_DI: 0}


def test_the_player_who_dominoed_may_be_entered_with_zero_pips() -> None:
    board = score_match(partners(Hand(end=domino("Ana", Ana=0, Bo=12, Cy=3, Di=11))))

    assert board.totals == {ANA_CY: 25, BO_DI: 0}
    assert board.findings == []


def test_a_blocked_hand_goes_to_the_partnership_with_fewest_pips_combined() -> None:
    # Bo holds the fewest pips of anyone, but Ana & Cy hold fewer together (12 against 23)
    hand = Hand(end=blocked(Ana=2, Bo=1, Cy=10, Di=22))

    board = score_match(partners(hand))

    assert board.hands[0].points == {ANA_CY: 25, BO_DI: 0}


def test_a_blocked_hand_without_partnerships_goes_to_the_fewest_pips() -> None:
    hand = Hand(end=blocked(Ana=9, Bo=4, Cy=14))

    board = score_match(straight(hand, players=("Ana", "Bo", "Cy")))

    # Ana 9 + Cy 14 = 23, rounds to 25
    assert board.hands[0].points == {"Ana": 0, "Bo": 25, "Cy": 0}


def test_blocked_tie_scores_nobody() -> None:
    hand = Hand(leader="Ana", end=blocked(Ana=5, Bo=5, Cy=10, Di=12))

    board = score_match(straight(hand))

    assert board.totals == {"Ana": 0, "Bo": 0, "Cy": 0, "Di": 0}
    assert board.findings == []


def test_blocked_tie_between_partnerships_scores_nobody() -> None:
    hand = Hand(leader="Bo", end=blocked(Ana=10, Bo=4, Cy=5, Di=11))

    board = score_match(partners(hand))

    assert board.totals == {ANA_CY: 0, BO_DI: 0}


# -- partners' pips counted together ----------------------------------------------------------


def explained(board: Scoreboard, number: int = 1) -> list[str]:
    return [str(line) for line in board.hands[number - 1].explanation]


def test_after_a_domino_the_opponents_may_count_their_pips_together() -> None:
    hand = Hand(end=HandEnd("domino", player="Ana", pips={BO_DI: 23, "Cy": 9}))

    board = score_match(partners(hand))

    assert board.hands[0].points == {ANA_CY: 25, BO_DI: 0}
    assert board.findings == []
    assert explained(board)[:4] == [
        "Ana dominoed.",
        "Cy's 9 pips are Ana's partner's and do not count.",
        "Bo & Di's pips, counted together: 23.",
        "23 rounds to 25 (23 is nearer 25 than 20).",
    ]


@pytest.mark.parametrize(("bo", "di"), [(0, 0), (13, 13), (10, 12), (30, 39)])
def test_pips_counted_together_score_as_the_same_pips_counted_apart(bo: int, di: int) -> None:
    apart = Hand(end=domino("Ana", Bo=bo, Cy=4, Di=di))
    together = Hand(end=HandEnd("domino", player="Ana", pips={BO_DI: bo + di, "Cy": 4}))

    assert score_match(partners(together)).totals == score_match(partners(apart)).totals


def test_the_winners_own_side_may_be_counted_together_and_does_not_count() -> None:
    hand = Hand(end=HandEnd("domino", player="Bo", pips={ANA_CY: 21, BO_DI: 7}))

    board = score_match(partners(hand))

    # Ana & Cy's 21 round to 20; Bo & Di's own 7 (Di's: Bo went out) do not count
    assert board.totals == {ANA_CY: 0, BO_DI: 20}
    assert board.findings == []
    assert "Bo & Di's 7 pips, counted together, are Bo's own side's and do not count." in (
        explained(board)
    )


def test_the_player_who_dominoed_may_be_given_zero_beside_their_sides_count() -> None:
    hand = Hand(end=HandEnd("domino", player="Bo", pips={"Bo": 0, BO_DI: 7, ANA_CY: 21}))

    assert score_match(partners(hand)).findings == []


@pytest.mark.parametrize("own", [{ANA_CY: 7}, {"Ana": 0, "Cy": 7}, {"Cy": 7}])
def test_house_rule_subtract_own_takes_off_the_winners_side_counted_together_or_apart(
    own: dict[str, int],
) -> None:
    hand = Hand(end=HandEnd("domino", player="Ana", pips={BO_DI: 23, **own}))

    board = score_match(partners(hand, subtract_own=True))

    # 23 - 7 = 16, rounds to 15
    assert board.totals == {ANA_CY: 15, BO_DI: 0}
    assert board.findings == []


def test_pips_counted_together_cannot_be_rounded_hand_by_hand() -> None:
    hand = Hand(end=HandEnd("domino", player="Ana", pips={BO_DI: 26, "Cy": 4}))

    board = score_match(partners(hand, round_each_hand=True))

    found = only(board, "pips-counted-together")
    assert (found.hand, found.play, found.severity) == (1, None, Severity.WARNING)
    assert found.message == (
        "Hand 1: Bo & Di's pips were counted together (26), but the house rule rounds each "
        "player's pips on their own."
    )
    # kept on purpose, the count together is rounded as one number
    assert board.totals == {ANA_CY: 25, BO_DI: 0}


def test_round_each_hand_does_not_mind_the_winners_own_side_counted_together() -> None:
    hand = Hand(end=domino("Ana", Bo=13, Di=13, **{ANA_CY: 30}))

    board = score_match(partners(hand, round_each_hand=True))

    assert board.findings == []
    assert board.totals == {ANA_CY: 30, BO_DI: 0}


def test_round_each_hand_minds_the_winners_own_count_together_when_subtracted() -> None:
    hand = Hand(end=domino("Ana", Bo=13, Di=13, **{ANA_CY: 4}))

    board = score_match(partners(hand, round_each_hand=True, subtract_own=True))

    assert codes(board) == ["pips-counted-together"]


def test_a_blocked_hand_lost_by_a_side_counted_together_needs_no_finding() -> None:
    hand = Hand(leader="Ana", end=HandEnd("blocked", pips={"Ana": 3, "Cy": 5, BO_DI: 21}))

    board = score_match(partners(hand))

    # Ana & Cy hold 8 against 21 and score 20, and Ana (3) leads next
    assert board.findings == []
    assert board.totals == {ANA_CY: 20, BO_DI: 0}
    assert "Blocked. Pips left: Ana & Cy: Ana 3 + Cy 5 = 8; Bo & Di 21." in explained(board)
    assert board.next.leader == "Ana"


def test_a_blocked_hand_won_by_a_side_counted_together_leaves_who_leads_open() -> None:
    hand = Hand(leader="Ana", end=HandEnd("blocked", pips={ANA_CY: 8, "Bo": 10, "Di": 11}))

    board = score_match(partners(hand))

    found = only(board, "pips-counted-together")
    assert (found.hand, found.play, found.severity) == (1, None, Severity.WARNING)
    assert found.message == (
        "Hand 1: Ana & Cy's pips were counted together (8), but a blocked hand needs each "
        "player's pips to tell who leads the next hand."
    )
    # possible, and scored: 21 rounds to 20; who leads hand 2 is for the table to say
    assert board.totals == {ANA_CY: 20, BO_DI: 0}
    assert (board.next.hand, board.next.leader) == (2, None)
    assert str(board.next.says) == "Hand 2: the rules cannot tell who leads; the table says."


def test_a_blocked_tie_with_a_side_counted_together_needs_no_finding() -> None:
    hand = Hand(leader="Bo", end=HandEnd("blocked", pips={ANA_CY: 10, "Bo": 4, "Di": 6}))

    board = score_match(partners(hand))

    assert board.findings == []
    assert board.next.leader == "Cy"


def test_pips_of_a_side_given_together_and_apart_are_an_error() -> None:
    hand = Hand(end=HandEnd("domino", player="Ana", pips={BO_DI: 23, "Di": 11, "Cy": 9}))

    board = score_match(partners(hand))

    found = only(board, "pips-given-twice")
    assert (found.hand, found.play, found.severity) == (1, None, Severity.ERROR)
    assert found.message == (
        "Hand 1: Bo & Di's pips were given counted together (23) and also for Di alone: give "
        "one or the other."
    )
    # kept on purpose, the count together stands and Di's 11 are not counted again
    assert board.totals == {ANA_CY: 25, BO_DI: 0}


def test_pips_counted_together_hold_at_most_the_fourteen_heaviest_tiles() -> None:
    # the seven heaviest tiles hold 69, the next seven 8 + 8 + 7 + 7 + 7 + 6 + 6 = 49
    most = Hand(end=HandEnd("domino", player="Ana", pips={BO_DI: 118}))
    too_many = Hand(end=HandEnd("domino", player="Ana", pips={BO_DI: 119}))

    assert score_match(partners(most)).findings == []
    found = only(score_match(partners(too_many)), "pips-exceed-set")
    assert found.message == (
        "Hand 1: Bo & Di hold 119 pips counted together, but with four players nobody draws, "
        "and the fourteen heaviest tiles hold only 118."
    )


def test_a_count_together_over_one_hands_worth_is_no_single_hand_over_69() -> None:
    hand = Hand(end=HandEnd("domino", player="Ana", pips={BO_DI: 100}))

    assert score_match(partners(hand)).findings == []


# -- house rules ------------------------------------------------------------------------------


def test_house_rule_round_each_hand_rounds_every_opponent_separately() -> None:
    hand = Hand(end=domino("Ana", Bo=13, Cy=13))

    board = score_match(straight(hand, players=("Ana", "Bo", "Cy"), round_each_hand=True))

    assert board.totals["Ana"] == 30


def test_house_rule_subtract_own_takes_the_winners_pips_off_before_rounding() -> None:
    hand = Hand(end=blocked(Ana=4, Bo=20))

    board = score_match(straight(hand, players=("Ana", "Bo"), subtract_own=True))

    # 20 - 4 = 16, rounds to 15 (without the house rule: 20)
    assert board.totals == {"Ana": 15, "Bo": 0}


def test_house_rule_subtract_own_after_a_domino_takes_off_the_partners_pips() -> None:
    hand = Hand(end=domino("Ana", Bo=12, Cy=7, Di=11))

    board = score_match(partners(hand, subtract_own=True))

    # (12 + 11) - 7 = 16, rounds to 15
    assert board.totals == {ANA_CY: 15, BO_DI: 0}


def test_house_rule_subtract_own_never_scores_below_zero() -> None:
    hand = Hand(end=domino("Ana", Bo=5, Cy=30, Di=5))

    board = score_match(partners(hand, subtract_own=True))

    assert board.totals == {ANA_CY: 0, BO_DI: 0}


def test_house_rules_subtract_own_and_round_each_hand_round_every_hand_first() -> None:
    hand = Hand(end=domino("Ana", Bo=12, Cy=3, Di=12))

    board = score_match(partners(hand, subtract_own=True, round_each_hand=True))

    # (10 + 10) - 5 = 15; subtracting before rounding would give 24 - 3 = 21 -> 20
    assert board.totals == {ANA_CY: 15, BO_DI: 0}


def test_house_rules_subtract_own_and_round_each_hand_never_go_below_zero() -> None:
    hand = Hand(end=domino("Ana", Bo=3, Cy=13, Di=3))

    board = score_match(partners(hand, subtract_own=True, round_each_hand=True))

    assert board.totals == {ANA_CY: 0, BO_DI: 0}


def test_a_play_of_35_is_possible_with_a_spinner() -> None:
    board = score_match(straight(Hand(plays=plays(("Ana", 35)))))

    assert board.findings == []


def test_without_a_spinner_a_play_can_score_at_most_20() -> None:
    match = straight(Hand(plays=plays(("Ana", 20), ("Bo", 25))), spinner=False)

    board = score_match(match)

    found = only(board, "play-too-high")
    assert (found.hand, found.play, found.severity) == (1, 2, Severity.ERROR)
    assert "20" in found.message


def test_a_custom_target_ends_the_match_when_reached() -> None:
    hands = [Hand(end=domino("Ana", Bo=48)), Hand(end=domino("Ana", Bo=52))]

    short = score_match(straight(*hands, players=("Ana", "Bo"), target=100))
    default = score_match(straight(*hands, players=("Ana", "Bo")))

    assert short.totals == {"Ana": 100, "Bo": 0}
    assert (short.finished, short.winner, short.next) == (True, "Ana", None)
    assert (default.finished, default.winner) == (False, None)


# -- winning ----------------------------------------------------------------------------------


def test_reaching_250_wins_the_match_and_245_does_not() -> None:
    seven_35s = plays(*[("Ana", 35)] * 7)
    almost = Hand(plays=seven_35s, end=blocked(Ana=5, Bo=5))
    exactly = Hand(plays=seven_35s, end=domino("Ana", Bo=3))

    assert score_match(straight(almost, players=("Ana", "Bo"))).finished is False
    board = score_match(straight(exactly, players=("Ana", "Bo")))
    assert board.totals["Ana"] == 250
    assert (board.finished, board.winner) == (True, "Ana")


def test_a_match_is_won_at_once_even_in_the_middle_of_a_hand() -> None:
    hand = Hand(
        plays=plays(("Ana", 30), ("Bo", 20), ("Ana", 25), ("Bo", 35)),
        end=domino("Bo", Ana=10),
    )

    board = score_match(straight(hand, players=("Ana", "Bo"), target=50))

    # Ana reaches 55 at the third play; Bo's 55 + 10 later do not take the win away
    assert board.winner == "Ana"
    assert board.finished is True
    assert board.next is None
    late = [(f.hand, f.play) for f in board.findings if f.code == "after-match-end"]
    assert late == [(1, 4), (1, None)]


def test_a_hand_recorded_after_the_match_was_won_is_an_error() -> None:
    # Ana reaches 50 with the domino that ends hand 1
    won = Hand(plays=plays(("Ana", 35), ("Ana", 10)), end=domino("Ana", Bo=3))
    extra = Hand(plays=plays(("Bo", 10)), end=domino("Bo", Ana=9))

    board = score_match(straight(won, extra, players=("Ana", "Bo"), target=50))

    found = only(board, "after-match-end")
    assert (found.hand, found.severity) == (2, Severity.ERROR)
    assert board.winner == "Ana"


def test_numbers_recorded_after_the_match_end_still_count_in_the_totals() -> None:
    won = Hand(plays=plays(("Ana", 35), ("Ana", 10)), end=domino("Ana", Bo=3))
    extra = Hand(plays=plays(("Bo", 10)), end=domino("Bo", Ana=9))

    board = score_match(straight(won, extra, players=("Ana", "Bo"), target=50))

    # Bo's 10 in play and Ana's 9 pips (-> 10) were recorded after the end and still count
    assert board.totals == {"Ana": 50, "Bo": 20}


# -- what comes next --------------------------------------------------------------------------


def test_the_player_who_dominoed_leads_the_next_hand() -> None:
    board = score_match(partners(Hand(leader="Ana", end=domino("Di", Ana=5, Bo=4, Cy=6))))

    assert board.next is not None
    assert (board.next.hand, board.next.leader) == (2, "Di")


def test_after_a_blocked_win_the_partner_with_fewest_pips_leads_next() -> None:
    hand = Hand(leader="Ana", end=blocked(Ana=7, Bo=10, Cy=2, Di=20))

    board = score_match(partners(hand))

    assert board.next is not None
    assert board.next.leader == "Cy"


def test_after_a_blocked_win_without_partnerships_the_winner_leads_next() -> None:
    hand = Hand(leader="Ana", end=blocked(Ana=7, Bo=10, Cy=2))

    board = score_match(straight(hand, players=("Ana", "Bo", "Cy")))

    assert board.next is not None
    assert board.next.leader == "Cy"


@pytest.mark.parametrize(("leader", "next_leader"), [("Bo", "Cy"), ("Di", "Ana")])
def test_after_a_blocked_tie_the_player_left_of_the_last_leader_leads(
    leader: str, next_leader: str
) -> None:
    hand = Hand(leader=leader, end=blocked(Ana=5, Bo=5, Cy=5, Di=5))

    board = score_match(straight(hand))

    assert board.next is not None
    assert board.next.leader == next_leader


def test_after_a_blocked_tie_the_leader_counted_from_is_the_previous_winner() -> None:
    # Bo dominoes hand 1 and so leads hand 2, which blocks on a tie: Cy, left of Bo, leads next
    first = Hand(leader="Di", end=domino("Bo", Ana=5, Cy=5, Di=5))
    tie = Hand(end=blocked(Ana=5, Bo=4, Cy=5, Di=6))

    board = score_match(partners(first, tie))

    assert board.next is not None
    assert board.next.leader == "Cy"


def test_an_unfinished_hand_is_the_one_that_comes_next() -> None:
    first = Hand(end=domino("Bo", Ana=5, Cy=5, Di=5))
    going = Hand(leader="Bo", plays=plays(("Bo", 10)))

    board = score_match(straight(first, going))

    assert board.next is not None
    assert (board.next.hand, board.next.leader) == (2, "Bo")
    assert board.hands[1].finished is False


# -- findings ---------------------------------------------------------------------------------


@pytest.mark.parametrize("points", [12, 1, 33])
def test_a_play_that_is_not_a_multiple_of_five_is_an_error(points: int) -> None:
    board = score_match(straight(Hand(plays=plays(("Ana", 10), ("Bo", points)))))

    found = only(board, "play-not-multiple-of-five")
    assert (found.hand, found.play, found.severity) == (1, 2, Severity.ERROR)
    assert str(points) in found.message


def test_a_play_above_35_is_too_high() -> None:
    board = score_match(straight(Hand(plays=plays(("Ana", 40)))))

    found = only(board, "play-too-high")
    assert (found.hand, found.play, found.severity) == (1, 1, Severity.ERROR)


@pytest.mark.parametrize("points", [5, 10])
def test_a_lead_of_5_or_10_is_fine(points: int) -> None:
    hand = Hand(leader="Ana", plays=(Play("Ana", points=points, lead=True),))

    assert score_match(straight(hand)).findings == []


def test_a_lead_above_10_is_too_high() -> None:
    hand = Hand(leader="Bo", plays=(Play("Bo", points=25, lead=True), Play("Cy", points=10)))

    board = score_match(straight(hand, hand))

    found = [f for f in board.findings if f.hand == 2]
    assert [(f.code, f.hand, f.play, f.severity) for f in found] == [
        ("lead-too-high", 2, 1, Severity.ERROR)
    ]
    assert found[0].message == (
        "Hand 2, play 1: the lead scored 25, but a lead tile alone makes at most 10 (5 or 10)."
    )


def test_a_lead_wrong_in_every_way_is_reported_in_every_way() -> None:
    hand = Hand(plays=(Play("Ana", points=37, lead=True),))

    board = score_match(straight(hand))

    assert codes(board) == ["play-not-multiple-of-five", "play-too-high", "lead-too-high"]


def test_a_play_not_marked_as_the_lead_may_score_more_than_10() -> None:
    hand = Hand(plays=(Play("Ana", points=10, lead=True), Play("Bo", points=20)))

    assert score_match(straight(hand)).findings == []


def test_a_lead_too_high_still_counts_in_the_totals() -> None:
    hand = Hand(plays=(Play("Ana", points=15, lead=True),))

    board = score_match(straight(hand))

    assert codes(board) == ["lead-too-high"]
    assert board.totals == {"Ana": 15, "Bo": 0, "Cy": 0, "Di": 0}


def test_a_flagged_play_still_counts_in_the_totals() -> None:
    board = score_match(straight(Hand(plays=plays(("Ana", 12), ("Bo", 40)))))

    assert set(codes(board)) == {"play-not-multiple-of-five", "play-too-high"}
    assert board.totals == {"Ana": 12, "Bo": 40, "Cy": 0, "Di": 0}


def test_the_player_who_dominoed_cannot_hold_pips() -> None:
    board = score_match(straight(Hand(end=domino("Ana", Ana=4, Bo=9)), players=("Ana", "Bo")))

    found = only(board, "domino-with-pips")
    assert (found.hand, found.play, found.severity) == (1, None, Severity.ERROR)


@pytest.mark.parametrize("key", [ANA_CY, "Ana", "Cy"])
def test_a_claim_for_a_partnership_may_name_the_side_or_either_partner(key: str) -> None:
    right = Hand(end=domino("Ana", Bo=12, Cy=9, Di=11), claimed={key: 25})
    wrong = Hand(end=domino("Ana", Bo=12, Cy=9, Di=11), claimed={key: 30})

    assert score_match(partners(right)).findings == []
    found = only(score_match(partners(wrong)), "claimed-mismatch")
    assert (found.hand, found.severity) == (1, Severity.WARNING)
    assert "30" in found.message and "25" in found.message


def test_a_claim_for_the_side_that_scored_nothing_is_checked_too() -> None:
    right = Hand(end=domino("Ana", Bo=12, Cy=9, Di=11), claimed={"Di": 0, "Cy": 25})
    wrong = Hand(end=domino("Ana", Bo=12, Cy=9, Di=11), claimed={"Di": 25, "Cy": 25})

    assert score_match(partners(right)).findings == []
    found = only(score_match(partners(wrong)), "claimed-mismatch")
    assert BO_DI in found.message


def test_the_apps_number_stands_over_a_mistaken_claim() -> None:
    hand = Hand(end=domino("Ana", Bo=12, Cy=9, Di=11), claimed={ANA_CY: 30})

    board = score_match(partners(hand))

    assert board.totals == {ANA_CY: 25, BO_DI: 0}


def test_a_blocked_hand_named_for_the_wrong_winner_is_a_claimed_mismatch() -> None:
    # the table says Bo won, but Ana & Cy hold 8 against Bo & Di's 21
    hand = Hand(end=blocked("Bo", Ana=3, Bo=12, Cy=5, Di=9))

    board = score_match(partners(hand))

    found = only(board, "claimed-mismatch")
    assert (found.hand, found.severity) == (1, Severity.WARNING)
    assert board.totals == {ANA_CY: 20, BO_DI: 0}


def test_a_blocked_hand_named_for_the_right_winner_is_fine() -> None:
    hand = Hand(end=blocked("Cy", Ana=3, Bo=12, Cy=5, Di=9))

    assert score_match(partners(hand)).findings == []


def test_a_winner_named_on_a_blocked_tie_is_a_claimed_mismatch_and_nobody_scores() -> None:
    hand = Hand(end=blocked("Ana", Ana=4, Bo=4, Cy=10))

    board = score_match(straight(hand, players=("Ana", "Bo", "Cy")))

    assert codes(board) == ["claimed-mismatch"]
    assert board.totals == {"Ana": 0, "Bo": 0, "Cy": 0}


def test_a_score_claimed_on_a_blocked_tie_is_a_claimed_mismatch() -> None:
    hand = Hand(end=blocked(Ana=4, Bo=4, Cy=10), claimed={"Ana": 10})

    board = score_match(straight(hand, players=("Ana", "Bo", "Cy")))

    found = only(board, "claimed-mismatch")
    assert (found.hand, found.severity) == (1, Severity.WARNING)
    assert board.totals == {"Ana": 0, "Bo": 0, "Cy": 0}


def test_pips_after_a_domino_can_total_at_most_153() -> None:
    # 168 in the set, and at least the seven lightest tiles (15 pips) are on the table
    most = Hand(end=domino("Ana", Bo=153))
    too_many = Hand(end=domino("Ana", Bo=154))

    assert score_match(straight(most, players=("Ana", "Bo"))).findings == []
    found = only(score_match(straight(too_many, players=("Ana", "Bo"))), "pips-exceed-set")
    assert (found.hand, found.severity) == (1, Severity.ERROR)


def test_pips_in_a_blocked_hand_can_total_at_most_147() -> None:
    # nobody can play on the open ends, so every tile of their suit is down: at least the
    # whole blank suit, 0 + 1 + ... + 6 = 21 pips, leaving 168 - 21 = 147
    most = Hand(end=blocked(Ana=70, Bo=77))
    too_many = Hand(end=blocked(Ana=70, Bo=78))

    assert score_match(straight(most, players=("Ana", "Bo"))).findings == []
    assert codes(score_match(straight(too_many, players=("Ana", "Bo")))) == ["pips-exceed-set"]


def test_with_four_players_nobody_can_hold_more_than_the_seven_heaviest_tiles() -> None:
    # 6-6 6-5 5-5 6-4 5-4 6-3 4-4 = 12 + 11 + 10 + 10 + 9 + 9 + 8 = 69
    most = Hand(end=domino("Ana", Bo=69, Cy=1, Di=1))
    too_many = Hand(end=domino("Ana", Bo=70, Cy=1, Di=1))

    assert score_match(straight(most)).findings == []
    assert codes(score_match(straight(too_many))) == ["pips-exceed-set"]


@pytest.mark.parametrize(
    "players", [("Ana",), ("Ana", "Bo", "Cy", "Di", "Ed")], ids=["one", "five"]
)
def test_straight_is_played_by_two_to_four_players(players: tuple[str, ...]) -> None:
    board = score_match(straight(players=players))

    found = only(board, "wrong-player-count")
    assert (found.hand, found.severity) == (None, Severity.ERROR)


@pytest.mark.parametrize("count", [2, 3, 4])
def test_two_to_four_players_are_fine(count: int) -> None:
    assert score_match(straight(players=FOUR[:count])).findings == []


def test_a_claimed_mismatch_and_a_side_total_are_the_straight_findings_warnings() -> None:
    straight_codes = [
        "play-not-multiple-of-five",
        "play-too-high",
        "lead-too-high",
        "lead-misplaced",
        "domino-with-pips",
        "claimed-mismatch",
        "after-match-end",
        "pips-exceed-set",
        "pips-given-twice",
        "pips-counted-together",
        "wrong-player-count",
    ]

    warnings = [code for code in straight_codes if CODES[code] == Severity.WARNING]

    assert warnings == ["claimed-mismatch", "pips-counted-together"]


# -- the README's match file example ---------------------------------------------------------

#: the example as a file holds it: text
MATCHFILE_EXAMPLE = json.dumps(matchfile_example())


def test_the_matchfile_example_scores_55_to_15_with_one_warning_on_hand_2() -> None:
    board = score_match(read_match(MATCHFILE_EXAMPLE))

    assert board.sides == [ANA_CY, BO_DI]
    # hand 1: Ana 10 + (Bo 12 + Di 11 = 23 -> 25) = 35; Bo 15
    assert board.hands[0].points == {ANA_CY: 35, BO_DI: 15}
    # hand 2: Ana & Cy hold 8, Bo & Di 21 -> 20; the table wrote 35
    assert board.hands[1].points == {ANA_CY: 20, BO_DI: 0}
    assert board.totals == {ANA_CY: 55, BO_DI: 15}
    assert (board.finished, board.winner) == (False, None)
    assert [(f.code, f.severity, f.hand) for f in board.findings] == [
        ("claimed-mismatch", Severity.WARNING, 2)
    ]
    # Ana & Cy won the blocked hand 2; Ana holds fewer pips than Cy, so Ana leads hand 3
    assert board.next is not None
    assert (board.next.hand, board.next.leader) == (3, "Ana")
