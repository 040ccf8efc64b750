from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

HERE = Path(__file__).parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.is_relative_to(HERE):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(autouse=True)
def _every_browser_context_closed(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test leaves no browser context open. A board left open polls the live server every
    2 s for the rest of the worker's run, and on SQLite the live server shares the tests'
    database connection: each poll's two queries then land in whatever a later test counts
    (17 queries against 15 at the desk, 8 against 6 on the ratings page)."""
    yield
    if "browser" not in request.fixturenames:
        return
    browser: Browser = request.getfixturevalue("browser")
    left = list(browser.contexts)
    for context in left:
        context.close()
    assert not left, f"{len(left)} browser context(s) left open: close each one the test opens"
