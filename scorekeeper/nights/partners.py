"""A night's partnerships: paired by the organizer once and kept all night (nights/tournament.py
pairs their entries), or those of the league's last night offered again at one tap."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db import transaction
from django.utils.translation import gettext

from scorekeeper.nights.live import night_moved
from scorekeeper.nights.models import CheckIn, Night, NightRound
from scorekeeper.nights.rounds import lock_night, started_rounds
from scorekeeper.nights.tournament import TournamentError


def partners_pair(night: Night, pairs: Sequence[tuple[int, int]], alone: Sequence[int]) -> None:
    """Store the night's partnerships: each of ``pairs`` (player ids) partners the other, the
    players in ``alone`` have none. A player who has played keeps their partner all night: a
    partnership is one entry from its first round to its last, and its results are its own.
    A round drawn and not started is drawn again, with the new partnerships."""
    played = {pk for r in started_rounds(night) for t in r.tables.all() for pk in t.player_ids}
    played |= {pk for r in started_rounds(night) for pk in r.sitting_out_ids}
    partner = {a: b for a, b in pairs} | {b: a for a, b in pairs} | dict.fromkeys(alone)
    with transaction.atomic():
        lock_night(night)
        night_moved(night.pk)
        changed = False
        for check_in in night.check_ins.select_for_update().select_related("player"):
            if check_in.player_id not in partner:
                continue
            wanted = partner[check_in.player_id]
            if wanted == check_in.partner_id:
                continue
            if check_in.player_id in played and check_in.partner_id is not None:
                raise TournamentError(
                    gettext("%(player)s has played with their partner: that partnership stays.")
                    % {"player": check_in.player.name}
                )
            check_in.partner_id = wanted
            check_in.save(update_fields=["partner"])
            changed = True
        if changed:
            NightRound.objects.filter(night=night, started_at=None).delete()


def partners_last_night(night: Night, here: Iterable[int]) -> list[tuple[int, int]]:
    """The partnerships of the league's latest earlier night in partnerships whose two players
    are both ``here`` (player ids): "Same partners as last night" pairs them at one tap."""
    here = set(here)
    earlier = (
        CheckIn.objects.filter(night__season__league_id=night.season.league_id)
        .exclude(night=night)
        .exclude(partner=None)
        .filter(night__played_on__lte=night.played_on)
        .order_by("-night__played_on", "-night_id")
        .values_list("night_id", flat=True)
        .first()
    )
    if earlier is None:
        return []
    pairs = CheckIn.objects.filter(night_id=earlier).exclude(partner=None)
    return sorted(
        {
            (min(player, partner), max(player, partner))
            for player, partner in pairs.values_list("player_id", "partner_id")
            if player in here and partner in here
        }
    )
