"""A heavy export is built once, off the request path, by the worker (leagues/exports.py):
whoever asks and however many at once, the first to ask queues its build and everyone is told
it is being built, by a page that asks again by itself (no JavaScript) and then gets the file.

Here tasks are queued in the database as in production (``DJANGO_TASKS=worker``), and the
worker is run when the test says so (``manage.py db_worker --batch``): nothing is built before.
tests/access/test_exports_beside_polls.py asks five at once of a real server, beside a board's
poll.
"""

from __future__ import annotations

import csv
import io
import re
import zipfile
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from benchmarks import data
from scorekeeper.leagues import exports
from scorekeeper.leagues.models import ExportBuild, SeasonMatch
from scorekeeper.tables.models import Match
from tests.web.table import play, scorekeeper_client

# transactional: the worker, as in production, closes its database connection when it is done
pytestmark = pytest.mark.django_db(transaction=True)

WORKER = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


@pytest.fixture
def season(settings) -> data.Hall:
    settings.TASKS = WORKER
    return data.fill("default", players=12, matches=9, tables=0)


def hands_url(hall: data.Hall) -> str:
    return reverse("leagues:hands_csv", args=[hall.league_id, hall.season_id])


def bundle_url(hall: data.Hall) -> str:
    return reverse("leagues:export_bundle", args=[hall.league_id])


def stored_files() -> list[Path]:
    root = Path(django_settings.EXPORTS_ROOT)
    return (
        sorted(path for path in root.iterdir() if not path.name.startswith("."))
        if root.exists()
        else []
    )


def run_the_worker() -> None:
    """What `manage.py db_worker` does in production: every queued task, then stop."""
    call_command("db_worker", "--batch", "--no-startup-delay", verbosity=0)


def asks_again(page: str) -> str:
    """Where the page of an export being built asks again: its meta refresh, and its link."""
    refresh = re.search(r'<meta http-equiv="refresh" content="\d+; url=([^"]+)">', page)
    assert refresh is not None, "the page does not ask again by itself"
    again = refresh.group(1).replace("&amp;", "&")
    assert f'href="{refresh.group(1)}"' in page, "the page has no link to the download"
    return again


def body(response) -> bytes:
    return b"".join(response.streaming_content)


@pytest.mark.parametrize("url", [hands_url, bundle_url])
def test_five_readers_of_a_cold_export_get_one_build_and_a_page_saying_so(
    season: data.Hall, url
) -> None:
    answers = [Client().get(url(season)) for _ in range(5)]

    for answer in answers:
        assert answer.status_code == 202
        assert "is being built" in answer.content.decode()
        assert int(answer["Retry-After"]) > 0
    assert ExportBuild.objects.count() == 1
    assert DBTaskResult.objects.count() == 1
    assert stored_files() == []

    run_the_worker()

    [stored] = stored_files()
    again = asks_again(answers[0].content.decode())
    download = Client().get(again)
    assert download.status_code == 200
    assert download["Content-Disposition"].startswith("attachment")
    assert body(download) == stored.read_bytes()
    # and everyone after gets the same file, no build asked again
    assert all(body(Client().get(url(season))) == stored.read_bytes() for _ in range(5))
    assert DBTaskResult.objects.count() == 1


def test_the_file_built_holds_every_hand_of_the_season(season: data.Hall) -> None:
    Client().get(hands_url(season))
    run_the_worker()

    rows = list(csv.reader(io.StringIO(body(Client().get(hands_url(season))).decode())))[1:]
    assert {int(row[0]) for row in rows} == set(
        SeasonMatch.objects.filter(season_id=season.season_id).values_list("match_id", flat=True)
    )
    assert len({(row[0], row[2]) for row in rows}) == season.hands


def test_the_bundle_built_holds_every_match_of_the_league(season: data.Hall) -> None:
    Client().get(bundle_url(season))
    run_the_worker()

    with zipfile.ZipFile(io.BytesIO(body(Client().get(bundle_url(season))))) as archive:
        assert archive.testzip() is None
        names = archive.namelist()
    assert "league.json" in names
    assert len([name for name in names if name.startswith("matches/")]) == season.matches


def test_the_page_waiting_on_a_build_gets_its_file_though_a_play_moved_the_season_since(
    settings,
) -> None:
    settings.TASKS = WORKER
    hall = data.fill("default", players=12, matches=9, tables=0)
    [table] = data.open_tables("default", season_id=hall.season_id, count=1, seed=3)
    waiting = Client().get(hands_url(hall))
    again = asks_again(waiting.content.decode())

    match = Match.objects.get(pk=table.match_id)
    player = match.seats.select_related("player").order_by("position")[0].player.name
    assert play(scorekeeper_client(), match, player, 5).status_code in (200, 302)
    run_the_worker()

    # a new version of the season, but the build waited on is there: no endless waiting
    download = Client().get(again)
    assert download.status_code == 200
    assert body(download).startswith(b'"match"')
    # the season as it stands now is a build of its own
    assert Client().get(hands_url(hall)).status_code == 202


def test_a_build_lost_with_its_worker_is_asked_for_again(season: data.Hall) -> None:
    Client().get(hands_url(season))
    DBTaskResult.objects.all().delete()
    ExportBuild.objects.update(asked_at=timezone.now() - exports.BUILD_LOST_AFTER - timedelta(1))

    assert Client().get(hands_url(season)).status_code == 202
    assert DBTaskResult.objects.count() == 1
    run_the_worker()
    assert Client().get(hands_url(season)).status_code == 200


def test_a_build_that_failed_is_asked_for_again(season: data.Hall, monkeypatch) -> None:
    Client().get(hands_url(season))

    def broken(season_id: int):
        raise OSError("disk full")

    monkeypatch.setattr(exports, "hands_written", broken)
    run_the_worker()
    assert ExportBuild.objects.get().state == ExportBuild.State.FAILED
    assert stored_files() == []
    monkeypatch.undo()

    assert Client().get(hands_url(season)).status_code == 202
    run_the_worker()
    assert Client().get(hands_url(season)).status_code == 200


def test_waiting_on_a_build_does_not_count_against_the_address(season: data.Hall, settings):
    settings.ANONYMOUS_EXPORTS_PER_ADDRESS = 1
    reader = Client()
    waiting = reader.get(hands_url(season))
    again = asks_again(waiting.content.decode())
    for _ in range(3):
        assert reader.get(again).status_code == 202
    run_the_worker()

    assert reader.get(again).status_code == 200
    # a download of its own, not the one it waited for, counts
    assert reader.get(hands_url(season)).status_code == 429
