"""Each change reads the row it changes once, locked, and hands it on (access/matches.py,
access/organizers.py): no service reads again, or locks again, a match its view's access helper
locked. Counted on every kind of change: a play, an end of hand that wins a league match, an
undo, a hand corrected, a hand deleted, a change reverted, a side's signature and dispute, the
director settling it, a seat handed over; and a night's row on a draw, a start, a check-in.

A read of the match's row is a query that selects from it by its key, whatever the columns; on
PostgreSQL, the one read is the one that locks it (``FOR UPDATE``)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorekeeper.leagues.models import Season
from scorekeeper.nights import signing
from scorekeeper.nights.models import Dispute, NightRound
from scorekeeper.tables.models import Match
from tests.nights.test_nights import draw, member_ids, new_night, season_of, sitting_out, start
from tests.nights.test_signing import PLAYERS, night_match
from tests.web.table import (
    chickenfoot_round,
    correction,
    play,
    scorekeeper_client,
    seated_names,
    stored,
)
from tests.web.test_edit_undo import HAND_ONE_CORRECTED, three_hands

pytestmark = pytest.mark.django_db


def reads_of(queries: CaptureQueriesContext, table: str) -> list[str]:
    """The queries that read a row of ``table`` by its key: selected from it, whatever the
    columns (the rows another query is joined to are that query's)."""
    return [
        query["sql"]
        for query in queries.captured_queries
        if query["sql"].lstrip().upper().startswith("SELECT")
        and f' FROM "{table}"' in query["sql"]
        and f'WHERE "{table}"."id" = ' in query["sql"]
    ]


def assert_read_once(queries: CaptureQueriesContext, table: str) -> None:
    reads = reads_of(queries, table)
    assert len(reads) == 1, "\n\n".join(reads)
    if connection.vendor == "postgresql":
        assert "FOR UPDATE" in reads[0]


def match_read_once(queries: CaptureQueriesContext) -> None:
    assert_read_once(queries, "tables_match")


def night_read_once(queries: CaptureQueriesContext) -> None:
    assert_read_once(queries, "nights_night")


@pytest.fixture
def organizer() -> Client:
    return scorekeeper_client()


@pytest.fixture
def season() -> Season:
    return season_of("straight", {"target": 25}, members=PLAYERS)


def test_a_play_reads_the_match_once(organizer: Client) -> None:
    match = stored("straight", "Ana", "Bo")
    with CaptureQueriesContext(connection) as queries:
        response = play(organizer, match, "Ana", 10, htmx=True)
    assert response.status_code == 200
    match_read_once(queries)


def test_an_end_of_hand_that_wins_a_league_match_reads_it_once(
    organizer: Client, season: Season
) -> None:
    """The kept standings and ratings move with it, from the row the entry read."""
    night, match, phone = night_match(organizer, season)
    seats = seated_names(match)
    organizer.post(reverse("tables:undo", args=[match.pk]))
    with CaptureQueriesContext(connection) as queries:
        response = play(phone, match, seats[0], 25, htmx=True)
    assert response.status_code == 200
    match.refresh_from_db()
    assert match.finished
    match_read_once(queries)


def test_an_undo_reads_the_match_once(organizer: Client) -> None:
    match = stored("straight", "Ana", "Bo")
    play(organizer, match, "Ana", 10)
    with CaptureQueriesContext(connection) as queries:
        response = organizer.post(
            reverse("tables:undo", args=[match.pk]), headers={"HX-Request": "true"}
        )
    assert response.status_code == 200
    match_read_once(queries)


def test_a_correction_and_a_hand_deleted_read_the_match_once(organizer: Client) -> None:
    match = three_hands()
    data = correction(match, 1, HAND_ONE_CORRECTED)
    with CaptureQueriesContext(connection) as corrected:
        response = organizer.post(reverse("tables:edit_hand", args=[match.pk, 1]), data)
    assert response.status_code == 302
    match_read_once(corrected)
    with CaptureQueriesContext(connection) as deleted:
        response = organizer.post(reverse("tables:delete_hand", args=[match.pk, 2]))
    assert response.status_code == 302
    match_read_once(deleted)


def test_a_revert_reads_the_match_once(organizer: Client) -> None:
    match = stored("straight", "Ana", "Bo")
    play(organizer, match, "Ana", 10)
    play(organizer, match, "Bo", 5)
    match.refresh_from_db()
    with CaptureQueriesContext(connection) as queries:
        response = organizer.post(reverse("tables:revert", args=[match.pk, match.version]))
    assert response.status_code == 302
    match_read_once(queries)


def answer(client: Client, match: Match, data: dict) -> int:
    """The second side answers through its link (``match``: as it stands)."""
    token = signing.sign_token(match.pk, 1)
    return client.post(
        reverse("nights:sign", args=[token]), {"version": match.version, **data}
    ).status_code


def test_a_signature_reads_the_match_once(organizer: Client, season: Season) -> None:
    _, match, _ = night_match(organizer, season)
    match.refresh_from_db()
    with CaptureQueriesContext(connection) as queries:
        assert answer(Client(), match, {"answer": "agree"}) == 302
    assert signing.sign_state(match) == signing.SIGNED
    match_read_once(queries)


def test_a_dispute_and_its_settling_read_the_match_once(organizer: Client, season: Season) -> None:
    _, match, _ = night_match(organizer, season)
    match.refresh_from_db()
    with CaptureQueriesContext(connection) as opened:
        assert (
            answer(Client(), match, {"answer": "dispute", "hand": "1", "reason": "points"}) == 302
        )
    assert signing.sign_state(match) == signing.DISPUTED
    match_read_once(opened)
    dispute = Dispute.objects.get(match=match)
    with CaptureQueriesContext(connection) as settled:
        response = organizer.post(
            reverse("nights:dispute", args=[dispute.pk]), {"version": match.version}
        )
    assert response.status_code == 302
    assert signing.sign_state(match) == signing.SIGNED
    match_read_once(settled)


def test_a_seat_handed_over_reads_the_match_and_the_night_once(organizer: Client) -> None:
    five = ("Ana", "Bo", "Cy", "Di", "Ed")
    season = season_of("chickenfoot", {}, five, name="Coop")
    night = new_night(organizer, season, players=five, partnerships="", most_at_a_table=4)
    first = draw(organizer, night)
    assert start(organizer, night, 1).status_code == 302
    (spare,) = sitting_out(first)
    match = first.tables.get().match
    one, leaving, three, four = seated_names(match)
    chickenfoot_round(organizer, match, went_out=one, **{leaving: 18, three: 5, four: 7})
    with CaptureQueriesContext(connection) as queries:
        response = organizer.post(
            reverse("nights:leave", args=[night.pk]),
            {"player": member_ids(leaving)[0], "replacement": member_ids(spare)[0]},
        )
    assert response.status_code == 302
    assert seated_names(match)[1] == spare
    match_read_once(queries)
    night_read_once(queries)


def test_a_draw_a_start_and_a_check_in_read_the_night_once(organizer: Client) -> None:
    five = ("Ana", "Bo", "Cy", "Di", "Ed")
    season = season_of("straight", {"target": 25}, five, name="Fives")
    night = new_night(organizer, season, players=five[:4])
    with CaptureQueriesContext(connection) as checked_in:
        response = organizer.post(
            reverse("nights:check_in", args=[night.pk]), {"players": member_ids("Ed")}
        )
    assert response.status_code == 302
    night_read_once(checked_in)
    with CaptureQueriesContext(connection) as drawn:
        response = organizer.post(reverse("nights:draw", args=[night.pk]), {"seed": "s"})
    assert response.status_code == 302
    night_read_once(drawn)
    with CaptureQueriesContext(connection) as started:
        response = organizer.post(reverse("nights:start", args=[night.pk, 1]))
    assert response.status_code == 302
    assert NightRound.objects.get(night=night, number=1).started_at is not None
    night_read_once(started)
