"""`manage.py benchmark` runs from start to finish: a tiny hall, one-second runs. What it
measures is not judged here (the suite is no place for timings); that it measures every request
it names, without an error, and says of every target whether it is met, is."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings


def test_the_benchmark_measures_every_request_and_judges_every_target(tmp_path: Path) -> None:
    results = tmp_path / "results.json"
    command = [
        sys.executable,
        "manage.py",
        "benchmark",
        *("--players", "12", "--matches", "30", "--tables", "8"),
        *("--duration", "1", "--rounds", "2", "--warmup", "1", "--settle", "0.2"),
        *("--workers", "2"),
        *("--json", str(results)),
    ]
    database = os.environ.get("DATABASE_URL", "")
    if database.startswith("postgres"):
        command += ["--database-url", database]

    run = subprocess.run(
        command, cwd=settings.BASE_DIR, capture_output=True, text=True, timeout=600, check=False
    )

    assert run.returncode == 0, run.stderr[-3000:]
    report = json.loads(results.read_text())
    assert report["database"] == ("postgresql" if database.startswith("postgres") else "sqlite3")
    assert report["data"]["finished_matches_in_season"] == 31
    assert report["data"]["open_matches"] == 8
    assert report["rounds"] == 2
    for endpoint in ("bare", "signed_in", "record", "scoreboard", "standings"):
        for clients in ("1", "32"):
            measured = report["results"][endpoint][clients]
            assert len(measured["rounds"]) == 2, (endpoint, clients)
            assert all(run["requests"] > 0 for run in measured["rounds"]), (endpoint, clients)
            assert measured["errors"] == 0, (endpoint, clients)
            assert 0 < measured["p50_ms"] <= measured["p99_ms"], (endpoint, clients)
            assert measured["x_bare"] > 0, (endpoint, clients)
    assert [report["results"]["bare"][clients]["x_bare"] for clients in ("1", "32")] == [1, 1]
    assert len(report["targets"]) == 6
    assert all(isinstance(target["met"], bool) for target in report["targets"])
    assert "Targets:" in run.stdout and "x bare" in run.stdout
    assert "A tap's ceiling: signed in and recording nothing" in run.stdout
