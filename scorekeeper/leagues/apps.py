from __future__ import annotations

from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "scorekeeper.leagues"
    label = "leagues"
    verbose_name = "Leagues"

    def ready(self) -> None:
        from scorekeeper.leagues import signals  # noqa: F401  (connects the receivers)
