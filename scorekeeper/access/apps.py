from __future__ import annotations

from django.apps import AppConfig


class AccessConfig(AppConfig):
    name = "scorekeeper.access"
    label = "access"
    verbose_name = "Access"
