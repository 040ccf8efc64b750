"""A league bundle is imported by the worker (leagues/imports.py): the organizer who uploads
it is sent to a page that says how far it is and asks again by itself, and that page then
shows the league, or why the bundle was refused; nothing of a refused bundle is kept.

Tasks are queued in the database as in production (``DJANGO_TASKS=worker``), and the worker
is run when the test says so. tests/leagues/test_bundle_largest.py imports the largest bundle
the limits allow this way.
"""

from __future__ import annotations

import json
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scorekeeper.leagues import imports
from scorekeeper.leagues.models import BundleImport, League
from tests.leagues.test_bundle_limits import MATCH, a_bundle, league, nothing_saved, upload
from tests.web.pages import text

# transactional: the worker, as in production, closes its database connection when it is done
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def worker(settings, tmp_path: Path) -> Path:
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    settings.BUNDLES_ROOT = tmp_path / "bundles"
    return settings.BUNDLES_ROOT


def run_the_worker() -> None:
    call_command("db_worker", "--batch", "--no-startup-delay", verbosity=0)


def test_an_uploaded_bundle_waits_for_the_worker_on_a_page_that_asks_again(
    client: Client, worker: Path
) -> None:
    uploaded = upload(client, a_bundle())

    assert uploaded.status_code == 302
    assert uploaded.url == reverse("leagues:bundle_import", args=[BundleImport.objects.get().pk])
    waiting = client.get(uploaded.url)
    assert waiting.status_code == 200
    assert "The bundle is waiting for its turn." in text(waiting)
    assert re.search(r'<meta http-equiv="refresh" content="\d+">', waiting.content.decode())
    assert f'href="{uploaded.url}"' in waiting.content.decode()
    assert nothing_saved()

    run_the_worker()

    done = client.get(uploaded.url, follow=True)
    assert done.redirect_chain[0][0] == reverse("leagues:league", args=[League.objects.get().pk])
    assert "imported" in text(done)
    assert list(worker.iterdir()) == []


def test_a_refused_bundle_is_shown_refused_and_nothing_is_kept(client: Client) -> None:
    uploaded = upload(client, a_bundle(league(game="tiddlywinks")))
    run_the_worker()

    refused = client.get(uploaded.url)

    assert refused.status_code == 422
    assert "unknown game" in text(refused)
    assert nothing_saved()


def test_an_import_whose_worker_was_stopped_is_said_to_have_stopped(client: Client) -> None:
    uploaded = upload(client, a_bundle())
    BundleImport.objects.update(asked_at=timezone.now() - imports.IMPORT_LOST_AFTER - timedelta(1))

    stopped = client.get(uploaded.url)

    assert "The import stopped before it was done" in text(stopped)


def test_only_an_organizer_sees_an_import(client: Client) -> None:
    uploaded = upload(client, a_bundle())

    assert Client().get(uploaded.url).status_code in (302, 403)


def test_the_reading_is_shown_as_it_goes(client: Client, monkeypatch) -> None:
    monkeypatch.setattr(imports.bundle, "PROGRESS_EVERY", 1)
    files = {f"matches/{n}.json": json.dumps(MATCH) for n in range(1, 4)}
    listed = [{"file": name} for name in files]
    manifest = league(seasons=[{"name": "Autumn", "starts_on": "2026-09-01", "matches": listed}])
    uploaded = upload(client, a_bundle(manifest, **files))
    seen: list[tuple[str, int, int]] = []
    scored = imports.bundle._scored

    def looked_at(*args, **kwargs):
        row = BundleImport.objects.get()
        seen.append((row.state, row.read, row.matches))
        return scored(*args, **kwargs)

    monkeypatch.setattr(imports.bundle, "_scored", looked_at)
    run_the_worker()

    assert seen == [("reading", 0, 3), ("reading", 1, 3), ("reading", 2, 3)]
    done = client.get(uploaded.url)
    assert done.status_code == 302, text(done)
