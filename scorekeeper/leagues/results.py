"""Stored matches as the standings see them: sides, totals, winners."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Prefetch, QuerySet

from scorekeeper.leagues.models import SeasonMatch
from scorekeeper.leagues.standings import Result
from scorekeeper.tables.models import Match, Seat
from scorekeeper.tables.scoring import seated_match


def sides_of(match: Match) -> list[tuple[str, ...]]:
    """The match's sides in seat order (use a match with its seats prefetched)."""
    value = seated_match(match)
    return [tuple(value.players_of(side)) for side in value.sides]


def result_of(match: Match, forfeited_by: int | None = None) -> Result:
    sides = sides_of(match)
    names = [" & ".join(side) for side in sides]
    winners = match.winner if isinstance(match.winner, list) else [match.winner]
    return Result(
        match_id=match.pk,
        sides=tuple(sides),
        totals=tuple(int(match.totals.get(name, 0)) for name in names),
        finished=match.finished,
        winners=frozenset(i for i, name in enumerate(names) if name in winners),
        lowest_wins=match.game == "chickenfoot",
        forfeited_by=forfeited_by,
    )


def forfeited_by(match: Match) -> int | None:
    """The side that forfeited the match if it is a forfeited league match (select the match's
    ``league_entry`` with it to save a query)."""
    try:
        return match.league_entry.forfeited_by
    except SeasonMatch.DoesNotExist:
        return None


def with_seats(matches: QuerySet[Match]) -> QuerySet[Match]:
    return matches.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position"))
    )


def season_entries(season_id: int) -> list[SeasonMatch]:
    """A season's matches with their seats, in a fixed number of queries."""
    return list(
        SeasonMatch.objects.filter(season_id=season_id)
        .select_related("match")
        .prefetch_related(
            Prefetch(
                "match__seats",
                queryset=Seat.objects.select_related("player").order_by("position"),
            )
        )
        .order_by("match__finished_at", "created_at", "pk")
    )


def playing_now(season_id: int) -> list[tuple[SeasonMatch, list[str]]]:
    """The season's matches being played, each with its sides' names, their totals as they
    are now (read afresh: a play changes them without changing the season's version)."""
    entries = (
        SeasonMatch.objects.filter(season_id=season_id, forfeited_by=None, match__finished=False)
        .select_related("match")
        .prefetch_related(
            Prefetch(
                "match__seats",
                queryset=Seat.objects.select_related("player").order_by("position"),
            )
        )
        .order_by("created_at", "pk")
    )
    return [(entry, [" & ".join(side) for side in sides_of(entry.match)]) for entry in entries]


def season_results(entries: Iterable[SeasonMatch]) -> list[Result]:
    return [result_of(entry.match, entry.forfeited_by) for entry in entries]


def finished_in_order(*games: str) -> list[Match]:
    """Every finished match of the games, in the order they finished (for ratings)."""
    return list(
        with_seats(Match.objects.filter(game__in=games, finished=True)).order_by(
            "finished_at", "pk"
        )
    )
