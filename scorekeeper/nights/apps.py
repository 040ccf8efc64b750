from __future__ import annotations

from django.apps import AppConfig


class NightsConfig(AppConfig):
    name = "scorekeeper.nights"
    label = "nights"
    verbose_name = "League nights"
