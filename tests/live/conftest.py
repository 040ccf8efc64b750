"""The streams of the tests that hold them in this process."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.live import announce as announcing
from scorekeeper.live import streams
from scorekeeper.live.hub import Hub


@pytest.fixture
def hub(settings: Any, monkeypatch: pytest.MonkeyPatch) -> Hub:
    """The streams here are this test's alone: a hub of its own (a browser test run earlier in
    this process may still hold streams its server has not yet seen closed), and no follower
    thread (which would hold a connection to the test database past the run).
    tests/live/test_across_processes.py follows."""
    settings.LIVE_FANOUT = "local"
    own = Hub()
    monkeypatch.setattr(streams, "hub", own)
    monkeypatch.setattr(announcing, "hub", own)
    return own
