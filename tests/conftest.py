from __future__ import annotations

import os
import shutil
import uuid
from typing import Any

import pytest
from django.core.cache import caches

# The settings are already loaded here (pytest-django loads them before any conftest.py); they
# see the test run through PYTEST_VERSION, see scorekeeper/settings.py.

# Playwright's sync API runs an event loop in the test's thread; without this Django refuses
# the database work that live_server tests do in that thread.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

SKIP_BROWSER_TESTS = os.environ.get("SKIP_BROWSER_TESTS") == "1"

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}


def find_chromium() -> str | None:
    return (
        os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    )


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # trylast: tests/browser/conftest.py marks its tests first.
    if not SKIP_BROWSER_TESTS:
        return
    skip = pytest.mark.skip(reason="SKIP_BROWSER_TESTS=1: browser tests not run")
    for item in items:
        if item.get_closest_marker("browser"):
            item.add_marker(skip)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    chromium = find_chromium()
    if chromium is None or not os.access(chromium, os.X_OK):
        pytest.fail(
            f"Chromium not found ({chromium or 'not on PATH'}): the browser tests need it. "
            "Install it (apt-get install chromium), point CHROMIUM at the executable, "
            "or set SKIP_BROWSER_TESTS=1 to skip them.",
            pytrace=False,
        )
    return {**browser_type_launch_args, "executable_path": chromium, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_context_args, **PHONE}


@pytest.fixture(autouse=True)
def _start_counts_from_zero(settings) -> None:
    """Each test counts the matches started without an account from zero: the counts are kept
    in the cache's table, which a transactional test's flush leaves as it is."""
    settings.RATELIMIT_CACHE_PREFIX = f"rl:{uuid.uuid4().hex}:"


@pytest.fixture(autouse=True)
def _local_cache_emptied() -> None:
    """Each worker's own cache keeps what it drew under the ids and versions of its rows: a
    test's database starts its ids again, so the test starts with that cache empty."""
    caches["local"].clear()
