from __future__ import annotations

from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "scorekeeper.leagues"
    label = "leagues"
    verbose_name = "Leagues"

    def ready(self) -> None:
        # connect the receivers
        from scorekeeper.leagues import kept_ratings, signals  # noqa: F401
