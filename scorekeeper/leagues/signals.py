"""A season's version moves with every change to its matches, in the same transaction.

The cached standings (views.standings_context) are keyed by it. Every change to a match saves
its row (scoring.save_scores, also what the admin does), a forfeit or a new league match saves
its season entry, and a renamed player changes the names in every season they played in.
A change that leaves a match being played, as it was, leaves the season alone (save_scores
says so): the standings count finished matches and list the others by their players only, so
a hall's plays on league night do not work out a season's standings again with every tap.
"""

from __future__ import annotations

from django.db.models import F
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from scorekeeper.leagues.models import Season, SeasonMatch
from scorekeeper.tables.models import Match, Player


def bump(seasons) -> None:
    seasons.update(version=F("version") + 1)


@receiver(post_save, sender=Match, dispatch_uid="season_version_match")
def match_changed(sender: type, instance: Match, created: bool, **kwargs: object) -> None:
    if not created and not getattr(instance, "leaves_standings", False):
        bump(Season.objects.filter(entries__match_id=instance.pk))


@receiver(post_save, sender=SeasonMatch, dispatch_uid="season_version_entry_saved")
@receiver(post_delete, sender=SeasonMatch, dispatch_uid="season_version_entry_deleted")
def entry_changed(sender: type, instance: SeasonMatch, **kwargs: object) -> None:
    bump(Season.objects.filter(pk=instance.season_id))


@receiver(post_save, sender=Player, dispatch_uid="season_version_player")
def player_changed(sender: type, instance: Player, created: bool, **kwargs: object) -> None:
    if not created:
        bump(Season.objects.filter(entries__match__seats__player=instance))
