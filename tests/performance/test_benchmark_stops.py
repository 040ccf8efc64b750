"""The benchmark survives a busy machine: a step whose cleanup the database refuses for a while
(SQLite's "database is locked" while the server still answers what the phones sent) is tried
again, and one that cannot be cleaned up is reported, not fatal; a signal (SIGTERM, SIGINT)
stops every process the run started.

The steps here are played without locust (its run is replaced by the results it writes): what
is judged is what the benchmark does after the load, not the load.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
from django.conf import settings
from django.db import OperationalError

from benchmarks import data, hall
from scorekeeper.leagues.models import SeasonMatch
from scorekeeper.nights.models import Night

MEASURED = {"requests": 10, "requests_per_second": 100.0, "p50_ms": 5, "p99_ms": 9, "errors": 0}


@pytest.fixture
def night(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> hall.Night:
    """A hall whose steps' phones are replaced by the results they write."""
    filled = data.fill("default", players=12, matches=4, tables=0)

    def phones_played(command, *, env, **kwargs) -> subprocess.CompletedProcess:
        plan = json.loads(Path(env["SCOREKEEPER_HALL_PLAN"]).read_text())
        results = {
            "held_seconds": plan["hold"],
            "users": 4 * len(plan["tables"]),
            "kinds": {kind: dict(MEASURED) for kind in ("tap", "poll")},
            "errors": [],
            "setup_failures": [],
            "setup_failure_count": 0,
            "load_generator_cpu_percent": 10.0,
        }
        Path(plan["results"]).write_text(json.dumps(results))
        return subprocess.CompletedProcess(command, 0)

    monkeypatch.setattr(hall.subprocess, "run", phones_played)
    monkeypatch.setattr(hall, "open_the_season", lambda base, *paths: 0)
    monkeypatch.setattr(hall, "drained", lambda servers: None, raising=False)
    monkeypatch.setattr(hall, "CLEANUP_PAUSES", (0.0, 0.0, 0.0), raising=False)
    return hall.Night(
        using="default",
        servers=["http://127.0.0.1:9"],
        season_id=filled.season_id,
        league_id=filled.league_id,
        organizer={"username": filled.username, "password": filled.password},
        folder=tmp_path,
        hold=1,
        warmup=0,
        spawn_rate=1,
        settle=0,
        seed=1,
    )


def locked(times: int, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The night's cleanup refused as SQLite refuses it under writes, ``times`` times."""
    close_night = data.close_night
    refused = [0]

    def close(using: str, *, night_id: int) -> None:
        if refused[0] < times:
            refused[0] += 1
            raise OperationalError("database is locked")
        close_night(using, night_id=night_id)

    monkeypatch.setattr(data, "close_night", close)
    return refused


# each step lets go of its database connection, as the benchmark's process does: a test of its
# own transactions
@pytest.mark.django_db(transaction=True)
def test_a_cleanup_refused_while_the_server_finishes_is_tried_again(
    night: hall.Night, monkeypatch: pytest.MonkeyPatch
) -> None:
    refused = locked(2, monkeypatch)

    step = hall.play_a_night(night, 2, lambda said: None)

    assert refused == [2]
    assert step["cleanup_failed"] is None
    assert not Night.objects.exists()
    # the night's tables left the season
    assert not SeasonMatch.objects.filter(season_id=night.season_id, match__finished=False).exists()


@pytest.mark.django_db(transaction=True)
def test_a_step_that_cannot_clean_up_is_reported_and_the_search_goes_on(
    night: hall.Night, monkeypatch: pytest.MonkeyPatch
) -> None:
    locked(100, monkeypatch)
    said: list[str] = []

    found = hall.search([1, 2], 1, lambda tables: hall.play_a_night(night, tables, said.append))

    assert [step["tables"] for step in found["steps"]] == [1, 2]
    for step in found["steps"]:
        assert "database is locked" in step["cleanup_failed"]
    assert any("could not be closed" in line for line in said)
    found.update(hold_seconds=1, bare_requests_per_second=100.0)
    shown = hall.render(hall.summary(found, [{"requests_per_second": 100.0}]))
    assert "after 1 tables: the night's 1 tables could not be closed" in shown


def alive(process: psutil.Process) -> bool:
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def descendants(pid: int) -> list[psutil.Process]:
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_stops_every_process_the_benchmark_started(tmp_path: Path, stop) -> None:
    command = [
        sys.executable,
        "manage.py",
        "benchmark",
        *("--players", "12", "--matches", "10", "--tables", "2"),
        *("--duration", "120", "--rounds", "1", "--warmup", "120", "--workers", "2"),
        *("--json", str(tmp_path / "results.json")),
    ]
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "benchmarks.settings"}
    # the run's PostgreSQL server, when it has one, is not needed: SQLite is the default
    env.pop("DATABASE_URL", None)
    run = subprocess.Popen(
        command,
        cwd=settings.BASE_DIR,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    started: list[psutil.Process] = []
    try:
        # until the load runs: gunicorn's master and workers, and wrk
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and run.poll() is None:
            started = descendants(run.pid)
            if any(alive(process) and process.name() == "wrk" for process in started):
                break
            time.sleep(0.5)
        assert any(p.name() == "wrk" for p in started), "the load never started"
        assert len(started) >= 3

        run.send_signal(stop)
        _, errors = run.communicate(timeout=120)

        assert run.returncode != 0
        assert f"Stopped by {stop.name}" in errors
        left = [process for process in started if alive(process)]
        assert left == [], f"still running: {[p.cmdline() for p in left]}"
    finally:
        for process in [*started, *descendants(run.pid)]:
            try:
                process.kill()
            except psutil.NoSuchProcess:
                pass
        if run.poll() is None:
            run.kill()
            run.wait()


#: a run stopped by a signal while it holds a child that no Popen of its own stops: as wrk is when
#: the signal comes while subprocess starts it (the program running, Popen not yet returned). In
#: a process of its own: the stop ends every child of the process it runs in
ORPHANED = """
import os, signal, subprocess, sys, time
from benchmarks import server
sleep = [sys.executable, "-c", "import time; time.sleep(120)"]
orphan = subprocess.Popen(sleep, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(orphan.pid, flush=True)
try:
    with server.stopped_by_signals():
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(10)
except server.Stopped as stopped:
    print("Stopped by", stopped, flush=True)
"""


def test_a_process_no_one_holds_when_the_signal_comes_is_stopped_too() -> None:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "benchmarks.settings"}
    run = subprocess.run(
        [sys.executable, "-c", ORPHANED],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    lines = run.stdout.split()
    assert lines[1:] == ["Stopped", "by", "SIGINT"], run.stderr
    try:
        orphan = psutil.Process(int(lines[0]))
    except psutil.NoSuchProcess:
        return
    try:
        assert not alive(orphan)
    finally:
        orphan.kill()
