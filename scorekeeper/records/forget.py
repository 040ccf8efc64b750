"""A player forgotten on request: the name becomes a neutral one no other player has
("Player 4711"), the account's link and the open claims go; the matches, standings and
ratings stay, kept by the player's id."""

from __future__ import annotations

from django.db.models import Q
from django.utils import timezone

from scorekeeper.records.models import Claim
from scorekeeper.tables.models import Player
from scorekeeper.tables.names import name_key, name_look
from scorekeeper.tables.players import player_renamed


def placeholder_name(player: Player) -> str:
    """A neutral name for the player, the same player as no other (tables/names.py: neither
    its key nor its look is another's)."""
    number = player.pk
    while True:
        name = f"Player {number}"
        taken = (
            Player.objects.exclude(pk=player.pk)
            .filter(Q(key=name_key(name)) | Q(look=name_look(name)))
            .exists()
        )
        if not taken:
            return name
        number += 1_000_000


def record_forget(*, player: Player) -> None:
    """Forget the player's name (``player`` locked by the caller's transaction)."""
    player.name = placeholder_name(player)
    player.account = None
    player.initials_only = False
    player.save(update_fields=["name", "account", "initials_only"])
    Claim.objects.filter(player=player, used_at=None, revoked_at=None).update(
        revoked_at=timezone.now()
    )
    player_renamed(player)
