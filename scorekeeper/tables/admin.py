"""The admin: players are renamed here (a name is stored once, so every board follows); what
was entered at the table is read-only, since only the app's entries go through the rules
engine, keep the totals and standings in step and are recorded in the history."""

from __future__ import annotations

from django.contrib import admin

from scorekeeper.tables.models import Change, Hand, Match, Play, Player, Seat
from scorekeeper.tables.players import player_renamed


class ReadOnly:
    """Shown, never changed here: a correction is made on the match's own pages."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class SeatInline(ReadOnly, admin.TabularInline):
    model = Seat
    extra = 0


class HandInline(ReadOnly, admin.TabularInline):
    model = Hand
    extra = 0
    fields = ["number", "end_how", "end_seat", "pips", "overridden"]
    show_change_link = True


class PlayInline(ReadOnly, admin.TabularInline):
    model = Play
    extra = 0
    fields = ["number", "seat", "points", "tile", "lead", "overridden"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "account", "initials_only", "created_at"]
    search_fields = ["name"]
    # the owner is set by a claim (records/claims.py); here by id, never from a list of them all
    raw_id_fields = ["account"]

    def save_model(self, request, obj, form, change) -> None:
        super().save_model(request, obj, form, change)
        if change:
            player_renamed(obj)


@admin.register(Match)
class MatchAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["__str__", "game", "seated", "hand_count", "finished", "updated_at"]
    list_filter = ["game", "finished"]
    search_fields = ["seats__player__name"]
    inlines = [SeatInline, HandInline]

    def has_delete_permission(self, request, obj=None) -> bool:
        # a whole match may go (a test match, say): its hands and history go with it
        return request.user.is_superuser

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("seats__player")

    @admin.display(description="Players")
    def seated(self, match: Match) -> str:
        return ", ".join(seat.player.name for seat in match.seats.all())


def seated_name(match: Match, seat: int | None) -> str:
    if seat is None:
        return ""
    return next((s.player.name for s in match.seats.all() if s.position == seat), "?")


@admin.register(Hand)
class HandAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["match", "number", "end_how", "went_out", "overridden", "ended_at"]
    list_filter = ["match__game", "end_how", "overridden"]
    search_fields = ["match__seats__player__name"]
    list_select_related = ["match"]
    inlines = [PlayInline]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("match__seats__player")

    @admin.display(description="Went out")
    def went_out(self, hand: Hand) -> str:
        return seated_name(hand.match, hand.end_seat)


@admin.register(Play)
class PlayAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["hand", "number", "player", "points", "tile", "overridden", "created_at"]
    list_filter = ["hand__match__game", "overridden"]
    list_select_related = ["hand__match"]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("hand__match__seats__player")

    @admin.display(description="Player")
    def player(self, play: Play) -> str:
        return seated_name(play.hand.match, play.seat)


@admin.register(Seat)
class SeatAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["match", "position", "player", "team"]
    search_fields = ["player__name"]
    list_select_related = ["match", "player"]


@admin.register(Change)
class ChangeAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["match", "number", "kind", "made_by", "maker", "made_at"]
    list_filter = ["kind"]
    list_select_related = ["match"]
