from __future__ import annotations

from django.contrib import admin

from scorekeeper.leagues.models import League, Season, SeasonMatch


class SeasonInline(admin.TabularInline):
    model = Season
    extra = 0


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "created_at"]
    list_filter = ["game"]
    search_fields = ["name", "members__name"]
    filter_horizontal = ["members"]
    inlines = [SeasonInline]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "league", "starts_on", "ends_on"]
    list_filter = ["league"]
    search_fields = ["name", "league__name"]
    list_select_related = ["league"]


@admin.register(SeasonMatch)
class SeasonMatchAdmin(admin.ModelAdmin):
    list_display = ["match", "season", "forfeited_by", "created_at"]
    list_filter = ["season__league"]
    search_fields = ["season__name", "match__seats__player__name"]
    list_select_related = ["match", "season__league"]
    raw_id_fields = ["match"]
