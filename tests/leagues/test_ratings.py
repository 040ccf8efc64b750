"""Ratings from results (leagues/ratings.py): openskill's Plackett-Luce model, no database."""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from scorekeeper.leagues.ratings import (
    MODEL,
    NEWCOMER,
    PROVISIONAL_SIGMA,
    Game,
    Skill,
    closeness,
    partnership_chance,
    rate_game,
    replay,
    win_chances,
)


def won_by(match_id: int, winner: str, loser: str) -> Game:
    return Game(match_id, ((winner,), (loser,)), (1, 2))


def by_player(changes: list) -> dict:
    return {change.player: change for change in changes}


# -- worked examples ----------------------------------------------------------------------------


def test_a_newcomer_shows_1000_and_is_provisional() -> None:
    assert NEWCOMER.shown == 1000
    assert NEWCOMER.provisional


def test_a_win_between_newcomers_was_an_even_chance_and_moves_both_the_same_way_apart() -> None:
    changes = by_player(rate_game(won_by(1, "Ana", "Bo"), {}, {}))

    assert changes["Ana"].expected == pytest.approx(0.5)
    assert changes["Ana"].after.mu - 25 == pytest.approx(25 - changes["Bo"].after.mu)
    assert changes["Ana"].after.mu > 25 > changes["Bo"].after.mu


def test_everyone_in_a_match_becomes_surer_so_a_newcomers_loss_still_raises_the_shown_rating() -> (
    None
):
    changes = by_player(rate_game(won_by(1, "Ana", "Bo"), {}, {}))

    bo = changes["Bo"]
    assert bo.after.sigma < bo.before.sigma
    assert bo.from_result < 0 < bo.from_certainty
    assert bo.delta == bo.after.shown - bo.before.shown


def test_an_upset_moves_the_ratings_more_than_the_expected_result() -> None:
    strong, weak = Skill(30, 3), Skill(20, 3)
    current = {"Ana": strong, "Bo": weak}

    expected = by_player(rate_game(won_by(1, "Ana", "Bo"), current, {}))
    upset = by_player(rate_game(won_by(1, "Bo", "Ana"), current, {}))

    assert expected["Ana"].expected > 0.9
    assert upset["Bo"].from_result > expected["Ana"].from_result > 0


def test_partners_share_their_sides_move_by_how_unsure_the_ratings_are_of_each() -> None:
    current = {"Ana": Skill(25, 2), "Cy": NEWCOMER, "Bo": Skill(25, 5), "Di": Skill(25, 5)}

    changes = by_player(rate_game(Game(1, (("Ana", "Cy"), ("Bo", "Di")), (1, 2)), current, {}))

    assert changes["Cy"].share > 0.9 > 0.1 > changes["Ana"].share
    assert changes["Ana"].share + changes["Cy"].share == pytest.approx(1)
    assert changes["Bo"].share == pytest.approx(0.5)


def test_a_chickenfoot_ranking_moves_each_place_below_the_one_above() -> None:
    four = Game(1, (("Ana",), ("Bo",), ("Cy",), ("Di",)), (1, 2, 3, 4))

    changes = by_player(rate_game(four, {}, {}))

    moves = [changes[p].from_result for p in ("Ana", "Bo", "Cy", "Di")]
    assert moves == sorted(moves, reverse=True)
    assert changes["Ana"].expected == pytest.approx(0.25)


def test_a_shared_place_moves_the_sides_that_share_it_alike() -> None:
    shared = Game(1, (("Ana",), ("Bo",), ("Cy",)), (1, 1, 3))

    changes = by_player(rate_game(shared, {}, {}))

    assert changes["Ana"].after == changes["Bo"].after
    assert changes["Cy"].from_result < 0


def test_each_change_starts_where_the_last_one_ended_and_counts_the_matches() -> None:
    changes = [
        c
        for c in replay([won_by(1, "Ana", "Bo"), won_by(2, "Cy", "Ana"), won_by(3, "Ana", "Di")])
        if c.player == "Ana"
    ]

    assert [c.match_id for c in changes] == [1, 2, 3]
    assert [c.number for c in changes] == [1, 2, 3]
    assert all(a.after == b.before for a, b in zip(changes, changes[1:], strict=False))


def test_a_regular_stops_being_provisional_after_some_twenty_partnership_matches() -> None:
    games = [
        Game(n, (("Ana", f"p{n}"), (f"q{n}", f"r{n}")), (1 + n % 2, 2 - n % 2)) for n in range(40)
    ]

    ana = [c for c in replay(games) if c.player == "Ana"]

    settled = next(c.number for c in ana if c.after.sigma <= PROVISIONAL_SIGMA)
    assert 10 <= settled <= 30


def test_a_pair_of_strong_players_is_given_the_better_chance_against_an_average_pair() -> None:
    average = Skill(25, 3)

    assert partnership_chance([Skill(30, 3), Skill(28, 3)], average) > 0.5
    assert partnership_chance([Skill(20, 3), Skill(22, 3)], average) < 0.5


def test_an_even_table_is_closer_than_a_lopsided_one() -> None:
    even = closeness([[Skill(25, 3), Skill(25, 3)], [Skill(25, 3), Skill(25, 3)]])
    lopsided = closeness([[Skill(35, 3), Skill(33, 3)], [Skill(18, 3), Skill(20, 3)]])

    assert even == pytest.approx(1)
    assert 0 <= lopsided < 0.2


# -- against openskill itself ------------------------------------------------------------------

skills = st.builds(
    Skill, st.floats(0, 50, allow_nan=False), st.floats(0.5, 25 / 3, allow_nan=False)
)


@st.composite
def games(draw: st.DrawFn) -> tuple[Game, dict[str, Skill]]:
    """A match of two to four sides of one or two players, with their skills and places."""
    size = draw(st.integers(1, 2))
    count = draw(st.integers(2, 4 if size == 1 else 2))
    sides = tuple(tuple(f"p{i}{j}" for j in range(size)) for i in range(count))
    places = tuple(draw(st.lists(st.integers(1, count), min_size=count, max_size=count)))
    current = {player: draw(skills) for side in sides for player in side}
    return Game(1, sides, places), current


@settings(max_examples=200, deadline=None)
@given(games())
def test_a_results_changes_are_openskills_own_rate_for_the_same_teams(
    drawn: tuple[Game, dict[str, Skill]],
) -> None:
    game, current = drawn
    model = PlackettLuce()
    teams = [[model.rating(current[p].mu, current[p].sigma) for p in side] for side in game.sides]

    rated = model.rate(teams, ranks=list(game.places))

    changes = by_player(rate_game(game, current, {}))
    for side, after in zip(game.sides, rated, strict=True):
        for player, rating in zip(side, after, strict=True):
            assert changes[player].after.mu == pytest.approx(rating.mu)
            assert changes[player].after.sigma == pytest.approx(rating.sigma)


@settings(max_examples=200, deadline=None)
@given(games())
def test_the_expected_chance_explained_is_the_models_prediction(
    drawn: tuple[Game, dict[str, Skill]],
) -> None:
    game, current = drawn
    teams = [[MODEL.rating(current[p].mu, current[p].sigma) for p in side] for side in game.sides]

    predicted = MODEL.predict_win(teams)

    changes = by_player(rate_game(game, current, {}))
    for side, chance in zip(game.sides, predicted, strict=True):
        assert [changes[p].expected for p in side] == pytest.approx([chance] * len(side))
    assert win_chances([[current[p] for p in side] for side in game.sides]) == pytest.approx(
        predicted
    )


@settings(max_examples=100, deadline=None)
@given(games())
def test_partners_shares_add_up_to_the_whole_move(drawn: tuple[Game, dict[str, Skill]]) -> None:
    game, current = drawn

    changes = by_player(rate_game(game, current, {}))

    for side in game.sides:
        assert sum(changes[p].share for p in side) == pytest.approx(1)
        moved = sum(changes[p].after.mu - changes[p].before.mu for p in side)
        for player in side:
            mine = changes[player].after.mu - changes[player].before.mu
            assert mine == pytest.approx(changes[player].share * moved, abs=1e-9)


def _moves_shown(change) -> list[int]:
    """The shown move and its two parts, as a player's page reads them:
    "1082 → 1149 (+67): +56 from the result, +11 from how sure the ratings are"."""
    shown = " ".join(render_to_string("leagues/_rating_change.html", {"change": change}).split())
    found = re.search(
        r"\(([+−]?\d+)\).*?([+−]?\d+) from the result, ([+−]?\d+) from how sure", shown
    )
    assert found, shown
    return [int(part.replace("−", "-")) for part in found.groups()]


@settings(max_examples=200, deadline=None)
@given(games())
def test_the_parts_of_a_move_shown_add_up_to_the_move_shown(
    drawn: tuple[Game, dict[str, Skill]],
) -> None:
    game, current = drawn

    for change in rate_game(game, current, {}):
        moved, from_result, from_certainty = _moves_shown(change)
        assert moved == change.after.shown - change.before.shown
        assert from_result + from_certainty == moved, (moved, from_result, from_certainty)
        # each part shown is its own number rounded, give or take the one point the rounding
        # of the whole move asks for
        assert abs(from_result - change.from_result) <= 0.5
        assert abs(from_certainty - change.from_certainty) <= 1.5
