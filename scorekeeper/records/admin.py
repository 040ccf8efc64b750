from __future__ import annotations

from django.contrib import admin

from scorekeeper.records.models import Claim


@admin.register(Claim)
class ClaimAdmin(admin.ModelAdmin[Claim]):
    """Claims are read here: made and revoked on the player's page, used by the player."""

    list_display = [
        "player",
        "made_by",
        "made_at",
        "expires_at",
        "used_at",
        "used_by",
        "revoked_at",
    ]
    list_select_related = ["player", "made_by", "used_by"]
    readonly_fields = ["code_digest"]

    def has_add_permission(self, request, obj=None) -> bool:
        return False
