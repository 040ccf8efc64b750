"""A season's heavy exports (its hands as CSV, the league's bundle) are written as they are
sent: the answer streams, a chunk of matches is read at a time with the same few queries for
each chunk, so a season of any size is exported in the memory of one chunk. Read without an
account, they are counted, so a few readers cannot hold every worker of the hall.

Measured on the benchmark's 10,000-match season (docs/limits.md): hands.csv 26.2 s of CPU and
890 MB before, bundle.zip 42.9 s and 40,000 queries before.
"""

from __future__ import annotations

import csv
import io
import zipfile
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from benchmarks import data
from scorekeeper import rules
from scorekeeper.leagues import bundle, results
from scorekeeper.leagues.models import Season, SeasonMatch
from scorekeeper.leagues.moves import season_match_add
from scorekeeper.tables.models import Hand, Match, Play
from scorekeeper.tables.scoring import create_match
from tests.web.table import play, scorekeeper_client

pytestmark = pytest.mark.django_db

#: matches per chunk in these tests: the season below is several chunks
CHUNK = 4


@pytest.fixture
def season(monkeypatch: pytest.MonkeyPatch) -> data.Hall:
    monkeypatch.setattr(bundle, "EXPORT_CHUNK", CHUNK)
    monkeypatch.setattr(results, "EXPORT_CHUNK", CHUNK)
    return data.fill("default", players=12, matches=3 * CHUNK - 1, tables=0)


def read(client: Client, url: str) -> tuple[bytes, int]:
    """The body of a streamed answer, and the queries made while it was written."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
        assert response.status_code == 200
        assert response.streaming, "the export is written whole before it is sent"
        body = b"".join(response.streaming_content)
    return body, len(queries)


def matches_in(hall: data.Hall) -> int:
    return SeasonMatch.objects.filter(season_id=hall.season_id).count()


def hands_url(hall: data.Hall) -> str:
    return reverse("leagues:hands_csv", args=[hall.league_id, hall.season_id])


def bundle_url(hall: data.Hall) -> str:
    return reverse("leagues:export_bundle", args=[hall.league_id])


def test_the_hands_csv_reads_a_chunk_of_matches_at_a_time(season: data.Hall) -> None:
    body, queries = read(Client(), hands_url(season))
    chunks = -(-matches_in(season) // CHUNK)
    # the match, its seats with their players, its hands, their plays: per chunk, plus the
    # season, the export's count, the session
    assert queries <= 4 * chunks + 8
    rows = list(csv.reader(io.StringIO(body.decode())))[1:]
    assert {int(row[0]) for row in rows} == set(
        SeasonMatch.objects.filter(season_id=season.season_id).values_list("match_id", flat=True)
    )
    assert len({(row[0], row[2]) for row in rows}) == season.hands


def test_the_bundle_reads_a_chunk_of_matches_at_a_time(season: data.Hall) -> None:
    body, queries = read(Client(), bundle_url(season))
    chunks = -(-matches_in(season) // CHUNK)
    # and three for the version the file is stored under: seasons, members, matches being played
    assert queries <= 4 * chunks + 13
    with zipfile.ZipFile(io.BytesIO(body)) as archive:
        assert archive.testzip() is None
        names = archive.namelist()
    assert "league.json" in names
    assert len([name for name in names if name.startswith("matches/")]) == matches_in(season)


def test_the_bundle_is_sent_before_the_last_match_is_read(season: data.Hall) -> None:
    response = Client().get(bundle_url(season))
    pieces = iter(response.streaming_content)
    with CaptureQueriesContext(connection) as queries:
        first = next(pieces)
    assert first.startswith(b"PK")
    assert len(queries) < 4 * -(-matches_in(season) // CHUNK)
    # the rest still makes a zip with the first piece
    with zipfile.ZipFile(io.BytesIO(first + b"".join(pieces))) as archive:
        assert archive.testzip() is None


@pytest.mark.parametrize("url", [hands_url, bundle_url])
def test_readers_without_an_account_are_counted_and_refused_past_their_hour(
    season: data.Hall, url, settings
) -> None:
    settings.ANONYMOUS_EXPORTS_PER_ADDRESS = 2
    reader = Client()
    for _ in range(2):
        assert reader.get(url(season)).status_code == 200
    refused = reader.get(url(season))
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    assert "Too many downloads" in refused.content.decode()
    # the organizer, signed in, is not counted
    organizer = Client()
    organizer.force_login(get_user_model().objects.get(username=season.username))
    assert organizer.get(url(season)).status_code == 200


# -- stored under the version of what they hold (leagues/exports.py) ----------------------------


def hand_queries(queries: CaptureQueriesContext) -> list[str]:
    """The queries that read the hands or plays of a match."""
    tables = [connection.ops.quote_name(model._meta.db_table) for model in (Hand, Play)]
    return [q["sql"] for q in queries.captured_queries if any(t in q["sql"] for t in tables)]


def stored_files() -> list[Path]:
    root = Path(django_settings.EXPORTS_ROOT)
    return (
        sorted(path for path in root.iterdir() if not path.name.startswith("."))
        if root.exists()
        else []
    )


@pytest.mark.parametrize("url", [hands_url, bundle_url])
def test_a_second_download_of_an_unchanged_season_is_the_stored_file(
    season: data.Hall, url
) -> None:
    first, _ = read(Client(), url(season))

    with CaptureQueriesContext(connection) as queries:
        again = Client().get(url(season))
        body = b"".join(again.streaming_content)

    assert again.status_code == 200
    assert body == first
    assert hand_queries(queries) == []
    assert again["Content-Disposition"].startswith("attachment")
    assert len(stored_files()) == 1


def finish_a_match(hall: data.Hall) -> Match:
    """A season match of two players played to the end, stored as the setup form stores it."""
    value = rules.Match("straight", ("Ana B.", "Bo B."), rules={"target": 10})
    value = value.with_hands((rules.Hand(plays=(rules.Play("Ana B.", points=10),)),))
    match = create_match(value)
    season_match_add(season=Season.objects.get(pk=hall.season_id), match=match)
    return match


@pytest.mark.parametrize("url", [hands_url, bundle_url])
def test_a_match_finished_since_makes_a_new_file(season: data.Hall, url) -> None:
    read(Client(), url(season))
    before = stored_files()

    match = finish_a_match(season)
    with CaptureQueriesContext(connection) as queries:
        body, _ = read(Client(), url(season))

    assert hand_queries(queries), "the export was not written again"
    if url is hands_url:
        assert str(match.pk) in {row[0] for row in csv.reader(io.StringIO(body.decode()))}
    else:
        with zipfile.ZipFile(io.BytesIO(body)) as archive:
            assert f"matches/{match.pk}.json" in archive.namelist()
    # the older file is gone, the new one stored
    assert len(stored_files()) == 1
    assert stored_files() != before


def test_a_play_in_a_match_being_played_makes_a_new_hands_csv(season: data.Hall) -> None:
    [table] = data.open_tables("default", season_id=season.season_id, count=1, seed=3)
    match = Match.objects.get(pk=table.match_id)
    player = match.seats.select_related("player").order_by("position")[0].player.name
    read(Client(), hands_url(season))

    assert play(scorekeeper_client(), match, player, 5).status_code in (200, 302)
    body, _ = read(Client(), hands_url(season))

    rows = [row for row in csv.reader(io.StringIO(body.decode())) if row[0] == str(match.pk)]
    assert len({row[2] for row in rows}) == data.OPEN_HANDS + 1


def test_an_export_not_sent_whole_is_not_stored(season: data.Hall) -> None:
    response = Client().get(hands_url(season))
    next(iter(response.streaming_content))
    response.close()

    assert stored_files() == []


def test_a_folder_the_app_cannot_write_to_costs_the_storing_not_the_download(
    season: data.Hall, settings, tmp_path: Path
) -> None:
    # a file where the folder should be: nothing can be written under it
    (tmp_path / "taken").write_text("")
    settings.EXPORTS_ROOT = tmp_path / "taken" / "exports"

    body, _ = read(Client(), hands_url(season))

    rows = list(csv.reader(io.StringIO(body.decode())))[1:]
    assert len({(row[0], row[2]) for row in rows}) == season.hands
