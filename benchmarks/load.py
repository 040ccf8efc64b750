"""The load: wrk, in its own process, with a Lua script per kind of request.

wrk keeps a fixed number of connections busy for a fixed time and reports what it saw; the
scripts' ``done`` hook prints the numbers as one JSON line, so nothing is parsed from prose.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import asdict, dataclass
from pathlib import Path

#: printed by every script's done hook, in front of its JSON
MARK = "BENCHMARK-RESULT "

DONE = """
done = function(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format(
    '%s{"requests": %d, "duration_us": %d, "connect_errors": %d, "read_errors": %d, ' ..
    '"write_errors": %d, "timeouts": %d, "bad_status": %d, "p50_us": %d, "p99_us": %d, ' ..
    '"max_us": %d}\\n',
    "MARK", summary.requests, summary.duration, errors.connect, errors.read, errors.write,
    errors.timeout, errors.status, latency:percentile(50), latency:percentile(99), latency.max))
end
""".replace("MARK", MARK)

#: a GET as a spectator's phone sends it: no session, so no per-user work
GET_SCRIPT = (
    """
wrk.method = "GET"
wrk.headers["Accept-Encoding"] = "gzip"
"""
    + DONE
)

#: the htmx POST a scorekeeper's phone sends for a tap on a points button, with the fields its
#: board's form has (TapAt). Each wrk thread keeps score at tables of its own (one phone per
#: table, as in a hall) and goes round them, so each request goes to another table, carries a
#: key of its own (none is taken for a repeat of another and answered without being recorded)
#: and says, as the phone's form does, which version of the match its board shows: the version
#: it started at, one more for every tap.
HEADERS = """
local headers = {
  ["Content-Type"] = "application/x-www-form-urlencoded",
  ["Cookie"] = "{COOKIE}",
  ["X-CSRFToken"] = "{CSRF_TOKEN}",
  ["HX-Request"] = "true",
  ["Accept-Encoding"] = "gzip",
}
"""

POST_SCRIPT = """
local tables = {TABLES}
local threads = {THREADS}
local points = {POINTS}
local thread_count = 0
function setup(thread)
  thread:set("thread_id", thread_count)
  thread_count = thread_count + 1
end
local mine = nil
local sent = 0
function request()
  if mine == nil then
    mine = {}
    for i, at in ipairs(tables) do
      if (i - 1) % threads == thread_id then
        mine[#mine + 1] = {at[1], at[2], at[3], at[4], at[5], at[6], at[7]}
      end
    end
    if #mine == 0 then mine = {tables[1]} end
  end
  sent = sent + 1
  local at = mine[(sent % #mine) + 1]
  local body = at[2] .. "&" .. at[3] .. "=" .. points[(sent % #points) + 1]
  if at[4] ~= "" then body = body .. "&" .. at[4] .. "=" .. at[5] end
  if at[6] ~= "" then
    body = body .. "&" .. at[6] .. "=" .. at[7] .. "-{RUN}-" .. thread_id .. "-" .. sent
  end
  at[5] = at[5] + 1
  return wrk.format("POST", at[1], headers, body)
end
"""

#: the same POST, headers and all, to a signed-in view that records nothing
SIGNED_IN_SCRIPT = """
function request()
  return wrk.format("POST", nil, headers, "points=5")
end
"""


@dataclass
class Measurement:
    clients: int
    requests: int
    seconds: float
    requests_per_second: float
    p50_ms: float
    p99_ms: float
    max_ms: float
    errors: int

    def as_dict(self) -> dict:
        return asdict(self)


def find_wrk(install: bool) -> str:
    """wrk's path; as root on Debian or Ubuntu it is installed when missing, if asked to."""
    found = shutil.which("wrk")
    if found:
        return found
    if install and os.geteuid() == 0 and shutil.which("apt-get"):
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        command = ["apt-get", "install", "-y", "wrk"]
        if subprocess.run(command, env=env, check=False).returncode != 0:
            subprocess.run(["apt-get", "update"], env=env, check=True)
            subprocess.run(command, env=env, check=True)
        found = shutil.which("wrk")
        if found:
            return found
    raise FileNotFoundError(
        "wrk (the load generator) is not installed. Install it with "
        "`sudo apt-get install wrk` (Debian, Ubuntu) or `brew install wrk` (macOS)."
    )


@dataclass(frozen=True)
class TapAt:
    """A table's tap as its board's form says to send it."""

    path: str
    #: the fields sent as they are (who scored, and any other), urlencoded
    fixed: str
    #: the name of the points button
    points: str
    #: the field that says which version the board shows, and that version ("" if none)
    seen: str
    version: int
    #: the form's one-time key and its value ("" if none): each request adds to it
    key: str
    key_value: str

    def lua(self) -> str:
        values = (self.path, self.fixed, self.points, self.seen, self.version, self.key)
        quoted = [json.dumps(value) for value in (*values, self.key_value)]
        quoted[4] = str(self.version)
        return "{" + ", ".join(quoted) + "}"


def write_scripts(
    folder: Path,
    *,
    tables: list[TapAt],
    points: list[int],
    threads: int,
    cookie: str,
    csrf: str,
    run: str,
) -> dict[str, Path]:
    """The scripts, for taps on the open matches as their boards say to send them."""
    headers = HEADERS.replace("{COOKIE}", cookie).replace("{CSRF_TOKEN}", csrf)
    post = (
        POST_SCRIPT.replace("{TABLES}", "{" + ", ".join(table.lua() for table in tables) + "}")
        .replace("{POINTS}", "{" + ", ".join(str(value) for value in points) + "}")
        .replace("{THREADS}", str(threads))
        .replace("{RUN}", run)
    )
    texts = {
        "get": GET_SCRIPT,
        "post": headers + post + DONE,
        "signed_in": headers + SIGNED_IN_SCRIPT + DONE,
    }
    scripts = {name: folder / f"{name}.lua" for name in texts}
    for name, text in texts.items():
        scripts[name].write_text(text)
    return scripts


def run_wrk(
    wrk: str, url: str, script: Path, *, clients: int, seconds: float, threads: int
) -> Measurement:
    """Keep ``clients`` connections busy on ``url`` for ``seconds``, from ``threads`` threads."""
    command = [
        wrk,
        f"--threads={max(1, min(threads, clients))}",
        f"--connections={clients}",
        f"--duration={max(1, round(seconds))}s",
        "--timeout=10s",
        f"--script={script}",
        url,
    ]
    finished = subprocess.run(
        command, capture_output=True, text=True, timeout=seconds + 60, check=False
    )
    lines = [line for line in finished.stdout.splitlines() if line.startswith(MARK)]
    if finished.returncode != 0 or not lines:
        raise RuntimeError(
            f"wrk failed ({finished.returncode}): {finished.stderr or finished.stdout}"
        )
    data = json.loads(lines[-1][len(MARK) :])
    elapsed = data["duration_us"] / 1e6
    errors = sum(
        data[name]
        for name in ("connect_errors", "read_errors", "write_errors", "timeouts", "bad_status")
    )
    return Measurement(
        clients=clients,
        requests=data["requests"],
        seconds=round(elapsed, 2),
        requests_per_second=round(data["requests"] / elapsed, 1) if elapsed else 0.0,
        p50_ms=round(data["p50_us"] / 1000, 2),
        p99_ms=round(data["p99_us"] / 1000, 2),
        max_ms=round(data["max_us"] / 1000, 2),
        errors=errors,
    )
