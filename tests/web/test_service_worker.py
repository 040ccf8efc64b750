"""The service worker that lets a scoreboard open and keep its entries through a Wi-Fi drop."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.performance.hall import long_match
from tests.web.table import scorekeeper_client

pytestmark = pytest.mark.django_db


def test_the_service_worker_is_served_from_the_root_and_never_kept_stale() -> None:
    response = Client().get("/sw.js")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert "no-cache" in response["Cache-Control"]
    worker = response.content.decode()
    # it keeps the files a scoreboard needs, and sends the outbox by Background Sync
    for name in ("app.css", "htmx-2.min.js", "outbox.js", "offline.js", "idb-keyval"):
        assert name in worker, name
    assert reverse("tables:offline") in worker
    assert 'addEventListener("sync"' in worker


def test_the_worker_changes_when_a_file_it_keeps_changes(settings, tmp_path) -> None:
    """Its version is a digest of the files' contents, so phones take a new one."""
    before = re.search(r"version (\w+)", Client().get("/sw.js").content.decode()).group(1)
    changed = tmp_path / "js"
    changed.mkdir()
    (changed / "app.js").write_text("// another app.js\n")
    settings.STATICFILES_DIRS = [tmp_path, *settings.STATICFILES_DIRS]

    after = re.search(r"version (\w+)", Client().get("/sw.js").content.decode()).group(1)

    assert after != before


def test_pages_allow_only_our_own_service_worker() -> None:
    response = Client().get(reverse("tables:home"))

    assert "worker-src 'self'" in response["Content-Security-Policy"]


def test_the_page_for_an_address_the_phone_has_no_copy_of_says_so() -> None:
    response = Client().get(reverse("tables:offline"))

    assert response.status_code == 200
    assert "This phone is offline and has not opened this page before" in response.content.decode()


def test_the_board_carries_what_the_outbox_needs(db: None) -> None:
    """The board names its match and game, the worker, and every side's seats and stored
    total, so the phone can add what waits to the right side."""
    match = long_match()
    page = scorekeeper_client().get(reverse("tables:scoreboard", args=[match.pk])).content.decode()

    assert f'data-match="{match.pk}"' in page
    assert 'data-worker="/sw.js"' in page
    assert re.search(r'data-seats="[0-9 ]+"', page)
    assert re.search(r'data-total="\d+"', page)
    assert 'id="outbox"' in page and 'id="offline-note"' in page
