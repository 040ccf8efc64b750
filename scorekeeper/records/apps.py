from __future__ import annotations

from django.apps import AppConfig


class RecordsConfig(AppConfig):
    name = "scorekeeper.records"
    label = "records"
    verbose_name = "Players' records"
