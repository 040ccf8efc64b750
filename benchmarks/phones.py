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

By default (the plan's "streams") every phone and TV also holds its page's stream (server-sent
events, the address its page's sse-connect names, on the plan's stream server), as the browser
does: on each "changed" event it asks its poll at once, exactly as the page's poll would (with
the version it shows), unless the event carries the new board drawn for that version (a
watcher's phone, after an entry: docs/live.md), which it takes as live.js puts it in place;
its timer poll asks only every 30 s; a cut stream is opened again
after 2 s with the last event's id (Last-Event-ID), as EventSource does. With the streams the
phones also measure how soon a tap is seen (docs/benchmark.md, *Streams*): from the tap's
answer to each of the table's three other phones receiving its event ("seen (event)") and
having its new board ("seen (fragment)"), and the same for the TVs ("board seen ..."), and
each TV's refresh from its event to its new board ("board refresh").

Every address, field and value sent is read off the pages the phone was served (boards.py),
as a browser does. Once every phone has started (opened its page, joined or signed in), the
run warms up, then the statistics are reset and the hold begins; at its end the numbers are
written as JSON and locust stops.
"""

from __future__ import annotations

import http.client
import itertools
import json
import os
import random
import time
from collections import defaultdict
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import gevent
import gevent.event
from locust import FastHttpUser, constant, events, task
from locust.runners import STATE_RUNNING

from benchmarks import boards

PLAN = json.loads(Path(os.environ["SCOREKEEPER_HALL_PLAN"]).read_text())
SERVERS: list[str] = PLAN["servers"]
TABLES: list[dict] = PLAN["tables"]
PACE: dict[str, float] = PLAN["pace"]
HTMX = {"HX-Request": "true"}
#: the phones hold their pages' streams, on these servers (gunicorn's pages beside uvicorn's
#: streams, or the servers themselves)
STREAMS: bool = PLAN.get("streams", False)
STREAM_SERVERS: list[str] = PLAN.get("stream_servers") or SERVERS
#: the TVs' pages are served here (a gunicorn of their own, or the servers themselves)
SCREEN_SERVERS: list[str] = PLAN.get("screen_servers") or SERVERS
#: while its stream is open, a page's timer poll asks this often (static/js/live.js)
SAFETY_SECONDS: float = PLAN.get("safety_seconds", 30.0)
#: a cut stream is opened again after this long (the stream's "retry"), a refused one (429,
#: 503) later: the page polls meanwhile
RETRY_SECONDS = 2.0
REFUSED_SECONDS = 60.0
#: a stream silent this long (its heartbeat comes every 15 s) is taken for cut
STREAM_TIMEOUT = 45.0
#: a tap whose event has not reached a watching phone or TV within this long is counted lost
SEEN_WITHIN = 10.0

#: what went wrong while the phones started (before the measurement: never reset)
setup_failures: list[str] = []
#: phones that have opened their page (and joined, or signed in): the warm-up waits for all
started_phones = 0


class Tap:
    """An entry a scorekeeper sent: when, and when its answer came (None before; None for
    good when it failed)."""

    __slots__ = ("sent", "answered", "failed")

    def __init__(self) -> None:
        self.sent = time.monotonic()
        self.answered: float | None = None
        self.failed = False


#: by table (its index in the plan), the phones that watch it (not its scorekeeper)
table_watchers: defaultdict[int, list[Phone]] = defaultdict(list)
#: the TVs: every entry shows on each
screens: list[Phone] = []
#: the streams' greenlets: stopped before locust quits
stream_greenlets: list[gevent.Greenlet] = []
#: the phones and TVs whose page has a stream
streaming_phones: list[Phone] = []
#: what the phones measure with the streams, reported even when none came (a short hold)
STREAM_KINDS = ("seen (event)", "seen (fragment)", "board refresh")


class Phone(FastHttpUser):
    """A browser in the hall: cookies of its own, on one of the servers."""

    abstract = True
    wait_time = constant(0)
    network_timeout = 30.0
    connection_timeout = 10.0
    #: the next free slot of each kind of phone, so every phone has a place of its own
    slots: itertools.count
    #: where its pages are served
    servers = SERVERS

    #: what its seeing a tap is measured under: its event's arrival, its new board's
    seen_kinds = ("seen (event)", "seen (fragment)")

    def __init__(self, environment) -> None:
        self.slot = next(type(self).slots)
        self.host = self.servers[self.server() % len(self.servers)]
        super().__init__(environment)
        self.rng = random.Random(f"{PLAN['seed']}:{type(self).__name__}:{self.slot}")
        self.ready = False
        # the stream: where, whether it is open, the last event's id, and what came
        self.stream_path = ""
        self.streaming = False
        self.last_id = 0
        self.woken = gevent.event.Event()
        #: arrival times of the events not yet asked for (None: the redraw on connecting)
        self.arrivals: list[tuple[float, int | None]] = []
        #: the versions the events not yet asked for said they show ("" where one did not say)
        self.told_shows: list[str] = []
        #: taps sent while the stream was open, each with the last event's id then
        self.expected: list[tuple[Tap, int]] = []
        #: taps whose event came, waiting for the new board
        self.awaiting: list[Tap] = []

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

    def measured(self, kind: str, seconds: float, failure: str = "") -> None:
        """Something the phone measured that is no request of its own (a stream's opening,
        how soon a tap was seen): in the statistics under ``kind``."""
        self.environment.events.request.fire(
            request_type="SSE",
            name=kind,
            response_time=max(0.0, seconds) * 1000,
            response_length=0,
            response=None,
            context={},
            exception=Exception(failure) if failure else None,
        )

    # -- the stream ----------------------------------------------------------------------------

    def hold_stream(self, page: str) -> None:
        """Hold the stream the page names, in a greenlet of its own, as the browser does."""
        if not STREAMS:
            return
        address = boards.stream_address(page)
        if address is None:
            setup_failures.append(f"{type(self).__name__}: the page has no stream")
            return
        self.stream_path = address
        self.stream_base = STREAM_SERVERS[self.server() % len(STREAM_SERVERS)]
        streaming_phones.append(self)
        stream_greenlets.append(gevent.spawn(self.follow))

    def follow(self) -> None:
        while True:
            refused = False
            try:
                refused = self.read_stream()
            except (OSError, http.client.HTTPException):
                pass  # cut: opened again, as EventSource does
            self.streaming = False
            gevent.sleep(REFUSED_SECONDS if refused else RETRY_SECONDS)

    def read_stream(self) -> bool:
        """Open the stream and read its frames until it is cut; True when it was refused."""
        base = urlsplit(self.stream_base)
        connection = http.client.HTTPConnection(
            base.hostname or "127.0.0.1", base.port, timeout=STREAM_TIMEOUT
        )
        headers = {"Accept": "text/event-stream", "Cache-Control": "no-cache"}
        cookies = "; ".join(f"{c.name}={c.value}" for c in self.client.cookiejar)
        if cookies:
            headers["Cookie"] = cookies
        if self.last_id:
            headers["Last-Event-ID"] = str(self.last_id)
        started = time.perf_counter()
        try:
            try:
                connection.request("GET", self.stream_path, headers=headers)
                response = connection.getresponse()
            except (OSError, http.client.HTTPException) as failed:
                self.measured("open the stream", time.perf_counter() - started, str(failed))
                raise
            took = time.perf_counter() - started
            if response.status != 200:
                said = response.read(200).decode(errors="replace").replace("\n", " ")
                self.measured("open the stream", took, f"stream: {response.status} {said}")
                return True
            self.measured("open the stream", took)
            self.streaming = True
            self.read_frames(response)
            return False
        finally:
            connection.close()

    def read_frames(self, response: http.client.HTTPResponse) -> None:
        """A frame's lines (event, data, id) end at a blank line; lines that start with a
        colon are heartbeats."""
        event, data, id = "", "", ""
        while True:
            line = response.readline()
            if not line:
                return  # the stream ended or was cut
            text = line.decode().rstrip("\r\n")
            if not text:
                if event or data:
                    self.on_event(event or "message", id, data)
                event, data, id = "", "", ""
            elif not text.startswith(":"):
                name, _, value = text.partition(":")
                value = value[1:] if value.startswith(" ") else value
                if name == "event":
                    event = value
                elif name == "data":
                    data += ("\n" if data else "") + value
                elif name == "id":
                    id = value

    def on_event(self, event: str, id: str, data: str = "") -> None:
        """A change: the page asks its poll at once (the loop is woken), unless the event
        carries the new board drawn for the version the page shows, which the page puts in
        place as live.js does: seen then, asking nothing. The redraw a stream begins with has
        no id: the page asks, but no tap is taken for seen by it."""
        if event != "changed":
            return  # "clock": the round clock's line; the benchmark's nights run no clock
        arrived = time.monotonic()
        number = int(id) if id.isdigit() else None
        if number is not None:
            self.last_id = max(self.last_id, number)
            seen = []
            for tap, floor in self.expected:
                if not tap.failed and number > floor and tap.sent <= arrived:
                    seen.append(tap)
            if seen:
                self.expected = [pair for pair in self.expected if pair[0] not in seen]
                for tap in seen:
                    # an event may come before the tap's answer (it is told on commit, the
                    # answer is written after): seen at once, 0 ms
                    since = arrived - tap.answered if tap.answered is not None else 0.0
                    self.measured(self.seen_kinds[0], since)
                self.awaiting.extend(seen)
        if self.put_in_place(data):
            taps, self.awaiting = self.awaiting, []
            for tap in taps:
                self.measured(self.seen_kinds[1], arrived - (tap.answered or arrived))
            return
        self.arrivals.append((arrived, number))
        said = data.partition("\n")[0].split(" ")
        self.told_shows.append(said[2] if len(said) == 3 else "")
        self.woken.set()

    def put_in_place(self, data: str) -> bool:
        """Whether the event's data is a drawing the page puts in place (a watcher's)."""
        return False

    def expect(self, tap: Tap) -> None:
        """A tap was sent at the table (or, for a TV, in the hall): its event is to come."""
        if self.streaming:
            self.expected.append((tap, self.last_id))

    def lost(self) -> None:
        """Taps whose event has not come within SEEN_WITHIN: failures of seeing."""
        now = time.monotonic()
        kept = []
        for tap, floor in self.expected:
            if tap.failed:
                continue
            if now - tap.sent > SEEN_WITHIN:
                self.measured(self.seen_kinds[0], now - tap.sent, "no event for a tap")
            else:
                kept.append((tap, floor))
        self.expected = kept

    def rest_until(self, moment: float) -> bool:
        """Wait until ``moment``, or until an event comes on the stream: True then."""
        if not self.stream_path:
            self.wait_until(moment)
            return False
        self.lost()
        return bool(self.woken.wait(max(0.0, moment - time.monotonic())))

    def told(self, ask) -> None:
        """What an event sets off: the page's poll asks at once, exactly as on its timer."""
        self.woken.clear()
        arrivals, self.arrivals = self.arrivals, []
        taps, self.awaiting = self.awaiting, []
        told_shows, self.told_shows = self.told_shows, []
        if not self.shows_already(told_shows):
            ask()
        answered = time.monotonic()
        for tap in taps:
            self.measured(self.seen_kinds[1], answered - (tap.answered or answered))
        self.after_told(arrivals, answered)

    def after_told(self, arrivals: list[tuple[float, int | None]], answered: float) -> None:
        pass

    def shows_already(self, told_shows: list[str]) -> bool:
        """Whether the page shows what the events said already: it does not ask then."""
        return False

    def timer(self, period: float) -> float:
        """The seconds between two timer polls: while the stream is open, the safety poll's."""
        return SAFETY_SECONDS if self.streaming else period


def older(version: str, than: str) -> bool:
    """Whether ``version`` is a version before ``than`` (both numbers: live.js's isOlder)."""
    return version.isdigit() and than.isdigit() and int(version) < int(than)


class Watcher(Phone):
    """A phone with the table's scoreboard open: it polls the live board."""

    abstract = True
    poll_address = ""

    def open_board(self, table: dict) -> str | None:
        page = self.send("GET", table["scoreboard"], "open the board")
        if page is not None:
            self.read_poll(page, required=True)
            self.hold_stream(page)
        return page

    def read_poll(self, page: str, *, required: bool = False) -> None:
        found = boards.live_poll(page)
        if found is not None:
            self.poll_address = found[0]
        elif required:
            setup_failures.append("the scoreboard has no live poll")

    def put_in_place(self, data: str) -> bool:
        """The drawing an entry's event carries ("<topic> <after> <shows>", then the poll's
        answer), when it was drawn for the version the board shows ("-": any older): its new
        poll is read off it, as from the poll's answer (live.js)."""
        head, _, drawing = data.partition("\n")
        said = head.split(" ")
        shown = self.shown()
        if len(said) != 3 or not shown:
            return False
        if shown == said[2] or older(said[2], shown):
            # the scorekeeper's own entry: its answer brought that version (the event says
            # which, without a drawing); or an event that came after a newer board
            return True
        if not drawing:
            return False
        fits = older(shown, said[2]) if said[1] == "-" else shown == said[1]
        if fits:
            self.read_poll(drawing)
        return fits

    def shows_already(self, told_shows: list[str]) -> bool:
        """The events said which version they show, and the board shows the newest of them or
        a newer one: a scorekeeper told of its own tap while it was being sent, whose answer
        brought that version (live.js pays what it owes the poll only when it does not)."""
        if not told_shows or not all(shows.isdigit() for shows in told_shows):
            return False
        newest = max(told_shows, key=int)
        return self.shown() == newest or older(newest, self.shown())

    def shown(self) -> str:
        """The version the board shows, as its poll names it (``?v=``)."""
        return parse_qs(urlsplit(self.poll_address).query).get("v", [""])[0]

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
        self.table_index = self.slot // 3
        self.table = TABLES[self.table_index]
        self.ready = self.open_board(self.table) is not None and bool(self.poll_address)
        if self.ready:
            table_watchers[self.table_index].append(self)
        self.next_poll = time.monotonic() + self.rng.uniform(0, PACE["poll"])

    @task
    def watch(self) -> None:
        if not self.ready:
            return self.idle()
        if self.rest_until(self.next_poll):
            return self.told(self.poll)
        self.poll()
        self.next_poll = max(self.next_poll + self.timer(PACE["poll"]), time.monotonic())


class Scorekeeper(Watcher):
    """The table's scorekeeper: joined through the match's share link, it polls like the others
    and enters the table's plays and hand ends."""

    slots = itertools.count()

    def arrive(self) -> None:
        self.table_index = self.slot
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
        if board is None or not self.read_board(board, required=True):
            return False
        self.hold_stream(board)
        return True

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
        if self.rest_until(min(self.next_entry, self.next_poll)):
            return self.told(self.poll)
        if self.next_entry <= self.next_poll:
            if self.plays_in_hand >= PACE["plays_per_hand"]:
                self.end_hand()
            else:
                self.tap_a_play()
            self.next_entry += PACE["tap"] * self.rng.uniform(0.5, 1.5)
            self.next_entry = max(self.next_entry, time.monotonic())
        else:
            self.poll()
            self.next_poll = max(self.next_poll + self.timer(PACE["poll"]), time.monotonic())

    def entered(self, kind: str, form: boards.Form, data: dict[str, str]) -> None:
        """Send the entry; the table's other phones and the TVs expect its event."""
        tap = Tap()
        for phone in (*table_watchers[self.table_index], *screens):
            phone.expect(tap)
        page = self.send("POST", form.action, kind, data=data, headers=HTMX)
        if page is None:
            tap.failed = True
        else:
            tap.answered = time.monotonic()
        self.answered(page)

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
        self.entered("tap", form, data)
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
        self.entered("end hand", form, data)
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
    servers = SCREEN_SERVERS
    #: the plan's address of the page, and the name its refreshes are measured under
    page = ""
    kind = ""
    seen_kinds = ("board seen (event)", "board seen (fragment)")

    def arrive(self) -> None:
        page = self.send("GET", PLAN[self.page], f"open the {self.kind}")
        found = boards.pollers(page) if page else []
        address, period = found[0] if found else (PLAN[self.page], 15.0)
        self.address: str = address
        self.period: float = period
        self.asks_as = boards.poller_id(page) if page else ""
        self.ready = page is not None
        if page is not None:
            self.hold_stream(page)
            if self.stream_path:
                screens.append(self)
        self.next_refresh = time.monotonic() + self.rng.uniform(0, self.period)

    @task
    def show(self) -> None:
        if not self.ready:
            return self.idle()
        if self.rest_until(self.next_refresh):
            return self.told(self.refresh)
        self.refresh()
        self.next_refresh = max(self.next_refresh + self.timer(self.period), time.monotonic())

    def refresh(self) -> None:
        # htmx names the element that asks (the wall board answers its poll with the tables
        # that moved alone)
        headers = {**HTMX, "HX-Trigger": self.asks_as} if self.asks_as else HTMX
        page = self.send("GET", self.address, self.kind, expect=(200, 304), headers=headers)
        found = boards.pollers(page) if page else []
        if found:
            # a new board says which version it shows: the next poll asks from there
            self.address = found[0][0]
            self.asks_as = boards.poller_id(page or "")

    def after_told(self, arrivals: list[tuple[float, int | None]], answered: float) -> None:
        """The TV's refresh: from the first event it answers (the redraw left out) to its new
        board."""
        changes = [arrived for arrived, number in arrivals if number is not None]
        if changes:
            self.measured("board refresh", answered - changes[0])


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
    open_streams = sum(phone.streaming for phone in streaming_phones)
    gevent.killall(stream_greenlets, block=False)
    # this process's own CPU time: near 100% of a core, it is the load generator that limits
    load = 100 * (time.process_time() - cpu) / held
    measured = results(environment, held, load)
    measured["streams"] = {"wanted": len(streaming_phones), "open_at_end": open_streams}
    Path(PLAN["results"]).write_text(json.dumps(measured, indent=1))
    runner.quit()


def results(environment, held: float, load: float) -> dict:
    kinds: dict[str, dict[str, Any]] = {}
    for kind in STREAM_KINDS if STREAMS else ():
        kinds[kind] = {"requests": 0, "errors": 0, "p50_ms": 0, "p99_ms": 0, "max_ms": 0}
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
