"""One path from a tap to the board: the entry reads the match once, asks the rules engine
once, and the phone gets one answer, the board as it now stands, whatever came before it."""

from __future__ import annotations

from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorekeeper import rules
from scorekeeper.tables import entries
from scorekeeper.tables.scoring import seated
from tests.performance.hall import long_match
from tests.seated import by_seats
from tests.web.pages import HTMX, text, totals
from tests.web.table import FOUR, scorekeeper_client, seat_of, stored

pytestmark = pytest.mark.django_db


def tap(client, match, player: str, points: int, key: str):
    return client.post(
        reverse("tables:record_play", args=[match.pk]),
        {"player": seat_of(match, player), "points": points, "entry_key": key},
        headers=HTMX,
    )


def test_a_tap_asks_the_engine_once_and_its_queries_do_not_grow_with_the_match() -> None:
    client = scorekeeper_client()
    short = stored("straight", rules={"target": 100_000}, hands=(rules.Hand(leader="Ana"),))
    long = long_match(hands_to=100_000, hands=60)
    counts = []
    for match, key in ((short, "a"), (long, "b")):
        # the first play of a hand starts it; the one measured is the next
        tap(client, match, seated(match).players[0], 5, f"first-{key}")
        with (
            CaptureQueriesContext(connection) as queries,
            mock.patch.object(entries.rules, "score_match", wraps=rules.score_match) as engine,
        ):
            response = tap(client, match, seated(match).players[0], 10, key)
        assert response.status_code == 200
        assert engine.call_count == 1
        counts.append(len(queries))

    assert counts[0] == counts[1], counts


def test_every_answer_is_the_board_as_it_now_stands() -> None:
    client = scorekeeper_client()
    match = stored("straight", *FOUR[:2], hands=(rules.Hand(leader="Ana"),))

    first = tap(client, match, "Ana", 10, "a")
    second = tap(client, match, "Bo", 15, "b")

    assert totals(first) == [10, 0]
    assert totals(second) == [10, 15]
    # the board itself, not the page: htmx swaps it in place
    assert b"<html" not in second.content


def test_a_refused_play_then_a_good_one_leaves_no_trace_of_the_refusal() -> None:
    client = scorekeeper_client()
    match = stored("straight", *FOUR[:2], hands=(rules.Hand(leader="Ana"),))

    refused = tap(client, match, "Ana", 12, "a")
    good = tap(client, match, "Ana", 10, "b")

    assert refused.status_code == 422
    assert "Keep 12 for Ana anyway" in text(refused)
    assert good.status_code == 200
    assert totals(good) == [10, 0]
    assert "multiple of five" not in text(good)


def test_a_preview_writes_nothing() -> None:
    match = stored("straight", *FOUR[:2], hands=(rules.Hand(leader="Ana"),))
    end = by_seats(match, rules.HandEnd("domino", player="Ana", pips={"Bo": 12}))

    with CaptureQueriesContext(connection) as queries:
        outcome = entries.hand_end_preview(match=match, end=end)

    assert not outcome.saved
    assert [outcome.board.totals[side] for side in outcome.board.sides] == [10, 0]
    writes = [q["sql"] for q in queries if q["sql"].split()[0] in ("INSERT", "UPDATE", "DELETE")]
    assert writes == []
    match.refresh_from_db()
    assert (match.version, match.hand_count) == (1, 1)
