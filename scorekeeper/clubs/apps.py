from __future__ import annotations

from django.apps import AppConfig


class ClubsConfig(AppConfig):
    name = "scorekeeper.clubs"
    label = "clubs"
    verbose_name = "Clubs"
