"""Settings for Domino Scorekeeper.

One module for every environment; the environment variables below tell them apart. The README
lists them. Without any, a checkout runs in production mode on SQLite and asks for a secret key;
`DJANGO_DEBUG=1` (what `make run` sets) is enough for local development.
"""

from __future__ import annotations

import importlib.metadata
import os
import shutil
import tempfile
from datetime import timedelta
from pathlib import Path

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured

# Django's generic classes take the subscript their types give them: `ModelAdmin[Match]`
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent


FLAG_VALUES = {
    **dict.fromkeys(("1", "true", "yes", "on"), True),
    **dict.fromkeys(("0", "false", "no", "off"), False),
}


def env_flag(name: str, default: bool = False) -> bool:
    """A yes-or-no variable, read strictly: a typo such as ``DJANGO_HTTPS=ture`` stops the start
    instead of quietly switching something off. Unset or empty is ``default``."""
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    if value not in FLAG_VALUES:
        raise ImproperlyConfigured(
            f"{name} is one of 1/0, true/false, yes/no, on/off, not {os.environ[name]!r}."
        )
    return FLAG_VALUES[value]


def env_list(name: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, "").split(",") if item.strip()]


DEBUG = env_flag("DJANGO_DEBUG")
# pytest sets PYTEST_VERSION for the length of a run. pytest-django imports these settings before
# any conftest.py, so a conftest cannot supply what they require; this is the one place they
# tell a test run apart. Tests otherwise run as production does, DEBUG off.
TESTING = "PYTEST_VERSION" in os.environ

# Without a key of its own the app still runs its commands (scorecheck, migrate, demo) and the
# dev server; serving it in production (wsgi.py, asgi.py) refuses this key.
INSECURE_DEV_KEY = "django-insecure-dev-only-do-not-deploy"
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "") or INSECURE_DEV_KEY


def refuse_insecure_key() -> None:
    """Called by the production entry points: never serve with the dev key and DEBUG off."""
    if SECRET_KEY == INSECURE_DEV_KEY and not (DEBUG or TESTING):
        raise ImproperlyConfigured(
            "Set DJANGO_SECRET_KEY to serve the app (or DJANGO_DEBUG=1 for local development)."
        )


ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS") or ["localhost", "127.0.0.1", "[::1]"]
if DEBUG:
    # Lets a phone on the same network open the dev server (make run ADDR=0.0.0.0:8000).
    ALLOWED_HOSTS.append("*")

CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "scorekeeper.live",
    "scorekeeper.tables",
    "scorekeeper.clubs",
    "scorekeeper.leagues",
    "scorekeeper.access",
    "scorekeeper.nights",
    "scorekeeper.records",
    "axes",
    "csp",
    "django_tasks",
    "django_tasks_db",
]

MIDDLEWARE = [
    # First, so it compresses what every other middleware leaves. Pages are gzipped for the
    # phones on a hall's weak Wi-Fi; against BREACH, Django pads each compressed response with
    # random bytes and masks the CSRF token anew in every response (README: Deployment).
    "django.middleware.gzip.GZipMiddleware",
    # before anything reads a body: one larger than its door takes is refused with 413
    "scorekeeper.hardening.RequestLimitsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # the language: the one chosen with the switcher (a cookie), else the browser's
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "csp.middleware.CSPMiddleware",
    # last, as django-axes asks: it answers a locked-out sign-in
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    # counts failed sign-ins and refuses more after AXES_FAILURE_LIMIT
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("DJANGO_SIGNIN_ATTEMPTS", "5"))
# Locked on the user name and the client's address together: wrong passwords typed in the
# organizer's name from one address lock that name at that address only, so the organizer signs
# in from any other with the right password, and a hall's address is never locked for everyone
# by a few mistyped names. Spraying one password over many names from one address is stopped by
# its own, larger budget (SIGNIN_FAILURES_PER_ADDRESS, scorekeeper/access/throttle.py). A lock
# lasts a few minutes and failures while locked do not make it longer (docs/deployment.md).
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("DJANGO_SIGNIN_COOLOFF_MINUTES", "5")))
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_CLIENT_IP_CALLABLE = "scorekeeper.access.addresses.client_address"
AXES_LOCKOUT_TEMPLATE = "access/locked_out.html"
# ... rendered saying how long the lock lasts (scorekeeper/access/views.py)
AXES_LOCKOUT_CALLABLE = "scorekeeper.access.views.axes_locked_out"
# A browser that signed in as the user before (a signed device cookie, OWASP's defence) is not
# held by the lock of the address it signs in from: its own failures are counted instead
# (scorekeeper/access/devices.py)
AXES_WHITELIST_CALLABLE = "scorekeeper.access.devices.is_known_device"
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False
# failed sign-ins an address may make in an hour, under any user names
SIGNIN_FAILURES_PER_ADDRESS = int(os.environ.get("DJANGO_SIGNIN_FAILURES_PER_ADDRESS", "30"))
# wrong claim codes (a player's record, scorekeeper/records/claims.py) an account, and an
# address, may type in an hour
CLAIM_FAILURES_PER_HOUR = int(os.environ.get("DJANGO_CLAIM_FAILURES_PER_HOUR", "10"))

# How many proxies in front of the app append the address they were reached from to
# X-Forwarded-For: the client's address is read that many entries from the right
# (scorekeeper/access/addresses.py). 0: the connection's own address, headers ignored.
TRUSTED_PROXIES = int(os.environ.get("DJANGO_TRUSTED_PROXIES", "0"))

# Matches a phone without an account may start in an hour (scorekeeper/access/throttle.py):
# from one browser, and from one address (a hall's phones may share its Wi-Fi's address).
ANONYMOUS_STARTS_PER_BROWSER = int(os.environ.get("DJANGO_ANONYMOUS_STARTS_PER_BROWSER", "20"))
ANONYMOUS_STARTS_PER_ADDRESS = int(os.environ.get("DJANGO_ANONYMOUS_STARTS_PER_ADDRESS", "60"))
# ... and from one address by browsers that send no cookie, counted apart from the address's
# allowance above so that one such browser cannot spend the hall's
ANONYMOUS_COOKIELESS_STARTS_PER_ADDRESS = int(
    os.environ.get("DJANGO_ANONYMOUS_COOKIELESS_STARTS_PER_ADDRESS", "10")
)
# ... and from one of a league's table cards (a phone that scanned its code today), counted on
# the card and the browser instead of the address: the hall's phones never wait on its address
ANONYMOUS_STARTS_PER_TABLE_CARD = int(
    os.environ.get("DJANGO_ANONYMOUS_STARTS_PER_TABLE_CARD", "20")
)
# Heavy exports (a season's hands, a league's or a night's bundle) an address without an account
# may read in an hour: each reads every match it holds (scorekeeper/access/throttle.py).
ANONYMOUS_EXPORTS_PER_ADDRESS = int(os.environ.get("DJANGO_ANONYMOUS_EXPORTS_PER_ADDRESS", "10"))
# Accounts opened at /accounts/signup/ in an hour from one address (scorekeeper/access/throttle.py):
# a hall's players may sign up together on its Wi-Fi after an invitation; a form sent back with a
# mistake costs nothing.
SIGNUPS_PER_ADDRESS = int(os.environ.get("DJANGO_SIGNUPS_PER_ADDRESS", "20"))
# Password resets by email an address may ask for in an hour, where the site sends mail
PASSWORD_RESETS_PER_ADDRESS = int(os.environ.get("DJANGO_PASSWORD_RESETS_PER_ADDRESS", "5"))
RATELIMIT_IP_META_KEY = "scorekeeper.access.addresses.client_address"

# Mail, for Django's own password reset by email: without DJANGO_EMAIL_HOST the site sends none,
# the sign-in page does not offer it, and a club's owner hands a member a one-time password link
# instead (scorekeeper/club_pages/members.py).
EMAIL_HOST = os.environ.get("DJANGO_EMAIL_HOST", "").strip()
EMAIL_PORT = int(os.environ.get("DJANGO_EMAIL_PORT", "587"))
EMAIL_HOST_USER = os.environ.get("DJANGO_EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("DJANGO_EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_flag("DJANGO_EMAIL_USE_TLS", default=True)
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_DEFAULT_FROM_EMAIL", "webmaster@localhost")

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "tables:home"
LOGOUT_REDIRECT_URL = "tables:home"

ROOT_URLCONF = "scorekeeper.urls"
WSGI_APPLICATION = "scorekeeper.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

_database = dj_database_url.config(default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")
#: Under an ASGI server (scorekeeper/asgi.py says so before the settings are read) Django runs
#: each request's sync view in a thread of its own: a connection kept past the request would
#: stay with a thread that is gone (on PostgreSQL, one more server connection per request
#: until the garbage collector closes it). There each request takes one from Django's pool
#: (PostgreSQL) or opens its own (SQLite, a file: cheap).
SERVED_BY_ASGI = os.environ.get("SCOREKEEPER_ASGI") == "1"
if _database["ENGINE"] != "django.db.backends.sqlite3":
    if SERVED_BY_ASGI:
        _database.setdefault("OPTIONS", {})["pool"] = {
            "min_size": 2,
            "max_size": int(os.environ.get("SCOREKEEPER_DATABASE_POOL", "10")),
            # past this a request is answered "busy, try again" (hardening.py), not kept waiting
            "timeout": 10,
        }
        _database["CONN_MAX_AGE"] = 0
    else:
        # Reuse server connections across requests; Django's health check replaces one that
        # the server closed (a restart, an idle timeout) instead of failing the next request.
        _database["CONN_MAX_AGE"] = 60
        _database["CONN_HEALTH_CHECKS"] = True
else:
    # Writers take the database lock when their transaction begins, so two phones saving at
    # once wait for each other (up to the timeout) instead of one failing with "locked".
    _database.setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            # WAL: readers (every scoreboard and poll) no longer wait for a writer, nor it for
            # them. synchronous=NORMAL is safe with WAL: a power cut may lose the last moments'
            # commits, never the database (SQLite's and Django's documented pairing).
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
        }
    )
    # Keep each worker's connection: the pragmas above run once per connection, not per
    # request (a WSGI worker's thread lives on; under ASGI the request's thread does not).
    _database["CONN_MAX_AGE"] = 0 if SERVED_BY_ASGI else 60
    if TESTING:
        # The tests' database is a file (in memory where the machine has a RAM disk), as in
        # production: a live server's threads each open their own connection and wait for a
        # writer as a server's do. An in-memory database is shared between threads either
        # through one connection, where a page's read lands inside the test's transaction, or
        # through SQLite's shared cache, where it fails the test's write at once ("database
        # table is locked"). pytest-django names each parallel worker's file apart.
        _scratch = Path(tempfile.gettempdir())
        if Path("/dev/shm").is_dir() and shutil.disk_usage("/dev/shm").free > 2 * 1024**3:
            # a RAM disk with room for two test processes' databases (a container's is 64 MB)
            _scratch = Path("/dev/shm")
        _database["TEST"] = {"NAME": str(_scratch / f"scorekeeper-test-{os.getpid()}.sqlite3")}
DATABASES = {"default": _database}


def release_id() -> str:
    """What tells this release from the one before: ``SCOREKEEPER_RELEASE`` when the deploy sets
    it (a tag, a commit, a build number), else the installed version. The cache's keys and the
    kept exports carry it, so code of two releases never serves what the other drew."""
    given = os.environ.get("SCOREKEEPER_RELEASE", "").strip()
    if given:
        return given
    try:
        return importlib.metadata.version("domino-scorekeeper")
    except importlib.metadata.PackageNotFoundError:
        return "0"


RELEASE = release_id()

# Heavy exports (a season's hands.csv, a league's bundle.zip) kept as files under the version of
# what they hold and the release (scorekeeper/leagues/exports.py): a second download of an
# unchanged season is the file, not every match read and scored again. Several MB each, one per
# season or league; a folder the app may write to.
EXPORTS_ROOT = Path(os.environ.get("DJANGO_EXPORTS_ROOT") or BASE_DIR / "var" / "exports")
# League bundles uploaded for import wait here until the worker has imported or refused them
# (scorekeeper/leagues/imports.py): up to 50 MB each, removed once read.
BUNDLES_ROOT = Path(os.environ.get("DJANGO_BUNDLES_ROOT") or BASE_DIR / "var" / "bundles")

# Work done off the request path: the heavy exports above are built once, by a worker process
# (`manage.py db_worker`), whoever asks for them and however many at once, and league bundles
# are imported there, their progress shown (docs/deployment.md).
# django-tasks is the backport of Django 6's django.tasks for Django 5.2; django-tasks-db its
# database backend, which queues in a table of the app's own database, so no other server is
# needed. "immediate" runs a task in the request that asks for it: the development server (one
# command, no worker) and the tests that read an export's bytes. Any other value stops the start.
TASKS_RUN = os.environ.get("DJANGO_TASKS", "immediate" if DEBUG or TESTING else "worker")
if TASKS_RUN not in {"worker", "immediate"}:
    raise ImproperlyConfigured(f"DJANGO_TASKS is 'worker' or 'immediate', not {TASKS_RUN!r}.")
TASKS = {
    "default": {
        "BACKEND": (
            "django_tasks_db.DatabaseBackend"
            if TASKS_RUN == "worker"
            else "django_tasks.backends.immediate.ImmediateBackend"
        ),
    }
}

# "local": each worker's own memory, for what is cheap to draw again and asked for every two
# seconds (a wall board's tables, each under its version): no write to a shared cache at all.
LOCAL_CACHE = {
    "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
    "LOCATION": "scorekeeper-local",
    "TIMEOUT": 60 * 60,
    "OPTIONS": {"MAX_ENTRIES": 2000},
}

# Pushed updates (scorekeeper/live, docs/deployment.md): how a change reaches the streams of the
# other processes ("auto": Redis with REDIS_URL, else LISTEN/NOTIFY on PostgreSQL, else a look at
# the newest changes every LIVE_CHECK_SECONDS), and the streams held: per client address (a hall's
# phones behind one NAT share one), in all per process, and for how long before the browser opens
# a stream again.
LIVE_FANOUT = os.environ.get("SCOREKEEPER_LIVE_FANOUT", "auto")
if LIVE_FANOUT not in {"auto", "redis", "postgres", "sqlite", "local"}:
    raise ImproperlyConfigured(
        f"SCOREKEEPER_LIVE_FANOUT is auto, redis, postgres, sqlite or local, not {LIVE_FANOUT!r}."
    )
LIVE_CHECK_SECONDS = float(os.environ.get("SCOREKEEPER_LIVE_CHECK_SECONDS", "0.1"))
LIVE_STREAMS_PER_ADDRESS = int(os.environ.get("SCOREKEEPER_STREAMS_PER_ADDRESS", "200"))
LIVE_STREAMS = int(os.environ.get("SCOREKEEPER_STREAMS", "2000"))
LIVE_STREAM_MINUTES = float(os.environ.get("SCOREKEEPER_STREAM_MINUTES", "30"))

# Shared by every app server. What is cached is keyed by the versions it was made from, so it is
# never stale, and by the release (KEY_PREFIX): servers of two releases sharing a cache never use
# each other's entries, and a deploy never serves a fragment the code before it drew.
# With REDIS_URL, Django's Redis cache: its increments are atomic (the rate limits count on it);
# without, the database cache (`manage.py createcachetable` makes its table).
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
#: the database the rate limits' counts lock while they count (scorekeeper/access/throttle.py)
CACHE_DATABASE = "default"
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "TIMEOUT": 60 * 60 * 24,
            "KEY_PREFIX": f"sk.{RELEASE}",
        },
        "local": LOCAL_CACHE,
    }
    # django-ratelimit checks the cache it counts on when it is an installed app: it knows
    # django_redis's backend by name, not Django's own, whose incr is Redis' atomic INCRBY too
    INSTALLED_APPS.append("django_ratelimit")
    SILENCED_SYSTEM_CHECKS = ["django_ratelimit.W001"]
else:
    if _database["ENGINE"] == "django.db.backends.sqlite3":
        # The database cache in a SQLite file of its own beside the app's (db.sqlite3: its
        # db.cache.sqlite3), through a router (scorekeeper/cache_router.py): SQLite has one write
        # lock per file, and a page stored in the cache must not hold up the next tap at another
        # table. `manage.py createcachetable` makes its table there (the project's command
        # covers every database). PostgreSQL locks rows, not the database: there the cache
        # stays in the app's database.
        _name = str(_database["NAME"])
        if _name != ":memory:":
            _name = str(Path(_name).with_suffix(".cache.sqlite3"))
        DATABASES["cache"] = {**_database, "NAME": _name, "OPTIONS": {**_database["OPTIONS"]}}
        if "TEST" in _database:
            _test_name = Path(_database["TEST"]["NAME"]).with_suffix(".cache.sqlite3")
            DATABASES["cache"]["TEST"] = {"NAME": str(_test_name)}
        DATABASE_ROUTERS = ["scorekeeper.cache_router.CacheRouter"]
        CACHE_DATABASE = "cache"
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "scorekeeper_cache",
            "TIMEOUT": 60 * 60 * 24,
            "KEY_PREFIX": f"sk.{RELEASE}",
            "OPTIONS": {"MAX_ENTRIES": 5000},
        },
        "local": LOCAL_CACHE,
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
# Each named in its own language, as the switcher offers them. English is the default: a browser
# that asks for none of these gets it.
LANGUAGES = [
    ("en", "English"),
    ("es", "Español"),
    ("pl", "Polski"),
    ("cs", "Čeština"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("DJANGO_TIME_ZONE", "America/Chicago")
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT") or BASE_DIR / "staticfiles")

# In production WhiteNoise serves the hashed, compressed copies that `collectstatic` writes to
# STATIC_ROOT, so browsers can cache them forever. Development and test runs serve the files
# straight from their source folders instead, so neither needs a collectstatic step first.
STATIC_MANIFEST = not (DEBUG or TESTING)
WHITENOISE_USE_FINDERS = WHITENOISE_AUTOREFRESH = not STATIC_MANIFEST
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if STATIC_MANIFEST
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

# Every flag is read, used or not, so that a value it does not know stops any start.
HTTPS = env_flag("DJANGO_HTTPS")
NO_SSL_REDIRECT = env_flag("DJANGO_NO_SSL_REDIRECT")
HSTS_NO_PRELOAD = env_flag("DJANGO_HSTS_NO_PRELOAD")
if not DEBUG and HTTPS:
    # Served over HTTPS by a proxy that terminates TLS and sets X-Forwarded-Proto. Only turn
    # this on behind such a proxy: a client could otherwise claim HTTPS by sending the header.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    # the language a browser chose: sent only over HTTPS and only with the site's own requests
    LANGUAGE_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SAMESITE = "Lax"
    SECURE_SSL_REDIRECT = not NO_SSL_REDIRECT
    # a load balancer's health check may come over plain HTTP, straight to the app server
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", str(60 * 60 * 24 * 365)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = not HSTS_NO_PRELOAD
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
SECURE_REFERRER_POLICY = "same-origin"

# Content-Security-Policy: scripts and styles come only from our own static files (htmx is
# served from them too), so no inline script or style attribute is needed anywhere.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'none'"],
        "object-src": ["'none'"],
        "manifest-src": ["'self'"],
        # the service worker (/sw.js) that lets a scoreboard open and keep entries offline
        "worker-src": ["'self'"],
    },
}

# Limits at every door (docs/limits.md). A request larger than its door takes is refused with
# 413 before it is read (scorekeeper/hardening.py): a match file is at most 1 MB (the import
# form says so up to 2.5 MB), a league bundle at most 50 MB. A form's fields, files aside, take
# at most 1 MB and 1000 fields; an upload up to 2.5 MB is kept in memory, a larger one (a
# bundle) in a temporary file.
MOST_REQUEST_BYTES = 2_500_000
# the query of an address: Settle it's whole hand fits in a tenth of this
MOST_QUERY_BYTES = 8192
MOST_BUNDLE_REQUEST_BYTES = 50_500_000
DATA_UPLOAD_MAX_MEMORY_SIZE = 1_000_000
DATA_UPLOAD_MAX_NUMBER_FIELDS = 1000
DATA_UPLOAD_MAX_NUMBER_FILES = 5
FILE_UPLOAD_MAX_MEMORY_SIZE = 2_500_000

LOG_LEVEL = os.environ.get("DJANGO_LOG_LEVEL", "INFO")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    # Everything goes to stderr, once: Django's own "django" logger loses its handlers and
    # propagates to the root. Its "django.server" request log keeps its own.
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {"django": {"handlers": [], "level": LOG_LEVEL}},
}
