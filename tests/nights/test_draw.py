"""The league night's draw: tables of the sizes the game allows, everyone checked in seated or
sitting out once, byes going round, and a seed that draws the same tables every time."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.leagues.ratings import NEWCOMER, Skill, closeness
from scorekeeper.nights.draw import (
    Round,
    Table,
    balanced_draw,
    blind_draw,
    meetings,
    rotating_partners,
    rotating_round,
    table_closeness,
    table_sizes,
    tables_for,
)

FAST = settings(max_examples=60, deadline=None)

#: the table sizes the games allow (table_sizes), as a night's draw is asked for them
GAME_SIZES = [(4,), (2, 3, 4), (3, 4), (3, 4, 5, 6, 7, 8), (2, 3), (2, 4)]

SEEDS = st.one_of(st.integers(0, 10**9), st.text(max_size=12))


def names(count: int) -> list[str]:
    return [f"player{number:02}" for number in range(count)]


@st.composite
def nights(draw: st.DrawFn, *, fewest: int = 0, most: int = 40) -> tuple[list[str], tuple, bool]:
    """Players checked in, the table sizes, and whether they play in partnerships."""
    partnerships = draw(st.booleans())
    sizes = (4,) if partnerships else draw(st.sampled_from(GAME_SIZES))
    return names(draw(st.integers(fewest, most))), sizes, partnerships


def everyone_once(drawn: Round) -> Counter:
    return Counter([*drawn.players, *drawn.sitting_out])


def as_skills(ratings: dict[str, float]) -> dict[str, Skill]:
    """Ratings as the model's skills, all as sure as each other: the closest table is then
    the one whose sides' ratings add up closest."""
    return {player: Skill(rating / 100, 2.0) for player, rating in ratings.items()}


def side_totals(table: Table, ratings: dict[str, float]) -> list[float]:
    return [sum(ratings[player] for player in side) for side in table.sides]


def side_gap(table: Table, ratings: dict[str, float]) -> float:
    totals = side_totals(table, ratings)
    return max(totals) - min(totals)


def test_the_draw_and_the_schedules_need_no_django() -> None:
    loaded = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, scorekeeper.nights.draw, scorekeeper.nights.whist; "
            "print(sorted({name.split('.')[0] for name in sys.modules}))",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout

    assert "django" not in loaded


# -- which tables a game allows -----------------------------------------------------------------


def test_straight_is_two_to_four_a_table_or_four_in_partnerships() -> None:
    assert table_sizes("straight") == (2, 3, 4)
    assert table_sizes("straight", partnerships=True) == (4,)


def test_chickenfoot_seats_up_to_four_with_double_six_and_up_to_eight_with_larger_sets() -> None:
    assert table_sizes("chickenfoot") == (3, 4)
    assert table_sizes("chickenfoot", highest_double=9) == (3, 4, 5, 6, 7, 8)
    assert table_sizes("chickenfoot", highest_double=12) == (3, 4, 5, 6, 7, 8)


def test_sedma_is_four_a_table() -> None:
    assert table_sizes("sedma") == (4,)


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("dominoes", {}),
        ("sedma", {"partnerships": True}),
        ("chickenfoot", {"partnerships": True}),
        ("straight", {"highest_double": 9}),
        ("chickenfoot", {"highest_double": 5}),
    ],
)
def test_a_game_or_set_the_app_does_not_keep_is_refused(game: str, options: dict) -> None:
    with pytest.raises(ValueError):
        table_sizes(game, **options)


# -- splitting the players into tables ----------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "sizes", "split"),
    [
        (9, (4,), ((4, 4), 1)),
        (9, (2, 3, 4), ((3, 3, 3), 0)),
        (10, (2, 3, 4), ((4, 3, 3), 0)),
        (7, (2, 3, 4), ((4, 3), 0)),
        (6, (2, 3, 4), ((3, 3), 0)),
        (5, (2, 3, 4), ((3, 2), 0)),
        (5, (3, 4), ((4,), 1)),
        (12, (3, 4, 5, 6, 7, 8), ((6, 6), 0)),
        (17, (3, 4, 5, 6, 7, 8), ((6, 6, 5), 0)),
        (1, (2, 3, 4), ((), 1)),
        (0, (4,), ((), 0)),
    ],
)
def test_tables_are_as_full_and_even_as_the_count_allows(
    count: int, sizes: tuple[int, ...], split: tuple[tuple[int, ...], int]
) -> None:
    assert tables_for(count, sizes) == split


def most_seated(count: int, sizes: Sequence[int]) -> int:
    """The most players tables of these sizes seat, worked out the long way."""
    seatable = {0}
    for total in range(1, count + 1):
        if any(total - size in seatable for size in sizes):
            seatable.add(total)
    return max(seatable)


@FAST
@given(
    st.integers(0, 120),
    st.sampled_from(GAME_SIZES) | st.sets(st.integers(1, 9), min_size=1).map(tuple),
)
def test_every_player_is_seated_or_sits_out_and_as_few_as_possible_sit_out(
    count: int, sizes: tuple[int, ...]
) -> None:
    split, sitting_out = tables_for(count, sizes)

    assert sum(split) + sitting_out == count
    assert set(split) <= set(sizes)
    assert list(split) == sorted(split, reverse=True)
    assert count - sitting_out == most_seated(count, sizes)


@FAST
@given(st.integers(0, 120))
def test_four_a_table_leaves_the_remainder_out(count: int) -> None:
    split, sitting_out = tables_for(count, (4,))

    assert (split, sitting_out) == ((4,) * (count // 4), count % 4)


@FAST
@given(st.integers(0, 120), st.sampled_from([(2, 3, 4), (3, 4), (3, 4, 5, 6, 7, 8)]))
def test_with_a_range_of_sizes_tables_differ_by_one_at_most(
    count: int, sizes: tuple[int, ...]
) -> None:
    split, sitting_out = tables_for(count, sizes)

    seated = count - sitting_out
    if split:
        assert max(split) - min(split) <= 1
        assert len(split) == -(-seated // max(sizes))


# -- the blind draw -----------------------------------------------------------------------------


@FAST
@given(nights(), SEEDS, st.randoms(use_true_random=False))
def test_the_same_seed_draws_the_same_tables_whatever_order_players_came_in(
    night: tuple[list[str], tuple, bool], seed: str | int, shuffler
) -> None:
    players, sizes, partnerships = night
    shuffled = list(players)
    shuffler.shuffle(shuffled)

    first = blind_draw(players, seed=seed, table_size=sizes, partnerships=partnerships)
    again = blind_draw(shuffled, seed=seed, table_size=sizes, partnerships=partnerships)

    assert again == first


def test_a_seed_written_as_a_number_or_as_text_draws_alike() -> None:
    assert blind_draw(names(9), seed=2024, table_size=4) == blind_draw(
        names(9), seed="2024", table_size=4
    )


def test_a_seed_draws_the_same_tables_on_every_machine() -> None:
    """Written out once: a change to how a seed draws would break every check made from a
    seed shown in the hall."""
    drawn = blind_draw(["Ana", "Bo", "Cy", "Dee", "Eve"], seed="a1b2c3d4-1", table_size=4)

    assert drawn == Round(
        tables=(Table(1, ("Eve", "Dee", "Ana", "Cy")),),
        sitting_out=("Bo",),
    )


def test_different_seeds_draw_different_tables() -> None:
    draws = {
        blind_draw(names(8), seed=f"night-{number}", table_size=4, partnerships=True)
        for number in range(10)
    }

    assert len(draws) >= 2


@FAST
@given(nights(), SEEDS)
def test_everyone_checked_in_is_seated_or_sits_out_exactly_once(
    night: tuple[list[str], tuple, bool], seed: str | int
) -> None:
    players, sizes, partnerships = night

    drawn = blind_draw(players, seed=seed, table_size=sizes, partnerships=partnerships)

    assert everyone_once(drawn) == Counter(players)


@FAST
@given(nights(), SEEDS)
def test_tables_have_the_sizes_the_game_allows_and_partners_sit_four_to_a_table(
    night: tuple[list[str], tuple, bool], seed: str | int
) -> None:
    players, sizes, partnerships = night

    drawn = blind_draw(players, seed=seed, table_size=sizes, partnerships=partnerships)

    split, sitting_out = tables_for(len(players), sizes)
    assert tuple(len(table.seats) for table in drawn.tables) == split
    assert len(drawn.sitting_out) == sitting_out
    assert [table.number for table in drawn.tables] == list(range(1, len(split) + 1))
    for table in drawn.tables:
        assert table.partnerships == partnerships
        if partnerships:
            assert len(table.seats) == 4
            assert len(table.sides) == 2


@settings(max_examples=40, deadline=None)
@given(nights(fewest=4), SEEDS, st.integers(1, 14), st.booleans())
def test_nobody_sits_out_twice_before_everybody_has_sat_out_once(
    night: tuple[list[str], tuple, bool], seed: str | int, rounds: int, balanced: bool
) -> None:
    players, sizes, partnerships = night
    sat_out = Counter({player: 0 for player in players})
    ratings = {player: 1400 + 10 * number for number, player in enumerate(players)}

    for number in range(rounds):
        options = dict(
            seed=f"{seed}-{number}",
            table_size=sizes,
            partnerships=partnerships,
            sitting_out_counts=dict(sat_out),
        )
        if balanced:
            drawn = balanced_draw(players, as_skills(ratings), **options)
        else:
            drawn = blind_draw(players, **options)
        sat_out.update(drawn.sitting_out)

        assert max(sat_out.values()) - min(sat_out.values()) <= 1


#: who is here for a round: everybody in the hall has a name from this list
HALL = names(14)


@st.composite
def comings_and_goings(draw: st.DrawFn) -> list[frozenset[str]]:
    """Who is checked in for each round of a night: some come late, some leave early, some
    leave and come back."""
    here = set(draw(st.lists(st.sampled_from(HALL), min_size=4, max_size=11, unique=True)))
    rounds = []
    for _ in range(draw(st.integers(1, 10))):
        came = draw(st.lists(st.sampled_from(HALL), max_size=2, unique=True))
        left = draw(st.lists(st.sampled_from(sorted(here)), max_size=2, unique=True))
        if len(here | set(came)) - len(set(left) - set(came)) >= 4:
            here = (here | set(came)) - (set(left) - set(came))
        rounds.append(frozenset(here))
    return rounds


def play_a_night(
    night: list[frozenset[str]], draw_type: str, seed: str | int
) -> list[tuple[Counter, Round]]:
    """Every round drawn the way the night's pages draw it: each round with what everyone had
    missed before it (rounds sat out, or played before they came or after they left)."""
    missed: Counter = Counter()
    played: list[tuple[Counter, Round]] = []
    everyone = sorted(frozenset().union(*night))
    ratings = {player: 1400 + 10 * number for number, player in enumerate(everyone)}
    for number, here in enumerate(night):
        options = dict(seed=f"{seed}-{number}", table_size=4, partnerships=True)
        counts = {player: missed[player] for player in here}
        if draw_type == "blind":
            drawn = blind_draw(here, sitting_out_counts=counts, **options)
        elif draw_type == "balanced":
            drawn = balanced_draw(here, as_skills(ratings), sitting_out_counts=counts, **options)
        else:
            # the schedule for these players, from the round they all first played together
            done = 0
            while done < number and night[number - 1 - done] == here:
                done += 1
            before = played[number - done][0] if done else missed
            drawn = rotating_round(
                rotating_partners(here),
                done,
                sitting_out_counts={player: before[player] for player in here},
            )
        played.append((Counter(missed), drawn))
        missed.update(player for player in everyone if player not in drawn.players)
    return played


@settings(max_examples=60, deadline=None)
@given(comings_and_goings(), SEEDS, st.sampled_from(["blind", "balanced", "rotating"]))
def test_nobody_sits_out_twice_while_someone_here_has_not_sat_out(
    night: list[frozenset[str]], seed: str | int, draw_type: str
) -> None:
    for missed, drawn in play_a_night(night, draw_type, seed):
        if any(missed[player] for player in drawn.sitting_out):
            assert all(missed[player] for player in drawn.players), (missed, drawn)


def test_rotating_partners_after_a_walk_in_sits_out_those_who_played_every_round() -> None:
    nine = ["Ana", "Bo", "Cy", "Dale", "Eve", "Flo", "Gus", "Hal", "Ivy"]
    night = [frozenset(nine), frozenset([*nine, "Yul"])]

    (_, first), (_, second) = play_a_night(night, "rotating", 1)

    assert len(first.sitting_out) == 1
    assert len(second.sitting_out) == 2
    assert not {*first.sitting_out, "Yul"} & set(second.sitting_out)


@settings(max_examples=30, deadline=None)
@given(st.integers(4, 13), st.data())
def test_byes_moved_round_keep_the_schedules_partners_and_opponents(
    count: int, data: st.DataObject
) -> None:
    players = names(count)
    schedule = rotating_partners(players)
    behind = data.draw(st.dictionaries(st.sampled_from(players), st.integers(0, 3)))

    moved = [
        rotating_round(schedule, n, sitting_out_counts=behind) for n in range(len(schedule.rounds))
    ]

    partners, opponents = meetings(moved)
    drawn_partners, drawn_opponents = meetings(schedule.rounds)
    assert sorted(partners.values()) == sorted(drawn_partners.values())
    assert sorted(opponents.values()) == sorted(drawn_opponents.values())
    byes = Counter(player for round_ in moved for player in round_.sitting_out)
    drawn_byes = Counter(player for round_ in schedule.rounds for player in round_.sitting_out)
    assert sorted(byes.values()) == sorted(drawn_byes.values())


def test_a_rotating_schedule_with_nobody_behind_is_the_schedule_as_drawn() -> None:
    schedule = rotating_partners(names(9))

    for number, round_ in enumerate(schedule.rounds):
        assert rotating_round(schedule, number) == round_
        assert rotating_round(schedule, number, sitting_out_counts={}) == round_


def test_players_who_sat_out_before_play_first() -> None:
    players = names(6)

    drawn = blind_draw(
        players, seed=1, table_size=4, sitting_out_counts={player: 1 for player in players[:4]}
    )

    assert drawn.sitting_out == ("player04", "player05")


def test_a_player_checked_in_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="twice"):
        blind_draw(["Ana", "Bo", "Ana", "Cy"], seed=1, table_size=4)


def test_partnerships_at_tables_of_other_sizes_are_refused() -> None:
    with pytest.raises(ValueError, match="four to a table"):
        blind_draw(names(8), seed=1, table_size=(2, 3, 4), partnerships=True)


def test_partners_sit_across_from_each_other() -> None:
    table = Table(1, ("Ana", "Bo", "Cy", "Dee"), partnerships=True)

    assert table.sides == (("Ana", "Cy"), ("Bo", "Dee"))
    assert Table(2, ("Ana", "Bo", "Cy")).sides == (("Ana",), ("Bo",), ("Cy",))
    with pytest.raises(ValueError):
        Table(3, ("Ana", "Bo", "Cy"), partnerships=True)


# -- the balanced draw --------------------------------------------------------------------------


@FAST
@given(st.lists(st.integers(800, 2400), min_size=4, max_size=4), SEEDS)
def test_four_players_the_best_and_the_worst_partner_against_the_middle_two(
    rated: list[int], seed: str | int
) -> None:
    ratings = dict(zip(names(4), rated, strict=True))

    (table,) = balanced_draw(
        names(4), as_skills(ratings), seed=seed, table_size=4, partnerships=True
    ).tables

    best, second, third, worst = sorted(rated, reverse=True)
    assert sorted(side_totals(table, ratings)) == sorted([best + worst, second + third])


def snake(players: list[str], ratings: dict[str, float], tables: int) -> list[list[str]]:
    """Strongest to table 1, the next to table 2, ... and back, four a table; at each table the
    best and the worst partner against the middle two."""
    order = sorted(players, key=lambda player: -ratings[player])
    groups: list[list[str]] = [[] for _ in range(tables)]
    for place, player in enumerate(order):
        lap, seat = divmod(place, tables)
        groups[seat if lap % 2 == 0 else tables - 1 - seat].append(player)
    return groups


def snake_gap(group: list[str], ratings: dict[str, float]) -> float:
    best, second, third, worst = sorted((ratings[player] for player in group), reverse=True)
    return abs(best + worst - second - third)


@FAST
@given(
    st.integers(2, 5).flatmap(
        lambda tables: st.lists(
            st.integers(800, 2400), min_size=4 * tables, max_size=4 * tables, unique=True
        )
    ),
    SEEDS,
)
def test_partnerships_are_never_more_lopsided_than_the_snake_deal(
    rated: list[int], seed: str | int
) -> None:
    players = names(len(rated))
    ratings = dict(zip(players, rated, strict=True))

    drawn = balanced_draw(players, as_skills(ratings), seed=seed, table_size=4, partnerships=True)

    gaps = [side_gap(table, ratings) for table in drawn.tables]
    dealt = [snake_gap(group, ratings) for group in snake(players, ratings, len(rated) // 4)]
    assert (max(gaps), sum(gaps)) <= (max(dealt), sum(dealt))


def test_evenly_matched_partnerships_are_found_when_they_exist() -> None:
    ratings = {"Ana": 1800, "Bo": 1700, "Cy": 1600, "Dee": 1500}
    ratings |= {"Eve": 1400, "Fay": 1300, "Gus": 1200, "Hal": 1100}

    drawn = balanced_draw(
        list(ratings), as_skills(ratings), seed=5, table_size=4, partnerships=True
    )

    assert [side_gap(table, ratings) for table in drawn.tables] == [0, 0]


def test_without_partnerships_players_of_like_strength_sit_together() -> None:
    ratings = {player: 1000 + 100 * number for number, player in enumerate(names(9))}

    drawn = balanced_draw(names(9), as_skills(ratings), seed="ladder", table_size=(3,))

    assert sorted(sorted(table.seats) for table in drawn.tables) == [
        names(9)[0:3],
        names(9)[3:6],
        names(9)[6:9],
    ]


def test_a_player_without_a_rating_counts_as_a_newcomer() -> None:
    ratings = {"Ana": Skill(31, 2), "Bo": Skill(20, 2), "Cy": Skill(27, 2)}

    (table,) = balanced_draw(
        ["Ana", "Bo", "Cy", "Dee"], ratings, seed=3, table_size=4, partnerships=True
    ).tables

    # Dee counts as a newcomer (25): Ana and Bo (51) against Cy and Dee (52)
    assert NEWCOMER.mu == 25
    assert {frozenset(side) for side in table.sides} == {
        frozenset({"Ana", "Bo"}),
        frozenset({"Cy", "Dee"}),
    }


@FAST
@given(nights(), SEEDS, st.data())
def test_the_balanced_draw_sits_out_whom_the_blind_draw_would(
    night: tuple[list[str], tuple, bool], seed: str | int, data: st.DataObject
) -> None:
    players, sizes, partnerships = night
    sat_out = data.draw(
        st.dictionaries(st.sampled_from(players), st.integers(0, 2)) if players else st.just({})
    )
    rated = data.draw(st.lists(st.integers(1000, 2000), max_size=len(players)))
    ratings = dict(zip(players, rated, strict=False))
    options = dict(
        seed=seed, table_size=sizes, partnerships=partnerships, sitting_out_counts=sat_out
    )

    blind = blind_draw(players, **options)
    balanced = balanced_draw(players, as_skills(ratings), **options)

    assert balanced.sitting_out == blind.sitting_out
    assert everyone_once(balanced) == Counter(players)
    assert [len(table.seats) for table in balanced.tables] == [
        len(table.seats) for table in blind.tables
    ]
    assert balanced == balanced_draw(list(reversed(players)), as_skills(ratings), **options)


@FAST
@given(st.lists(st.builds(Skill, st.floats(0, 50), st.floats(0.5, 25 / 3)), min_size=4, max_size=4))
def test_a_partnership_tables_closeness_is_the_models_for_its_closest_pairing(
    skills: list[Skill],
) -> None:
    four = dict(zip(names(4), skills, strict=True))
    a, b, c, d = names(4)
    pairings = [((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))]

    closest = max(closeness([[four[p] for p in side] for side in sides]) for sides in pairings)

    assert table_closeness(names(4), four, partnerships=True) == pytest.approx(closest)
