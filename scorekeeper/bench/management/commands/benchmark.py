"""`manage.py benchmark`: the app under gunicorn on a fresh, full database, measured with wrk.

    .venv/bin/python manage.py benchmark
    .venv/bin/python manage.py benchmark --database-url postgres://me@db/postgres --json out.json

Measures, in one run against one server, a bare Django view (the ceiling), a signed-in POST that
records nothing, recording a play as the phone's htmx POST, the scoreboard of a long finished
match and the season standings, at 1 and at 32 clients, in rounds that measure the bare view
again each time; gives the medians and says whether each target is met. README: "Speed and
scale".
"""

from __future__ import annotations

import json
import multiprocessing
import secrets
import statistics
import tempfile
import time
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

import dj_database_url
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connections, transaction

from scorekeeper.bench import data, load, server
from scorekeeper.tables.models import Match

CLIENTS = (1, 32)
ALIAS = "benchmark"


@dataclass(frozen=True)
class Endpoint:
    key: str
    label: str
    script: str
    #: at 32 clients this must reach this share of the bare view's requests per second
    share: float | None = None


ENDPOINTS = (
    Endpoint("bare", "bare view (/healthz)", "get"),
    Endpoint("signed_in", "signed in, records nothing", "signed_in"),
    Endpoint("record", "record a play (htmx POST)", "post", 1 / 2),
    Endpoint("scoreboard", "scoreboard, long match", "get", 1 / 3),
    Endpoint("standings", "season standings", "get", 1 / 3),
)
#: at 32 clients every page's p99 latency stays within this multiple of the bare view's
P99_MULTIPLE = 4
#: the pause after each run, for the server to finish what the run left queued
SETTLE_SECONDS = 3.0


class Command(BaseCommand):
    help = (
        "Fill a fresh database with a hall's worth of matches, serve the app with gunicorn on "
        "loopback and measure it with wrk: requests per second and p50/p99 latency of a bare "
        "view, recording a play, a scoreboard and the season standings, at 1 and 32 clients."
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
            help="open matches the recorded plays are spread over, as over a hall's tables",
        )
        parser.add_argument(
            "--duration", type=float, default=5.0, help="seconds of each measurement"
        )
        parser.add_argument(
            "--rounds",
            type=int,
            default=3,
            help="times each request is measured, each time beside a new measurement of the "
            "bare view; the medians are reported",
        )
        parser.add_argument("--warmup", type=float, default=2.0, help="seconds of warm-up")
        parser.add_argument(
            "--settle",
            type=float,
            default=SETTLE_SECONDS,
            help="seconds of pause after each run, for the server to answer what it left queued",
        )
        parser.add_argument(
            "--workers",
            type=int,
            default=2 * multiprocessing.cpu_count() + 1,
            help="gunicorn workers (default: 2 x CPUs + 1)",
        )
        parser.add_argument("--json", dest="json_file", default="", help="write the results here")
        parser.add_argument(
            "--no-install", action="store_true", help="never install wrk, even as root"
        )

    def handle(self, *args: object, **options: object) -> None:
        try:
            wrk = load.find_wrk(install=not options["no_install"])
        except (FileNotFoundError, OSError) as problem:
            raise CommandError(str(problem)) from None
        try:
            report = self.run(wrk, options)
        except (RuntimeError, ValueError, OSError) as problem:
            raise CommandError(str(problem)) from None
        self.stdout.write(render(report))
        if options["json_file"]:
            Path(options["json_file"]).write_text(json.dumps(report, indent=2) + "\n")
            self.stdout.write(f"Results written to {options['json_file']}.")

    def say(self, message: str) -> None:
        self.stderr.write(message)

    def run(self, wrk: str, options: dict) -> dict:
        with ExitStack() as cleanup:
            folder = Path(cleanup.enter_context(tempfile.TemporaryDirectory(prefix="bench-")))
            url = cleanup.enter_context(server.fresh_database(options["database_url"], folder))
            engine = dj_database_url.parse(url)["ENGINE"].rsplit(".", 1)[-1]
            env = server.server_environment(url, folder)
            self.say(f"Database: {engine}, fresh. Migrating and collecting static files ...")
            server.manage(env, "migrate", "--no-input")
            server.manage(env, "createcachetable")
            server.manage(env, "collectstatic", "--no-input")

            started = time.monotonic()
            self.say(
                f"Filling it: {options['players']} players, {options['matches']} finished "
                f"matches in one season, {options['tables']} open matches ..."
            )
            hall = self.fill(url, options)
            filled = time.monotonic() - started
            self.say(
                f"  {hall.matches} matches, {hall.hands} hands, {hall.plays} plays "
                f"in {filled:.0f} s."
            )

            log = folder / "gunicorn.log"
            base = cleanup.enter_context(server.gunicorn(env, workers=options["workers"], log=log))
            self.say(f"gunicorn: {options['workers']} workers at {base}.")
            browser = server.Browser(base)
            browser.sign_in(hall.username, hall.password)
            paths = {
                "bare": "/healthz",
                "signed_in": "/bench/signed-in/",
                "record": f"/matches/{hall.tables[0][0]}/play/",
                "scoreboard": f"/matches/{hall.long_match_id}/",
                "standings": f"/leagues/{hall.league_id}/seasons/{hall.season_id}/",
            }
            first = self.verify(browser, hall, paths)
            threads = max(1, min(4, multiprocessing.cpu_count()))
            cookie = (
                f"sessionid={browser.cookie('sessionid')}; csrftoken={browser.cookie('csrftoken')}"
            )

            def measure(endpoint: Endpoint, clients: int, seconds: float) -> load.Measurement:
                # written anew for each run: the phones' boards show the matches as they are now
                scripts = load.write_scripts(
                    folder,
                    tables=self.tables_now(hall),
                    threads=min(threads, clients),
                    cookie=cookie,
                    csrf=browser.cookie("csrftoken"),
                    run=secrets.token_hex(4),
                )
                measured = load.run_wrk(
                    wrk,
                    base + paths[endpoint.key],
                    scripts[endpoint.script],
                    clients=clients,
                    seconds=seconds,
                    threads=threads,
                )
                # wrk stops sending, but the requests it left queued are still being answered:
                # they would be measured as the next run's slowest
                time.sleep(options["settle"])
                return measured

            for endpoint in ENDPOINTS:
                self.say(f"Warming up: {endpoint.label} ...")
                measure(endpoint, max(CLIENTS), options["warmup"])
            # The machine's speed drifts during a run (other work, heat): each round measures
            # the bare view again, and each request is compared with the bare view of its round.
            runs = {(e.key, c): [] for e in ENDPOINTS for c in CLIENTS}
            rounds = max(1, options["rounds"])
            for round_ in range(1, rounds + 1):
                for clients in CLIENTS:
                    for endpoint in ENDPOINTS:
                        self.say(
                            f"Measuring (round {round_} of {rounds}): {endpoint.label}, "
                            f"{clients} client(s) ..."
                        )
                        measured = measure(endpoint, clients, options["duration"])
                        runs[endpoint.key, clients].append(measured)
                        self.say(
                            f"  {measured.requests_per_second:.0f} req/s, "
                            f"p50 {measured.p50_ms} ms, p99 {measured.p99_ms} ms, "
                            f"{measured.errors} errors"
                        )
            connections[ALIAS].close()
        results = {
            e.key: {str(c): summarize(runs[e.key, c], runs["bare", c]) for c in CLIENTS}
            for e in ENDPOINTS
        }

        return {
            "database": engine,
            "workers": options["workers"],
            "cpus": multiprocessing.cpu_count(),
            "duration_seconds": options["duration"],
            "rounds": rounds,
            "data": {
                "players": hall.players,
                "matches": hall.matches,
                "finished_matches_in_season": options["matches"] + 1,
                "hands": hall.hands,
                "plays": hall.plays,
                "scoreboard_match_hands": hall.long_match_hands,
                "open_matches": len(hall.tables),
                "fill_seconds": round(filled, 1),
            },
            "paths": paths,
            "first_request_ms": first,
            "results": results,
            "targets": targets(results),
        }

    def fill(self, url: str, options: dict) -> data.Hall:
        connections.settings[ALIAS] = dj_database_url.parse(url)
        connections.configure_settings(connections.settings)
        try:
            with transaction.atomic(using=ALIAS):
                return data.fill(
                    ALIAS,
                    players=options["players"],
                    matches=options["matches"],
                    tables=options["tables"],
                )
        finally:
            # closed while the server runs; opened again to read the open matches' versions
            connections[ALIAS].close()

    def tables_now(self, hall: data.Hall) -> list[tuple[int, str, int]]:
        """The open matches as (id, a player seated there, the version they are at now)."""
        players = dict(hall.tables)
        versions = Match.objects.using(ALIAS).filter(pk__in=players).values_list("pk", "version")
        return [(pk, players[pk], version) for pk, version in sorted(versions)]

    def verify(self, browser: server.Browser, hall: data.Hall, paths: dict[str, str]) -> dict:
        """Each request answers as it should before it is measured; returns how long the first
        of each took (the scoreboard and standings not yet cached)."""
        first = {}
        for key in ("bare", "scoreboard", "standings"):
            status, body, elapsed = browser.get(paths[key])
            if status != 200:
                raise RuntimeError(f"GET {paths[key]} answered {status}")
            first[key] = round(elapsed, 1)
        if b"wins the match" not in browser.get(paths["scoreboard"])[1]:
            raise RuntimeError("the scoreboard of the long match does not show its winner")
        status, body, elapsed = browser.post(
            paths["record"],
            {"player": hall.tables[0][1], "points": "5", "entry_key": "check"},
            {"HX-Request": "true", "X-CSRFToken": browser.cookie("csrftoken")},
        )
        if status != 200 or b'id="board"' not in body:
            raise RuntimeError(f"recording a play answered {status}: {body[:300]!r}")
        first["record"] = round(elapsed, 1)
        status, body, _ = browser.post(
            paths["signed_in"],
            {},
            {"HX-Request": "true", "X-CSRFToken": browser.cookie("csrftoken")},
        )
        if status != 200:
            raise RuntimeError(f"the signed-in POST answered {status}: {body[:300]!r}")
        return first


def summarize(runs: list[load.Measurement], bare: list[load.Measurement]) -> dict:
    """A request's rounds in one: the median of each number, the errors of them all, and its
    ratios to the bare view (each round's against that round's bare view, then the median)."""

    def median(values) -> float:
        return round(statistics.median(values), 2)

    return {
        "requests": sum(run.requests for run in runs),
        "seconds": round(sum(run.seconds for run in runs), 2),
        "requests_per_second": median(run.requests_per_second for run in runs),
        "p50_ms": median(run.p50_ms for run in runs),
        "p99_ms": median(run.p99_ms for run in runs),
        "max_ms": max(run.max_ms for run in runs),
        "errors": sum(run.errors for run in runs),
        "x_bare": median(
            run.requests_per_second / ceiling.requests_per_second
            for run, ceiling in zip(runs, bare, strict=True)
        ),
        "p99_x_bare": median(
            run.p99_ms / ceiling.p99_ms if ceiling.p99_ms else float("inf")
            for run, ceiling in zip(runs, bare, strict=True)
        ),
        "rounds": [run.as_dict() for run in runs],
    }


def targets(results: dict[str, dict[str, dict]]) -> list[dict]:
    bare = results["bare"][str(max(CLIENTS))]
    found = []
    for endpoint in ENDPOINTS:
        if endpoint.share is None:
            continue
        measured = results[endpoint.key][str(max(CLIENTS))]
        clean = measured["errors"] == 0 and bare["errors"] == 0
        ratio = measured["x_bare"]
        found.append(
            {
                "name": f"{endpoint.label}: req/s at {max(CLIENTS)} clients "
                f">= {fraction(endpoint.share)} of the bare view's",
                "value": round(ratio, 2),
                "limit": round(endpoint.share, 2),
                "met": clean and ratio >= endpoint.share,
            }
        )
        multiple = measured["p99_x_bare"]
        found.append(
            {
                "name": f"{endpoint.label}: p99 at {max(CLIENTS)} clients "
                f"<= {P99_MULTIPLE}x the bare view's",
                "value": round(multiple, 2),
                "limit": P99_MULTIPLE,
                "met": clean and multiple <= P99_MULTIPLE,
            }
        )
    return found


def fraction(share: float) -> str:
    return f"1/{round(1 / share)}"


def render(report: dict) -> str:
    data_ = report["data"]
    lines = [
        "",
        f"Domino Scorekeeper benchmark: {report['database']}, {report['workers']} gunicorn "
        f"sync workers, {report['cpus']} CPUs shared with wrk, "
        f"{report['duration_seconds']:g} s per measurement, medians of {report['rounds']} "
        f"round(s)",
        f"Data: {data_['players']} players, {data_['finished_matches_in_season']} finished "
        f"matches in one season ({data_['hands']} hands, {data_['plays']} plays in all); "
        f"the scoreboard's match has {data_['scoreboard_match_hands']} hands; plays are "
        f"recorded on {data_['open_matches']} open matches.",
        "",
    ]
    head = f"{'':28}"
    for clients in CLIENTS:
        word = "client" if clients == 1 else "clients"
        head += f" | {f'{clients} {word}':^35}"
    lines.append(head)
    sub = f"{'':28}" + f" | {'req/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'x bare':>7} {'err':>3}" * 2
    lines.append(sub)
    lines.append("-" * len(sub))
    for endpoint in ENDPOINTS:
        row = f"{endpoint.label:28}"
        for clients in CLIENTS:
            measured = report["results"][endpoint.key][str(clients)]
            row += (
                f" | {measured['requests_per_second']:8.0f} {measured['p50_ms']:7.1f} "
                f"{measured['p99_ms']:7.1f} {measured['x_bare']:7.2f} {measured['errors']:3d}"
            )
        lines.append(row)
    lines += ["", "Targets:"]
    for target in report["targets"]:
        mark = "met" if target["met"] else "NOT MET"
        lines.append(f"  [{mark:^7}] {target['name']}: {target['value']:g}")
    many = str(max(CLIENTS))
    signed_in = report["results"]["signed_in"][many]["x_bare"]
    lines += [
        "",
        f"A tap's ceiling: signed in and recording nothing, a POST reaches {signed_in:g} of the "
        f"bare view's req/s at {many} clients.",
    ]
    first = report["first_request_ms"]
    lines += [
        "",
        "First request after the server started (nothing cached yet): "
        + ", ".join(f"{name} {ms:.0f} ms" for name, ms in first.items()),
        "",
    ]
    return "\n".join(lines)
