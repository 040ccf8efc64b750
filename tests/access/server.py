"""The app in a real server process on 127.0.0.1, and phones that talk to it over HTTP.

The server is gunicorn with three worker processes, as in production, or uvicorn (the app under
ASGI, ``asgi=True``) with two, on a database of its own: a SQLite file, or a database made for
it on the PostgreSQL server the test run uses (``migrated_database``).
"""

from __future__ import annotations

import atexit
import http.cookiejar
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HOST = "127.0.0.1"
#: no request, start or stop may hang the test run longer than this (seconds)
TIMEOUT = 60


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def is_postgres(url: str) -> bool:
    return url.startswith(("postgres://", "postgresql://"))


@contextmanager
def postgres_database(server_url: str, template: str = "") -> Iterator[str]:
    """A new database on the server of ``server_url``, dropped afterwards: empty, or a copy of
    the database ``template``."""
    name = f"scorekeeper_server_{secrets.token_hex(4)}"
    _create_database(server_url, name, template)
    try:
        yield urllib.parse.urlsplit(server_url)._replace(path=f"/{name}").geturl()
    finally:
        _drop_database(server_url, name)


def _create_database(server_url: str, name: str, template: str = "") -> None:
    import psycopg
    from psycopg import sql

    create = sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name))
    if template:
        create += sql.SQL(" TEMPLATE {}").format(sql.Identifier(template))
    with psycopg.connect(server_url, autocommit=True) as admin:
        # the template's last user (the migrating process) may not have left the server yet
        deadline = time.monotonic() + TIMEOUT
        while True:
            try:
                admin.execute(create)
                return
            except psycopg.errors.ObjectInUse:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)


def _drop_database(server_url: str, name: str) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )


#: this process's databases migrated once, by backend: a folder of SQLite files, or the name of a
#: database on the run's PostgreSQL server
_migrated: dict[str, str] = {}
#: SQLite's files of a database and of its cache (scorekeeper/settings.py)
SQLITE_FILES = ("scorekeeper.sqlite3", "scorekeeper.cache.sqlite3")


@contextmanager
def migrated_database(backend: str, folder: Path) -> Iterator[str]:
    """A new database of ``backend`` ("sqlite": its files in ``folder``; "postgresql": on the
    run's server, dropped afterwards) as `manage.py migrate` and `createcachetable` leave an
    empty one: a copy of one this process migrated once (SQLite's files copied, PostgreSQL's
    database made with it as its template), for migrating takes seconds each time."""
    template = _migrated.get(backend) or _migrate_once(backend)
    if backend != "postgresql":
        for name in SQLITE_FILES:
            # with its write-ahead log, should the migrating process have left one
            for part in (name, f"{name}-wal"):
                if (Path(template) / part).exists():
                    shutil.copyfile(Path(template) / part, folder / part)
        yield f"sqlite:///{folder / SQLITE_FILES[0]}"
        return
    with postgres_database(os.environ.get("DATABASE_URL", ""), template=template) as url:
        yield url


def _migrate_once(backend: str) -> str:
    if backend == "postgresql":
        server_url = os.environ.get("DATABASE_URL", "")
        assert is_postgres(server_url), "a PostgreSQL backend needs the run's server"
        name = f"scorekeeper_migrated_{secrets.token_hex(4)}"
        _create_database(server_url, name)
        atexit.register(_drop_database, server_url, name)
        url = urllib.parse.urlsplit(server_url)._replace(path=f"/{name}").geturl()
    else:
        name = tempfile.mkdtemp(prefix="scorekeeper-migrated-")
        atexit.register(shutil.rmtree, name, ignore_errors=True)
        url = f"sqlite:///{Path(name) / SQLITE_FILES[0]}"
    env = server_environment(url)
    for command in (("migrate", "--no-input"), ("createcachetable",)):
        done = manage(env, *command)
        assert done.returncode == 0, done.stderr
    _migrated[backend] = name
    return name


def server_environment(database_url: str) -> dict[str, str]:
    env = {
        **os.environ,
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": HOST,
        "DATABASE_URL": database_url,
        "DJANGO_LOG_LEVEL": "WARNING",
    }
    # Production settings otherwise; PYTEST_VERSION stays, so that the static files are served
    # from their folders as in the rest of the test run, without a collectstatic step.
    env.pop("DJANGO_DEBUG", None)
    env.pop("DJANGO_HTTPS", None)
    return env


def manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def shell(env: dict[str, str], code: str) -> dict:
    """Run ``code`` with `manage.py shell -c` and read the JSON object it prints."""
    done = manage(env, "shell", "-c", code)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


NEW_MATCH = """
import json
from scorekeeper import rules
from scorekeeper.tables.scoring import create_match
match = create_match(rules.Match("straight", ("Ann", "Bob", "Cy", "Dee")))
print(json.dumps({"match": match.pk}))
"""


def new_match(env: dict[str, str]) -> int:
    """A Straight match of four made in the server's database; its id."""
    return int(shell(env, NEW_MATCH)["match"])


@contextmanager
def organizers_server(
    backend: str,
    folder: Path,
    username: str,
    password: str,
    settings: dict[str, str] | None = None,
) -> Iterator[tuple[Server, dict[str, str]]]:
    """A running server and its environment, on a new database of ``backend`` ("sqlite", a
    file in ``folder``, or "postgresql", on the run's server) with an organizer's account;
    ``settings``: more environment variables for it (scorekeeper/settings.py reads them)."""
    with ExitStack() as stack:
        url = stack.enter_context(migrated_database(backend, folder))
        env = {**server_environment(url), **(settings or {})}
        shell(
            env,
            f"from tests.access.serverside import organizer; organizer({username!r}, {password!r})",
        )
        server = Server(env, folder / "server.log")
        server.start()
        stack.callback(server.stop)
        yield server, env


@dataclass
class Server:
    env: dict[str, str]
    log: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen | None = None
    asgi: bool = False

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def start(self) -> None:
        with self.log.open("a") as log:
            # a session (process group) of its own: a kill reaches the workers at once
            self.process = subprocess.Popen(
                self._command(),
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            assert self.process.poll() is None, f"the server stopped:\n{self.tail()}"
            try:
                with urllib.request.urlopen(f"{self.url}/accounts/login/", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                pass
            time.sleep(0.1)
        self.stop()
        raise AssertionError(f"the server did not answer within {TIMEOUT} s:\n{self.tail()}")

    def _command(self) -> list[str]:
        if self.asgi:
            uvicorn = Path(sys.executable).with_name("uvicorn")
            return [
                str(uvicorn),
                "scorekeeper.asgi:application",
                "--workers",
                "2",
                "--host",
                HOST,
                "--port",
                str(self.port),
                "--timeout-graceful-shutdown",
                "2",
            ]
        gunicorn = Path(sys.executable).with_name("gunicorn")
        return [
            str(gunicorn),
            "scorekeeper.wsgi",
            "-w",
            "3",
            "-b",
            f"{HOST}:{self.port}",
            "--graceful-timeout",
            "2",
            "--timeout",
            str(TIMEOUT),
        ]

    def kill(self) -> None:
        """SIGKILL to the server and every worker: no chance to finish what they were doing."""
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=TIMEOUT)
        self.process = None

    def stop(self) -> None:
        if self.process is None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=TIMEOUT)
        except ProcessLookupError:
            pass
        self.process = None

    def tail(self) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-40:])


@dataclass(frozen=True)
class Answer:
    status: int
    location: str
    body: str


class _KeepRedirects(urllib.request.HTTPRedirectHandler):
    """Redirects are answers to look at (a saved entry redirects to the scoreboard)."""

    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


class Phone:
    """A browser at the table: its own cookies (session, CSRF), nothing shared with another."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.cookies), _KeepRedirects()
        )

    def get(self, path: str) -> Answer:
        return self._send(urllib.request.Request(self.base + path))

    def post(self, path: str, data: dict[str, str]) -> Answer:
        """A form post, with the CSRF token the page's cookie holds."""
        token = next((c.value for c in self.cookies if c.name == "csrftoken"), "")
        body = urllib.parse.urlencode({"csrfmiddlewaretoken": token, **data}).encode()
        return self._send(urllib.request.Request(self.base + path, data=body, method="POST"))

    def upload(self, path: str, field: str, filename: str, content: bytes) -> Answer:
        """A file sent as a form sends it (multipart), with the CSRF token."""
        token = next((c.value for c in self.cookies if c.name == "csrftoken"), "")
        boundary = secrets.token_hex(16)
        body = (
            (
                f"--{boundary}\r\n"
                'Content-Disposition: form-data; name="csrfmiddlewaretoken"\r\n\r\n'
                f"{token}\r\n"
                f"--{boundary}\r\n"
                f'Content-Disposition: form-data; name="{field}"; filename="{filename}"\r\n'
                "Content-Type: application/octet-stream\r\n\r\n"
            ).encode()
            + content
            + f"\r\n--{boundary}--\r\n".encode()
        )
        headers = {"Content-Type": f"multipart/form-data; boundary={boundary}"}
        request = urllib.request.Request(
            self.base + path, data=body, method="POST", headers=headers
        )
        return self._send(request)

    def sign_in(self, username: str, password: str) -> None:
        page = self.get("/accounts/login/").body
        found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        assert found is not None, "the sign-in page has no CSRF token"
        answer = self.post(
            "/accounts/login/",
            {"username": username, "password": password, "csrfmiddlewaretoken": found.group(1)},
        )
        assert answer.status == 302, f"signing in as {username} failed: {answer.status}"

    def _send(self, request: urllib.request.Request) -> Answer:
        try:
            with self.opener.open(request, timeout=TIMEOUT) as answer:
                return Answer(answer.status, answer.headers.get("Location", ""), _text(answer))
        except urllib.error.HTTPError as answer:
            return Answer(answer.code, answer.headers.get("Location", ""), _text(answer))


def _text(answer) -> str:
    return answer.read().decode("utf-8", errors="replace")
