"""An entry that waited for SQLite's write lock (or a pooled PostgreSQL connection) past its
timeout gets a clear answer to send it again (503 with Retry-After), never a bare 500, and
nothing of it is saved."""

from __future__ import annotations

import re
from unittest import mock

import pytest
from django.db import OperationalError
from django.test import Client
from django.urls import reverse

from scorekeeper.tables import entries
from scorekeeper.tables.models import Match, Play
from tests.web.table import scorekeeper_client


@pytest.mark.parametrize(
    "busy",
    [
        "database is locked",
        # under ASGI on PostgreSQL: no connection of the pool came free (psycopg_pool's words)
        "couldn't get a connection after 10.00 sec",
    ],
)
def test_a_play_that_found_the_database_busy_is_answered_503_to_send_again(
    straight_match: Match, busy: str
) -> None:
    client: Client = scorekeeper_client()
    client.raise_request_exception = False
    locked = OperationalError(busy)

    with mock.patch.object(entries, "_record", side_effect=locked):
        response = client.post(
            reverse("tables:record_play", args=[straight_match.pk]),
            {"player": "0", "points": "10", "entry_key": "k"},
        )

    assert response.status_code == 503
    assert response["Retry-After"] == "1"
    assert "nothing was saved" in response.content.decode()
    assert not Play.objects.filter(hand__match=straight_match).exists()


def test_a_plain_form_answered_503_gets_a_button_that_sends_it_again(
    straight_match: Match,
) -> None:
    """The probe: a bare text page saying "Sending it again..." that nothing resent."""
    client: Client = scorekeeper_client()
    client.raise_request_exception = False
    url = reverse("tables:record_play", args=[straight_match.pk])
    sent = {"player": "0", "points": "10", "entry_key": "k"}

    with mock.patch.object(entries, "_record", side_effect=OperationalError("deadlock detected")):
        busy = client.post(url, sent)

    page = busy.content.decode()
    assert busy.status_code == 503
    assert busy["Content-Type"].startswith("text/html")
    form = re.search(r'<form method="post" action="([^"]+)">(.*?)</form>', page, re.S)
    assert form and form.group(1) == url
    fields = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', form.group(2)))
    assert fields == sent
    assert "Send it again" in form.group(2)

    again = client.post(form.group(1), fields)

    assert again.status_code == 302
    assert Play.objects.filter(hand__match=straight_match, points=10).count() == 1
