"""The hall benchmark: how many tables of four phones the app keeps up with on league night.

For each number of tables it tries, the command opens that many league matches in the season
(data.open_tables), writes a plan and runs locust, headless, in a process of its own with the
hall's phones (phones.py). By default every phone and TV holds its page's stream and asks its
poll on each event (a timer poll every 30 s besides); with --no-streams they poll on their
timers only. A number of tables holds when, for the whole hold, a tap's p99 is within 250 ms,
no request fails, the scorekeepers keep their pace and, with the streams, the other phones of
the table have the tap's new board within 300 ms of the tap's answer (p99 of "seen
(fragment)") and the TVs' refreshes, from their event to their answer, are within 500 ms (p99
of "board refresh"); without, a poll's p99 is within 100 ms and every phone keeps its pace. The
search steps up through the given numbers until one does not hold, then halves the gap
between the last that held and the first that did not. The hall's capacity is the most
tables that held.

Beside it, the ceiling: the tables the same requests per second would reach if every request
cost what the bare view costs (its requests per second measured with wrk in the same run,
before every step and after the search; the median).
"""

from __future__ import annotations

import json
import math
import os
import statistics
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connections, transaction
from django.urls import reverse

from benchmarks import data

PHONES = Path(__file__).with_name("phones.py")

#: seconds between two requests of one phone (poll, entry) or screen (wall board, standings)
PACE = {"poll": 2.0, "tap": 8.0, "plays_per_hand": 12, "standings": 10.0}
#: the wall board refreshes itself as its page says (its htmx trigger); this is for the plan
WALL_SECONDS = 2.0
TABLES_PER_WALL = 10
#: the night's board (its TV shows every table of the round) polls as its page says, too
NIGHT_BOARDS = 1
NIGHT_BOARD_SECONDS = 2.0
#: the director's desk (signed in) and the pairings page (no sign-in, on the wall and the
#: players' phones) poll as their pages say; one of each is open all night
DESKS = 1
DESK_SECONDS = 3.0
PAIRINGS_PAGES = 1
PAIRINGS_SECONDS = 5.0
#: while a page's stream is open, its poll's timer asks only this often (static/js/live.js)
SAFETY_SECONDS = 30.0
#: what a number of tables must hold to
TAP_P99_MS = 250
POLL_P99_MS = 100
#: with the streams: a tap's answer to the table's other phones having the new board
SEEN_P99_MS = 300
#: the TVs: the wall board's and the night's board's refreshes (polled); with the streams, every
#: TV's (the desk's and the pairings' too), from its event to its new board
BOARD_P99_MS = 500
#: of the requests the plan asks for, the share the phones must send (else they fell behind)
PACE_KEPT = 0.9
#: the longest the phones may take to start (open their pages, join, sign in) before the
#: warm-up begins anyway (and the step fails: phones that had not started are counted)
START_SECONDS = 300
#: the pauses (seconds) before each new try of a step's cleanup: on a loaded machine the server
#: may still be answering what the phones sent before locust stopped, and on SQLite each of
#: those writes holds the database a moment ("database is locked")
CLEANUP_PAUSES = (1.0, 2.0, 4.0, 8.0, 15.0)
#: the hall's targets
TARGET_TABLES = 300
TARGET_SHARE_OF_CEILING = 0.3
#: the kinds of request of the hall, as the report lists them
KINDS = (
    "poll",
    "tap",
    "seen (event)",
    "seen (fragment)",
    "board refresh",
    "board seen (event)",
    "board seen (fragment)",
    "open the stream",
    "end hand",
    "wall board",
    "night board",
    "desk",
    "pairings",
    "standings",
    "open the board",
)


@dataclass(frozen=True)
class Night:
    """What every step of a search shares: where, how long, and how fast the phones start."""

    using: str
    servers: list[str]
    season_id: int
    league_id: int
    organizer: dict[str, str]
    folder: Path
    hold: float
    warmup: float
    spawn_rate: float
    settle: float
    seed: int
    #: where each server's streams are (its own address, or uvicorn's beside gunicorn); none:
    #: the servers' own
    stream_servers: list[str] = field(default_factory=list)
    #: where each server's TVs' pages are (a gunicorn of their own); none: the servers' own
    screen_servers: list[str] = field(default_factory=list)
    #: the phones hold their pages' streams (else they poll on their timers only)
    streams: bool = False


def walls(tables: int) -> int:
    return max(1, math.ceil(tables / TABLES_PER_WALL))


def users(tables: int) -> int:
    """Four phones a table, the TVs (the wall boards and the night's board), the director's
    desk, the pairings page and the organizer."""
    return 4 * tables + walls(tables) + NIGHT_BOARDS + DESKS + PAIRINGS_PAGES + 1


def planned(tables: int, *, streams: bool = False) -> dict[str, float]:
    """The requests per second the plan asks for, by kind. With the streams, what the phones
    ask for on their own: the entries and the standings (the polls follow the changes)."""
    entries = tables / PACE["tap"]
    hand = PACE["plays_per_hand"] + 1
    if streams:
        return {
            "tap": entries * PACE["plays_per_hand"] / hand,
            "end hand": entries / hand,
            "standings": 1 / PACE["standings"],
        }
    return {
        "poll": 4 * tables / PACE["poll"],
        "tap": entries * PACE["plays_per_hand"] / hand,
        "end hand": entries / hand,
        "wall board": walls(tables) / WALL_SECONDS,
        "night board": NIGHT_BOARDS / NIGHT_BOARD_SECONDS,
        "desk": DESKS / DESK_SECONDS,
        "pairings": PAIRINGS_PAGES / PAIRINGS_SECONDS,
        "standings": 1 / PACE["standings"],
    }


def per_table(*, streams: bool = False) -> float:
    """Requests per second a table adds to the hall (its phones, a tenth of a TV). With the
    streams: its entry, the scorekeeper's phone asking once for each (its stream tells it of
    its own entry; the three others are sent the new board inside the event, docs/live.md),
    and the four phones' timer polls every SAFETY_SECONDS (the TVs ask at most every 2 s
    whatever the tables)."""
    if streams:
        return 2 / PACE["tap"] + 4 / SAFETY_SECONDS
    return 4 / PACE["poll"] + 1 / PACE["tap"] + 1 / (TABLES_PER_WALL * WALL_SECONDS)


def limits(streams: bool) -> dict[str, int]:
    if streams:
        return {"tap_p99_ms": TAP_P99_MS, "seen_p99_ms": SEEN_P99_MS, "board_p99_ms": BOARD_P99_MS}
    return {"tap_p99_ms": TAP_P99_MS, "poll_p99_ms": POLL_P99_MS, "board_p99_ms": BOARD_P99_MS}


def ceiling(bare_requests_per_second: float, *, streams: bool = False) -> int:
    """The most tables the bare view's requests per second would carry."""
    hall_wide = (
        1 / PACE["standings"]
        + NIGHT_BOARDS / NIGHT_BOARD_SECONDS
        + DESKS / DESK_SECONDS
        + PAIRINGS_PAGES / PAIRINGS_SECONDS
    )
    return max(0, math.floor((bare_requests_per_second - hall_wide) / per_table(streams=streams)))


def play_a_night(night: Night, tables: int, say: Callable[[str], None]) -> dict:
    """Open ``tables`` tables, let locust play them for the warm-up and the hold, close them;
    the step's numbers and whether it held."""
    with transaction.atomic(using=night.using):
        opened = data.open_tables(
            night.using, season_id=night.season_id, count=tables, seed=night.seed + tables
        )
        night_id = data.open_night(night.using, season_id=night.season_id, tables=opened)
    connections[night.using].close()
    plan_file = night.folder / f"plan-{tables}.json"
    results_file = night.folder / f"results-{tables}.json"
    results_file.unlink(missing_ok=True)
    plan: dict[str, Any] = {
        "servers": night.servers,
        "stream_servers": night.stream_servers or night.servers,
        "screen_servers": night.screen_servers or night.servers,
        "streams": night.streams,
        "safety_seconds": SAFETY_SECONDS,
        "tables": [
            {
                "scoreboard": reverse("tables:scoreboard", args=[table.match_id]),
                "join": reverse("access:join", args=[table.token]),
            }
            for table in opened
        ],
        "walls": walls(tables),
        "wall": reverse("leagues:wall", args=[night.league_id, night.season_id]),
        "night_boards": NIGHT_BOARDS,
        "night": reverse("nights:board", args=[night_id]),
        "desks": DESKS,
        "desk": reverse("nights:desk", args=[night_id]),
        "pairings_pages": PAIRINGS_PAGES,
        "pairings": reverse("nights:pairings", args=[night_id]),
        "standings": reverse("leagues:season", args=[night.league_id, night.season_id]),
        "login": reverse("login"),
        "organizer": night.organizer,
        "pace": PACE,
        "start_seconds": START_SECONDS,
        "warmup": night.warmup,
        "hold": night.hold,
        "results": str(results_file),
        "seed": night.seed,
    }
    plan_file.write_text(json.dumps(plan, indent=1))
    first_standings_ms = open_the_season(night.servers[0], plan["standings"], plan["wall"])
    count = users(tables)
    say(
        f"  {tables} tables: {count} phones and screens on {len(night.servers)} server(s), "
        f"{night.warmup:g} s warm-up, {night.hold:g} s hold ..."
    )
    log = night.folder / f"locust-{tables}.log"
    spawning = count / night.spawn_rate
    command = [
        sys.executable,
        "-m",
        "locust",
        *("-f", str(PHONES)),
        "--headless",
        *("--users", str(count), "--spawn-rate", str(night.spawn_rate)),
        *("--host", night.servers[0]),
        "--only-summary",
        *("--loglevel", "WARNING"),
        *("--exit-code-on-error", "0"),
    ]
    env = {**os.environ, "SCOREKEEPER_HALL_PLAN": str(plan_file), "PYTHONUNBUFFERED": "1"}
    try:
        with log.open("w") as output:
            subprocess.run(
                command,
                cwd=settings.BASE_DIR,
                env=env,
                stdout=output,
                stderr=subprocess.STDOUT,
                timeout=spawning + START_SECONDS + night.warmup + night.hold + 60,
                check=False,
            )
    except subprocess.TimeoutExpired:
        pass  # locust is stopped (subprocess.run kills it); told below, with its log's end
    finally:
        # the load has stopped (locust exited or was killed): what it left at the server is
        # answered, then the night is closed, in tries
        not_closed = close_the_night(night, night_id, opened, say)
    if not results_file.exists():
        tail = "\n".join(log.read_text(errors="replace").splitlines()[-30:])
        raise RuntimeError(f"locust wrote no results at {tables} tables:\n{tail}")
    step = json.loads(results_file.read_text())
    step["first_standings_ms"] = first_standings_ms
    step["cleanup_failed"] = not_closed
    judge(step, tables, streams=night.streams)
    time.sleep(night.settle)
    return step


def close_the_night(
    night: Night, night_id: int, opened: list[data.Table], say: Callable[[str], None]
) -> str | None:
    """Close the step's night and move its tables out of the season, once the servers have
    answered what the phones left queued; tried again after each of CLEANUP_PAUSES while the
    database refuses (locked, busy). None once closed; else why not, for the report: a step
    that cannot clean up is reported, and the search goes on (its tables stay open in the
    season, beside the next step's)."""
    drained(list(dict.fromkeys([*night.servers, *night.stream_servers, *night.screen_servers])))
    problem: DatabaseError | None = None
    for pause in (0.0, *CLEANUP_PAUSES):
        time.sleep(pause)
        try:
            with transaction.atomic(using=night.using):
                data.close_night(night.using, night_id=night_id)
                data.close_tables(night.using, season_id=night.season_id, tables=opened)
            return None
        except DatabaseError as refused:
            problem = refused
            say(f"    cleanup refused ({refused}), trying again ...")
        finally:
            connections[night.using].close()
    why = f"the night's {len(opened)} tables could not be closed: {problem}"
    say(f"    {why}")
    return why


def drained(servers: list[str]) -> None:
    """Wait until each server has answered a request sent after the load stopped: it queued
    behind whatever the phones had sent (each server takes its connections in turn)."""
    for base in servers:
        try:
            with urllib.request.urlopen(f"{base}/healthz", timeout=120) as answer:
                answer.read()
        except OSError:
            pass  # a server that does not answer has nothing to finish: the cleanup goes on


def open_the_season(base: str, *paths: str) -> float:
    """The season's pages, opened once before the phones start, as the organizer opens them
    while the night's matches are set up: starting them changed the season, so its standings
    are worked out again, once (they stay kept while no match finishes). Returns how long
    that took, in milliseconds."""
    started = time.perf_counter()
    for path in paths:
        with urllib.request.urlopen(base + path, timeout=900) as answer:
            answer.read()
    return round((time.perf_counter() - started) * 1000)


#: what the phones measure that is no request of theirs (the streams' events, and what they
#: showed): left out of the requests counted
MEASURED_NOT_SENT = {
    "seen (event)",
    "seen (fragment)",
    "board refresh",
    "board seen (event)",
    "board seen (fragment)",
}


def judge(step: dict, tables: int, *, streams: bool = False) -> None:
    """Whether the step held, and if not, why: written into ``step``."""
    kinds = step["kinds"]
    asked = planned(tables, streams=streams)
    step["tables"] = tables
    step["with_streams"] = streams
    step["planned_requests_per_second"] = round(sum(asked.values()), 1)
    step["sent_requests_per_second"] = round(
        sum(kinds.get(kind, {}).get("requests_per_second", 0.0) for kind in asked), 1
    )
    # every request the phones and TVs sent (the streams' opening included), whatever its kind
    step["requests_per_second"] = round(
        sum(
            measured.get("requests_per_second", 0.0)
            for kind, measured in kinds.items()
            if kind not in MEASURED_NOT_SENT
        ),
        1,
    )
    step["requests_per_second_per_table"] = round(step["requests_per_second"] / tables, 2)
    step["errors_total"] = sum(k["errors"] for k in kinds.values()) + step["setup_failure_count"]
    why = []
    judged = [("tap", TAP_P99_MS)]
    if streams:
        judged += [("seen (fragment)", SEEN_P99_MS), ("board refresh", BOARD_P99_MS)]
    else:
        judged += [("poll", POLL_P99_MS)]
    for kind, limit in judged:
        measured = kinds.get(kind)
        if not measured or not measured["requests"]:
            why.append(f"no {kind} was measured")
        elif measured["p99_ms"] > limit:
            why.append(f"{kind} p99 {measured['p99_ms']:g} ms > {limit} ms")
    for kind in () if streams else ("wall board", "night board"):
        measured = kinds.get(kind)
        if measured and measured["requests"] and measured["p99_ms"] > BOARD_P99_MS:
            why.append(f"{kind} p99 {measured['p99_ms']:g} ms > {BOARD_P99_MS} ms")
    if step["errors_total"]:
        why.append(f"{step['errors_total']} errors")
    held_open = step.get("streams", {})
    if streams and held_open.get("open_at_end", 0) < held_open.get("wanted", 0):
        why.append(
            f"{held_open['wanted'] - held_open['open_at_end']} of {held_open['wanted']} "
            "streams were not open at the end"
        )
    if step["sent_requests_per_second"] < kept_pace(step, streams=streams):
        why.append(
            f"the phones fell behind: {step['sent_requests_per_second']:g} of "
            f"{step['planned_requests_per_second']:g} req/s sent"
        )
    step["held"] = not why
    step["why_not"] = why


def kept_pace(step: dict, *, streams: bool) -> float:
    """The fewest requests a second the phones may send and keep their pace: PACE_KEPT of the
    plan's. With the streams the plan is the entries alone, a few in a short hold, drawn at
    random (4 to 12 s apart): two standard deviations of their count are allowed besides."""
    planned = step["planned_requests_per_second"]
    if not streams:
        return PACE_KEPT * planned
    held = step.get("held_seconds") or 1.0
    count = planned * held
    return max(0.0, PACE_KEPT * count - 2 * math.sqrt(count)) / held


def search(steps: list[int], resolution: int, attempt: Callable[[int], dict]) -> dict:
    """Step up through ``steps`` until a number of tables does not hold, then bisect between
    the last that held and it until they are at most ``resolution`` tables apart, or a tenth
    of the one that did not hold if that is less (and at least one)."""
    tried: dict[int, dict] = {}

    def holds(tables: int) -> bool:
        tried[tables] = attempt(tables)
        return tried[tables]["held"]

    held, failed = 0, None
    for tables in sorted(set(steps)):
        if not holds(tables):
            failed = tables
            break
        held = tables
    if failed is not None:
        while failed - held > max(1, min(resolution, failed // 10)):
            middle = held + (failed - held) // 2
            if holds(middle):
                held = middle
            else:
                failed = middle
    return {
        "capacity_tables": held,
        "capacity_is_a_floor": failed is None,
        "first_failed_tables": failed,
        "steps": [tried[tables] for tables in sorted(tried)],
    }


def summary(found: dict, bare_runs: list[dict]) -> dict:
    """The capacity beside the ceiling (from the median of the bare view's measurements), and
    the targets."""
    streams = bool(found.get("streams"))
    bare = statistics.median(run["requests_per_second"] for run in bare_runs)
    top = ceiling(bare, streams=streams)
    capacity = found["capacity_tables"]
    share = capacity / top if top else 0.0
    found.update(
        bare_requests_per_second=round(bare, 1),
        bare_runs=bare_runs,
        requests_per_second_per_table=round(per_table(streams=streams), 4),
        ceiling_tables=top,
        capacity_share_of_ceiling=round(share, 2),
        targets=[
            {
                "name": f"hall capacity >= {TARGET_TABLES} tables",
                "value": capacity,
                "met": capacity >= TARGET_TABLES,
            },
            {
                "name": f"hall capacity >= {TARGET_SHARE_OF_CEILING:g} of the ceiling",
                "value": round(share, 2),
                "met": share >= TARGET_SHARE_OF_CEILING,
            },
        ],
    )
    return found


def render(hall: dict) -> str:
    capacity = hall["capacity_tables"]
    floor = " (every step held: at least this)" if hall["capacity_is_a_floor"] else ""
    streams = bool(hall.get("streams"))
    if streams:
        criteria = (
            f"the phones and TVs hold their streams: a number of tables holds when, for "
            f"{hall['hold_seconds']:g} s, a tap's p99 is within {TAP_P99_MS} ms, the table's "
            f"other phones have its new board within {SEEN_P99_MS} ms of its answer (p99), the "
            f"TVs' refreshes take within {BOARD_P99_MS} ms of their event (p99), nothing fails "
            "and the scorekeepers keep their pace."
        )
        second = "seen p99"
    else:
        criteria = (
            f"the phones poll: a number of tables holds when, for {hall['hold_seconds']:g} s, a "
            f"tap's p99 is within {TAP_P99_MS} ms, a poll's within {POLL_P99_MS} ms, nothing "
            "fails and the phones keep their pace."
        )
        second = "poll p99"
    lines = [
        "",
        f"Hall capacity: {capacity} tables{floor}; {criteria}",
        f"Ceiling: {hall['ceiling_tables']} tables (the bare view's "
        f"{hall['bare_requests_per_second']:.0f} req/s, the median of "
        f"{len(hall['bare_runs'])} measurements, at "
        f"{hall['requests_per_second_per_table']:.3f} req/s a table). "
        f"Capacity / ceiling: {hall['capacity_share_of_ceiling']:.2f}.",
        "",
        f"{'tables':>6} {'phones':>6} {'req/s':>7} {'/table':>6} {'of plan':>7} {'tap p99':>7} "
        f"{second:>8} {'errors':>6} {'load gen':>8} {'bare':>6}  held?",
    ]
    for step in hall["steps"]:
        kinds = step["kinds"]
        shown = kinds.get("seen (fragment)" if streams else "poll", {}).get("p99_ms", 0)
        every = step.get("requests_per_second", step["sent_requests_per_second"])
        lines.append(
            f"{step['tables']:6d} {step['users']:6d} {every:7.0f} "
            f"{every / step['tables']:6.2f} "
            f"{step['sent_requests_per_second'] / step['planned_requests_per_second']:7.0%} "
            f"{kinds.get('tap', {}).get('p99_ms', 0):7g} "
            f"{shown:8g} {step['errors_total']:6d} "
            f"{step['load_generator_cpu_percent']:7.0f}% "
            f"{step.get('bare_requests_per_second_before', 0):6.0f}  "
            + ("yes" if step["held"] else "no: " + "; ".join(step["why_not"]))
        )
    for step in hall["steps"]:
        if step.get("cleanup_failed"):
            # its figures stand (measured before); the steps after it had its tables open too
            lines.append(f"  after {step['tables']} tables: {step['cleanup_failed']}")
    for step in _shown_in_full(hall):
        lines += [
            "",
            f"At {step['tables']} tables, for {step['held_seconds']:g} s (before the phones "
            f"started, the season's standings and wall board took {step['first_standings_ms']} "
            "ms to open: the night's tables had changed the season):",
        ]
        lines.append(
            f"  {'request':21} {'requests':>8} {'req/s':>7} {'p50 ms':>7} {'p99 ms':>7} "
            f"{'errors':>6}"
        )
        for kind in KINDS:
            measured = step["kinds"].get(kind)
            if measured:
                lines.append(
                    f"  {kind:21} {measured['requests']:8d} "
                    f"{measured['requests_per_second']:7.1f} {measured['p50_ms']:7g} "
                    f"{measured['p99_ms']:7g} {measured['errors']:6d}"
                )
        for error in step["errors"][:3]:
            lines.append(f"  {error['count']} x {error['error'][:150]}")
        for failure in step["setup_failures"][:3]:
            lines.append(f"  starting: {failure[:150]}")
    lines += ["", "Targets:"]
    for target in hall["targets"]:
        mark = "met" if target["met"] else "NOT MET"
        lines.append(f"  [{mark:^7}] {target['name']}: {target['value']:g}")
    return "\n".join(lines)


def _shown_in_full(hall: dict) -> list[dict]:
    """The step at the capacity and the first above it that did not hold."""
    by_tables = {step["tables"]: step for step in hall["steps"]}
    shown = [by_tables[t] for t in (hall["capacity_tables"],) if t in by_tables]
    failed = [s for s in hall["steps"] if not s["held"] and s["tables"] > hall["capacity_tables"]]
    return shown + failed[:1]
