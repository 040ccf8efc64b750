"""A season's kept standings and version move with every change to its matches, in the same
transaction (leagues/kept.py).

Every change to a match saves its row (scoring.save_scores, also what the admin does), a
forfeit or a new league match saves its season entry, and a renamed player changes the names
in every season they played in. A change that leaves a match being played, as it was, leaves
the season alone (save_scores says so): the standings count finished matches and list the
others by their players only, so a hall's plays on league night change nothing in a season's
standings, its version or its pages kept in the cache.
"""

from __future__ import annotations

from django.db.models import F
from django.db.models.signals import post_save, pre_delete
from django.dispatch import receiver

from scorekeeper.leagues.kept import standings_count, standings_uncount
from scorekeeper.leagues.models import Season, SeasonMatch
from scorekeeper.tables.models import Match, Player


@receiver(post_save, sender=Match, dispatch_uid="season_standings_match")
def match_changed(sender: type, instance: Match, created: bool, **kwargs: object) -> None:
    if not created and not getattr(instance, "leaves_standings", False):
        standings_count(match_id=instance.pk)


@receiver(post_save, sender=SeasonMatch, dispatch_uid="season_standings_entry_saved")
def entry_changed(sender: type, instance: SeasonMatch, **kwargs: object) -> None:
    standings_count(match_id=instance.match_id)


@receiver(pre_delete, sender=SeasonMatch, dispatch_uid="season_standings_entry_deleted")
def entry_deleted(sender: type, instance: SeasonMatch, **kwargs: object) -> None:
    standings_uncount(entry=instance)


@receiver(post_save, sender=Player, dispatch_uid="season_version_player")
def player_changed(sender: type, instance: Player, created: bool, **kwargs: object) -> None:
    # the kept rows name players by id: only the pages showing the old name are drawn again
    if not created:
        Season.objects.filter(entries__match__seats__player=instance).update(
            version=F("version") + 1
        )
