"""A database kept before the standings rows gets them filled from its seasons' matches: the
kept standings then equal the standings worked out from every match."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scorekeeper.leagues.kept import standings_read
from scorekeeper.leagues.models import Season
from scorekeeper.leagues.standings import standings
from tests.leagues.from_scratch import season_results

BEFORE = [("leagues", "0004_ratings_filled")]


@pytest.mark.django_db(transaction=True)
def test_the_migration_fills_the_standings_rows_of_existing_seasons() -> None:
    executor = MigrationExecutor(connection)
    # the tables as they are now, the leagues as they were
    before = BEFORE + executor.loader.graph.leaf_nodes("tables")
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    Player = old.get_model("tables", "Player")
    players = [Player.objects.create(name=name, key=name.lower()) for name in ("Ana", "Bo", "Cy")]
    league = old.get_model("leagues", "League").objects.create(name="Hall", game="straight")
    season = old.get_model("leagues", "Season").objects.create(
        league=league, name="Autumn", starts_on=datetime.date(2026, 9, 1)
    )
    Match = old.get_model("tables", "Match")
    Seat = old.get_model("tables", "Seat")
    SeasonMatch = old.get_model("leagues", "SeasonMatch")
    played = [
        # (seated, totals, finished, winners, forfeited_by)
        ((0, 1), [60, 20], True, [0], None),
        ((1, 2), [65, 30], True, [0], None),
        ((2, 0), [10, 5], False, [], 1),
        ((0, 2), [15, 0], False, [], None),
    ]
    for seated, totals, finished, winners, forfeit in played:
        match = Match.objects.create(
            game="straight", rules={}, totals=totals, finished=finished, winners=winners
        )
        for position, index in enumerate(seated):
            Seat.objects.create(match=match, player=players[index], position=position)
        SeasonMatch.objects.create(season=season, match=match, forfeited_by=forfeit)

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    now = Season.objects.select_related("league").get(pk=season.pk)
    kept = [(r.player, r.rank, r.played, r.won, r.forfeits) for r in standings_read(now)]
    worked_out = [
        (r.player, r.rank, r.played, r.won, r.forfeits) for r in standings(season_results(now.pk))
    ]
    assert kept == worked_out
    # each won one of two; each beat one of the others; Ana's difference is the best
    assert [row[0] for row in kept] == ["Ana", "Bo", "Cy"]
    assert now.counted_matches == 3
