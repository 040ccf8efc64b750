"""Many phones at one table, against the app in a real server process.

Phones post entries to one match at the same moment, some of them twice (a double tap, a retry
after the hall's Wi-Fi dropped): afterwards exactly the intended plays are stored, numbered in one
order, and the totals are right. Then the server is killed in the middle of a batch of entries;
after a restart no hand is half written and nothing that was answered as saved is missing.

On SQLite always, and on PostgreSQL too when the test run has one (tests/with-postgres.sh).
"""

from __future__ import annotations

import io
import json
import os
import secrets
import threading
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.core.management import call_command

from tests.access.server import (
    TIMEOUT,
    Answer,
    Phone,
    Server,
    is_postgres,
    organizers_server,
    shell,
)
from tests.web.table import FOUR, setup_data

pytestmark = pytest.mark.server

USERNAME, PASSWORD = "olga", secrets.token_urlsafe(16)
DATABASE_URL = os.environ.get("DATABASE_URL", "")
BACKENDS = [
    "sqlite",
    pytest.param(
        "postgresql",
        marks=pytest.mark.skipif(
            not is_postgres(DATABASE_URL),
            reason="no PostgreSQL in this run: tests/with-postgres.sh provides one",
        ),
    ),
]


@dataclass(frozen=True)
class Submission:
    """One tap on a phone: who scored how much, under the key its form carried."""

    phone: Phone
    player: str
    points: int
    key: str

    @property
    def data(self) -> dict[str, str]:
        # posted by seat, as the board does: FOUR sit in their order
        seat = str(FOUR.index(self.player))
        return {"player": seat, "points": str(self.points), "entry_key": self.key}


@dataclass
class Hall:
    server: Server
    env: dict[str, str]
    folder: Path
    #: signed in as the organizer, each with its own session
    phones: list[Phone]

    def start_match(self) -> int:
        answer = self.phones[0].post(
            "/matches/new/straight/", setup_data("straight", *FOUR, first="1")
        )
        assert answer.status == 302, answer.body[:500]
        return int(answer.location.strip("/").split("/")[-1])

    def stored(self, pk: int) -> dict:
        return shell(self.env, f"from tests.access.serverside import stored; stored({pk})")

    def scorecheck(self, pk: int) -> dict:
        """The match file the server exports, scored by `manage.py scorecheck --json` (which
        reads no database, so it runs here)."""
        exported = self.phones[0].get(f"/matches/{pk}/match.json")
        assert exported.status == 200
        path = self.folder / f"match-{pk}.json"
        path.write_text(exported.body)
        printed = io.StringIO()
        with pytest.raises(SystemExit) as exited:
            call_command("scorecheck", str(path), "--json", stdout=printed)
        assert exited.value.code == 0, printed.getvalue()
        return json.loads(printed.getvalue())


def at_once(count: int, send: Callable[[int], Answer]) -> list[Answer | Exception]:
    """``send(0)`` ... ``send(count - 1)``, each from its own thread, all let go together."""
    start = threading.Barrier(count)
    results: list[Answer | Exception | None] = [None] * count

    def run(index: int) -> None:
        try:
            start.wait(timeout=TIMEOUT)
            results[index] = send(index)
        except Exception as error:  # a refused connection is an answer here too
            results[index] = error

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=2 * TIMEOUT)
    assert not any(thread.is_alive() for thread in threads), "a request never came back"
    return results


@pytest.fixture(scope="module", params=BACKENDS)
def hall(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Hall]:
    folder = tmp_path_factory.mktemp(f"server-{request.param}")
    with organizers_server(request.param, folder, USERNAME, PASSWORD) as (server, env):
        phones = [Phone(server.url) for _ in range(4)]
        signed_in = at_once(len(phones), lambda i: phones[i].sign_in(USERNAME, PASSWORD))
        assert signed_in == [None] * len(phones), signed_in
        yield Hall(server, env, folder, phones)


def nonce(key: str) -> str:
    """The form's key, without the digest of the data the server adds to it."""
    return key.split(":")[0]


def assert_whole(stored: dict) -> None:
    """Nothing half written: hands and plays numbered without gaps, every change in one unbroken
    chain ending at the hands as stored, every key with its change, the totals the engine's."""
    assert [hand["number"] for hand in stored["hands"]] == list(range(1, len(stored["hands"]) + 1))
    for hand in stored["hands"]:
        assert [play[0] for play in hand["plays"]] == list(range(1, len(hand["plays"]) + 1))
    changes = stored["changes"]
    assert [change["number"] for change in changes] == list(range(1, stored["version"] + 1))
    # each change found the hands it changed as the change before it left them
    hands: list[dict] = []
    for change in changes:
        kept = change["from_hand"] - 1
        assert hands[kept:] == change["before"], f"change {change['number']} lost a change"
        hands = hands[:kept] + change["after"]
    assert hands == stored["hands_file"]
    numbers = {change["number"] for change in changes}
    assert all(key["change"] in numbers for key in stored["keys"])
    assert stored["totals"] == stored["engine_totals"]
    assert stored["hand_count"] == stored["engine_hand_count"]


def test_phones_entering_at_the_same_moment_all_land_once_and_in_one_order(hall: Hall) -> None:
    pk = hall.start_match()
    taps = [
        Submission(hall.phones[i % 4], FOUR[i % 4], (5, 10, 15)[i % 3], uuid.uuid4().hex)
        for i in range(24)
    ]
    # every third tap arrives twice, the copy racing the original
    sent = taps + taps[::3]

    answers = at_once(len(sent), lambda i: sent[i].phone.post(f"/matches/{pk}/play/", sent[i].data))

    assert [(a.status, a.location) for a in answers] == [(302, f"/matches/{pk}/")] * len(sent)
    stored = hall.stored(pk)
    assert_whole(stored)
    [hand] = stored["hands"]
    assert [play[0] for play in hand["plays"]] == list(range(1, len(taps) + 1))
    assert Counter((player, points) for _, player, points in hand["plays"]) == Counter(
        (tap.player, tap.points) for tap in taps
    )
    # each play was its own change, made in the order the plays are numbered
    assert [change["action"] for change in stored["changes"][1:]] == [
        f"{player} scored {points}" for _, player, points in hand["plays"]
    ]
    assert sorted(nonce(key["key"]) for key in stored["keys"]) == sorted(tap.key for tap in taps)
    expected = {name: sum(tap.points for tap in taps if tap.player == name) for name in FOUR}
    assert stored["totals"] == expected
    assert hall.phones[1].get(f"/matches/{pk}/live/?v={stored['version']}").status == 304


def test_a_server_killed_in_the_middle_of_entries_leaves_no_half_written_hand(
    hall: Hall,
) -> None:
    pk = hall.start_match()
    taps = [
        Submission(hall.phones[i % 4], FOUR[i % 4], (5, 10, 15)[i % 3], uuid.uuid4().hex)
        for i in range(48)
    ]
    saved: list[Submission] = []
    lock = threading.Lock()
    enough = threading.Event()

    def send(index: int) -> Answer:
        answer = taps[index].phone.post(f"/matches/{pk}/play/", taps[index].data)
        if answer.status == 302:
            with lock:
                saved.append(taps[index])
                if len(saved) >= 5:
                    enough.set()
        return answer

    killer = threading.Thread(
        target=lambda: enough.wait(TIMEOUT) and hall.server.kill(), daemon=True
    )
    killer.start()
    answers = at_once(len(taps), send)
    killer.join(timeout=TIMEOUT)
    assert enough.is_set(), f"only {len(saved)} entries were answered before the deadline"
    hall.server.start()

    cut_off = [a for a in answers if not isinstance(a, Answer)]
    assert cut_off, "every entry was answered before the kill: none was in flight"
    # whatever did come back before the kill was a saved entry, never an error
    assert {a.status for a in answers if isinstance(a, Answer)} == {302}
    # the restarted server takes the next entry
    # from the phone that taps for Ana: the same play from another phone would be asked about
    last = Submission(hall.phones[0], "Ana", 5, uuid.uuid4().hex)
    assert last.phone.post(f"/matches/{pk}/play/", last.data).status == 302

    stored = hall.stored(pk)
    assert_whole(stored)
    [hand] = stored["hands"]
    kept = {nonce(key["key"]) for key in stored["keys"]}
    assert {tap.key for tap in [*saved, last]} <= kept, "an entry answered as saved is missing"
    assert kept <= {tap.key for tap in [*taps, last]}
    assert len(hand["plays"]) == len(kept)
    # numbered after the ones kept from before the kill
    assert hand["plays"][-1] == [len(kept), "Ana", 5]
    assert hall.scorecheck(pk)["totals"] == stored["totals"]


def test_phones_starting_matches_with_the_same_new_players_at_once_each_get_their_match(
    hall: Hall,
) -> None:
    # a double tap on "Start the match", and the next table starting with the same newcomers
    newcomers = [f"Newcomer {uuid.uuid4().hex[:6]}", f"Newcomer {uuid.uuid4().hex[:6]}"]
    setup = setup_data("straight", *newcomers)

    answers = at_once(6, lambda i: hall.phones[i % 4].post("/matches/new/straight/", setup))

    assert [a.status for a in answers] == [302] * 6, hall.server.tail()
    started = {int(a.location.strip("/").split("/")[-1]) for a in answers}
    assert len(started) == 6
    for pk in started:
        board = hall.phones[0].get(f"/matches/{pk}/")
        assert all(name in board.body for name in newcomers)
