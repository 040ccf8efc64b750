"""Under DJANGO_HTTPS every cookie the app sets is Secure, the language's too, and the
language's is sent only with the site's own requests (SameSite=Lax)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

READ = (
    "import django, json; django.setup(); from django.conf import settings as s; "
    "print(json.dumps([s.LANGUAGE_COOKIE_SECURE, s.LANGUAGE_COOKIE_SAMESITE, "
    "s.SESSION_COOKIE_SECURE]))"
)


def cookie_settings(**env: str) -> list:
    environment = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "PYTEST")) and key != "DATABASE_URL"
    }
    environment.update(DJANGO_SETTINGS_MODULE="scorekeeper.settings", **env)
    found = subprocess.run(
        [sys.executable, "-c", READ], env=environment, capture_output=True, text=True, check=True
    )
    return json.loads(found.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize(
    ("https", "expected"), [("1", [True, "Lax", True]), ("0", [False, None, False])]
)
def test_the_language_cookie_follows_django_https(https: str, expected: list) -> None:
    found = cookie_settings(DJANGO_HTTPS=https, DJANGO_SECRET_KEY="x" * 60)
    assert found == expected
