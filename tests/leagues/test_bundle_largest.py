"""The largest league bundle the limits allow (2,000 matches, bundle.MOST_MATCHES) imports:
uploaded, it is imported by the worker, not in the request (which ran past gunicorn's 30-s
timeout on PostgreSQL under load: a 500, nothing kept), and the organizer is shown how far it
is, then the league. docs/limits.md gives the time it takes.

Slow (a season of 2,000 matches is filled, exported and imported again): deselect it with
``-m "not big_bundle"``.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from benchmarks import data
from scorekeeper.leagues import bundle
from scorekeeper.leagues.models import BundleImport, League, SeasonMatch
from tests.leagues.bundles import renamed

# transactional: the worker, as in production, closes its database connection when it is done
pytestmark = [pytest.mark.big_bundle, pytest.mark.django_db(transaction=True)]

WORKER = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


def largest_bundle() -> bytes:
    """A season of bundle.MOST_MATCHES matches as the app exports it, under a new name."""
    hall = data.fill("default", players=200, matches=bundle.MOST_MATCHES - 1, tables=0)
    raw = b"".join(bundle.export_league(League.objects.get(pk=hall.league_id)))
    with zipfile.ZipFile(io.BytesIO(raw)) as archive:
        listed = json.loads(archive.read("league.json"))["seasons"]
    assert sum(len(season["matches"]) for season in listed) == bundle.MOST_MATCHES
    return renamed(raw, "Thursday League, again", compression=zipfile.ZIP_DEFLATED)


def test_the_largest_bundle_the_limits_allow_imports_with_its_progress_shown(
    settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.TASKS = WORKER
    settings.BUNDLES_ROOT = tmp_path / "bundles"
    raw = largest_bundle()
    organizer = Client()
    organizer.force_login(get_user_model().objects.get(username=data.Hall().username))

    uploaded = organizer.post(
        reverse("leagues:import_bundle"),
        {"file": SimpleUploadedFile("league.zip", raw, content_type="application/zip")},
    )

    assert uploaded.status_code == 302
    progress = uploaded.url
    waiting = organizer.get(progress)
    assert waiting.status_code == 200
    assert "waiting for its turn" in waiting.content.decode()
    assert re.search(r'<meta http-equiv="refresh" content="\d+">', waiting.content.decode())

    # what the page shows while the worker reads the bundle
    shown: list[str] = []
    scored = bundle._scored

    def read_and_looked_at(*args, **kwargs):
        if len(shown) == 0 and BundleImport.objects.get().read == 1000:
            shown.append(organizer.get(progress).content.decode())
        return scored(*args, **kwargs)

    monkeypatch.setattr(bundle, "_scored", read_and_looked_at)
    call_command("db_worker", "--batch", "--no-startup-delay", verbosity=0)

    assert "1000 of 2000 matches read and checked" in shown[0]
    done = organizer.get(progress)
    league = League.objects.get(name="Thursday League, again")
    assert done.status_code == 302
    assert done.url == reverse("leagues:league", args=[league.pk])
    assert SeasonMatch.objects.filter(season__league=league).count() == bundle.MOST_MATCHES
    assert list((tmp_path / "bundles").iterdir()) == []
