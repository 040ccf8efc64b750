"""Elo ratings from hand-built and generated results: no database, no HTTP."""

from __future__ import annotations

import random
from collections import defaultdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.leagues.standings import K_FACTOR, START_RATING, Result, ratings
from tests.leagues.season import ROSTER, Generated, chickenfoot_season, straight_season


def won_by(match_id: int, winner: str, loser: str) -> Result:
    return Result(match_id, ((winner,), (loser,)), (60, 30), True, frozenset({0}))


def latest(history: dict, player: str) -> float:
    return history[player][-1].after


# -- the rule, written out again from the ratings() docstring and docs/ratings.md -------------


def places(result: Result) -> list[int]:
    """The winners first, then by total (lowest first in Chickenfoot); level sides share."""

    def standing(side: int) -> tuple[bool, int]:
        total = result.totals[side]
        return (side not in result.winners, total if result.lowest_wins else -total)

    sides = range(len(result.sides))
    return [1 + sum(1 for other in sides if standing(other) < standing(side)) for side in sides]


def elo(results: list[Result]) -> dict[str, list[tuple[int, float, float]]]:
    """Every pair of sides plays a game: ahead scores 1, level 0.5, behind 0, against
    an expected 1 / (1 + 10^((R_other - R_side) / 400)); a side is rated as its players'
    average; K = 32 / (sides - 1); each player moves by the side's change. Forfeits and
    unfinished matches are skipped."""
    rating: dict[str, float] = defaultdict(lambda: 1500.0)
    history: dict[str, list[tuple[int, float, float]]] = defaultdict(list)
    for result in results:
        if not result.finished or result.forfeited_by is not None:
            continue
        n = len(result.sides)
        strength = [sum(rating[p] for p in side) / len(side) for side in result.sides]
        place = places(result)
        change = []
        for i in range(n):
            total = 0.0
            for j in range(n):
                if j == i:
                    continue
                expected = 1 / (1 + 10 ** ((strength[j] - strength[i]) / 400))
                actual = 1.0 if place[i] < place[j] else 0.5 if place[i] == place[j] else 0.0
                total += actual - expected
            change.append(32 / (n - 1) * total)
        for side, delta in zip(result.sides, change, strict=True):
            for player in side:
                before = rating[player]
                rating[player] = before + delta
                history[player].append((result.match_id, before, rating[player]))
    return dict(history)


def as_results(season: list[Generated]) -> list[Result]:
    return [
        Result(
            match_id,
            match.sides,
            match.totals,
            match.finished,
            match.winners,
            lowest_wins=match.lowest_wins,
        )
        for match_id, match in enumerate(season, 1)
    ]


def assert_same_ratings(results: list[Result]) -> None:
    module = ratings(results)
    mine = elo(results)
    assert module.keys() == mine.keys()
    for player, changes in mine.items():
        got = [(c.match_id, c.before, c.after) for c in module[player]]
        assert [m for m, _, _ in got] == [m for m, _, _ in changes]
        assert [b for _, b, _ in got] == pytest.approx([b for _, b, _ in changes])
        assert [a for _, _, a in got] == pytest.approx([a for _, _, a in changes])


# -- worked examples ----------------------------------------------------------------------------


def test_everyone_starts_at_1500_with_k_32() -> None:
    assert (START_RATING, K_FACTOR) == (1500.0, 32.0)


def test_a_two_player_win_from_1500_each_moves_the_winner_up_16_and_the_loser_down_16() -> None:
    history = ratings([won_by(1, "Ana", "Bo")])

    # expected 1 / (1 + 10^0) = 0.5 each; 32 * (1 - 0.5) = 16
    assert history["Ana"][0].before == 1500
    assert history["Ana"][0].delta == pytest.approx(16)
    assert history["Bo"][0].delta == pytest.approx(-16)


def test_a_second_win_against_a_weaker_player_gains_less() -> None:
    history = ratings([won_by(1, "Ana", "Bo"), won_by(2, "Ana", "Bo")])

    # Ana 1516 against Bo 1484: expected 1 / (1 + 10^(-32/400))
    expected = 1 / (1 + 10 ** (-32 / 400))
    assert history["Ana"][1].delta == pytest.approx(32 * (1 - expected))
    assert latest(history, "Bo") == pytest.approx(1484 - 32 * (1 - expected))


def test_an_upset_win_gains_more_than_a_win_between_equals() -> None:
    history = ratings([won_by(1, "Ana", "Bo"), won_by(2, "Bo", "Ana")])

    assert history["Bo"][1].delta > 16


def test_equal_partnerships_move_both_partners_the_same() -> None:
    result = Result(1, (("Ana", "Cy"), ("Bo", "Di")), (60, 40), True, frozenset({0}))

    history = ratings([result])

    assert [history[p][0].delta for p in ("Ana", "Cy")] == pytest.approx([16, 16])
    assert [history[p][0].delta for p in ("Bo", "Di")] == pytest.approx([-16, -16])


def test_a_partnership_is_rated_as_the_average_of_its_players() -> None:
    results = [
        won_by(1, "Ana", "Eve"),  # Ana 1516
        Result(2, (("Ana", "Cy"), ("Bo", "Di")), (60, 40), True, frozenset({1})),
    ]

    history = ratings(results)

    # Ana & Cy at (1516 + 1500) / 2 = 1508 lose to Bo & Di at 1500
    expected = 1 / (1 + 10 ** ((1500 - 1508) / 400))
    assert history["Ana"][1].delta == pytest.approx(-32 * expected)
    assert history["Cy"][0].delta == pytest.approx(-32 * expected)
    assert history["Bo"][0].delta == pytest.approx(32 * expected)


def test_a_four_player_chickenfoot_result_shares_k_over_the_three_other_sides() -> None:
    result = Result(
        1,
        (("Ana",), ("Bo",), ("Cy",), ("Di",)),
        (20, 35, 50, 90),
        True,
        frozenset({0}),
        lowest_wins=True,
    )

    history = ratings([result])

    k = 32 / 3
    assert history["Ana"][0].delta == pytest.approx(k * 3 * 0.5)  # ahead of all three
    assert history["Bo"][0].delta == pytest.approx(k * (-0.5 + 0.5 + 0.5))
    assert history["Cy"][0].delta == pytest.approx(k * (-0.5 - 0.5 + 0.5))
    assert history["Di"][0].delta == pytest.approx(-k * 3 * 0.5)


def test_a_four_player_chickenfoot_win_moves_a_rating_no_more_than_a_two_player_win() -> None:
    result = Result(
        1, (("Ana",), ("Bo",), ("Cy",), ("Di",)), (0, 35, 50, 90), True, frozenset({0}), True
    )

    assert ratings([result])["Ana"][0].delta == pytest.approx(16)


def test_a_shared_chickenfoot_place_scores_half_a_game_between_the_two() -> None:
    result = Result(
        1,
        (("Ana",), ("Bo",), ("Cy",), ("Di",)),
        (30, 30, 50, 90),
        True,
        frozenset({0, 1}),
        lowest_wins=True,
    )

    history = ratings([result])

    k = 32 / 3
    assert history["Ana"][0].delta == pytest.approx(k * (0 + 0.5 + 0.5))
    assert history["Bo"][0].delta == pytest.approx(k * (0 + 0.5 + 0.5))
    assert history["Cy"][0].delta == pytest.approx(k * (-0.5 - 0.5 + 0.5))
    assert history["Di"][0].delta == pytest.approx(-k * 1.5)


def test_a_forfeit_does_not_move_a_rating() -> None:
    forfeit = Result(2, (("Ana",), ("Bo",)), (0, 0), False, forfeited_by=0)

    history = ratings([won_by(1, "Cy", "Di"), forfeit])

    assert "Ana" not in history
    assert "Bo" not in history


def test_an_unfinished_match_does_not_move_a_rating() -> None:
    unfinished = Result(2, (("Ana",), ("Cy",)), (55, 0), False)

    history = ratings([won_by(1, "Cy", "Di"), unfinished])

    assert "Ana" not in history
    assert [c.match_id for c in history["Cy"]] == [1]


def test_each_change_starts_where_the_last_one_ended() -> None:
    history = ratings([won_by(1, "Ana", "Bo"), won_by(2, "Cy", "Ana"), won_by(3, "Ana", "Di")])

    changes = history["Ana"]
    assert [c.match_id for c in changes] == [1, 2, 3]
    assert all(a.after == b.before for a, b in zip(changes, changes[1:], strict=False))


# -- against the rule written out above ---------------------------------------------------------


def test_ratings_over_a_generated_straight_season_follow_the_documented_rule() -> None:
    season = straight_season(random.Random(7), 40, in_progress=3)

    assert_same_ratings(as_results(season))


def test_ratings_over_a_generated_chickenfoot_season_follow_the_documented_rule() -> None:
    season = chickenfoot_season(random.Random(11), 30, in_progress=3)

    assert_same_ratings(as_results(season))


@pytest.mark.parametrize("seed", range(20))
def test_ratings_are_zero_sum_across_sides_of_equal_size(seed: int) -> None:
    rng = random.Random(seed)
    results = as_results(straight_season(rng, 25) + chickenfoot_season(rng, 10))

    history = ratings(results)

    for result in results:
        if not result.finished:
            continue
        side_changes = [
            next(c.delta for c in history[side[0]] if c.match_id == result.match_id)
            for side in result.sides
        ]
        assert sum(side_changes) == pytest.approx(0, abs=1e-9)


SIDES = st.sampled_from(
    [
        (("Ana",), ("Bo",)),
        (("Bo",), ("Cy",), ("Di",)),
        (("Ana", "Cy"), ("Bo", "Di")),
        (("Eve", "Bo"), ("Ana", "Flo")),
        (("Ana",), ("Bo",), ("Cy",), ("Di",)),
        (("Flo",), ("Eve",), ("Cy",)),
    ]
)


@st.composite
def a_result(draw: st.DrawFn, match_id: int) -> Result:
    sides = draw(SIDES)
    lowest = draw(st.booleans())
    totals = tuple(draw(st.lists(st.integers(0, 300), min_size=len(sides), max_size=len(sides))))
    best = min(totals) if lowest else max(totals)
    kind = draw(st.sampled_from(["finished", "finished", "finished", "unfinished", "forfeit"]))
    if kind == "forfeit":
        forfeited = draw(st.integers(0, len(sides) - 1))
        return Result(match_id, sides, totals, False, forfeited_by=forfeited, lowest_wins=lowest)
    winners = frozenset(i for i, t in enumerate(totals) if t == best)
    return Result(match_id, sides, totals, kind == "finished", winners, lowest_wins=lowest)


@st.composite
def seasons(draw: st.DrawFn) -> list[Result]:
    count = draw(st.integers(0, 25))
    return [draw(a_result(match_id)) for match_id in range(1, count + 1)]


@settings(max_examples=150, deadline=None)
@given(seasons())
def test_ratings_of_any_season_follow_the_documented_rule(results: list[Result]) -> None:
    assert_same_ratings(results)


@settings(max_examples=100, deadline=None)
@given(seasons())
def test_ratings_are_kept_for_every_player_of_a_rated_match_and_nobody_else(
    results: list[Result],
) -> None:
    rated = {
        player
        for result in results
        if result.finished and result.forfeited_by is None
        for side in result.sides
        for player in side
    }

    assert set(ratings(results)) == rated
    assert rated <= set(ROSTER)
