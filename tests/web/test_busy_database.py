"""An entry that waited for SQLite's write lock past its timeout gets a clear answer to send it
again (503 with Retry-After), never a bare 500, and nothing of it is saved."""

from __future__ import annotations

from unittest import mock

from django.db import OperationalError
from django.test import Client
from django.urls import reverse

from scorekeeper.tables import entries
from scorekeeper.tables.models import Match, Play
from tests.web.table import scorekeeper_client


def test_a_play_that_found_the_database_locked_is_answered_503_to_send_again(
    straight_match: Match,
) -> None:
    client: Client = scorekeeper_client()
    client.raise_request_exception = False
    locked = OperationalError("database is locked")

    with mock.patch.object(entries, "_record", side_effect=locked):
        response = client.post(
            reverse("tables:record_play", args=[straight_match.pk]),
            {"player": "Ana", "points": "10", "entry_key": "k"},
        )

    assert response.status_code == 503
    assert response["Retry-After"] == "1"
    assert "nothing was saved" in response.content.decode()
    assert not Play.objects.filter(hand__match=straight_match).exists()
