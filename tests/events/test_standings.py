"""An event's standings: match points, the tie-breaks the event chose in its order, and for
each row the tie-break that put it below the row above."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.events.standings import (
    TIEBREAKS,
    Bye,
    Game,
    buchholz,
    match_points,
    opponents_win_percentage,
    points_difference,
    records,
    standings,
    wins,
)


def places(rows) -> list[tuple[str, int, str | None]]:
    return [(row.entry, row.place, row.decided_by) for row in rows]


#: a beat x, b beat y, then x beat y: a, b and x on one win each, y on none
TWO_ROUNDS = [
    Game("a", "x", 250, 185),
    Game("b", "y", 250, 200),
    Bye("c"),
    Game("x", "y", 250, 100),
]


def test_a_win_scores_one_match_point_a_draw_half_and_a_loss_none() -> None:
    results = [Game("a", "b", 250, 185), Game("a", "c", 200, 200), Game("b", "c", 100, 250)]
    by_entry = records("abc", results)

    assert [match_points(entry, by_entry) for entry in "abc"] == [
        Fraction(3, 2),
        Fraction(0),
        Fraction(3, 2),
    ]
    assert [wins(entry, by_entry) for entry in "abc"] == [1, 0, 1]


def test_a_bye_counts_as_a_win_and_adds_nothing_to_the_points_difference() -> None:
    by_entry = records("ab", [Bye("a"), Game("a", "b", 150, 250)])

    assert match_points("a", by_entry) == 1
    assert wins("a", by_entry) == 1
    assert points_difference("a", by_entry) == -100


def test_buchholz_adds_up_the_opponents_match_points_and_a_bye_adds_nothing() -> None:
    by_entry = records("abcxy", TWO_ROUNDS)

    assert buchholz("a", by_entry) == 1  # x won once
    assert buchholz("b", by_entry) == 0  # y never won
    assert buchholz("x", by_entry) == 1  # a's win, y's none
    assert buchholz("c", by_entry) == 0  # only a bye


def test_opponents_win_percentage_averages_each_opponents_share_of_their_rounds() -> None:
    by_entry = records("abcxy", TWO_ROUNDS)

    # x: 1 win in 2 games; a: 1 in 1; y: 0 in 2
    assert opponents_win_percentage("a", by_entry) == Fraction(1, 2)
    assert opponents_win_percentage("x", by_entry) == Fraction(1, 2)
    assert opponents_win_percentage("c", by_entry) == 0


def test_buchholz_breaks_a_tie_on_wins() -> None:
    rows = standings("abcxy", TWO_ROUNDS, ("wins", "buchholz"))

    # a and x beat stronger opponents than b did; c's bye is a win with no opponent
    assert places(rows) == [
        ("a", 1, None),
        ("x", 1, None),
        ("b", 3, "buchholz"),
        ("c", 3, None),
        ("y", 5, "wins"),
    ]


def test_head_to_head_breaks_the_tie_buchholz_leaves() -> None:
    rows = standings("abcxy", TWO_ROUNDS, ("match_points", "buchholz", "head_to_head"))

    assert places(rows)[:2] == [("a", 1, None), ("x", 2, "head_to_head")]
    assert rows[0].values["head_to_head"] == 1
    assert rows[1].values["head_to_head"] == 0


def test_head_to_head_counts_only_games_between_the_entries_still_tied() -> None:
    rows = standings("abcxy", TWO_ROUNDS, ("match_points", "head_to_head"))

    # a, b, c and x are tied on one point; among them only a against x was played
    assert places(rows)[:4] == [
        ("a", 1, None),
        ("b", 2, "head_to_head"),
        ("c", 2, None),
        ("x", 2, None),
    ]
    assert rows[4].values["head_to_head"] is None  # y was never tied with anyone


def test_points_difference_decides_first_when_the_event_puts_it_first() -> None:
    rows = standings("abcxy", TWO_ROUNDS, ("match_points", "points_difference"))

    # a +65, b +50, x +150 - 65 = +85; c had a bye: 0
    assert places(rows) == [
        ("x", 1, None),
        ("a", 2, "points_difference"),
        ("b", 3, "points_difference"),
        ("c", 4, "points_difference"),
        ("y", 5, "match_points"),
    ]


def test_a_later_tie_break_reordering_a_tie_keeps_what_put_the_tie_below() -> None:
    # b won; a lost by 85 and c never played: both on no points, c ahead on points difference
    rows = standings("abc", [Game("a", "b", 100, 185)], ("match_points", "points_difference"))

    assert places(rows) == [
        ("b", 1, None),
        ("c", 2, "match_points"),
        ("a", 3, "points_difference"),
    ]


def test_entries_that_no_tie_break_separates_share_a_place_listed_by_id() -> None:
    rows = standings(["d", "c", "b", "a"], [Game("a", "b", 100, 100), Game("c", "d", 100, 100)])

    assert places(rows) == [("a", 1, None), ("b", 1, None), ("c", 1, None), ("d", 1, None)]


def test_the_same_results_in_any_order_give_the_same_standings() -> None:
    assert standings("yxcba", TWO_ROUNDS[::-1]) == standings("abcxy", TWO_ROUNDS)


def test_an_unknown_tie_break_is_refused() -> None:
    with pytest.raises(ValueError, match="tie-breaks"):
        standings("ab", [], ("match_points", "sonneborn"))


def test_a_result_for_an_entry_not_in_the_event_is_refused() -> None:
    with pytest.raises(ValueError, match="'z' is not an entry"):
        standings("ab", [Game("a", "z", 250, 0)])


def test_an_entry_cannot_play_itself() -> None:
    with pytest.raises(ValueError, match="itself"):
        Game("a", "a", 250, 0)


def test_the_tournament_engine_loads_no_django() -> None:
    loaded = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, scorekeeper.events.standings, scorekeeper.events.pairing; "
            "print(sorted({name.split('.')[0] for name in sys.modules}))",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout

    assert "networkx" in loaded
    assert "django" not in loaded


@st.composite
def events(draw: st.DrawFn) -> tuple[list[int], list, list[str]]:
    entries = list(range(draw(st.integers(2, 12))))
    pairs = st.lists(st.sampled_from(entries), min_size=2, max_size=2, unique=True)
    games = draw(
        st.lists(
            st.builds(
                lambda pair, first, second: Game(pair[0], pair[1], first, second),
                pairs,
                st.sampled_from((100, 185, 250)),
                st.sampled_from((100, 185, 250)),
            ),
            max_size=30,
        )
    )
    byes = draw(st.lists(st.builds(Bye, st.sampled_from(entries)), max_size=4))
    order = draw(st.permutations(TIEBREAKS))
    chosen = order[: draw(st.integers(1, len(order)))]
    return entries, games + byes, list(chosen)


@settings(max_examples=80, deadline=None)
@given(events())
def test_each_row_says_the_tie_break_that_put_it_below_the_row_above(event) -> None:
    entries, results, tiebreaks = event

    rows = standings(entries, results, tiebreaks)

    assert sorted(row.entry for row in rows) == entries
    assert rows[0].place == 1 and rows[0].decided_by is None
    for above, row in zip(rows, rows[1:], strict=False):
        key = row.decided_by
        if key is None:
            # still tied: equal on every tie-break, and sharing the place
            assert row.place == above.place
            assert [row.values[k] for k in tiebreaks] == [above.values[k] for k in tiebreaks]
            continue
        earlier = tiebreaks[: tiebreaks.index(key)]
        assert row.place == rows.index(row) + 1
        assert [row.values[k] for k in earlier] == [above.values[k] for k in earlier]
        assert above.values[key] > row.values[key]
