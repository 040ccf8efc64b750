from __future__ import annotations

from django.contrib import admin

from scorekeeper.nights.models import CheckIn, Night, NightRound


class CheckInInline(admin.TabularInline):
    model = CheckIn
    extra = 0
    raw_id_fields = ["player"]


@admin.register(Night)
class NightAdmin(admin.ModelAdmin):
    list_display = ["played_on", "season", "draw", "rounds"]
    list_filter = ["season__league", "draw"]
    list_select_related = ["season__league"]
    inlines = [CheckInInline]


@admin.register(NightRound)
class NightRoundAdmin(admin.ModelAdmin):
    list_display = ["night", "number", "seed", "started_at"]
    list_select_related = ["night__season__league"]
