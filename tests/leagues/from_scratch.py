"""A season's results worked out from every one of its matches, the way the kept standings
read them when a season is worked out again (``results_by_player_id``, what
``standings_rebuild`` counts), with the players named: what the tests hold the kept standings
against."""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.leagues.models import SeasonMatch
from scorekeeper.leagues.results import results_by_player_id
from scorekeeper.leagues.standings import Result
from scorekeeper.tables.models import Player, Seat

#: a season's matches in the order they finished
IN_FINISHING_ORDER = ("match__finished_at", "created_at", "pk")


def season_results(season_id: int) -> list[Result]:
    """The season's results in the order its matches finished, players by their names now."""
    entries = SeasonMatch.objects.filter(season_id=season_id).order_by(*IN_FINISHING_ORDER)
    seats = Seat.objects.filter(match__league_entry__season_id=season_id)
    names = dict(Player.objects.filter(pk__in=seats.values("player_id")).values_list("pk", "name"))
    return [
        replace(result, sides=tuple(tuple(names[pk] for pk in side) for side in result.sides))
        for _, result in results_by_player_id(entries, seats)
    ]
