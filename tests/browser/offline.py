"""A phone through a Wi-Fi drop: the steps the offline tests share."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext, BrowserType, Page, expect

from scorekeeper import rules
from scorekeeper.tables.models import Match
from scorekeeper.tables.scoring import match_file_value, with_everything
from tests.browser.table import expect_all_sent

#: the poll asks every two seconds; a second more covers the answer and the swap
WITHIN = 3_000


@contextmanager
def phone(
    browser_type: BrowserType,
    launch_args: dict[str, Any],
    context_args: dict[str, Any],
    home: Path,
    *,
    offline: bool = False,
) -> Iterator[BrowserContext]:
    """A phone whose storage (its outbox, its service worker, its copies of boards) is kept in
    ``home``, so that it can be closed and opened again; ``offline``: with no network from the
    moment it is switched on."""
    context = browser_type.launch_persistent_context(
        home, **launch_args, **context_args, offline=offline
    )
    try:
        yield context
    finally:
        context.close()


def go_offline(context: BrowserContext) -> None:
    """The hall's Wi-Fi drops: for the pages, and for the service worker too (whose requests,
    Background Sync among them, the browser's offline switch does not reach)."""
    context.set_offline(True)
    context.route("**/*", lambda route: route.abort("internetdisconnected"))


def go_online(context: BrowserContext) -> None:
    context.unroute_all(behavior="ignoreErrors")
    context.set_offline(False)
    context.pages[0].evaluate("window.dispatchEvent(new Event('online'))")


def wait_for_the_service_worker(page: Page) -> None:
    """The service worker is installed and looks after this page (and has kept its files)."""
    page.wait_for_function(
        "navigator.serviceWorker.ready.then(() => Boolean(navigator.serviceWorker.controller))"
    )
    page.wait_for_function(
        "caches.open('boards').then(c => c.match(location.pathname)).then(Boolean)"
    )


def waiting(page: Page) -> list[str]:
    """What the board shows as waiting to be sent, in order."""
    return page.locator("#outbox .outbox-list li").all_inner_texts()


def expect_nothing_waiting(page: Page, timeout: float = 30_000) -> None:
    """Everything tapped was sent and recorded (an empty list alone may be one not yet drawn)."""
    expect_all_sent(page, timeout=timeout)
    expect(page.locator("#outbox .outbox-list li")).to_have_count(0)


def stored(match: Match) -> rules.Match:
    """The match as the server holds it now (players by name)."""
    return match_file_value(with_everything(Match.objects.filter(pk=match.pk)).get())


def plays_stored(match: Match) -> list[tuple[int, str, int | None]]:
    """Every stored play: (hand, player, points), in the order recorded."""
    return [
        (number, play.player, play.points)
        for number, hand in enumerate(stored(match).hands, 1)
        for play in hand.plays
    ]


NewContext = Callable[..., BrowserContext]
