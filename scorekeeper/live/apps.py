from __future__ import annotations

from django.apps import AppConfig


class LiveConfig(AppConfig):
    name = "scorekeeper.live"
    label = "live"
    verbose_name = "Live updates"
