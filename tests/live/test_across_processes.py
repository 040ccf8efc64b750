"""A change recorded in one process reaches a stream held by a server in another, by each way
the fan-out has (scorekeeper/live/fanout.py): the SQLite file's newest rows, PostgreSQL's
LISTEN/NOTIFY, Redis pub/sub (on private servers, as the suite starts them).

The server is gunicorn with three workers or uvicorn with two (tests/access/server.py: the
stream waits on a thread, or on the event loop), the change a play recorded by `manage.py
shell` in a process of its own: the stream is told, with the change's id."""

from __future__ import annotations

import os
import queue
import threading
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

from tests.access.server import (
    Server,
    is_postgres,
    migrated_database,
    new_match,
    server_environment,
    shell,
)

DATABASE_URL = os.environ.get("DATABASE_URL", "")

PLAY = """
import json
from scorekeeper.live.models import LiveChange
from scorekeeper.tables import entries
from scorekeeper.tables.models import Match
from scorekeeper.tables.recording import Author
match = Match.objects.get(pk={match})
entries.play_record(match=match, player="0", points=10, by=Author(name="Bea"))
newest = LiveChange.objects.filter(topic="match:{match}").latest("id").id
print(json.dumps({{"id": newest}}))
"""

DRAWN_PLAY = """
import json
from django.conf import settings
from scorekeeper.live.announce import drawn, told_when_drawn
from scorekeeper.live.hub import Drawing
from scorekeeper.live.models import LiveChange
from scorekeeper.tables import entries
from scorekeeper.tables.models import Match
from scorekeeper.tables.recording import Author
match = Match.objects.get(pk={match})
with told_when_drawn():
    entries.play_record(match=match, player="0", points=10, by=Author(name="Bea"))
    match.refresh_from_db()
    # what an entry's view draws for the table's watchers, in the language and time zone a
    # page is shown in when its browser says none
    html = '<div id="live-poll">\\n' + "x" * {size} + '</div>'
    drawn({{"match:{match}": Drawing(
        settings.LANGUAGE_CODE, settings.TIME_ZONE, "", str(match.version), html
    )}})
newest = LiveChange.objects.filter(topic="match:{match}").latest("id").id
print(json.dumps({{"id": newest, "version": match.version}}))
"""

#: no wait in this test is for a number of seconds the machine's load decides: each is a
#: bound on a hang, far above what any delivery takes
HANG = 60


def frames_of(url: str, into: queue.Queue[str]) -> None:
    """Read the stream's frames (blank-line separated) into ``into``, until it ends."""
    with urllib.request.urlopen(url, timeout=HANG) as stream:
        lines: list[str] = []
        for raw in stream:
            line = raw.decode().rstrip("\n")
            if line:
                lines.append(line)
            elif lines:
                into.put("\n".join(lines))
                lines = []


def followed(server: Server, match: int) -> queue.Queue[str]:
    """The frames of the match's stream on ``server``, read by a thread of their own, past the
    redraw the stream begins with."""
    frames: queue.Queue[str] = queue.Queue()
    reader = threading.Thread(
        target=frames_of, args=(f"{server.url}/live/match/{match}/", frames), daemon=True
    )
    reader.start()
    assert frames.get(timeout=HANG) == "retry: 2000"
    assert frames.get(timeout=HANG) == f"event: changed\ndata: match:{match}"
    return frames


@pytest.fixture(params=["sqlite", "postgres", "redis"])
def environment(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[dict[str, str]]:
    how = request.param
    with ExitStack() as stack:
        if how == "postgres" and not is_postgres(DATABASE_URL):
            pytest.skip("LISTEN/NOTIFY needs the run's PostgreSQL (tests/with-postgres.sh)")
        backend = "postgresql" if how == "postgres" else "sqlite"
        url = stack.enter_context(migrated_database(backend, tmp_path))
        env = {**server_environment(url), "SCOREKEEPER_LIVE_FANOUT": how}
        if how == "redis":
            env["REDIS_URL"] = request.getfixturevalue("redis_url")
        yield env


@pytest.mark.parametrize("server_kind", ["gunicorn", "uvicorn"])
def test_a_play_recorded_in_another_process_reaches_the_stream_a_server_holds(
    environment: dict[str, str], tmp_path: Path, server_kind: str
) -> None:
    match = new_match(environment)
    server = Server(environment, tmp_path / "server.log", asgi=server_kind == "uvicorn")
    server.start()
    try:
        frames = followed(server, match)

        played = shell(environment, PLAY.format(match=match))["id"]

        told = frames.get(timeout=HANG)
        while told == ":":  # a heartbeat
            told = frames.get(timeout=HANG)
        assert told == f"id: {played}\nevent: changed\ndata: match:{match}", server.tail()
    finally:
        server.stop()


@pytest.mark.parametrize("size", [1, 8000])
def test_a_play_drawn_in_another_process_reaches_the_stream_with_its_drawing(
    environment: dict[str, str], tmp_path: Path, size: int
) -> None:
    """The drawing an entry makes for its table's watchers crosses processes inside the
    change's event, by each way the fan-out has; but NOTIFY's: larger than its 8000 bytes, the
    event goes without it (the page asks, as for any change)."""
    match = new_match(environment)
    server = Server(environment, tmp_path / "server.log", asgi=True)
    server.start()
    try:
        frames = followed(server, match)

        played = shell(environment, DRAWN_PLAY.format(match=match, size=size))

        told = frames.get(timeout=HANG)
        while told == ":":  # a heartbeat
            told = frames.get(timeout=HANG)
        said = f"id: {played['id']}\nevent: changed\ndata: match:{match}"
        if size > 1 and environment["SCOREKEEPER_LIVE_FANOUT"] == "postgres":
            assert told == said, server.tail()
        else:
            drawing = f'data: <div id="live-poll">\ndata: {"x" * size}</div>'
            assert told == f"{said} - {played['version']}\n{drawing}", server.tail()
    finally:
        server.stop()
