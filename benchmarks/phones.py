"""A hall on league night, as locust users: the phones at the tables, the TVs, the organizer.

`manage.py benchmark --hall` runs this file with locust, headless, in a process of its own, once
for each number of tables it tries; the plan it writes (a JSON file named by the environment
variable SCOREKEEPER_HALL_PLAN) says which server each phone talks to, the tables, the pages
and the pace. Per table:

- four phones have the scoreboard open; each polls the live board every 2 s, as the page's
  htmx does (a 304 while the match is unchanged, else the new totals and hands);
- one of them is the table's scorekeeper, joined through the match's scorekeeper share link:
  it taps a play every 4 to 12 s (8 on average) and, after every 12 plays, ends the hand
  (domino, with the others' pips) in place of the next tap;

and for the hall, a wall board (its TV) per 10 tables and the night's board (the TV that shows
every table of the round being played), each polling as its page says (every 2 s, with the
version it shows, 304 while nothing changed); the director's desk (signed in, every 3 s) and the
night's pairings page (no sign-in, every 5 s), polling the same way; and one organizer, signed
in, opening the season's standings every 10 s.

Every address, field and value sent is read off the pages the phone was served (boards.py),
as a browser does. Once every phone has started (opened its page, joined or signed in), the
run warms up, then the statistics are reset and the hold begins; at its end the numbers are
written as JSON and locust stops.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import gevent
from locust import FastHttpUser, constant, events, task
from locust.runners import STATE_RUNNING

from benchmarks import boards

PLAN = json.loads(Path(os.environ["SCOREKEEPER_HALL_PLAN"]).read_text())
SERVERS: list[str] = PLAN["servers"]
TABLES: list[dict] = PLAN["tables"]
PACE: dict[str, float] = PLAN["pace"]
HTMX = {"HX-Request": "true"}

#: what went wrong while the phones started (before the measurement: never reset)
setup_failures: list[str] = []
#: phones that have opened their page (and joined, or signed in): the warm-up waits for all
started_phones = 0


class Phone(FastHttpUser):
    """A browser in the hall: cookies of its own, on one of the servers."""

    abstract = True
    wait_time = constant(0)
    network_timeout = 30.0
    connection_timeout = 10.0
    #: the next free slot of each kind of phone, so every phone has a place of its own
    slots: itertools.count

    def __init__(self, environment) -> None:
        self.slot = next(type(self).slots)
        self.host = SERVERS[self.server() % len(SERVERS)]
        super().__init__(environment)
        self.rng = random.Random(f"{PLAN['seed']}:{type(self).__name__}:{self.slot}")
        self.ready = False

    def server(self) -> int:
        return self.slot

    def on_start(self) -> None:
        global started_phones
        try:
            self.arrive()
        finally:
            started_phones += 1

    def arrive(self) -> None:
        """What the phone does first: open its page, join, sign in."""
        raise NotImplementedError

    # -- requests ------------------------------------------------------------------------------

    def send(
        self,
        method: str,
        path: str,
        kind: str,
        *,
        expect: tuple[int, ...] = (200,),
        data: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
    ) -> str | None:
        """The answer's text, or None when it was not one of ``expect`` (a failure of
        ``kind`` in the statistics, with the status and the start of the answer)."""
        headers = dict(headers or {})
        body = None
        if data is not None:
            body = urlencode(data)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Origin"] = self.host  # type: ignore[assignment]  # locust is given one
            headers["X-CSRFToken"] = self.cookie("csrftoken")
        with self.client.request(
            method, path, name=kind, data=body, headers=headers, catch_response=True
        ) as answer:
            if answer.status_code in expect:
                text = answer.text or ""
                answer.success()
                return text
            said = (answer.text or str(getattr(answer, "error", "")))[:200].replace("\n", " ")
            answer.failure(f"{method} {kind}: {answer.status_code} {said}")
            if not self.ready:
                setup_failures.append(f"{kind}: {answer.status_code} {said}")
            return None

    def cookie(self, name: str) -> str:
        return next((c.value or "" for c in self.client.cookiejar if c.name == name), "")

    def wait_until(self, moment: float) -> None:
        gevent.sleep(max(0.0, moment - time.monotonic()))

    def idle(self) -> None:
        """A phone that could not start stays quiet (its failure is counted already)."""
        gevent.sleep(1)


class Watcher(Phone):
    """A phone with the table's scoreboard open: it polls the live board."""

    abstract = True
    poll_address = ""

    def open_board(self, table: dict) -> str | None:
        page = self.send("GET", table["scoreboard"], "open the board")
        if page is not None:
            self.read_poll(page, required=True)
        return page

    def read_poll(self, page: str, *, required: bool = False) -> None:
        found = boards.live_poll(page)
        if found is not None:
            self.poll_address = found[0]
        elif required:
            setup_failures.append("the scoreboard has no live poll")

    def poll(self) -> None:
        page = self.send("GET", self.poll_address, "poll", expect=(200, 304), headers=HTMX)
        if page:
            # the new board says which version it shows: the next poll asks from there
            self.read_poll(page)


class TablePhone(Watcher):
    """One of the three phones at a table that only watch."""

    slots = itertools.count()

    def server(self) -> int:
        table, seat = divmod(self.slot, 3)
        return table + seat + 1

    def arrive(self) -> None:
        self.table = TABLES[self.slot // 3]
        self.ready = self.open_board(self.table) is not None and bool(self.poll_address)
        self.next_poll = time.monotonic() + self.rng.uniform(0, PACE["poll"])

    @task
    def watch(self) -> None:
        if not self.ready:
            return self.idle()
        self.wait_until(self.next_poll)
        self.poll()
        self.next_poll = max(self.next_poll + PACE["poll"], time.monotonic())


class Scorekeeper(Watcher):
    """The table's scorekeeper: joined through the match's share link, it polls like the others
    and enters the table's plays and hand ends."""

    slots = itertools.count()

    def arrive(self) -> None:
        self.table = TABLES[self.slot]
        self.plays_in_hand = 0
        self.tap: boards.Form | None = None
        self.end: boards.Form | None = None
        self.ready = self.join() and self.tap is not None and self.end is not None
        if not self.ready and self.tap is None:
            setup_failures.append("the scorekeeper's board has no form to tap a play")
        now = time.monotonic()
        self.next_poll = now + self.rng.uniform(0, PACE["poll"])
        self.next_entry = now + self.rng.uniform(0, PACE["tap"])

    def join(self) -> bool:
        """Open the share link, give a name and tap Join: the answer is the board."""
        page = self.send("GET", self.table["join"], "join")
        if page is None:
            return False
        form = next((f for f in boards.forms(page) if "csrfmiddlewaretoken" in f.fields), None)
        if form is None:
            setup_failures.append("the join page has no form")
            return False
        data = {**form.fields, "name": f"Scorekeeper {self.slot + 1}"}
        board = self.send("POST", form.action or self.table["join"], "join", data=data)
        return board is not None and self.read_board(board, required=True)

    def read_board(self, page: str, *, required: bool = False) -> bool:
        """Take the forms and the poll from a board just served (a new one-time key each), or
        from an answer that leaves the forms in place the inputs it renews. False when the
        page has neither."""
        read = boards.forms(page)
        tap, end = boards.tap_form(read), boards.end_form(read)
        self.read_poll(page, required=required)
        if tap is not None:
            self.tap, self.end = tap, end or (None if required else self.end)
            return True
        renewed = boards.renewed_fields(page)
        for form in (self.tap, self.end):
            if form is None:
                continue
            for name in renewed.keys() & form.fields.keys():
                form.fields[name] = renewed[name]
        return bool(renewed) and self.tap is not None

    @task
    def keep_score(self) -> None:
        if not self.ready:
            return self.idle()
        if self.next_entry <= self.next_poll:
            self.wait_until(self.next_entry)
            if self.plays_in_hand >= PACE["plays_per_hand"]:
                self.end_hand()
            else:
                self.tap_a_play()
            self.next_entry += PACE["tap"] * self.rng.uniform(0.5, 1.5)
            self.next_entry = max(self.next_entry, time.monotonic())
        else:
            self.wait_until(self.next_poll)
            self.poll()
            self.next_poll = max(self.next_poll + PACE["poll"], time.monotonic())

    def tap_a_play(self) -> None:
        """Who scored (one of the choices), then a points button: htmx posts the form with the
        button's name and value."""
        form = self.tap
        assert form is not None  # ready: the board had the form
        data = dict(form.fields)
        for name, values in form.choices.items():
            data[name] = self.rng.choice(values)
        name, value = self.rng.choice([b for b in form.buttons if b[1].isdigit()])
        data[name] = value
        self.answered(self.send("POST", form.action, "tap", data=data, headers=HTMX))
        self.plays_in_hand += 1

    def end_hand(self) -> None:
        """Domino: tap who went out (a seat), the others' pips typed in seat order."""
        form = self.end
        assert form is not None  # ready: the board had the form
        data = dict(form.fields)
        who = form.choice_offering("blocked")
        assert who is not None  # the end form offers "blocked" beside the seats
        seats = [value for value in form.choices[who] if value != "blocked"]
        out = self.rng.randrange(len(seats) or 1)
        data[who] = seats[out] if seats else "blocked"
        boxes = [name for name in form.numbers if name.startswith("pips_")]
        for seat, name in enumerate(boxes):
            if seat != out:
                data[name] = str(self.rng.randint(0, 12))
        self.answered(self.send("POST", form.action, "end hand", data=data, headers=HTMX))
        self.plays_in_hand = 0

    def answered(self, page: str | None) -> None:
        """The answer to an entry is the board as it now stands; a board without the entry
        forms is opened again, as a phone reloading it would."""
        if page is not None and not self.read_board(page):
            board = self.send("GET", self.table["scoreboard"], "open the board")
            if board is not None:
                self.read_board(board)


class Screen(Phone):
    """A TV in the hall, showing a page and refreshing it as the page says."""

    abstract = True
    #: the plan's address of the page, and the name its refreshes are measured under
    page = ""
    kind = ""

    def arrive(self) -> None:
        page = self.send("GET", PLAN[self.page], f"open the {self.kind}")
        found = boards.pollers(page) if page else []
        address, period = found[0] if found else (PLAN[self.page], 15.0)
        self.address: str = address
        self.period: float = period
        self.ready = page is not None
        self.next_refresh = time.monotonic() + self.rng.uniform(0, self.period)

    @task
    def show(self) -> None:
        if not self.ready:
            return self.idle()
        self.wait_until(self.next_refresh)
        page = self.send("GET", self.address, self.kind, expect=(200, 304), headers=HTMX)
        found = boards.pollers(page) if page else []
        if found:
            # a new board says which version it shows: the next poll asks from there
            self.address = found[0][0]
        self.next_refresh = max(self.next_refresh + self.period, time.monotonic())


class WallBoard(Screen):
    """A TV showing the season's wall board."""

    slots = itertools.count()
    page, kind = "wall", "wall board"


class NightBoard(Screen):
    """The TV showing the league night: every table of the round being played."""

    slots = itertools.count()
    page, kind = "night", "night board"


class PairingsPage(Screen):
    """The night's pairings and standings, open without signing in on the wall."""

    slots = itertools.count()
    page, kind = "pairings", "pairings"


class Desk(Screen):
    """The director's desk, signed in: every table's state, the clock, the disputes."""

    slots = itertools.count()
    page, kind = "desk", "desk"

    def arrive(self) -> None:
        if sign_in(self):
            super().arrive()


def sign_in(phone: Phone) -> bool:
    """Sign the phone in as the league's organizer, as the sign-in page asks."""
    page = phone.send("GET", PLAN["login"], "sign in")
    form = next((f for f in boards.forms(page or "") if "csrfmiddlewaretoken" in f.fields), None)
    if form is not None:
        data = {**form.fields, **PLAN["organizer"]}
        phone.send("POST", form.action or PLAN["login"], "sign in", data=data)
    phone.ready = bool(phone.cookie("sessionid"))
    if not phone.ready:
        setup_failures.append("the organizer could not sign in")
    return phone.ready


class Organizer(Phone):
    """The league's organizer, signed in, looking at the standings."""

    slots = itertools.count()

    def arrive(self) -> None:
        sign_in(self)
        self.next_look = time.monotonic() + self.rng.uniform(0, PACE["standings"])

    @task
    def look(self) -> None:
        if not self.ready:
            return self.idle()
        self.wait_until(self.next_look)
        self.send("GET", PLAN["standings"], "standings")
        self.next_look = max(self.next_look + PACE["standings"], time.monotonic())


TablePhone.fixed_count = 3 * len(TABLES)
Scorekeeper.fixed_count = len(TABLES)
WallBoard.fixed_count = PLAN["walls"]
NightBoard.fixed_count = PLAN["night_boards"]
Desk.fixed_count = PLAN["desks"]
PairingsPage.fixed_count = PLAN["pairings_pages"]
Organizer.fixed_count = 1
#: every phone of the plan; locust is started with this many users
USERS = sum(
    kind.fixed_count
    for kind in (TablePhone, Scorekeeper, WallBoard, NightBoard, Desk, PairingsPage, Organizer)
)


@events.test_start.add_listener
def begin(environment, **kwargs: object) -> None:
    gevent.spawn(conduct, environment)


def conduct(environment) -> None:
    """Wait for every phone to start, warm up, then measure for the hold, write the numbers
    and stop."""
    runner = environment.runner
    deadline = time.monotonic() + PLAN["start_seconds"]
    while (
        runner.state != STATE_RUNNING or runner.user_count < USERS or started_phones < USERS
    ) and time.monotonic() < deadline:
        gevent.sleep(0.2)
    gevent.sleep(PLAN["warmup"])
    environment.stats.reset_all()
    started, cpu = time.monotonic(), time.process_time()
    gevent.sleep(PLAN["hold"])
    held = time.monotonic() - started
    # this process's own CPU time: near 100% of a core, it is the load generator that limits
    load = 100 * (time.process_time() - cpu) / held
    Path(PLAN["results"]).write_text(json.dumps(results(environment, held, load), indent=1))
    runner.quit()


def results(environment, held: float, load: float) -> dict:
    kinds: dict[str, dict[str, Any]] = {}
    for entry in environment.stats.entries.values():
        if not entry.num_requests:
            continue
        measured = kinds.setdefault(
            entry.name, {"requests": 0, "errors": 0, "p50_ms": 0, "p99_ms": 0, "max_ms": 0}
        )
        measured["requests"] += entry.num_requests
        measured["errors"] += entry.num_failures
        measured["p50_ms"] = max(measured["p50_ms"], entry.get_response_time_percentile(0.5))
        measured["p99_ms"] = max(measured["p99_ms"], entry.get_response_time_percentile(0.99))
        measured["max_ms"] = max(measured["max_ms"], round(entry.max_response_time or 0))
    for measured in kinds.values():
        measured["requests_per_second"] = round(measured["requests"] / held, 1)
    errors = sorted(environment.stats.errors.values(), key=lambda e: -e.occurrences)
    return {
        "held_seconds": round(held, 1),
        "users": USERS,
        "kinds": kinds,
        "errors": [{"count": e.occurrences, "error": str(e.error)[:300]} for e in errors[:10]],
        "setup_failures": setup_failures[:10]
        + [f"{USERS - started_phones} phones had not started when the hold began"]
        * (started_phones < USERS),
        "setup_failure_count": len(setup_failures) + (started_phones < USERS),
        "load_generator_cpu_percent": round(load, 1),
    }
