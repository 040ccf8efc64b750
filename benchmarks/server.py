"""A fresh database and the app under uvicorn (ASGI) or gunicorn (WSGI), each cleaned up
whatever happens."""

from __future__ import annotations

import http.cookiejar
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import dj_database_url
import psutil  # type: ignore[import-untyped]  # locust brings it; its stubs are not installed
from django.conf import settings

MANAGE = str(Path(settings.BASE_DIR) / "manage.py")


@contextmanager
def fresh_database(url: str, folder: Path) -> Iterator[str]:
    """A new, empty database: a SQLite file in ``folder``, or on the PostgreSQL server of
    ``url`` a database created for the run and dropped after it."""
    if not url:
        yield f"sqlite:///{folder / 'benchmark.sqlite3'}"
        return
    config = dj_database_url.parse(url)
    if config["ENGINE"] == "django.db.backends.sqlite3":
        raise ValueError("For SQLite leave out --database-url: the run makes a file of its own.")
    if config["ENGINE"] != "django.db.backends.postgresql":
        raise ValueError(f"Only SQLite and PostgreSQL are supported, not {config['ENGINE']}.")
    import psycopg
    from psycopg import sql

    name = f"scorekeeper_benchmark_{secrets.token_hex(4)}"
    server: dict[str, Any] = {
        "dbname": config["NAME"] or "postgres",
        "user": config["USER"] or None,
        "password": config["PASSWORD"] or None,
        "host": config["HOST"] or None,
        "port": config["PORT"] or None,
    }
    with psycopg.connect(**server, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield urllib.parse.urlsplit(url)._replace(path=f"/{name}").geturl()
    finally:
        with psycopg.connect(**server, autocommit=True) as admin:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                [name],
            )
            admin.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(name)))


class Stopped(BaseException):
    """A signal asked the run to stop. Not an Exception: nothing on the way out takes it for a
    failed step; every ``finally`` and context on the way out runs, so every process the run
    started (gunicorn, locust, wrk, a management command) is stopped and its database dropped."""


@contextmanager
def stopped_by_signals() -> Iterator[None]:
    """SIGTERM and SIGINT raise Stopped, once: Python's own SIGTERM ends the process at once,
    leaving gunicorn (a session of its own) and locust running. A second signal while the
    run stops is ignored, so that it does not cut the stopping short."""
    caught = (signal.SIGTERM, signal.SIGINT)

    def stop(number: int, frame: object) -> None:
        for each in caught:
            signal.signal(each, signal.SIG_IGN)
        raise Stopped(signal.Signals(number).name)

    previous = {each: signal.signal(each, stop) for each in caught}
    try:
        yield
    except Stopped:
        stop_what_is_left()
        raise
    finally:
        for each, handler in previous.items():
            signal.signal(each, handler)


def stop_what_is_left(grace: float = 5.0) -> None:
    """Stop every process this one started that still runs once the stopping is done. Each is
    stopped on the way out where it was started; but a signal that comes while ``subprocess``
    starts a child (wrk has run its program, Popen has not returned) leaves it to no one, and a
    thread's wrk (the bare view's, one per server) is not stopped by the main thread's way out."""
    left = psutil.Process().children(recursive=True)
    for process in left:
        try:
            process.terminate()
        except psutil.NoSuchProcess:
            pass
    _, alive = psutil.wait_procs(left, timeout=grace)
    for process in alive:
        try:
            process.kill()
        except psutil.NoSuchProcess:
            pass


#: streams one client address may hold: every phone of the benchmark comes from 127.0.0.1,
#: where a hall's come from as many addresses as it has phones (or a few, behind NAT)
STREAMS_PER_ADDRESS = 100_000


def server_environment(database_url: str, folder: Path, *, redis_url: str = "") -> dict[str, str]:
    """The environment of a production deployment on loopback, with its own key and files;
    with ``redis_url``, the cache and the streams' fan-out on that Redis server."""
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("DJANGO_", "PYTEST")) and name != "DATABASE_URL"
    }
    env.update(
        DATABASE_URL=database_url,
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        DJANGO_STATIC_ROOT=str(folder / "static"),
        DJANGO_LOG_LEVEL="WARNING",
        # production's settings plus the signed-in row's URL (benchmarks/settings.py)
        DJANGO_SETTINGS_MODULE="benchmarks.settings",
        PYTHONUNBUFFERED="1",
        SCOREKEEPER_STREAMS_PER_ADDRESS=str(STREAMS_PER_ADDRESS),
    )
    if redis_url:
        env["REDIS_URL"] = redis_url
    else:
        env.pop("REDIS_URL", None)
    return env


def manage(env: dict[str, str], *args: str, timeout: float = 900) -> None:
    """A management command in its own process, as a deployment runs it."""
    subprocess.run(
        [sys.executable, MANAGE, *args],
        env=env,
        cwd=settings.BASE_DIR,
        check=True,
        timeout=timeout,
        stdout=subprocess.DEVNULL,
    )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def gunicorn(env: dict[str, str], *, workers: int, log: Path, threads: int = 1) -> Iterator[str]:
    """The app under gunicorn on a free loopback port; yields its base URL. The server (its
    whole process group) is stopped on the way out, whatever happened. ``threads`` above one:
    gthread workers, each answering that many requests at once."""
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "scorekeeper.wsgi:application",
        f"--bind=127.0.0.1:{port}",
        f"--workers={workers}",
        f"--worker-class={'gthread' if threads > 1 else 'sync'}",
        f"--threads={threads}",
        "--timeout=60",
        "--log-level=warning",
    ]
    with _serving("gunicorn", command, env, port, log) as base:
        yield base


@contextmanager
def uvicorn(env: dict[str, str], *, workers: int, log: Path) -> Iterator[str]:
    """The app under uvicorn (ASGI: the pages in threads, the streams on each worker's event
    loop) on a free loopback port, as docs/deployment.md runs it; yields its base URL and
    stops the server (its whole process group) on the way out, whatever happened."""
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "uvicorn",
        "scorekeeper.asgi:application",
        "--host=127.0.0.1",
        f"--port={port}",
        f"--workers={workers}",
        "--timeout-keep-alive=5",
        # open streams do not end by themselves: a stop waits this long for them, then cuts
        "--timeout-graceful-shutdown=5",
        "--no-access-log",
        "--log-level=warning",
    ]
    with _serving("uvicorn", command, env, port, log) as base:
        yield base


#: each running server's process (its master), by its base URL
PIDS: dict[str, int] = {}


@contextmanager
def _serving(
    name: str, command: list[str], env: dict[str, str], port: int, log: Path
) -> Iterator[str]:
    with log.open("w") as output:
        process = subprocess.Popen(
            command,
            env=env,
            cwd=settings.BASE_DIR,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(name, base, process, log)
        PIDS[base] = process.pid
        yield base
    finally:
        PIDS.pop(base, None)
        _stop(process)


def _wait_until_up(
    name: str, base: str, process: subprocess.Popen, log: Path, seconds: float = 60
) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{name} exited ({process.returncode}):\n{log.read_text()}")
        try:
            with urllib.request.urlopen(f"{base}/healthz", timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.2)
    raise RuntimeError(f"{name} did not answer within {seconds:.0f} s:\n{log.read_text()}")


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is not None:
        return
    group = os.getpgid(process.pid)
    os.killpg(group, signal.SIGTERM)
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(group, signal.SIGKILL)
        process.wait(timeout=15)


class Browser:
    """A signed-in browser: its cookies, for the load generator to send."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def cookie(self, name: str) -> str:
        return next((c.value or "" for c in self.jar if c.name == name), "")

    def sign_in(self, username: str, password: str) -> None:
        self.get("/accounts/login/")
        data = {
            "username": username,
            "password": password,
            "csrfmiddlewaretoken": self.cookie("csrftoken"),
        }
        self.opener.open(
            urllib.request.Request(
                f"{self.base}/accounts/login/", data=urllib.parse.urlencode(data).encode()
            ),
            timeout=30,
        ).read()
        if not self.cookie("sessionid"):
            raise RuntimeError("signing in as the benchmark's organizer failed")

    def get(self, path: str) -> tuple[int, bytes, float]:
        return self._open(urllib.request.Request(f"{self.base}{path}"))

    def post(
        self, path: str, data: dict[str, str], headers: dict[str, str]
    ) -> tuple[int, bytes, float]:
        body = urllib.parse.urlencode(data).encode()
        return self._open(urllib.request.Request(f"{self.base}{path}", data=body, headers=headers))

    def _open(self, request: urllib.request.Request) -> tuple[int, bytes, float]:
        """The status, the body and how long the answer took, in milliseconds."""
        started = time.perf_counter()
        try:
            with self.opener.open(request, timeout=60) as response:
                body = response.read()
                status = response.status
        except urllib.error.HTTPError as error:
            body, status = error.read(), error.code
        return status, body, (time.perf_counter() - started) * 1000
