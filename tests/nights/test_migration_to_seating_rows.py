"""A night drawn before its seating was stored in rows keeps it: each table's players in seat
order and the players sitting out, in the order drawn; and the migration runs back."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scorekeeper.leagues.models import League, Season
from scorekeeper.nights.models import NightRound
from scorekeeper.tables.models import Player
from tests.clubs import the_club

BEFORE = [("nights", "0004_signed_results")]
AFTER = [("nights", "0005_seating_in_rows")]


def migrate(to: list[tuple[str, str]]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(to)
    return executor


def a_night_drawn_as_lists(apps) -> tuple[int, list[int]]:
    """A round of two tables with one player sitting out, stored as the lists of ids; and the
    ids of the players, in the order they were made."""
    # players and seasons as they are now: only the nights' tables are migrated back
    players = [
        Player.objects.create(name=name).pk
        for name in ("Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy")
    ]
    league = League.objects.create(club=the_club(), name="Hall", game="straight")
    season = Season.objects.create(
        league=league, name="Spring", starts_on=datetime.date(2026, 3, 1)
    )
    night = apps.get_model("nights", "Night").objects.create(
        season_id=season.pk, played_on=datetime.date(2026, 3, 5)
    )
    ana, bo, cy, di, ed, flo, gus, hal, ivy = players
    night_round = apps.get_model("nights", "NightRound").objects.create(
        night=night, number=1, sitting_out=[ivy]
    )
    NightTable = apps.get_model("nights", "NightTable")
    NightTable.objects.create(night_round=night_round, number=1, seats=[di, ana, gus, bo])
    NightTable.objects.create(night_round=night_round, number=2, seats=[hal, cy, ed, flo])
    # a second round drawn with two players out, the first drawn listed last
    second = apps.get_model("nights", "NightRound").objects.create(
        night=night, number=2, sitting_out=[hal, ana]
    )
    NightTable.objects.create(night_round=second, number=1, seats=[bo, cy, di, ed])
    return night.pk, players


@pytest.mark.django_db(transaction=True)
def test_a_round_drawn_before_the_migration_keeps_its_tables_and_who_sat_out() -> None:
    executor = migrate(BEFORE)
    night, players = a_night_drawn_as_lists(executor.loader.project_state(BEFORE).apps)
    ana, bo, cy, di, ed, flo, gus, hal, ivy = players

    migrate(AFTER)
    executor = migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    first, second = NightRound.objects.filter(night_id=night).order_by("number")
    assert [table.player_ids for table in first.tables.order_by("number")] == [
        [di, ana, gus, bo],
        [hal, cy, ed, flo],
    ]
    assert first.sitting_out_ids == [ivy]
    assert second.sitting_out_ids == [hal, ana]
    assert [table.player_ids for table in second.tables.all()] == [[bo, cy, di, ed]]


@pytest.mark.django_db(transaction=True)
def test_the_migration_runs_back_to_the_lists() -> None:
    executor = migrate(BEFORE)
    night, players = a_night_drawn_as_lists(executor.loader.project_state(BEFORE).apps)
    ana, bo, cy, di, ed, flo, gus, hal, ivy = players
    migrate(AFTER)

    executor = migrate(BEFORE)

    old = executor.loader.project_state(BEFORE).apps
    rounds = old.get_model("nights", "NightRound").objects.filter(night_id=night)
    assert list(rounds.order_by("number").values_list("sitting_out", flat=True)) == [
        [ivy],
        [hal, ana],
    ]
    tables = old.get_model("nights", "NightTable").objects.filter(night_round__night_id=night)
    assert list(
        tables.order_by("night_round__number", "number").values_list("seats", flat=True)
    ) == [
        [di, ana, gus, bo],
        [hal, cy, ed, flo],
        [bo, cy, di, ed],
    ]
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
