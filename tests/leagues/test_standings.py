"""The league table from hand-built results: no database, no HTTP."""

from __future__ import annotations

import pytest

from scorekeeper.leagues.standings import (
    TIE_BREAKS,
    TIE_BREAKS_LOWEST,
    Ranking,
    Result,
    Standing,
    opponents,
    partners,
    standings,
)


def won_by(match_id: int, winner: str, loser: str, score: tuple[int, int]) -> Result:
    """A two-player Straight match: ``winner`` beat ``loser`` by ``score``."""
    return Result(match_id, ((winner,), (loser,)), score, finished=True, winners=frozenset({0}))


def chickenfoot(match_id: int, totals: dict[str, int], *, finished: bool = True) -> Result:
    """Lowest total wins; equal lowest totals share the win."""
    lowest = min(totals.values())
    return Result(
        match_id,
        tuple((player,) for player in totals),
        tuple(totals.values()),
        finished=finished,
        winners=frozenset(i for i, t in enumerate(totals.values()) if t == lowest)
        if finished
        else frozenset(),
        lowest_wins=True,
    )


def row(rows: list[Standing], player: str) -> Standing:
    found = [r for r in rows if r.player == player]
    assert len(found) == 1, f"{player} has {len(found)} rows"
    return found[0]


def order(rows: list[Standing]) -> list[str]:
    return [r.player for r in rows]


# -- played, won, lost, points ----------------------------------------------------------------


def test_a_player_who_won_one_and_lost_one_has_played_two_at_fifty_percent() -> None:
    rows = standings([won_by(1, "Ana", "Bo", (60, 35)), won_by(2, "Bo", "Ana", (65, 40))])

    ana = row(rows, "Ana")
    assert (ana.played, ana.won, ana.lost) == (2, 1, 1)
    assert ana.win_percent == 50.0


def test_points_for_and_against_add_up_over_the_matches_and_give_the_difference() -> None:
    rows = standings([won_by(1, "Ana", "Bo", (60, 35)), won_by(2, "Bo", "Ana", (65, 40))])

    ana, bo = row(rows, "Ana"), row(rows, "Bo")
    assert (ana.points_for, ana.points_against, ana.difference) == (60 + 40, 35 + 65, 100 - 100)
    assert (bo.points_for, bo.points_against, bo.difference) == (35 + 65, 60 + 40, 0)


def test_points_against_in_a_three_player_match_are_both_opponents_totals() -> None:
    result = Result(1, (("Ana",), ("Bo",), ("Cy",)), (60, 20, 45), True, frozenset({0}))

    rows = standings([result])

    assert row(rows, "Ana").points_against == 20 + 45
    assert row(rows, "Bo").points_against == 60 + 45
    assert (row(rows, "Cy").won, row(rows, "Cy").lost) == (0, 1)


def test_a_player_who_never_lost_has_a_win_percent_of_one_hundred() -> None:
    rows = standings([won_by(1, "Ana", "Bo", (60, 0)), won_by(2, "Ana", "Cy", (60, 55))])

    assert row(rows, "Ana").win_percent == 100.0
    assert row(rows, "Bo").win_percent == 0.0


def test_the_table_lists_every_player_of_a_counted_match_once() -> None:
    rows = standings(
        [
            won_by(1, "Ana", "Bo", (60, 0)),
            won_by(2, "Cy", "Ana", (60, 5)),
            won_by(3, "Bo", "Cy", (60, 55)),
        ]
    )

    assert sorted(order(rows)) == ["Ana", "Bo", "Cy"]


# -- partnerships -----------------------------------------------------------------------------


def test_a_partnership_win_counts_for_both_partners() -> None:
    result = Result(1, (("Ana", "Cy"), ("Bo", "Di")), (60, 45), True, frozenset({0}))

    rows = standings([result])

    for partner in ("Ana", "Cy"):
        assert (row(rows, partner).played, row(rows, partner).won) == (1, 1)
    for opponent in ("Bo", "Di"):
        assert (row(rows, opponent).played, row(rows, opponent).lost) == (1, 1)


def test_both_partners_score_the_partnerships_points_for_and_against() -> None:
    result = Result(1, (("Ana", "Cy"), ("Bo", "Di")), (60, 45), True, frozenset({0}))

    rows = standings([result])

    assert (row(rows, "Ana").points_for, row(rows, "Ana").points_against) == (60, 45)
    assert (row(rows, "Cy").points_for, row(rows, "Cy").points_against) == (60, 45)
    assert (row(rows, "Di").points_for, row(rows, "Di").points_against) == (45, 60)


def test_partners_are_listed_best_win_rate_first() -> None:
    results = [
        Result(1, (("Ana", "Cy"), ("Bo", "Di")), (60, 45), True, frozenset({0})),
        Result(2, (("Ana", "Bo"), ("Cy", "Di")), (30, 60), True, frozenset({1})),
        Result(3, (("Ana", "Cy"), ("Bo", "Di")), (20, 60), True, frozenset({1})),
        Result(4, (("Ana", "Di"), ("Bo", "Cy")), (60, 10), True, frozenset({0})),
    ]

    found = partners(results, "Ana")

    # Di 1 of 1, Cy 1 of 2, Bo 0 of 1
    assert [(p.name, p.won, p.played) for p in found] == [("Di", 1, 1), ("Cy", 1, 2), ("Bo", 0, 1)]


def test_opponents_are_listed_toughest_first() -> None:
    results = [
        won_by(1, "Ana", "Bo", (60, 0)),
        won_by(2, "Cy", "Ana", (60, 5)),
        won_by(3, "Ana", "Cy", (60, 5)),
        won_by(4, "Cy", "Ana", (60, 5)),
    ]

    found = opponents(results, "Ana")

    # beat Cy 1 of 3, beat Bo 1 of 1
    assert [(p.name, p.won, p.played) for p in found] == [("Cy", 1, 3), ("Bo", 1, 1)]


# -- Chickenfoot ------------------------------------------------------------------------------


def test_chickenfoot_placings_go_by_the_lowest_total() -> None:
    rows = standings([chickenfoot(1, {"Ana": 80, "Bo": 30, "Cy": 45, "Di": 60})], lowest_wins=True)

    assert {r.player: dict(r.placings) for r in rows} == {
        "Bo": {1: 1},
        "Cy": {2: 1},
        "Di": {3: 1},
        "Ana": {4: 1},
    }
    assert (row(rows, "Bo").won, row(rows, "Ana").lost) == (1, 1)


def test_chickenfoot_players_level_on_total_share_a_place_and_the_next_place_is_skipped() -> None:
    rows = standings([chickenfoot(1, {"Ana": 30, "Bo": 45, "Cy": 45, "Di": 80})], lowest_wins=True)

    assert dict(row(rows, "Bo").placings) == {2: 1}
    assert dict(row(rows, "Cy").placings) == {2: 1}
    assert dict(row(rows, "Di").placings) == {4: 1}


def test_a_shared_chickenfoot_win_is_a_win_and_first_place_for_each() -> None:
    rows = standings([chickenfoot(1, {"Ana": 30, "Bo": 30, "Cy": 50})], lowest_wins=True)

    for player in ("Ana", "Bo"):
        assert (row(rows, player).won, dict(row(rows, player).placings)) == (1, {1: 1})
    assert (row(rows, "Cy").lost, dict(row(rows, "Cy").placings)) == (1, {3: 1})


def test_chickenfoot_average_total_and_average_place_are_over_the_matches_played() -> None:
    rows = standings(
        [
            chickenfoot(1, {"Ana": 30, "Bo": 45, "Cy": 60}),
            chickenfoot(2, {"Ana": 70, "Bo": 20}),
            chickenfoot(3, {"Ana": 41, "Cy": 40}),
        ],
        lowest_wins=True,
    )

    ana = row(rows, "Ana")
    assert ana.average_total == pytest.approx((30 + 70 + 41) / 3)
    assert dict(ana.placings) == {1: 1, 2: 2}
    assert ana.average_place == pytest.approx((1 + 2 + 2) / 3)


# -- tie-breaks -------------------------------------------------------------------------------


def test_the_tie_break_order_is_stated_for_each_kind_of_table() -> None:
    assert TIE_BREAKS == ("win %", "head-to-head wins among the tied players", "point difference")
    assert TIE_BREAKS_LOWEST[0] == "win %"
    assert TIE_BREAKS_LOWEST[-1] == "lower average total"


def test_a_better_win_percent_ranks_higher_whatever_the_point_difference() -> None:
    results = [
        won_by(1, "Ana", "Cy", (60, 55)),
        won_by(2, "Ana", "Cy", (60, 55)),
        won_by(3, "Cy", "Ana", (250, 0)),
        won_by(4, "Bo", "Di", (60, 55)),
        won_by(5, "Di", "Bo", (60, 55)),
    ]

    rows = standings(results)

    # Ana 2 of 3 (difference -240), Bo and Di 1 of 2, Cy 1 of 3 (difference +240)
    assert order(rows)[0] == "Ana"
    assert order(rows)[-1] == "Cy"
    assert row(rows, "Ana").rank == 1


def test_head_to_head_separates_players_level_on_win_percent_before_point_difference() -> None:
    results = [
        won_by(1, "Ana", "Bo", (60, 55)),
        won_by(2, "Cy", "Ana", (100, 0)),
        won_by(3, "Bo", "Di", (100, 0)),
    ]

    rows = standings(results)

    # Ana and Bo are both 1 of 2; Bo's difference (+95) is the better, but Ana beat Bo
    assert order(rows) == ["Cy", "Ana", "Bo", "Di"]
    assert row(rows, "Bo").decided_by == "head-to-head"
    assert (row(rows, "Ana").rank, row(rows, "Bo").rank) == (2, 3)


def test_point_difference_separates_players_level_on_win_percent_and_head_to_head() -> None:
    results = [
        won_by(1, "Ana", "Bo", (60, 55)),
        won_by(2, "Bo", "Cy", (100, 0)),
        won_by(3, "Cy", "Ana", (60, 0)),
    ]

    rows = standings(results)

    # all 1 of 2, each beat one of the others: differences Bo +95, Cy -40, Ana -55
    assert order(rows) == ["Bo", "Cy", "Ana"]
    assert row(rows, "Cy").decided_by == "point difference"
    assert [r.rank for r in rows] == [1, 2, 3]


def test_players_level_on_every_tie_break_are_tied_and_share_a_rank() -> None:
    results = [won_by(1, "Ana", "Cy", (60, 40)), won_by(2, "Bo", "Di", (60, 40))]

    rows = standings(results)

    assert [(r.player, r.rank) for r in rows] == [("Ana", 1), ("Bo", 1), ("Cy", 3), ("Di", 3)]
    assert row(rows, "Bo").decided_by == "tied"
    assert row(rows, "Di").decided_by == "tied"


def test_chickenfoot_players_level_on_win_percent_and_head_to_head_go_by_lower_average() -> None:
    results = [
        chickenfoot(1, {"Ana": 30, "Cy": 90}),
        chickenfoot(2, {"Bo": 20, "Di": 90}),
    ]

    rows = standings(results, lowest_wins=True)

    assert order(rows)[:2] == ["Bo", "Ana"]
    assert row(rows, "Ana").decided_by == "average total"


# -- forfeits and unfinished matches ------------------------------------------------------------


def test_a_forfeit_is_a_loss_for_the_side_that_gave_up_and_a_win_for_the_other() -> None:
    result = Result(1, (("Ana",), ("Bo",)), (45, 20), finished=False, forfeited_by=0)

    rows = standings([result])

    assert (row(rows, "Ana").played, row(rows, "Ana").lost) == (1, 1)
    assert (row(rows, "Bo").played, row(rows, "Bo").won) == (1, 1)


def test_a_forfeit_brings_no_points_to_either_side() -> None:
    result = Result(1, (("Ana",), ("Bo",)), (45, 20), finished=False, forfeited_by=0)

    rows = standings([result])

    for player in ("Ana", "Bo"):
        assert (row(rows, player).points_for, row(rows, player).points_against) == (0, 0)
        assert row(rows, player).forfeits == 1
        assert row(rows, player).match_ids["forfeits"] == [1]


def test_a_forfeit_in_a_three_player_match_is_a_win_for_both_others() -> None:
    result = Result(1, (("Ana",), ("Bo",), ("Cy",)), (45, 20, 5), finished=False, forfeited_by=1)

    rows = standings([result])

    assert [(r.player, r.won) for r in sorted(rows, key=lambda r: r.player)] == [
        ("Ana", 1),
        ("Bo", 0),
        ("Cy", 1),
    ]


def test_a_forfeited_partnership_match_is_a_loss_for_both_partners() -> None:
    result = Result(1, (("Ana", "Cy"), ("Bo", "Di")), (50, 20), finished=False, forfeited_by=0)

    rows = standings([result])

    assert [row(rows, p).lost for p in ("Ana", "Cy")] == [1, 1]
    assert [row(rows, p).won for p in ("Bo", "Di")] == [1, 1]


def test_a_chickenfoot_forfeit_leaves_the_average_total_to_the_matches_scored() -> None:
    results = [
        chickenfoot(1, {"Ana": 30, "Bo": 60}),
        Result(2, (("Ana",), ("Bo",)), (200, 10), finished=False, lowest_wins=True, forfeited_by=0),
    ]

    rows = standings(results, lowest_wins=True)

    assert row(rows, "Ana").average_total == 30.0
    assert (row(rows, "Ana").played, row(rows, "Ana").won) == (2, 1)


def test_an_unfinished_match_is_not_counted() -> None:
    unfinished = Result(2, (("Ana",), ("Cy",)), (55, 20), finished=False)

    rows = standings([won_by(1, "Ana", "Bo", (60, 0)), unfinished])

    assert order(rows) == ["Ana", "Bo"]
    assert (row(rows, "Ana").played, row(rows, "Ana").points_for) == (1, 60)


def test_an_unfinished_match_gives_no_head_to_head_win() -> None:
    results = [
        won_by(1, "Ana", "Cy", (60, 40)),
        won_by(2, "Bo", "Di", (60, 40)),
        Result(3, (("Ana",), ("Bo",)), (55, 0), finished=False),
    ]

    rows = standings(results)

    assert row(rows, "Bo").decided_by == "tied"


# -- traceability -----------------------------------------------------------------------------


def test_each_number_keeps_the_matches_behind_it() -> None:
    results = [
        won_by(1, "Ana", "Bo", (60, 0)),
        won_by(2, "Bo", "Ana", (60, 5)),
        Result(3, (("Ana",), ("Bo",)), (0, 0), finished=False, forfeited_by=1),
        Result(4, (("Ana",), ("Bo",)), (10, 0), finished=False),
    ]

    ana = row(standings(results), "Ana")

    assert ana.match_ids["played"] == [1, 2, 3]
    assert ana.match_ids["won"] == [1, 3]
    assert ana.match_ids["lost"] == [2]
    assert ana.match_ids["forfeits"] == [3]


# -- the league's ranking ----------------------------------------------------------------------


def one_win_and_two_of_three() -> list[Result]:
    """Ana won her only match; Bo and Cy each won two of four, Di two of five."""
    return [
        won_by(1, "Ana", "Di", (60, 10)),
        won_by(2, "Bo", "Cy", (60, 40)),
        won_by(3, "Cy", "Bo", (60, 40)),
        won_by(4, "Bo", "Di", (60, 40)),
        won_by(5, "Cy", "Di", (60, 40)),
        won_by(6, "Di", "Bo", (60, 55)),
        won_by(7, "Di", "Cy", (60, 55)),
    ]


def test_ranked_by_wins_a_player_with_one_win_does_not_top_players_with_two() -> None:
    rows = standings(one_win_and_two_of_three(), ranking=Ranking("wins"))

    assert order(rows) == ["Bo", "Cy", "Di", "Ana"]
    assert row(rows, "Ana").rank == 4
    assert row(rows, "Ana").decided_by == "wins"


def test_ranked_by_win_percent_with_a_minimum_the_player_under_it_comes_after() -> None:
    results = one_win_and_two_of_three()

    assert order(standings(results, ranking=Ranking("win %")))[0] == "Ana"
    rows = standings(results, ranking=Ranking("win %", minimum=2))

    assert order(rows) == ["Bo", "Cy", "Di", "Ana"]
    assert row(rows, "Ana").decided_by == "minimum played"


def test_ranked_by_points_a_shared_win_is_worth_half_a_win() -> None:
    results = [
        chickenfoot(1, {"Ana": 10, "Bo": 10, "Cy": 40}),
        chickenfoot(2, {"Cy": 5, "Ana": 30, "Bo": 40}),
        chickenfoot(3, {"Bo": 5, "Cy": 50, "Ana": 60}),
    ]

    rows = standings(results, lowest_wins=True, ranking=Ranking("points"))

    # Ana 1 shared win (1 point), Bo a shared and a whole (3), Cy a whole one (2)
    assert [(r.player, r.points) for r in rows] == [("Bo", 3), ("Cy", 2), ("Ana", 1)]
