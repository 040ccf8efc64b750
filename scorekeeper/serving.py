"""What a server's process does once it has loaded the app (wsgi.py, asgi.py)."""

from __future__ import annotations

import gc

from django.urls import get_resolver


def settle_in() -> None:
    """Import every view (the URLconf), then set what the process holds so far aside from the
    garbage collector (``gc.freeze``): the modules, the settings, the URLconf and Django's own
    objects live as long as the process, and each full collection walked all of them again.

    Measured in the hall benchmark (docs/benchmark.md): a worker's full collection took 130 to
    530 ms under load, every few seconds in one of the five workers, and the taps answered
    during one were the slowest of the night (a tap's p99 is what limits the hall)."""
    get_resolver().url_patterns  # noqa: B018 (imports every view module)
    gc.freeze()
