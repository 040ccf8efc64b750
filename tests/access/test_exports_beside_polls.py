"""Five readers asking at once for a season's hands.csv that nobody has built get one build,
each a page saying it is being built, and a phone's poll at the same moment is answered: no
app worker builds an export (leagues/exports.py), the worker process does, once.

Against the app in a real server process (gunicorn, three workers) with its tasks queued in the
database as in production (``DJANGO_TASKS=worker``); the worker (`manage.py db_worker`) is run
only once everything was asked, so the poll is answered while nothing is built yet.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.access.server import Answer, Phone, manage, organizers_server, shell
from tests.access.test_concurrency import BACKENDS

pytestmark = pytest.mark.server

USERNAME, PASSWORD = "olga", secrets.token_urlsafe(16)
READERS = 5


@dataclass
class Hall:
    env: dict[str, str]
    url: str
    exports: Path
    hands: str
    poll: str


@pytest.fixture(params=BACKENDS)
def hall(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Hall]:
    exports = tmp_path / "exports"
    settings = {"DJANGO_TASKS": "worker", "DJANGO_EXPORTS_ROOT": str(exports)}
    with organizers_server(request.param, tmp_path, USERNAME, PASSWORD, settings) as (
        server,
        env,
    ):
        filled = shell(
            env,
            "import json; from benchmarks import data; "
            "h = data.fill('default', players=12, matches=30, tables=0); "
            "[t] = data.open_tables('default', season_id=h.season_id, count=1, seed=3); "
            "print(json.dumps({'league': h.league_id, 'season': h.season_id, "
            "'match': t.match_id}))",
        )
        yield Hall(
            env=env,
            url=server.url,
            exports=exports,
            hands=f"/leagues/{filled['league']}/seasons/{filled['season']}/hands.csv",
            poll=f"/matches/{filled['match']}/live/",
        )


def at_once(*asks) -> list[Answer]:
    """Each ask in a thread of its own, all let go at the same moment."""
    start = threading.Barrier(len(asks))
    answers: list[Answer | None] = [None] * len(asks)

    def ask(number: int) -> None:
        start.wait()
        answers[number] = asks[number]()

    threads = [threading.Thread(target=ask, args=(n,)) for n in range(len(asks))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(answer is not None for answer in answers)
    return answers  # type: ignore[return-value]


def builds(env: dict[str, str]) -> dict:
    return shell(
        env,
        "import json; from django_tasks_db.models import DBTaskResult; "
        "from scorekeeper.leagues.models import ExportBuild; "
        "print(json.dumps({'builds': ExportBuild.objects.count(), "
        "'queued': DBTaskResult.objects.count()}))",
    )


def test_five_readers_of_a_cold_export_get_one_build_and_a_poll_is_answered_meanwhile(
    hall: Hall,
) -> None:
    readers = [Phone(hall.url) for _ in range(READERS)]
    phone = Phone(hall.url)

    *asked, poll = at_once(
        *(lambda reader=reader: reader.get(hall.hands) for reader in readers),
        lambda: phone.get(hall.poll),
    )

    assert poll.status == 200
    for answer in asked:
        assert answer.status == 202, answer.body[:300]
        assert "is being built" in answer.body
    assert builds(hall.env) == {"builds": 1, "queued": 1}
    assert not hall.exports.exists() or not any(hall.exports.iterdir())

    done = manage(hall.env, "db_worker", "--batch", "--no-startup-delay")
    assert done.returncode == 0, done.stderr

    kept = [path for path in hall.exports.iterdir() if not path.name.startswith(".")]
    assert len(kept) == 1
    downloads = at_once(*(lambda reader=reader: reader.get(hall.hands) for reader in readers))
    assert {answer.status for answer in downloads} == {200}
    assert {answer.body for answer in downloads} == {kept[0].read_bytes().decode()}
    assert builds(hall.env) == {"builds": 1, "queued": 1}
