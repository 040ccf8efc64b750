"""Each kind of request on its own, with wrk: a bare Django view, a signed-in POST that records
nothing, recording a play as the phone's htmx POST, the scoreboard of a long finished match and
the season standings, at 1 and at 32 clients, in rounds that measure the bare view again each
time; the medians, and each one's ratio to the bare view."""

from __future__ import annotations

import multiprocessing
import secrets
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qsl, urlencode

from benchmarks import boards, data, load, server

CLIENTS = (1, 32)


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


def measure_requests(
    wrk: str,
    options: dict,
    folder: Path,
    filled: data.Hall,
    base: str,
    say: Callable[[str], None],
) -> dict:
    browser = server.Browser(base)
    browser.sign_in(filled.username, filled.password)
    taps = taps_now(browser, filled)
    paths = {
        "bare": "/healthz",
        "signed_in": "/bench/signed-in/",
        "record": taps[0].path,
        "scoreboard": f"/matches/{filled.long_match_id}/",
        "standings": f"/leagues/{filled.league_id}/seasons/{filled.season_id}/",
    }
    first = verify(browser, paths, taps[0])
    buttons = points(browser, filled)
    threads = max(1, min(4, multiprocessing.cpu_count()))
    cookie = f"sessionid={browser.cookie('sessionid')}; csrftoken={browser.cookie('csrftoken')}"

    def measure(endpoint: Endpoint, clients: int, seconds: float) -> load.Measurement:
        # written anew for each run: the phones' boards show the matches as they are now
        scripts = load.write_scripts(
            folder,
            tables=taps_now(browser, filled) if endpoint.script == "post" else taps,
            points=buttons,
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
        say(f"Warming up: {endpoint.label} ...")
        measure(endpoint, max(CLIENTS), options["warmup"])
    # The machine's speed drifts during a run (other work, heat): each round measures
    # the bare view again, and each request is compared with the bare view of its round.
    runs: dict[tuple[str, int], list[load.Measurement]] = {
        (e.key, c): [] for e in ENDPOINTS for c in CLIENTS
    }
    rounds = max(1, options["rounds"])
    for round_ in range(1, rounds + 1):
        for clients in CLIENTS:
            for endpoint in ENDPOINTS:
                say(
                    f"Measuring (round {round_} of {rounds}): {endpoint.label}, "
                    f"{clients} client(s) ..."
                )
                measured = measure(endpoint, clients, options["duration"])
                runs[endpoint.key, clients].append(measured)
                say(
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


def taps_now(browser: server.Browser, filled: data.Hall) -> list[load.TapAt]:
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


def points(browser: server.Browser, filled: data.Hall) -> list[int]:
    """The points buttons of a board, the lower half twice as often (as plays score)."""
    _, body, _ = browser.get(f"/matches/{filled.tables[0][0]}/")
    form = boards.tap_form(boards.forms(body.decode()))
    assert form is not None  # a board has the form to tap a play
    values = sorted(int(value) for _, value in form.buttons if value.isdigit())
    return values + values[: max(1, len(values) // 2)]


def verify(browser: server.Browser, paths: dict[str, str], tap: load.TapAt) -> dict:
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
