"""A seat taken before changes kept who left by id keeps them by id once the migration has run,
and the history says their name as it is now; a name no player has is kept and said as stored.
The migration runs back to names."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scorekeeper.tables.i18n import change_said
from scorekeeper.tables.models import Change, Match, Player
from scorekeeper.tables.turns import names_at_change, names_by_id, seat_turns

BEFORE = [("tables", "0012_change_maker")]
AFTER = [("tables", "0013_seat_taken_keeps_who_left_by_id")]


def migrate(to: list[tuple[str, str]]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(to)
    return executor


def handed_over_twice(apps) -> int:
    """A Chickenfoot match whose seat 1 Bo left to Di, and whose seat 2 someone kept as "Zed",
    a name no player has, left to Cy. The match's id."""
    Player = apps.get_model("tables", "Player")
    ana, bo, cy, di = (
        Player.objects.create(name=name, key=name.lower(), look=name.lower())
        for name in ("Ana", "Bo", "Cy", "Di")
    )
    match = apps.get_model("tables", "Match").objects.create(
        game="chickenfoot", hand_count=1, version=3
    )
    Seat = apps.get_model("tables", "Seat")
    Seat.objects.create(match=match, player=ana, position=0)
    Seat.objects.create(match=match, player=di, position=1, from_hand=2, from_change=2)
    Seat.objects.create(match=match, player=cy, position=2, from_hand=2, from_change=3)
    apps.get_model("tables", "SeatTurn").objects.create(
        match=match, position=1, player=bo, from_hand=1, from_change=0
    )
    Change = apps.get_model("tables", "Change")
    Change.objects.create(match=match, number=1, kind="league-match")
    Change.objects.create(
        match=match, number=2, kind="seat-taken", params={"seat": 1, "left": "Bo"}, from_hand=2
    )
    Change.objects.create(
        match=match, number=3, kind="seat-taken", params={"seat": 2, "left": "Zed"}, from_hand=2
    )
    return match.pk


def history_of(pk: int) -> list[str]:
    """The match's seats taken, said as its history says them."""
    match = Match.objects.prefetch_related("seats__player").get(pk=pk)
    seating = match.seating()
    turns = seat_turns(match)
    return [
        change_said(
            change,
            match.game,
            names_at_change(seating.players, turns, change.number),
            names_by_id(turns),
        )
        for change in match.changes.filter(kind="seat-taken").order_by("number")
    ]


@pytest.mark.django_db(transaction=True)
def test_who_left_is_kept_by_id_and_said_by_their_name_as_it_is_now() -> None:
    executor = migrate(BEFORE)
    pk = handed_over_twice(executor.loader.project_state(BEFORE).apps)

    migrate(AFTER)
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    bo = Player.objects.get(name="Bo")
    left = [c.params["left"] for c in Change.objects.filter(kind="seat-taken").order_by("number")]
    assert left == [bo.pk, "Zed"]
    assert history_of(pk) == [
        "Bo left; Di plays on in that seat",
        "Zed left; Cy plays on in that seat",
    ]
    bo.name = "Bobby"
    bo.save()
    assert history_of(pk)[0] == "Bobby left; Di plays on in that seat"


@pytest.mark.django_db(transaction=True)
def test_the_migration_runs_back_to_names() -> None:
    executor = migrate(BEFORE)
    handed_over_twice(executor.loader.project_state(BEFORE).apps)
    migrate(AFTER)

    migrate(BEFORE)

    left = [c.params["left"] for c in Change.objects.filter(kind="seat-taken").order_by("number")]
    assert left == ["Bo", "Zed"]
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
