from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, WebError

from scorekeeper.live.hub import hub
from tests.browser.table import BUSY

HERE = Path(__file__).parent

#: Run in every page before its own scripts: a content security policy violation is said on the
#: console with what broke the policy (the directive, the script and line, the first characters
#: of what was refused), so that the test that saw it names its cause.
REPORT_POLICY_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  console.error(
    "Content security policy violation: " + event.violatedDirective + " by " +
    (event.sourceFile || event.documentURI) + ":" + event.lineNumber + ":" + event.columnNumber +
    " " + JSON.stringify(event.sample)
  );
});
"""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.is_relative_to(HERE):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(autouse=True)
def _streams_end_with_the_test(request: pytest.FixtureRequest) -> Iterator[None]:
    """The live server outlives the test, and would hold its pages' streams until a heartbeat
    found them gone (up to 15 s), into the next test: ended here, before the test's database
    is emptied (set up after it, so torn down before it). The test's pages are closed by then,
    but a stream they asked for just before may join after the first ending: ended in turn."""
    if "live_server" not in request.fixturenames:
        yield
        return
    request.getfixturevalue("transactional_db")
    yield
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        hub.end_all()
        if not hub.held():
            break
        time.sleep(0.02)


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


@pytest.fixture(autouse=True)
def _a_clean_console(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    """Every page of every browser test keeps a clean console: an error it logs (an htmx error
    such as ``oobErrorNoTarget``, an uncaught exception, a request the browser reports failed)
    or a content security policy violation fails the test once it is over.

    Every browser context a test opens (pytest-playwright's ``page`` and ``new_context``, or
    ``browser.new_context`` itself) listens from its start. A test that makes an error happen on
    purpose (a phone taken offline, an entry the server refuses) names what it expects with
    ``@pytest.mark.console_errors(pattern, ...)``: regular expressions a line may match. The
    database busy (503, asked again) may be heard in any test (``table.BUSY``)."""
    if "browser" not in request.fixturenames:
        yield
        return
    browser: Browser = request.getfixturevalue("browser")
    heard: list[str] = []
    opened = browser.new_context

    def new_context(*args: Any, **kwargs: Any) -> BrowserContext:
        context = opened(*args, **kwargs)
        hear_errors(context, heard.append)
        return context

    monkeypatch.setattr(browser, "new_context", new_context)
    yield
    expected = [re.compile(BUSY)] + [
        re.compile(pattern)
        for marker in request.node.iter_markers("console_errors")
        for pattern in marker.args
    ]
    unexpected = [line for line in heard if not any(p.search(line) for p in expected)]
    assert not unexpected, "errors on a page's console:\n" + "\n".join(unexpected)


def hear_errors(context: BrowserContext, heard: Callable[[str], None]) -> None:
    """Every page of ``context`` tells ``heard`` of its console errors and uncaught exceptions."""
    context.add_init_script(REPORT_POLICY_VIOLATIONS)

    def console(message: ConsoleMessage) -> None:
        if message.type == "error":
            where = message.page.url if message.page else "a worker"
            heard(f"{where}: {message.text}")

    def error(web_error: WebError) -> None:
        where = web_error.page.url if web_error.page else "a page"
        heard(f"{where}: uncaught {web_error.error}")

    context.on("console", console)
    context.on("weberror", error)
