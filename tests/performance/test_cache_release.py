"""The cache's keys carry the release, so a deploy never serves what the code before it drew;
with REDIS_URL the cache is Django's Redis cache on a real server, and the rate limits count on
it (django-ratelimit's own check passes).

Redis is optional for the app: the Redis test runs a private redis-server when the binary is
installed (apt package ``redis-server``) and fails without it, unless SKIP_REDIS=1 says to skip.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: what a process with the app's settings prints: the key of everything the app caches
KEYS_OF = """
import json, django
django.setup()
from django.core.cache import cache
from django.core.cache.utils import make_template_fragment_key
raw = ["standings:1:4:9", "scoreboard.x", "rl:start:1.2.3.4"]
fragments = [make_template_fragment_key("standings", ["standings:1:4:9", "en"])]
print(json.dumps([cache.make_key(key) for key in raw + fragments]))
"""


def run_python(code: str, **env: str) -> subprocess.CompletedProcess:
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "scorekeeper.settings", **env}
    environment.pop("PYTEST_VERSION", None)
    environment["DJANGO_DEBUG"] = "1"
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def keys_under(release: str, **env: str) -> list[str]:
    done = run_python(KEYS_OF, SCOREKEEPER_RELEASE=release, **env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_new_release_changes_every_cache_key() -> None:
    before, after = keys_under("2026.11.30"), keys_under("2026.12.01")

    assert len(before) == len(after) == 4
    assert not set(before) & set(after)
    assert all("2026.12.01" in key for key in after)


def test_without_a_release_named_the_keys_carry_the_installed_version() -> None:
    version = importlib.metadata.version("domino-scorekeeper")
    assert version

    keys = keys_under("")

    assert len(keys) == 4
    assert all(key.startswith(f"sk.{version}:") for key in keys)


def test_with_redis_the_cache_is_redis_and_the_rate_limit_check_passes(redis_url: str) -> None:
    checked = subprocess.run(
        [sys.executable, "manage.py", "check", "--fail-level", "WARNING"],
        cwd=ROOT,
        env={**os.environ, "REDIS_URL": redis_url, "DJANGO_DEBUG": "1"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr

    done = run_python(
        """
import django
django.setup()
from django.conf import settings
from django.core.cache import cache
from django_ratelimit.core import get_usage
from django.test import RequestFactory
print(settings.CACHES["default"]["BACKEND"], "django_ratelimit" in settings.INSTALLED_APPS)
request = RequestFactory().post("/")
for _ in range(3):
    usage = get_usage(request, group="starts", key="ip", rate="2/h", increment=True)
print(usage["count"], usage["should_limit"])
""",
        REDIS_URL=redis_url,
    )

    assert done.returncode == 0, done.stderr
    backend, counted = done.stdout.split("\n")[:2]
    assert backend == "django.core.cache.backends.redis.RedisCache True"
    # the third start in the window is over the limit of two: counted on the Redis server
    assert counted == "3 True"
