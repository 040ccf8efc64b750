"""The kept ratings of every match finished before they were kept, worked out from the first."""

from collections import defaultdict

from django.db import migrations
from django.db.models import Q
from django.db.models.functions import Coalesce


def fill(apps, schema_editor):
    from scorekeeper.leagues.kept_ratings import game_of
    from scorekeeper.leagues.ratings import replay

    Match = apps.get_model("tables", "Match")
    Seat = apps.get_model("tables", "Seat")
    RatingChange = apps.get_model("leagues", "RatingChange")
    Rating = apps.get_model("leagues", "Rating")
    for game in Match.objects.values_list("game", flat=True).distinct().order_by("game"):
        rated = (
            Match.objects.filter(game=game, finished=True, league_entry__forfeited_by=None)
            .filter(Q(league_entry__isnull=False) | Q(created_by__isnull=False))
            .annotate(rated_at=Coalesce("finished_at", "created_at"))
            .order_by("rated_at", "pk")
            .values_list(
                "pk", "rules", "totals", "winners", "rated_at", "league_entry__season_id"
            )
        )
        seats = defaultdict(list)
        for match_id, player_id, team in (
            Seat.objects.filter(match__game=game, match__finished=True)
            .order_by("match_id", "position")
            .values_list("match_id", "player_id", "team")
        ):
            seats[match_id].append((str(player_id), team))
        games, where = [], {}
        for pk, rules, totals, winners, rated_at, season_id in rated:
            value = game_of(pk, game, rules, seats[pk], totals, winners)
            if value is not None:
                games.append(value)
                where[pk] = (rated_at, season_id)
        changes = replay(games)
        RatingChange.objects.bulk_create(
            (
                RatingChange(
                    game=game,
                    match_id=change.match_id,
                    player_id=change.player,
                    season_id=where[change.match_id][1],
                    finished_at=where[change.match_id][0],
                    number=change.number,
                    side=change.side,
                    place=change.place,
                    mu_before=change.before.mu,
                    sigma_before=change.before.sigma,
                    mu_after=change.after.mu,
                    sigma_after=change.after.sigma,
                    expected=change.expected,
                    share=change.share,
                )
                for change in changes
            ),
            batch_size=500,
        )
        last = {change.player: change for change in changes}
        Rating.objects.bulk_create(
            (
                Rating(
                    game=game,
                    player_id=player,
                    mu=change.after.mu,
                    sigma=change.after.sigma,
                    shown=change.after.shown,
                    played=change.number,
                    last_delta=change.delta,
                )
                for player, change in last.items()
            ),
            batch_size=500,
        )


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0003_ratings_kept"),
    ]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
