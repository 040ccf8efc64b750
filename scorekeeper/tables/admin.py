from __future__ import annotations

from django.contrib import admin

from scorekeeper.tables.models import Hand, Match, Play, Player, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    autocomplete_fields = ["player"]


class HandInline(admin.TabularInline):
    model = Hand
    extra = 0
    fields = ["number", "end_how", "end_player", "pips", "overridden"]
    show_change_link = True


class PlayInline(admin.TabularInline):
    model = Play
    extra = 0
    fields = ["number", "player", "points", "tile", "overridden"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "created_at"]
    search_fields = ["name"]


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["__str__", "game", "seated", "hand_count", "finished", "winner", "updated_at"]
    list_filter = ["game", "finished"]
    search_fields = ["seats__player__name"]
    readonly_fields = ["totals", "finished", "winner", "hand_count", "created_at", "updated_at"]
    inlines = [SeatInline, HandInline]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("seats__player")

    @admin.display(description="Players")
    def seated(self, match: Match) -> str:
        return ", ".join(seat.player.name for seat in match.seats.all())


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ["match", "number", "end_how", "end_player", "overridden", "ended_at"]
    list_filter = ["match__game", "end_how", "overridden"]
    search_fields = ["match__seats__player__name", "end_player"]
    list_select_related = ["match"]
    inlines = [PlayInline]


@admin.register(Play)
class PlayAdmin(admin.ModelAdmin):
    list_display = ["hand", "number", "player", "points", "tile", "overridden", "created_at"]
    list_filter = ["hand__match__game", "overridden"]
    search_fields = ["player"]
    list_select_related = ["hand__match"]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["match", "position", "player", "team"]
    search_fields = ["player__name"]
    list_select_related = ["match", "player"]
