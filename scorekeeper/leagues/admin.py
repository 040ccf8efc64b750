from __future__ import annotations

from collections.abc import Callable

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
    (leagues/moves.py): ``remove`` is the service that deletes the admin's rows."""

    remove: Callable[..., object] | None = None

    def delete_model(self, request, obj) -> None:
        remove = type(self).remove
        assert remove is not None  # each admin below names its service
        remove([obj])

    def delete_queryset(self, request, queryset) -> None:
        remove = type(self).remove
        assert remove is not None  # each admin below names its service
        remove(list(queryset))


class SeasonInline(admin.TabularInline):
    model = Season
    extra = 0
    # a season is deleted on its own page, its matches leaving the ratings (KeptInStep)
    can_delete = False


@admin.register(League)
class LeagueAdmin(KeptInStep, admin.ModelAdmin):
    remove = leagues_remove
    list_display = ["name", "game", "created_at"]
    list_filter = ["game"]
    search_fields = ["name", "members__name"]
    filter_horizontal = ["members"]
    inlines = [SeasonInline]


@admin.register(Season)
class SeasonAdmin(KeptInStep, admin.ModelAdmin):
    remove = seasons_remove
    list_display = ["name", "league", "starts_on", "ends_on"]
    list_filter = ["league"]
    search_fields = ["name", "league__name"]
    list_select_related = ["league"]


def _entries_remove(entries) -> None:
    for entry in entries:
        season_match_remove(entry=entry)


@admin.register(SeasonMatch)
class SeasonMatchAdmin(KeptInStep, admin.ModelAdmin):
    remove = _entries_remove
    list_display = ["match", "season", "forfeited_by", "created_at"]
    list_filter = ["season__league"]
    search_fields = ["season__name", "match__seats__player__name"]
    list_select_related = ["match", "season__league"]
    raw_id_fields = ["match"]

    def save_model(self, request, obj, form, change) -> None:
        super().save_model(request, obj, form, change)
        # a forfeit set or taken back, a match put in a season
        result_moved(obj.match)
