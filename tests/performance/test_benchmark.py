"""`manage.py benchmark` runs from start to finish: a tiny hall, one-second runs.

Only that it runs is judged here: it exits 0, prints every row of its report and writes JSON of
the documented shape. What it measured is not: on a busy machine a one-second window may
complete no request at all, or time some out, and the suite is no place for timings.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings

ENDPOINTS = ("bare", "signed_in", "record", "scoreboard", "standings")
MEASUREMENT = {"requests", "requests_per_second", "p50_ms", "p99_ms", "errors", "x_bare"}


def benchmark(*args: str, json_file: Path) -> subprocess.CompletedProcess[str]:
    """The command as a user runs it: in its own process, under the benchmark's settings
    (production's leave it out), against this run's PostgreSQL server when it has one."""
    command = [sys.executable, "manage.py", "benchmark", *args, "--json", str(json_file)]
    database = os.environ.get("DATABASE_URL", "")
    if database.startswith("postgres"):
        command += ["--database-url", database]
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "benchmarks.settings"}
    return subprocess.run(
        command,
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def expected_database() -> str:
    return "postgresql" if os.environ.get("DATABASE_URL", "").startswith("postgres") else "sqlite3"


def test_the_benchmark_reports_every_request_it_names(tmp_path: Path) -> None:
    results = tmp_path / "results.json"

    run = benchmark(
        *("--players", "12", "--matches", "30", "--tables", "8"),
        *("--duration", "1", "--rounds", "1", "--warmup", "1", "--settle", "0.2"),
        *("--workers", "2"),
        json_file=results,
    )

    assert run.returncode == 0, run.stderr[-3000:]
    report = json.loads(results.read_text())
    assert report["database"] == expected_database()
    assert report["data"]["finished_matches_in_season"] == 31
    assert report["data"]["open_matches"] == 8
    for endpoint in ENDPOINTS:
        for clients in ("1", "32"):
            measured = report["results"][endpoint][clients]
            assert MEASUREMENT <= measured.keys(), (endpoint, clients)
            assert len(measured["rounds"]) == 1, (endpoint, clients)
    for label in ("bare view", "signed in, records nothing", "record a play", "scoreboard"):
        assert label in run.stdout


HALL_KINDS = {"requests", "requests_per_second", "p50_ms", "p99_ms", "errors"}
#: what the phones measure while they hold their streams (the default)
SEEN_KINDS = {"seen (event)", "seen (fragment)", "board refresh"}


def test_the_hall_benchmark_plays_a_night_and_reports_it(tmp_path: Path) -> None:
    results = tmp_path / "hall.json"

    run = benchmark(
        "--hall",
        *("--players", "12", "--matches", "20", "--tables", "2"),
        *("--steps", "1", "--hold", "3", "--hall-warmup", "1", "--bare-seconds", "1"),
        *("--rounds", "0", "--settle", "0.2", "--workers", "2"),
        json_file=results,
    )

    assert run.returncode == 0, run.stderr[-3000:]
    report = json.loads(results.read_text())
    assert report["database"] == expected_database()
    assert report["server"] == "split"
    assert report["streams"] is True
    assert "results" not in report, "--rounds 0 leaves the one-request-at-a-time section out"
    found = report["hall"]
    assert [step["tables"] for step in found["steps"]] == [1]
    assert isinstance(found["capacity_tables"], int)
    assert isinstance(found["ceiling_tables"], int)
    assert isinstance(found["capacity_share_of_ceiling"], float)
    assert [target["name"] for target in found["targets"]] == [
        "hall capacity >= 300 tables",
        "hall capacity >= 0.3 of the ceiling",
    ]
    for step in found["steps"]:
        assert isinstance(step["held"], bool)
        # every TV opened its page: the wall board and the night's board
        assert not [failure for failure in step["setup_failures"] if "board" in failure]
        for kind, measured in step["kinds"].items():
            assert HALL_KINDS <= measured.keys(), kind
        assert SEEN_KINDS <= step["kinds"].keys()
        # every phone and TV opened its page's stream
        assert step["streams"]["wanted"] == step["users"] - 1, step["streams"]
    for said in ("Hall capacity:", "Ceiling:", "capacity / ceiling", "Targets:", "seen p99"):
        assert said.lower() in run.stdout.lower()


def test_the_hall_runs_split_and_polling(tmp_path: Path) -> None:
    """The whole app under uvicorn; and gunicorn with the phones that only poll, the TVs'
    pages on a gunicorn of their own."""
    for mode, hold in (
        (("--server", "uvicorn"), "2"),
        # held long enough for each TV that polls every 2 s to ask at least once
        (("--server", "gunicorn", "--no-streams", "--screen-workers", "1"), "4"),
    ):
        results = tmp_path / f"{mode[1]}.json"

        run = benchmark(
            "--hall",
            *mode,
            *("--players", "12", "--matches", "10", "--tables", "1"),
            *("--steps", "1", "--hold", hold, "--hall-warmup", "1", "--bare-seconds", "1"),
            *("--rounds", "0", "--settle", "0.2", "--workers", "2"),
            json_file=results,
        )

        assert run.returncode == 0, run.stderr[-3000:]
        report = json.loads(results.read_text())
        assert report["server"] == mode[1]
        (step,) = report["hall"]["steps"]
        if "--no-streams" in mode:
            assert report["streams"] is False
            assert report["screen_workers"] == 1
            # the TVs' own server answered them: the desk signed in there, the boards' polls
            assert not step["setup_failures"], step["setup_failures"]
            for kind in ("wall board", "night board"):
                answered = step["kinds"][kind]["requests"] - step["kinds"][kind]["errors"]
                assert answered > 0, (kind, step["kinds"].get(kind))
            assert "TVs' pages on 1 gunicorn sync workers of their own" in run.stdout
            assert not SEEN_KINDS & step["kinds"].keys()
            assert "poll p99" in run.stdout
        else:
            assert step["streams"]["wanted"] == step["users"] - 1, step["streams"]
            assert SEEN_KINDS <= step["kinds"].keys()


def test_a_step_is_judged_by_what_the_phones_saw_with_the_streams_and_by_polls_without() -> None:
    from benchmarks import hall

    def step(**kinds: float) -> dict:
        return {
            "held_seconds": 60.0,
            "setup_failure_count": 0,
            "streams": {"wanted": 10, "open_at_end": 10},
            "kinds": {
                kind: {"requests": 10, "errors": 0, "p99_ms": p99, "requests_per_second": rate}
                for kind, (p99, rate) in {
                    "tap": (kinds.get("tap", 100), 1.0),
                    "end hand": (100, 0.1),
                    "standings": (10, 0.1),
                    "poll": (kinds.get("poll", 50), 4.0),
                    "seen (fragment)": (kinds.get("seen", 100), 0.0),
                    "board refresh": (kinds.get("board", 100), 0.0),
                }.items()
            },
        }

    held = step()
    hall.judge(held, 8, streams=True)
    assert held["held"], held["why_not"]
    late = step(seen=400)
    hall.judge(late, 8, streams=True)
    assert late["why_not"] == ["seen (fragment) p99 400 ms > 300 ms"]
    slow_board = step(board=600, poll=150)
    hall.judge(slow_board, 8, streams=True)
    assert slow_board["why_not"] == ["board refresh p99 600 ms > 500 ms"]
    polled = step(poll=150, seen=400)
    hall.judge(polled, 8, streams=False)
    assert "poll p99 150 ms > 100 ms" in polled["why_not"]
    assert not [why for why in polled["why_not"] if "seen" in why]
