from __future__ import annotations

from typing import Any

from django.contrib import admin

from scorekeeper.leagues.models import League, Season, SeasonMatch
from scorekeeper.leagues.moves import (
    leagues_remove,
    result_moved,
    season_match_remove,
    seasons_remove,
)


class KeptInStep:
    """Deleting here moves the kept standings and ratings, as the app's own pages do
    (leagues/moves.py): each admin's ``remove`` is the service that deletes its rows."""

    def remove(self, rows: list[Any]) -> None:
        raise NotImplementedError

    def delete_model(self, request, obj) -> None:
        self.remove([obj])

    def delete_queryset(self, request, queryset) -> None:
        self.remove(list(queryset))


class SeasonInline(admin.TabularInline):
    model = Season
    extra = 0
    # a season is deleted on its own page, its matches leaving the ratings (KeptInStep)
    can_delete = False


@admin.register(League)
class LeagueAdmin(KeptInStep, admin.ModelAdmin):
    list_display = ["name", "game", "created_at"]
    list_filter = ["game"]
    search_fields = ["name", "members__name"]
    filter_horizontal = ["members"]
    inlines = [SeasonInline]

    def remove(self, rows: list[Any]) -> None:
        leagues_remove(rows)


@admin.register(Season)
class SeasonAdmin(KeptInStep, admin.ModelAdmin):
    list_display = ["name", "league", "starts_on", "ends_on"]
    list_filter = ["league"]
    search_fields = ["name", "league__name"]
    list_select_related = ["league"]

    def remove(self, rows: list[Any]) -> None:
        seasons_remove(rows)


@admin.register(SeasonMatch)
class SeasonMatchAdmin(KeptInStep, admin.ModelAdmin):
    list_display = ["match", "season", "forfeited_by", "created_at"]
    list_filter = ["season__league"]
    search_fields = ["season__name", "match__seats__player__name"]
    list_select_related = ["match", "season__league"]
    raw_id_fields = ["match"]

    def remove(self, rows: list[Any]) -> None:
        for entry in rows:
            season_match_remove(entry=entry)

    def save_model(self, request, obj, form, change) -> None:
        super().save_model(request, obj, form, change)
        # a forfeit set or taken back, a match put in a season
        result_moved(obj.match)
