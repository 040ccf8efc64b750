"""Results read as plain values (what the standings, the CSV and the ratings are worked out
from) are the results the stored matches give, read as model instances (what the pages of single
matches and players show): the same sides, totals, winners and forfeits, in the same order."""

from __future__ import annotations

import pytest

from scorekeeper.leagues.kept_ratings import games_from
from scorekeeper.leagues.models import SeasonMatch
from scorekeeper.leagues.moves import season_match_forfeit
from scorekeeper.leagues.ratings import Game
from scorekeeper.leagues.results import (
    entries_with_seats,
    in_progress,
    result_of,
    results_of,
    with_seats,
)
from scorekeeper.tables.models import Match, Player
from tests.leagues.conftest import StoredSeason
from tests.leagues.from_scratch import IN_FINISHING_ORDER, season_results


@pytest.mark.parametrize("league", ["straight_league", "chickenfoot_league"])
def test_the_plain_read_gives_the_results_the_stored_matches_give(
    league: str, request: pytest.FixtureRequest
) -> None:
    stored: StoredSeason = request.getfixturevalue(league)
    # a forfeited match counts without being finished
    entry = SeasonMatch.objects.filter(season=stored.season, match__finished=True).first()
    season_match_forfeit(entry=entry, side=1)

    read = season_results(stored.season.pk)

    entries = SeasonMatch.objects.filter(season=stored.season).order_by(*IN_FINISHING_ORDER)
    assert read == results_of(entries_with_seats(entries))
    assert [r.match_id for r in read if r.forfeited_by == 1] == [entry.match_id]
    if league == "straight_league":
        # partnerships are read as sides of two
        assert any(len(side) == 2 for r in read for side in r.sides)


def test_the_matches_in_progress_are_named_by_their_sides(straight_league: StoredSeason) -> None:
    playing = in_progress(straight_league.season.pk)

    assert [entry.match_id for entry, _ in playing] == list(straight_league.in_progress)
    for entry, sides in playing:
        generated = straight_league.matches[entry.match_id]
        assert sides == [" & ".join(side) for side in generated.sides]


def test_the_matches_read_for_ratings_are_the_stored_finished_ones_in_finishing_order(
    straight_league: StoredSeason, chickenfoot_league: StoredSeason
) -> None:
    ids = dict(Player.objects.values_list("name", "pk"))

    for game in ("straight", "chickenfoot", "sedma"):
        read = [value for value, _, _ in games_from(game, None)]

        stored = with_seats(Match.objects.filter(game=game, finished=True))
        expected = []
        for match in stored.order_by("finished_at", "pk"):
            result = result_of(match)
            expected.append(
                Game(
                    match.pk,
                    tuple(tuple(ids[name] for name in side) for side in result.sides),
                    tuple(result.place(side) for side in range(len(result.sides))),
                )
            )
        assert read == expected
        assert bool(read) == (game != "sedma")
