"""The settings the benchmark serves the app with: production's own, plus one URL.

Nothing else differs, so every row it measures is the app as deployed.
"""

from __future__ import annotations

from scorekeeper.settings import *  # noqa: F403

ROOT_URLCONF = "scorekeeper.bench.urls"
