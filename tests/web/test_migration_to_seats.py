"""A database kept before seats replaced names is brought over whole: hands, plays, totals,
winners and the history name players by seat, and the match scores as it did."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scorekeeper import rules
from scorekeeper.tables.models import Match
from scorekeeper.tables.scoring import match_file_value, with_everything
from tests.seated import changes_said

BEFORE = [("tables", "0003_change_keeps_the_hands_it_changed")]
AFTER = [("tables", "0004_seats_not_names")]


@pytest.mark.django_db(transaction=True)
def test_a_match_stored_by_names_is_stored_by_seats_after_the_migration() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    ana, bo = (old.get_model("tables", "Player").objects.create(name=n) for n in ("Ana", "Bo"))
    match = old.get_model("tables", "Match").objects.create(
        game="straight",
        rules={"target": 20},
        totals={"Ana": 25, "Bo": 10},
        finished=True,
        winner="Ana",
        hand_count=2,
        version=3,
    )
    Seat = old.get_model("tables", "Seat")
    Seat.objects.create(match=match, player=ana, position=0)
    Seat.objects.create(match=match, player=bo, position=1)
    Hand = old.get_model("tables", "Hand")
    Play = old.get_model("tables", "Play")
    first = Hand.objects.create(
        match=match, number=1, leader="Ana", end_how="domino", end_player="Bo", pips={"Ana": 9}
    )
    Play.objects.create(hand=first, number=1, player="Ana", points=15)
    second = Hand.objects.create(match=match, number=2, leader="Bo")
    Play.objects.create(hand=second, number=1, player="Ana", points=10)
    Change = old.get_model("tables", "Change")
    Change.objects.create(match=match, number=1, action="Match started", after=[])
    Change.objects.create(
        match=match,
        number=2,
        action="Hand ended: Bo dominoed",
        from_hand=1,
        before=[{"leader": "Ana", "plays": [{"player": "Ana", "points": 15}]}],
        after=[
            {
                "leader": "Ana",
                "plays": [{"player": "Ana", "points": 15}],
                "end": {"how": "domino", "player": "Bo", "pips": {"Ana": 9}},
            }
        ],
    )
    Change.objects.create(
        match=match,
        number=3,
        action="Ana scored 10",
        from_hand=2,
        before=[],
        after=[{"leader": "Bo", "plays": [{"player": "Ana", "points": 10}]}],
    )

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(AFTER)
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    moved = with_everything(Match.objects.filter(pk=match.pk)).get()
    assert (moved.totals, moved.winners) == ([25, 10], [0])
    hand = moved.hands.get(number=1)
    assert (hand.leader_seat, hand.end_seat, hand.pips) == (0, 1, {"0": 9})
    assert list(moved.hands.get(number=2).plays.values_list("seat", "points")) == [(0, 10)]
    assert rules.score_match(match_file_value(moved)).totals == {"Ana": 25, "Bo": 10}
    assert [said for _, said, _ in changes_said(moved)] == [
        "Match started",
        "Hand ended: Bo dominoed",
        "Ana scored 10",
    ]
    kept = moved.changes.get(number=3)
    assert kept.after == [{"leader": "1", "plays": [{"player": "0", "points": 10}]}]
