"""A run of the benchmark: the app under uvicorn or gunicorn on a fresh, full database, under
load.

Without the hall it measures each kind of request on its own with wrk (each_request.py). With
the hall it plays league nights against the app with locust (hall.py) and finds the most tables
of four phones it keeps up with, beside the ceiling; the requests' table follows as a section
of the report (``rounds`` 0 leaves it out). `manage.py benchmark` parses the options and calls
``benchmark``; docs/benchmark.md tells more.
"""

from __future__ import annotations

import multiprocessing
import os
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

import dj_database_url
from django.db import connections, transaction
from django.urls import reverse

from benchmarks import data, each_request, hall, load, server, streams_memory
from benchmarks.each_request import CLIENTS

ALIAS = "benchmark"
#: the hall search's steps, in tables, unless the options say otherwise
STEPS = "25,50,100,150,200,300,400"
#: how the app is served (--server): the whole app under uvicorn (ASGI) or gunicorn (WSGI), or
#: gunicorn's pages beside uvicorn's streams
SERVERS = ("uvicorn", "gunicorn", "split")
#: the pause after each run, for the server to finish what the run left queued
SETTLE_SECONDS = 3.0

Say = Callable[[str], None]


def steps(text: str) -> list[int]:
    try:
        found = sorted({int(part) for part in text.split(",") if part.strip()})
    except ValueError:
        found = []
    if not found or found[0] < 1:
        raise ValueError(f"--steps takes numbers of tables, such as {STEPS}, not {text!r}")
    return found


def benchmark(options: dict, say: Say) -> dict:
    """The report of a run with ``options`` (the command's, by their destinations). Raises
    ValueError for options that do not go together, OSError when wrk cannot be had, and
    server.Stopped when a signal stopped the run: every process it started is stopped and its
    database removed."""
    if options["servers"] < 1:
        raise ValueError("--servers takes 1 or more.")
    if options["servers"] > 1 and not options["hall"]:
        raise ValueError("--servers is for the hall: add --hall.")
    if options["servers"] > 1 and not options["database_url"]:
        raise ValueError(
            "Several servers share one PostgreSQL database: give its server with --database-url."
        )
    if options["hall"]:
        options = {**options, "step_list": steps(options["steps"])}
    if options["streams_memory"] and (options["hall"] or options["server"] == "gunicorn"):
        raise ValueError(
            "--streams-memory measures uvicorn's streams on their own: leave out --hall and "
            "--server gunicorn."
        )
    if options["server"] not in SERVERS:
        raise ValueError(f"--server is one of {', '.join(SERVERS)}.")
    if options["workers"] < 0 or options["stream_workers"] < 1:
        raise ValueError("--workers and --stream-workers take 1 or more.")
    if options["screen_workers"] < 0:
        raise ValueError("--screen-workers takes 0 (none: the page workers) or more.")
    if options["screen_workers"] and options["server"] == "uvicorn":
        raise ValueError("--screen-workers is a second gunicorn: use --server split or gunicorn.")
    # uvicorn's as gunicorn's: a worker answers its requests in threads under one interpreter
    # lock, so a slow page holds up the others in its process; with 2 CPUs, 5 workers held
    # twice the tables 2 did (docs/deployment.md)
    options = {**options, "workers": options["workers"] or 2 * multiprocessing.cpu_count() + 1}
    wrk = load.find_wrk(install=not options["no_install"])
    with server.stopped_by_signals():
        return run(wrk, options, say)


def run(wrk: str, options: dict, say: Say) -> dict:
    with ExitStack() as cleanup:
        folder = Path(cleanup.enter_context(tempfile.TemporaryDirectory(prefix="bench-")))
        url = cleanup.enter_context(server.fresh_database(options["database_url"], folder))
        engine = dj_database_url.parse(url)["ENGINE"].rsplit(".", 1)[-1]
        env = server.server_environment(url, folder, redis_url=options["redis_url"])
        say(f"Database: {engine}, fresh. Migrating and collecting static files ...")
        # at once: the static files (several seconds of compressing) need no database
        with ThreadPoolExecutor(max_workers=1) as beside:
            collected = beside.submit(server.manage, env, "collectstatic", "--no-input")
            server.manage(env, "migrate", "--no-input")
            server.manage(env, "createcachetable")
            collected.result()

        started = time.monotonic()
        say(
            f"Filling it: {options['players']} players, {options['matches']} finished "
            f"matches in one season, {options['tables']} open matches ..."
        )
        filled = fill(url, options)
        fill_seconds = time.monotonic() - started
        say(
            f"  {filled.matches} matches, {filled.hands} hands, {filled.plays} plays "
            f"in {fill_seconds:.0f} s."
        )

        running = [serve(cleanup, env, options, folder, each) for each in range(options["servers"])]
        bases = [one.pages for one in running]
        say(f"{served(options)}, at {', '.join(bases)}.")
        if options["server"] == "gunicorn" and options["hall"] and options["streams"]:
            say(
                "  (each stream holds one of gunicorn's sync workers for as long as it is open: "
                "the phones' streams will take them all; --no-streams polls instead)"
            )
        report = {
            # the machine's load as the measurements began: other work shares its CPUs
            "load_average_at_start": round(os.getloadavg()[0], 2),
            "database": engine,
            "servers": len(bases),
            "server": options["server"],
            "streams": bool(options["hall"] and options["streams"]),
            "redis": bool(options["redis_url"]),
            "workers": options["workers"],
            "stream_workers": options["stream_workers"] if options["server"] == "split" else 0,
            "screen_workers": options["screen_workers"],
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
        if options["streams_memory"]:
            say(f"Opening {options['streams_memory']} streams ...")
            streams = running[0].streams
            path = reverse("leagues:season_stream", args=[filled.season_id])
            report["streams_memory"] = streams_memory.measure(
                streams, path, options["streams_memory"], server.PIDS[streams]
            )
        elif options["hall"]:
            report["hall"] = play_the_hall(wrk, options, folder, filled, running, say)
        if not options["streams_memory"] and (options["rounds"] > 0 or not options["hall"]):
            report.update(
                each_request.measure_requests(wrk, options, folder, filled, bases[0], say)
            )
        report["load_average_at_end"] = round(os.getloadavg()[0], 2)
        connections[ALIAS].close()
    return report


@dataclass(frozen=True)
class Served:
    """One server's base URLs: its pages, its streams and the TVs' pages (each the pages' own
    when no process of its own serves them)."""

    pages: str
    streams: str
    screens: str


def serve(
    cleanup: ExitStack, env: dict[str, str], options: dict, folder: Path, number: int
) -> Served:
    """One server as ``--server`` and ``--screen-workers`` say."""
    mode = options["server"]
    if mode == "uvicorn":
        base = cleanup.enter_context(
            server.uvicorn(env, workers=options["workers"], log=folder / f"uvicorn-{number}.log")
        )
        return Served(base, base, base)
    pages = cleanup.enter_context(
        server.gunicorn(
            env,
            workers=options["workers"],
            threads=options["threads"],
            log=folder / f"gunicorn-{number}.log",
        )
    )
    screens = pages
    if options["screen_workers"]:
        screens = cleanup.enter_context(
            server.gunicorn(
                env, workers=options["screen_workers"], log=folder / f"gunicorn-tv-{number}.log"
            )
        )
    if mode == "gunicorn":
        return Served(pages, pages, screens)
    streams = cleanup.enter_context(
        server.uvicorn(
            env, workers=options["stream_workers"], log=folder / f"uvicorn-live-{number}.log"
        )
    )
    return Served(pages, streams, screens)


def served(options: dict) -> str:
    count = options["servers"]
    each = f"{count} servers, each" if count > 1 else "The app"
    if options["server"] == "uvicorn":
        said = f"{each} under uvicorn: {options['workers']} workers"
    else:
        kind = f"gthread of {options['threads']} threads" if options["threads"] > 1 else "sync"
        said = f"{each} under gunicorn: {options['workers']} {kind} workers"
        if options["server"] == "split":
            said += f", and uvicorn ({options['stream_workers']} workers) for the streams"
        if options["screen_workers"]:
            said += f"; the TVs' pages on a gunicorn of {options['screen_workers']} of their own"
    if options["redis_url"]:
        said += "; Redis carries the changes"
    return said


def fill(url: str, options: dict) -> data.Hall:
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


# -- the hall ------------------------------------------------------------------------------------


def play_the_hall(
    wrk: str,
    options: dict,
    folder: Path,
    filled: data.Hall,
    running: list[Served],
    say: Say,
) -> dict:
    bases = [one.pages for one in running]
    night = hall.Night(
        using=ALIAS,
        servers=bases,
        stream_servers=[one.streams for one in running],
        screen_servers=[one.screens for one in running],
        streams=options["streams"],
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
        bare.append(measure_bare(wrk, folder, bases, options["bare_seconds"], say))
        step = played(night, tables, say)
        step["bare_requests_per_second_before"] = bare[-1]["requests_per_second"]
        return step

    say(f"The hall: steps {options['step_list']}, then bisecting ...")
    found = hall.search(options["step_list"], options["resolution"], attempt)
    bare.append(measure_bare(wrk, folder, bases, options["bare_seconds"], say))
    found.update(
        hold_seconds=options["hold"],
        warmup_seconds=options["hall_warmup"],
        pace=hall.PACE,
        streams=options["streams"],
        limits=hall.limits(options["streams"]),
    )
    return hall.summary(found, bare)


def played(night: hall.Night, tables: int, say: Say) -> dict:
    step = hall.play_a_night(night, tables, say)
    verdict = "held" if step["held"] else "did not hold: " + "; ".join(step["why_not"])
    say(f"    {verdict}")
    return step


def measure_bare(wrk: str, folder: Path, bases: list[str], seconds: float, say: Say) -> dict:
    """The bare view at 32 connections in all, spread over the servers, at once."""
    script = folder / "bare.lua"
    script.write_text(load.GET_SCRIPT)
    each = max(1, max(CLIENTS) // len(bases))
    measured: list[load.Measurement | Exception] = [RuntimeError("wrk did not run")] * len(bases)

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
    # none of them an exception now (raised above)
    done = [result for result in measured if not isinstance(result, Exception)]
    total = sum(result.requests_per_second for result in done)
    say(f"The bare view: {total:.0f} req/s at {each * len(bases)} connections.")
    time.sleep(1)
    return {
        "requests_per_second": round(total, 1),
        "p99_ms": max(result.p99_ms for result in done),
        "errors": sum(result.errors for result in done),
    }


# -- the report ----------------------------------------------------------------------------------


def _served_said(report: dict) -> str:
    mode = report.get("server", "gunicorn")
    if mode == "uvicorn":
        return f"{report['workers']} uvicorn workers"
    threads = report.get("threads", 1)
    kind = f"gthread workers of {threads} threads" if threads > 1 else "sync workers"
    said = f"{report['workers']} gunicorn {kind}"
    if mode == "split":
        said += f" (the pages) and {report['stream_workers']} uvicorn workers (the streams)"
    if report.get("screen_workers"):
        said += f", the TVs' pages on {report['screen_workers']} gunicorn sync workers of their own"
    return said


def render(report: dict) -> str:
    data_ = report["data"]
    lines = [
        "",
        f"Domino Scorekeeper benchmark: {report['database']}, {report['servers']} server(s) of "
        f"{_served_said(report)}, {report['cpus']} CPUs shared with the load generator"
        + ("; Redis carries the streams' changes" if report.get("redis") else ""),
        f"Data: {data_['players']} players, {data_['finished_matches_in_season']} finished "
        f"matches in one season ({data_['hands']} hands, {data_['plays']} plays in all); "
        f"the scoreboard's match has {data_['scoreboard_match_hands']} hands.",
        f"The machine's load average (1 min): {report['load_average_at_start']:g} as the "
        f"measurements began, {report['load_average_at_end']:g} at their end.",
    ]
    if "hall" in report:
        lines.append(hall.render(report["hall"]))
    if "streams_memory" in report:
        lines.append(streams_memory.render(report["streams_memory"]))
    if "results" in report:
        lines += ["", each_request.render_requests(report)]
    return "\n".join(lines) + "\n"
