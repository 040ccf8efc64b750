"""The benchmark's settings: production's own, plus the benchmark app and one URL.

    DJANGO_SETTINGS_MODULE=benchmarks.settings .venv/bin/python manage.py benchmark

Production's INSTALLED_APPS leave the benchmark out, and the installed package does not hold
it, so a deployment has no `benchmark` command and no URL of the benchmark's. Nothing else
differs, so every row the benchmark measures is the app as deployed (docs/benchmark.md).
"""

from __future__ import annotations

from scorekeeper.settings import *  # noqa: F403
from scorekeeper.settings import INSTALLED_APPS

# the `benchmark` command; it has no models, so the database is production's to the column
INSTALLED_APPS = [*INSTALLED_APPS, "benchmarks"]
ROOT_URLCONF = "benchmarks.urls"
