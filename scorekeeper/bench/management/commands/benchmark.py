"""`manage.py benchmark`: the app under gunicorn on a fresh, full database, under load.

    DJANGO_SETTINGS_MODULE=scorekeeper.bench.settings .venv/bin/python manage.py benchmark
    DJANGO_SETTINGS_MODULE=scorekeeper.bench.settings .venv/bin/python manage.py benchmark --hall

Without --hall it measures, with wrk, a bare Django view, a signed-in POST that records
nothing, recording a play as the phone's htmx POST, the scoreboard of a long finished match and
the season standings, at 1 and at 32 clients, in rounds that measure the bare view again each
time, and gives the medians and each one's ratio to the bare view.

With --hall it plays league nights against the app with locust (scorekeeper/bench/hall.py) and
finds the most tables of four phones it keeps up with, beside the ceiling; the table above
follows as a section of the report (--rounds 0 leaves it out). docs/benchmark.md tells more.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import secrets
import statistics
import tempfile
import threading
import time
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qsl, urlencode

import dj_database_url
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connections, transaction

from scorekeeper.bench import boards, data, hall, load, server

CLIENTS = (1, 32)
ALIAS = "benchmark"
#: the hall search's steps, in tables, unless --steps says otherwise
STEPS = "25,50,100,150,200,300,400"


@dataclass(frozen=True)
class Endpoint:
    key: str
    label: str
    script: str


ENDPOINTS = (
    Endpoint("bare", "bare view (/healthz)", "get"),
    Endpoint("signed_in", "signed in, records nothing", "signed_in"),
    Endpoint("record", "record a play (htmx POST)", "post"),
    Endpoint("scoreboard", "scoreboard, long match", "get"),
    Endpoint("standings", "season standings", "get"),
)
#: the pause after each run, for the server to finish what the run left queued
SETTLE_SECONDS = 3.0


def steps(text: str) -> list[int]:
    try:
        found = sorted({int(part) for part in text.split(",") if part.strip()})
    except ValueError:
        found = []
    if not found or found[0] < 1:
        raise ValueError(f"--steps takes numbers of tables, such as {STEPS}, not {text!r}")
    return found


class Command(BaseCommand):
    help = (
        "Fill a fresh database with a hall's worth of matches, serve the app with gunicorn on "
        "loopback and measure it: with wrk, requests per second and p50/p99 latency of a bare "
        "view, recording a play, a scoreboard and the season standings, at 1 and 32 clients; "
        "with --hall, the most tables of four phones it keeps up with on league night (locust)."
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
            "--workers",
            type=int,
            default=2 * multiprocessing.cpu_count() + 1,
            help="gunicorn workers of each server (default: 2 x CPUs + 1)",
        )
        parser.add_argument(
            "--threads",
            type=int,
            default=1,
            help="threads of each gunicorn worker: above 1, gthread workers (default: 1, sync)",
        )
        parser.add_argument("--json", dest="json_file", default="", help="write the results here")
        parser.add_argument(
            "--no-install", action="store_true", help="never install wrk, even as root"
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
            "--servers",
            type=int,
            default=1,
            help="gunicorn masters, each on a port of its own, sharing the one PostgreSQL "
            "database (--database-url); the phones are spread over them",
        )
        night.add_argument(
            "--bare-seconds",
            type=float,
            default=5.0,
            help="seconds of each measurement of the bare view, before and after the search",
        )

    def handle(self, *args: object, **options: object) -> None:
        if options["servers"] < 1:
            raise CommandError("--servers takes 1 or more.")
        if options["servers"] > 1 and not options["hall"]:
            raise CommandError("--servers is for the hall: add --hall.")
        if options["servers"] > 1 and not options["database_url"]:
            raise CommandError(
                "Several servers share one PostgreSQL database: give its server with "
                "--database-url."
            )
        try:
            if options["hall"]:
                options["step_list"] = steps(options["steps"])
            wrk = load.find_wrk(install=not options["no_install"])
        except (FileNotFoundError, OSError, ValueError) as problem:
            raise CommandError(str(problem)) from None
        try:
            with server.stopped_by_signals():
                report = self.run(wrk, options)
        except server.Stopped as signalled:
            raise CommandError(
                f"Stopped by {signalled}: every process the run started is stopped, "
                "its database removed."
            ) from None
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
            filled = self.fill(url, options)
            fill_seconds = time.monotonic() - started
            self.say(
                f"  {filled.matches} matches, {filled.hands} hands, {filled.plays} plays "
                f"in {fill_seconds:.0f} s."
            )

            bases = [
                cleanup.enter_context(
                    server.gunicorn(
                        env,
                        workers=options["workers"],
                        threads=options["threads"],
                        log=folder / f"gunicorn-{number}.log",
                    )
                )
                for number in range(options["servers"])
            ]
            self.say(f"gunicorn: {options['workers']} workers each at {', '.join(bases)}.")
            report = {
                # the machine's load as the measurements began: other work shares its CPUs
                "load_average_at_start": round(os.getloadavg()[0], 2),
                "database": engine,
                "servers": len(bases),
                "workers": options["workers"],
                "threads": options["threads"],
                "cpus": multiprocessing.cpu_count(),
                "data": {
                    "players": filled.players,
                    "matches": filled.matches,
                    "finished_matches_in_season": options["matches"] + 1,
                    "hands": filled.hands,
                    "plays": filled.plays,
                    "scoreboard_match_hands": filled.long_match_hands,
                    "open_matches": len(filled.tables),
                    "fill_seconds": round(fill_seconds, 1),
                },
            }
            if options["hall"]:
                report["hall"] = self.play_the_hall(wrk, options, folder, filled, bases)
            if options["rounds"] > 0 or not options["hall"]:
                report.update(self.measure_requests(wrk, options, folder, filled, bases[0]))
            report["load_average_at_end"] = round(os.getloadavg()[0], 2)
            connections[ALIAS].close()
        return report

    def fill(self, url: str, options: dict) -> data.Hall:
        connections.settings[ALIAS] = dj_database_url.parse(url)
        if connections.settings[ALIAS]["ENGINE"] == "django.db.backends.sqlite3":
            # between steps it writes while the servers may still finish what the phones sent:
            # it waits for their writes as the app's own connections do (settings.py)
            connections.settings[ALIAS]["OPTIONS"] = {"timeout": 20}
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
            # closed while the server runs; opened again between runs, to write or read
            connections[ALIAS].close()

    # -- the hall --------------------------------------------------------------------------------

    def play_the_hall(
        self, wrk: str, options: dict, folder: Path, filled: data.Hall, bases: list[str]
    ) -> dict:
        night = hall.Night(
            using=ALIAS,
            servers=bases,
            season_id=filled.season_id,
            league_id=filled.league_id,
            organizer={"username": filled.username, "password": filled.password},
            folder=folder,
            hold=options["hold"],
            warmup=options["hall_warmup"],
            spawn_rate=options["spawn_rate"],
            settle=options["settle"],
            seed=2026,
        )
        # The machine's speed drifts while the search runs (other work on it): the bare view is
        # measured before every step and once more at the end, and the ceiling takes the median.
        bare: list[dict] = []

        def attempt(tables: int) -> dict:
            bare.append(self.measure_bare(wrk, folder, bases, options["bare_seconds"]))
            step = self.played(night, tables)
            step["bare_requests_per_second_before"] = bare[-1]["requests_per_second"]
            return step

        self.say(f"The hall: steps {options['step_list']}, then bisecting ...")
        found = hall.search(options["step_list"], options["resolution"], attempt)
        bare.append(self.measure_bare(wrk, folder, bases, options["bare_seconds"]))
        found.update(
            hold_seconds=options["hold"],
            warmup_seconds=options["hall_warmup"],
            pace=hall.PACE,
            limits={"tap_p99_ms": hall.TAP_P99_MS, "poll_p99_ms": hall.POLL_P99_MS},
        )
        return hall.summary(found, bare)

    def played(self, night: hall.Night, tables: int) -> dict:
        step = hall.play_a_night(night, tables, self.say)
        verdict = "held" if step["held"] else "did not hold: " + "; ".join(step["why_not"])
        self.say(f"    {verdict}")
        return step

    def measure_bare(self, wrk: str, folder: Path, bases: list[str], seconds: float) -> dict:
        """The bare view at 32 connections in all, spread over the servers, at once."""
        script = folder / "bare.lua"
        script.write_text(load.GET_SCRIPT)
        each = max(1, max(CLIENTS) // len(bases))
        measured: list[load.Measurement | Exception] = [RuntimeError("wrk did not run")] * len(
            bases
        )

        def measure(index: int) -> None:
            try:
                measured[index] = load.run_wrk(
                    wrk, bases[index] + "/healthz", script, clients=each, seconds=seconds, threads=2
                )
            except RuntimeError as problem:
                measured[index] = problem

        threads = [threading.Thread(target=measure, args=(i,)) for i in range(len(bases))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        for result in measured:
            if isinstance(result, Exception):
                raise result
        total = sum(result.requests_per_second for result in measured)
        self.say(f"The bare view: {total:.0f} req/s at {each * len(bases)} connections.")
        time.sleep(1)
        return {
            "requests_per_second": round(total, 1),
            "p99_ms": max(result.p99_ms for result in measured),
            "errors": sum(result.errors for result in measured),
        }

    # -- the requests, one kind at a time, with wrk ---------------------------------------------

    def measure_requests(
        self, wrk: str, options: dict, folder: Path, filled: data.Hall, base: str
    ) -> dict:
        browser = server.Browser(base)
        browser.sign_in(filled.username, filled.password)
        taps = self.taps_now(browser, filled)
        paths = {
            "bare": "/healthz",
            "signed_in": "/bench/signed-in/",
            "record": taps[0].path,
            "scoreboard": f"/matches/{filled.long_match_id}/",
            "standings": f"/leagues/{filled.league_id}/seasons/{filled.season_id}/",
        }
        first = self.verify(browser, paths, taps[0])
        points = self.points(browser, filled)
        threads = max(1, min(4, multiprocessing.cpu_count()))
        cookie = f"sessionid={browser.cookie('sessionid')}; csrftoken={browser.cookie('csrftoken')}"

        def measure(endpoint: Endpoint, clients: int, seconds: float) -> load.Measurement:
            # written anew for each run: the phones' boards show the matches as they are now
            scripts = load.write_scripts(
                folder,
                tables=self.taps_now(browser, filled) if endpoint.script == "post" else taps,
                points=points,
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
        return {
            "duration_seconds": options["duration"],
            "rounds": rounds,
            "paths": paths,
            "first_request_ms": first,
            "results": {
                e.key: {str(c): summarize(runs[e.key, c], runs["bare", c]) for c in CLIENTS}
                for e in ENDPOINTS
            },
        }

    def taps_now(self, browser: server.Browser, filled: data.Hall) -> list[load.TapAt]:
        """Each open match's tap as its board, drawn now for the signed-in organizer, says to
        send it: where, with which fields, and the version it shows."""
        taps = []
        for pk, _ in filled.tables:
            status, body, _ = browser.get(f"/matches/{pk}/")
            page = body.decode()
            form = boards.tap_form(boards.forms(page)) if status == 200 else None
            poll = boards.live_poll(page)
            if form is None or poll is None:
                raise RuntimeError(f"the board of match {pk} has no form to tap a play on")
            version = poll[1]
            hidden = {k: v for k, v in form.fields.items() if k != "csrfmiddlewaretoken"}
            seen = next((name for name, value in hidden.items() if value == version), "")
            key = next((name for name in hidden if name != seen), "")
            fixed = {name: value for name, value in hidden.items() if name not in (seen, key)}
            fixed.update({name: values[0] for name, values in form.choices.items()})
            taps.append(
                load.TapAt(
                    path=form.action,
                    fixed=urlencode(fixed),
                    points=next(name for name, value in form.buttons if value.isdigit()),
                    seen=seen,
                    version=int(version),
                    key=key,
                    key_value=hidden.get(key, ""),
                )
            )
        return taps

    def points(self, browser: server.Browser, filled: data.Hall) -> list[int]:
        """The points buttons of a board, the lower half twice as often (as plays score)."""
        _, body, _ = browser.get(f"/matches/{filled.tables[0][0]}/")
        form = boards.tap_form(boards.forms(body.decode()))
        values = sorted(int(value) for _, value in form.buttons if value.isdigit())
        return values + values[: max(1, len(values) // 2)]

    def verify(self, browser: server.Browser, paths: dict[str, str], tap: load.TapAt) -> dict:
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
        fields = dict(parse_qsl(tap.fixed))
        fields[tap.points] = "5"
        if tap.seen:
            fields[tap.seen] = str(tap.version)
        if tap.key:
            fields[tap.key] = f"{tap.key_value}-check"
        status, body, elapsed = browser.post(
            paths["record"],
            fields,
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
            if ceiling.requests_per_second
            else 0.0
            for run, ceiling in zip(runs, bare, strict=True)
        ),
        "p99_x_bare": median(
            run.p99_ms / ceiling.p99_ms if ceiling.p99_ms else 0.0
            for run, ceiling in zip(runs, bare, strict=True)
        ),
        "rounds": [run.as_dict() for run in runs],
    }


def _workers_said(report: dict) -> str:
    threads = report.get("threads", 1)
    return f"gthread workers of {threads} threads" if threads > 1 else "sync workers"


def render(report: dict) -> str:
    data_ = report["data"]
    lines = [
        "",
        f"Domino Scorekeeper benchmark: {report['database']}, {report['servers']} server(s) of "
        f"{report['workers']} gunicorn {_workers_said(report)}, {report['cpus']} CPUs shared "
        "with the load generator",
        f"Data: {data_['players']} players, {data_['finished_matches_in_season']} finished "
        f"matches in one season ({data_['hands']} hands, {data_['plays']} plays in all); "
        f"the scoreboard's match has {data_['scoreboard_match_hands']} hands.",
        f"The machine's load average (1 min): {report['load_average_at_start']:g} as the "
        f"measurements began, {report['load_average_at_end']:g} at their end.",
    ]
    if "hall" in report:
        lines.append(hall.render(report["hall"]))
    if "results" in report:
        lines += ["", render_requests(report)]
    return "\n".join(lines) + "\n"


def render_requests(report: dict) -> str:
    lines = [
        f"One request at a time, with wrk: {report['duration_seconds']:g} s per measurement, "
        f"medians of {report['rounds']} round(s); plays are recorded on "
        f"{report['data']['open_matches']} open matches.",
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
    many = str(max(CLIENTS))
    signed_in = report["results"]["signed_in"][many]
    record = report["results"]["record"][many]
    lines += [
        "",
        f"A tap's ceiling: signed in and recording nothing, a POST reaches "
        f"{signed_in['x_bare']:g} of the bare view's req/s at {many} clients; recording a "
        f"play reaches {record['x_bare']:g}.",
    ]
    first = report["first_request_ms"]
    lines += [
        "",
        "First request after the server started (nothing cached yet): "
        + ", ".join(f"{name} {ms:.0f} ms" for name, ms in first.items()),
    ]
    return "\n".join(lines)
