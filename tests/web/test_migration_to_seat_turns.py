"""A seat handed over before seats kept their turns gets them from its history: the match's
"seat taken" change names who left, and from which hand and change the newcomer sat."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scorekeeper.tables.models import Match
from scorekeeper.tables.turns import Turn, seat_turns

BEFORE = [("tables", "0009_player_names_by_key_only")]
AFTER = [("tables", "0010_seats_keep_who_sat_in_them_before_a_handover")]


@pytest.mark.django_db(transaction=True)
def test_a_seat_handed_over_before_the_migration_keeps_who_sat_in_it() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    Player = old.get_model("tables", "Player")
    ana, bo, cy, di = (
        Player.objects.create(name=n, key=n.lower()) for n in ("Ana", "Bo", "Cy", "Di")
    )
    match = old.get_model("tables", "Match").objects.create(
        game="chickenfoot", hand_count=2, version=4
    )
    Seat = old.get_model("tables", "Seat")
    for position, player in enumerate((ana, di, cy)):
        Seat.objects.create(match=match, player=player, position=position)
    Change = old.get_model("tables", "Change")
    Change.objects.create(match=match, number=1, kind="league-match")
    Change.objects.create(match=match, number=2, kind="round-recorded", params={"seat": 1})
    Change.objects.create(match=match, number=3, kind="round-recorded", params={"seat": 0})
    Change.objects.create(
        match=match, number=4, kind="seat-taken", params={"seat": 1, "left": "Bo"}, from_hand=3
    )

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(AFTER)
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    moved = Match.objects.prefetch_related("seats__player").get(pk=match.pk)
    assert seat_turns(moved) == {1: [Turn("Bo", 1, 0, bo.pk, "Bo"), Turn("Di", 3, 4, di.pk, "Di")]}
