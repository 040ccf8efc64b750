"""`manage.py benchmark`: the app under uvicorn (or gunicorn) on a fresh, full database, under
load.

    DJANGO_SETTINGS_MODULE=benchmarks.settings .venv/bin/python manage.py benchmark
    DJANGO_SETTINGS_MODULE=benchmarks.settings .venv/bin/python manage.py benchmark --hall

The command reads the options and hands them to benchmarks/run.py, which runs the benchmark;
docs/benchmark.md tells what it measures.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from benchmarks import run, server
from benchmarks.run import SERVERS, SETTLE_SECONDS, STEPS


class Command(BaseCommand):
    help = (
        "Fill a fresh database with a hall's worth of matches, serve the app with uvicorn (or "
        "gunicorn) on loopback and measure it: with wrk, requests per second and p50/p99 "
        "latency of a bare view, recording a play, a scoreboard and the season standings, at 1 "
        "and 32 clients; with --hall, the most tables of four phones it keeps up with on league "
        "night (locust)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--database-url",
            default="",
            help="A PostgreSQL server to run against (a database is created on it for the run "
            "and dropped after). Default: a new SQLite file in a temporary folder.",
        )
        parser.add_argument("--players", type=int, default=200)
        parser.add_argument("--matches", type=int, default=10_000, help="finished matches")
        parser.add_argument(
            "--tables",
            type=int,
            default=100,
            help="open matches the wrk section's recorded plays are spread over",
        )
        parser.add_argument(
            "--duration", type=float, default=5.0, help="seconds of each wrk measurement"
        )
        parser.add_argument(
            "--rounds",
            type=int,
            default=3,
            help="times each request is measured with wrk, each time beside a new measurement "
            "of the bare view; the medians are reported. With --hall, 0 leaves this out",
        )
        parser.add_argument("--warmup", type=float, default=2.0, help="seconds of wrk warm-up")
        parser.add_argument(
            "--settle",
            type=float,
            default=SETTLE_SECONDS,
            help="seconds of pause after each run, for the server to answer what it left queued",
        )
        parser.add_argument(
            "--server",
            choices=SERVERS,
            default="split",
            help="split: gunicorn serves the pages, uvicorn only the streams (/live/), on one "
            "database, as deployed (the default); uvicorn: the whole app under uvicorn, ASGI; "
            "gunicorn: under gunicorn's workers, WSGI (each open stream holds a worker: for "
            "--no-streams)",
        )
        parser.add_argument(
            "--workers",
            type=int,
            default=0,
            help="workers of each server, uvicorn's or gunicorn's (default: 2 x CPUs + 1)",
        )
        parser.add_argument(
            "--threads",
            type=int,
            default=1,
            help="threads of each gunicorn worker: above 1, gthread workers (default: 1, sync)",
        )
        parser.add_argument(
            "--stream-workers",
            type=int,
            default=1,
            help="with --server split: the workers of the uvicorn that serves the streams",
        )
        parser.add_argument(
            "--screen-workers",
            type=int,
            default=0,
            help="with --server split or gunicorn: a second gunicorn of this many sync workers "
            "serves the TVs' pages (the wall boards, the night's board, the desk, the pairings), "
            "as a proxy routing them there would (docs/deployment.md); default: 0, the page "
            "workers serve them",
        )
        parser.add_argument(
            "--redis-url",
            default="",
            help="a Redis server (redis://host:port/db) every server uses for its cache and to "
            "fan the streams' changes out across servers; nothing is started for it. Default: "
            "none (the database carries them: LISTEN/NOTIFY, or SQLite's row check)",
        )
        parser.add_argument("--json", dest="json_file", default="", help="write the results here")
        parser.add_argument(
            "--no-install", action="store_true", help="never install wrk, even as root"
        )
        parser.add_argument(
            "--streams-memory",
            type=int,
            default=0,
            metavar="N",
            help="instead of the load, open N idle streams of the season's wall board and report "
            "the server's memory before and with them, and per stream",
        )
        night = parser.add_argument_group("the hall (--hall)")
        night.add_argument(
            "--hall",
            action="store_true",
            help="find the hall's capacity: the most tables of four phones the app keeps up "
            "with on league night, played with locust",
        )
        night.add_argument(
            "--steps",
            default=STEPS,
            help=f"numbers of tables to step up through before bisecting (default {STEPS})",
        )
        night.add_argument(
            "--resolution",
            type=int,
            default=5,
            help="bisect until the last number of tables that held and the first that did "
            "not are at most this far apart (or a tenth of the latter, if less)",
        )
        night.add_argument(
            "--hold", type=float, default=60.0, help="seconds each number of tables must hold"
        )
        night.add_argument(
            "--hall-warmup",
            type=float,
            default=10.0,
            help="seconds of play, once every phone has started, before the hold is measured",
        )
        night.add_argument(
            "--spawn-rate", type=float, default=200.0, help="phones started per second"
        )
        night.add_argument(
            "--no-streams",
            dest="streams",
            action="store_false",
            help="the phones and TVs poll on their timers only, as before the streams; by "
            "default each holds its page's stream and asks on each event",
        )
        night.add_argument(
            "--servers",
            type=int,
            default=1,
            help="servers (each as --server says), each on a port of its own, sharing the one "
            "PostgreSQL database (--database-url); the phones are spread over them. The "
            "streams' changes reach the other servers through the database, or Redis "
            "(--redis-url)",
        )
        night.add_argument(
            "--bare-seconds",
            type=float,
            default=5.0,
            help="seconds of each measurement of the bare view, before and after the search",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            report = run.benchmark(options, say=self.stderr.write)
        except server.Stopped as signalled:
            raise CommandError(
                f"Stopped by {signalled}: every process the run started is stopped, "
                "its database removed."
            ) from None
        except (RuntimeError, ValueError, OSError) as problem:
            raise CommandError(str(problem)) from None
        self.stdout.write(run.render(report))
        if options["json_file"]:
            Path(options["json_file"]).write_text(json.dumps(report, indent=2) + "\n")
            self.stdout.write(f"Results written to {options['json_file']}.")
