from __future__ import annotations

from django.contrib import admin

from scorekeeper.access.models import MatchRole, ShareLink


@admin.register(ShareLink)
class ShareLinkAdmin(admin.ModelAdmin[ShareLink]):
    list_display = ["match", "role", "label", "owner", "created_by", "created_at", "revoked_at"]
    list_filter = ["role"]
    search_fields = ["label", "match__seats__player__name"]
    list_select_related = ["match", "created_by"]
    readonly_fields = ["token"]


@admin.register(MatchRole)
class MatchRoleAdmin(admin.ModelAdmin[MatchRole]):
    list_display = ["match", "user", "role"]
    list_filter = ["role"]
    search_fields = ["user__username", "match__seats__player__name"]
    list_select_related = ["match", "user"]
