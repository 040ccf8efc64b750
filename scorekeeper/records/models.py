"""A claim of a player's record: what an organizer hands the player so that their account
becomes the record's owner (records/claims.py)."""

from __future__ import annotations

import datetime

from django.db import models
from django.utils import timezone

from scorekeeper.clubs.models import OnceLink
from scorekeeper.tables.models import Player

#: how long a claim's link and code bring an account in
CLAIM_DAYS = 7


def _expiry() -> datetime.datetime:
    return timezone.now() + datetime.timedelta(days=CLAIM_DAYS)


class Claim(OnceLink):
    """One claim of one record: used once, until it expires or is revoked (a new claim of the
    same record revokes the ones still open). Its link carries the claim's id signed with the
    site's key; its short code is kept only as a keyed digest, so neither can be read back
    from the database."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claims")
    #: the keyed digest of the short code (claims.code_digest)
    code_digest = models.CharField(max_length=64, unique=True)
    expires_at = models.DateTimeField(default=_expiry)

    class Meta:
        ordering = ["player", "-made_at"]

    def __str__(self) -> str:
        return f"claim of {self.player_id}"
