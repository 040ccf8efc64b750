"""The settings read a yes-or-no variable strictly: a value they do not know stops the start,
naming the variable and what it takes, instead of switching something off (a typo in
``DJANGO_HTTPS=ture`` must not serve the site without secure cookies). Nothing is run in a
subprocess while they load."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from scorekeeper.settings import env_flag

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "value", ["1", "true", "TRUE", "True", "yes", "Yes", "on", "ON", " 1 ", "\ttrue\n"]
)
def test_a_flag_reads_each_way_of_saying_on(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("SCOREKEEPER_TEST_FLAG", value)
    assert env_flag("SCOREKEEPER_TEST_FLAG") is True
    assert env_flag("SCOREKEEPER_TEST_FLAG", default=True) is True


@pytest.mark.parametrize("value", ["0", "false", "FALSE", "no", "No", "off", "Off", " 0 "])
def test_a_flag_reads_each_way_of_saying_off(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("SCOREKEEPER_TEST_FLAG", value)
    assert env_flag("SCOREKEEPER_TEST_FLAG") is False
    assert env_flag("SCOREKEEPER_TEST_FLAG", default=True) is False


@pytest.mark.parametrize("value", [None, "", "   "])
def test_an_unset_or_empty_flag_is_its_default(
    monkeypatch: pytest.MonkeyPatch, value: str | None
) -> None:
    if value is None:
        monkeypatch.delenv("SCOREKEEPER_TEST_FLAG", raising=False)
    else:
        monkeypatch.setenv("SCOREKEEPER_TEST_FLAG", value)
    assert env_flag("SCOREKEEPER_TEST_FLAG") is False
    assert env_flag("SCOREKEEPER_TEST_FLAG", default=True) is True


@pytest.mark.parametrize("value", ["ture", "2", "y", "enabled", "1.0", "-1", "t rue"])
def test_a_flag_refuses_a_value_it_does_not_know(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("SCOREKEEPER_TEST_FLAG", value)
    with pytest.raises(ImproperlyConfigured) as refused:
        env_flag("SCOREKEEPER_TEST_FLAG")
    message = str(refused.value)
    assert "SCOREKEEPER_TEST_FLAG" in message
    assert repr(value) in message
    for accepted in ("1/0", "true/false", "yes/no", "on/off"):
        assert accepted in message


def start(code: str, **env: str) -> subprocess.CompletedProcess:
    environment = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "PYTEST")) and key != "DATABASE_URL"
    }
    environment.update(DJANGO_SETTINGS_MODULE="scorekeeper.settings", **env)
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    "name", ["DJANGO_DEBUG", "DJANGO_HTTPS", "DJANGO_NO_SSL_REDIRECT", "DJANGO_HSTS_NO_PRELOAD"]
)
def test_a_typo_in_a_flag_stops_the_start(name: str) -> None:
    # DJANGO_DEBUG=1 beside it: a flag is read even where debug mode leaves it unused
    env = {"DJANGO_DEBUG": "1", name: "ture"}

    started = start("import django; django.setup()", **env)

    assert started.returncode != 0
    assert "ImproperlyConfigured" in started.stderr
    assert f"{name} is one of 1/0, true/false, yes/no, on/off, not 'ture'." in started.stderr


def test_the_settings_load_without_running_a_subprocess() -> None:
    refuse = (
        "import subprocess\n"
        "def refused(*args, **kwargs):\n"
        "    raise AssertionError(f'a subprocess at settings import: {args!r}')\n"
        "subprocess.Popen = refused\n"
        "import django\n"
        "django.setup()\n"
        "from django.conf import settings\n"
        "print(settings.RELEASE)\n"
    )

    started = start(refuse, DJANGO_DEBUG="1")

    assert started.returncode == 0, started.stderr
    assert started.stdout.strip()
