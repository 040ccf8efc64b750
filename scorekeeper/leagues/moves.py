"""What moves with a result: the one place a change to a match, its season entry or a player
calls to keep the kept aggregates in step, in the transaction that makes the change (STYLE.md:
explicit calls, not signals).

``result_moved`` is called once by every service that can change what a match counts for:
an entry and a correction (tables/recording.py, through tables/seams.py), a match stored whole
(tables/scoring.create_match: a setup, an import, a night's table), a seat handed over
(tables/turns.py), a signature, a dispute and its settling (nights/signing.py), and the
services below. It moves the season's kept standings and version (kept.py) and the game's kept
ratings (kept_ratings.py), and tells the live pages that show the match (scorekeeper/live: its
scoreboard, its season's wall, its night's board). A play in a match that was being played and
still is moves neither, and the entry does not call it (it tells the live pages itself). A
league bundle's matches, written together into new seasons, move the same once for all of them
(``matches_imported``).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.db.models import F

from scorekeeper.leagues.kept import standings_count, standings_rebuild, standings_uncount
from scorekeeper.leagues.kept_ratings import (
    ratings_after_change,
    ratings_after_new_seasons,
    ratings_rework,
)
from scorekeeper.leagues.models import League, RatingChange, Season, SeasonMatch
from scorekeeper.live.announce import announce
from scorekeeper.tables import seams
from scorekeeper.tables.models import Match, Player


def result_moved(match: Match) -> None:
    """Keep the season's standings and the game's ratings in step with ``match`` as it stands
    now (its row as the change wrote it). Call inside the change's transaction."""
    standings_count(match_id=match.pk)
    ratings_after_change(match=match)
    announce(seams.live_topics(match))


def matches_imported(*, game: str, seasons: list[Season]) -> None:
    """Keep the standings and ratings in step with new seasons whose matches were all written
    in one transaction (a league bundle, with ``create_match(moved_by_caller=True)``): each
    season's standings worked out once from its matches, the game's ratings once from the first
    of them on, and the seasons' live pages told. The same rows as ``result_moved`` after each
    match, without reading the whole game's ratings again for every one. Call inside that
    transaction."""
    for season in seasons:
        standings_rebuild(season_id=season.pk)
    Season.objects.filter(pk__in=[season.pk for season in seasons]).update(version=F("version") + 1)
    ratings_after_new_seasons(game=game, seasons=seasons)
    announce([f"season:{season.pk}" for season in seasons])


def season_match_add(
    *, season: Season, match: Match, forfeited_by: int | None = None
) -> SeasonMatch:
    """Put a stored match in a season (a match started for the season writes its entry with
    the match, and ``create_match`` moves what follows: this is for a match stored before)."""
    with transaction.atomic():
        entry = SeasonMatch.objects.create(season=season, match=match, forfeited_by=forfeited_by)
        result_moved(match)
    return entry


def season_match_forfeit(*, entry: SeasonMatch, side: int | None) -> None:
    """``side`` forfeits the season's match (None: the forfeit is taken back): a loss for it
    and a win for the others in the standings; a forfeited match moves no rating."""
    with transaction.atomic():
        entry.forfeited_by = side
        entry.save(update_fields=["forfeited_by"])
        result_moved(_match_of(entry))


def season_match_remove(*, entry: SeasonMatch) -> None:
    """Take the match out of its season: the standings no longer count it, nor the ratings
    (unless an account started it)."""
    with transaction.atomic():
        match = _match_of(entry)
        standings_uncount(entry=entry)
        entry.delete()
        ratings_after_change(match=match)
        announce([f"match:{match.pk}", f"season:{entry.season_id}"])


def seasons_remove(seasons: Iterable[Season]) -> None:
    """Delete seasons (the admin), their matches leaving the ratings as each entry would."""
    with transaction.atomic():
        for season in seasons:
            for entry in SeasonMatch.objects.filter(season=season):
                season_match_remove(entry=entry)
            season.delete()


def leagues_remove(leagues: Iterable[League]) -> None:
    """Delete leagues (the admin), with their seasons (``seasons_remove``)."""
    with transaction.atomic():
        for league in leagues:
            seasons_remove(Season.objects.filter(league=league))
            league.delete()


def match_delete(match: Match) -> None:
    """Delete a match: out of its season's standings, and the ratings worked out again from
    where it stood, for the players it rated."""
    with transaction.atomic():
        entry = SeasonMatch.objects.filter(match=match).first()
        if entry is not None:
            standings_uncount(entry=entry)
        rated = list(
            RatingChange.objects.filter(match_id=match.pk).values_list("finished_at", "player_id")
        )
        game = match.game
        key = (rated[0][0], match.pk) if rated else None
        match.delete()
        if key is not None:
            ratings_rework(game=game, start=key, players={player for _, player in rated})


def player_renamed(player: Player) -> None:
    """A player's new name: the pages of the seasons they played in are drawn again (the kept
    rows name players by id, and stand as they are)."""
    Season.objects.filter(entries__match__seats__player=player).update(version=F("version") + 1)


def _match_of(entry: SeasonMatch) -> Match:
    """The entry's match as the moves read it (its key and game): read with the entry, or its
    game alone."""
    match = entry._state.fields_cache.get("match")
    if match is not None:
        return match
    game = Match.objects.values_list("game", flat=True).get(pk=entry.match_id)
    return Match(pk=entry.match_id, game=game)
