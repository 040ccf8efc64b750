"""An import never keeps a table waiting: while the largest match file the limits allow is
imported, again and again, or a league bundle of such matches, phones tapping on another match
keep being answered between the writes: a tap waits for the writing of one match at most,
never for the imports. (Compared with the imports timed in the same run, not with a number of
seconds: a busy machine slows both alike.)

Against the app in a real server process (gunicorn, three workers) on a SQLite file, where a
write holds the whole database; on PostgreSQL too when the test run has one.
"""

from __future__ import annotations

import io
import json
import re
import secrets
import threading
import time
import uuid
import zipfile
from collections.abc import Callable, Iterator

import pytest

from scorekeeper.rules.matchfile import dumps_match
from tests.access.server import Answer, Phone, organizers_server
from tests.access.test_concurrency import BACKENDS
from tests.web.table import FOUR, setup_data
from tests.web.test_hostile_largest_match import largest_match

pytestmark = pytest.mark.server

USERNAME, PASSWORD = "olga", secrets.token_urlsafe(16)
IMPORTS = 3


@pytest.fixture(scope="module", params=BACKENDS)
def phones(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[Phone]]:
    """An organizer importing, and two phones keeping score of another match."""
    folder = tmp_path_factory.mktemp(f"imports-{request.param}")
    with organizers_server(request.param, folder, USERNAME, PASSWORD) as (server, _):
        phones = [Phone(server.url) for _ in range(3)]
        for phone in phones:
            phone.sign_in(USERNAME, PASSWORD)
        yield phones


def import_largest(phone: Phone, raw: bytes) -> float:
    """Import the file as the page asks: it lists the findings, then keeps them all. The
    seconds it took."""
    started = time.monotonic()
    asked = phone.upload("/matches/import/", "file", "largest.json", raw)
    assert asked.status == 422, asked.body[:500]
    token = re.search(r'name="keep" value="([^"]+)"', asked.body).group(1)
    kept = phone.post("/matches/import/", {"keep": token, "entry_key": token})
    assert kept.status == 302, kept.body[:500]
    return time.monotonic() - started


def league_of_largest_matches(count: int) -> bytes:
    """A league bundle of one season of ``count`` of the largest matches."""
    value = largest_match()
    manifest = {
        "format": "dominoes-league/1",
        "name": f"Long nights {uuid.uuid4().hex[:6]}",
        "game": "straight",
        "members": list(value.players),
        "seasons": [
            {
                "name": "Spring",
                "starts_on": "2026-03-01",
                "matches": [{"file": f"matches/{n}.json"} for n in range(count)],
            }
        ],
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("league.json", json.dumps(manifest))
        for n in range(count):
            archive.writestr(f"matches/{n}.json", dumps_match(value))
    return buffer.getvalue()


def import_league(phone: Phone, raw: bytes) -> float:
    started = time.monotonic()
    answer = phone.upload("/leagues/import/", "file", "league.zip", raw)
    assert answer.status == 302, answer.body[:500]
    return time.monotonic() - started


def keep_tapping_while(imports: Callable[[], list[float]], tappers: list[Phone]) -> tuple:
    """Phones tap on a match of their own while ``imports`` runs: each taps a play, then undoes
    it (the hand stays short, and every tap is a write). The taps, each with its answer and
    seconds, and the seconds each import took."""
    started = tappers[0].post("/matches/new/straight/", setup_data("straight", *FOUR, first="1"))
    pk = int(started.location.strip("/").split("/")[-1])
    taps: list[tuple[str, Answer, float]] = []
    done = threading.Event()

    def keep_tapping(phone: Phone) -> None:
        # a player of each phone's own: the same play from two phones at once would be asked
        # about (was it entered twice?) rather than saved
        seat = str(tappers.index(phone) % len(FOUR))
        while not done.is_set():
            for what, path, data in (
                ("play", f"/matches/{pk}/play/", {"player": seat, "points": "10"}),
                ("undo", f"/matches/{pk}/undo/", {}),
            ):
                began = time.monotonic()
                answer = phone.post(path, {**data, "entry_key": uuid.uuid4().hex})
                taps.append((what, answer, time.monotonic() - began))

    threads = [threading.Thread(target=keep_tapping, args=(p,), daemon=True) for p in tappers]
    for thread in threads:
        thread.start()
    try:
        imported = imports()
    finally:
        done.set()
        for thread in threads:
            thread.join(timeout=30)
    assert len(taps) >= 2 * len(tappers), "the phones hardly tapped while the imports ran"
    assert {answer.status for _, answer, _ in taps} == {302}
    return taps, imported


def test_no_tap_waits_for_three_imports_of_the_largest_file(phones: list[Phone]) -> None:
    importer, *tappers = phones
    raw = dumps_match(largest_match()).encode()

    taps, imported = keep_tapping_while(
        lambda: [import_largest(importer, raw) for _ in range(IMPORTS)], tappers
    )

    slowest = max(seconds for _, _, seconds in taps)
    assert slowest < 0.75 * sum(imported), (
        f"a tap took {slowest:.2f} s beside imports of {', '.join(f'{s:.2f}' for s in imported)} s"
    )


def test_no_tap_waits_for_a_whole_league_bundle_to_import(phones: list[Phone]) -> None:
    """Twelve of the largest matches take a few seconds to write. Written in one transaction,
    they held SQLite's write lock throughout, and a tap waited for all of it (a bundle of a
    few hundred gave up taps after 20 s). A match at a time, each scored before its transaction
    begins, taps go in between."""
    importer, *tappers = phones
    raw = league_of_largest_matches(12)

    taps, [imported] = keep_tapping_while(lambda: [import_league(importer, raw)], tappers)

    slowest = max(seconds for _, _, seconds in taps)
    assert slowest < 0.75 * imported, f"a tap took {slowest:.2f} s of the import's {imported:.2f} s"
