from __future__ import annotations

from django.contrib import admin

from scorekeeper.clubs.models import Club, Invitation, Membership


class MembershipInline(admin.TabularInline[Membership, Club]):
    model = Membership
    extra = 0
    raw_id_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin[Club]):
    list_display = ["name", "created_at"]
    search_fields = ["name"]
    inlines = [MembershipInline]


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin[Invitation]):
    list_display = ["club", "role", "made_by", "made_at", "expires_at", "used_at", "revoked_at"]
    list_filter = ["role"]
    list_select_related = ["club", "made_by"]
