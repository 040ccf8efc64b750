"""A claim of a player's record: what an organizer hands the player so that their account
becomes the record's owner (records/claims.py)."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db import models
from django.utils import timezone

from scorekeeper.tables.models import Player

#: how long a claim's link and code bring an account in
CLAIM_DAYS = 7


def _expiry() -> datetime.datetime:
    return timezone.now() + datetime.timedelta(days=CLAIM_DAYS)


class Claim(models.Model):
    """One claim of one record: used once, until it expires or is revoked (a new claim of the
    same record revokes the ones still open). Its link carries the claim's id signed with the
    site's key; its short code is kept only as a keyed digest, so neither can be read back
    from the database."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claims")
    #: the keyed digest of the short code (claims.code_digest)
    code_digest = models.CharField(max_length=64, unique=True)
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    made_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(default=_expiry)
    revoked_at = models.DateTimeField(null=True, blank=True)
    used_at = models.DateTimeField(null=True, blank=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        ordering = ["player", "-made_at"]

    def __str__(self) -> str:
        return f"claim of {self.player_id}"

    def open_at(self, now: datetime.datetime) -> bool:
        """Whether the link or code still makes an account the record's owner."""
        return self.revoked_at is None and self.used_at is None and now < self.expires_at
