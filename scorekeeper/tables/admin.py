from __future__ import annotations

from django.contrib import admin
from django.utils import timezone

from scorekeeper.tables.models import Hand, Match, Play, Player, Seat


class TouchesItsMatch:
    """An edit here, below a match (a seat, a hand, a play), saves the match's row too, as
    every change made through the app does: the boards and standings cached under the match's
    row are then drawn anew (scorekeeper/pages.py, leagues/signals.py)."""

    def match_ids(self, objects) -> set[int]:
        return {obj.match_id if hasattr(obj, "match_id") else obj.hand.match_id for obj in objects}

    def touch(self, match_ids: set[int]) -> None:
        for match in Match.objects.filter(pk__in=match_ids):
            match.save(update_fields=["updated_at"])

    def save_model(self, request, obj, form, change) -> None:
        super().save_model(request, obj, form, change)
        self.touch(self.match_ids([obj]))

    def save_related(self, request, form, formsets, change) -> None:
        super().save_related(request, form, formsets, change)
        self.touch(self.match_ids([form.instance]))

    def delete_model(self, request, obj) -> None:
        match_ids = self.match_ids([obj])
        super().delete_model(request, obj)
        self.touch(match_ids)

    def delete_queryset(self, request, queryset) -> None:
        match_ids = self.match_ids(queryset)
        super().delete_queryset(request, queryset)
        self.touch(match_ids)


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

    def save_model(self, request, obj, form, change) -> None:
        super().save_model(request, obj, form, change)
        # a new name shows on every board of the player's matches
        Match.objects.filter(seats__player=obj).update(updated_at=timezone.now())


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
class HandAdmin(TouchesItsMatch, admin.ModelAdmin):
    list_display = ["match", "number", "end_how", "end_player", "overridden", "ended_at"]
    list_filter = ["match__game", "end_how", "overridden"]
    search_fields = ["match__seats__player__name", "end_player"]
    list_select_related = ["match"]
    inlines = [PlayInline]


@admin.register(Play)
class PlayAdmin(TouchesItsMatch, admin.ModelAdmin):
    list_display = ["hand", "number", "player", "points", "tile", "overridden", "created_at"]
    list_filter = ["hand__match__game", "overridden"]
    search_fields = ["player"]
    list_select_related = ["hand__match"]


@admin.register(Seat)
class SeatAdmin(TouchesItsMatch, admin.ModelAdmin):
    list_display = ["match", "position", "player", "team"]
    search_fields = ["player__name"]
    list_select_related = ["match", "player"]
