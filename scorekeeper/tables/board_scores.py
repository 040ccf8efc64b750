"""A match's score as the hall's boards show it: each side's players and total, and the hand at
the table with who leads, opens or starts it. Worked out once per version of the match and cached
in the shared cache by the entry that changed the match, which has just scored it. A version
no entry cached (a change made elsewhere) is scored from its hands by each board that shows it.

The wall board, the night's board and the director's desk each read a table's hands and plays
and scored them again after every play: in the hall benchmark at 100 tables on PostgreSQL that
was a tenth of the app's CPU, three readings of every play. Cached, the workers took 1.14 cores
there against 1.24, and the desk's p99 fell from 950 to 360 ms (docs/benchmark.md)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from django.core.cache import cache
from django.db.models import Prefetch, prefetch_related_objects

from scorekeeper import rules
from scorekeeper.tables import seams
from scorekeeper.tables.models import Hand, Match, Play
from scorekeeper.tables.scoring import scoreboard_of
from scorekeeper.tables.seats import seat_names

#: how long a score is cached: the boards poll every 2 to 5 s and draw a table's new version at
#: their next poll, then cache the drawing (tables/drawn.py). One is written at every play: cached
#: for ten minutes, a hall of 100 tables held 7,500 of them, past the database cache's 5,000
#: entries, whose cull then drops a third of the entries in the order of their keys, the
#: watchers' answers and the standings first.
SCORE_CACHED = 60


@dataclass(frozen=True)
class TableScore:
    """What the boards show of a match's score."""

    #: the seats' names in seat order, as scored: a player renamed since is scored again
    players: tuple[str, ...]
    #: each side's players and total, in seat order
    sides: list[tuple[tuple[str, ...], int]]
    #: the hand being played (or next) and who or what starts it; None once the match is over
    next_up: rules.NextUp | None
    #: the sides ahead, by index: the lowest total in Chickenfoot, the highest elsewhere; none
    #: while all are level (a score cached without it reads as none)
    leading: tuple[int, ...] = ()

    @classmethod
    def of(cls, board: rules.Scoreboard, names: tuple[str, ...]) -> TableScore:
        """From the engine's scoreboard (players by seat) and the seats' names."""
        named = seat_names(names)
        totals = [board.totals[side] for side in board.sides]
        best = (min if board.lowest_wins else max)(totals, default=0)
        return cls(
            names,
            [(tuple(named[p] for p in side.players), board.totals[side]) for side in board.sides],
            _next_named(board.next, named),
            tuple(n for n, total in enumerate(totals) if total == best) if _apart(totals) else (),
        )


def _next_named(next_up: rules.NextUp | None, names: dict[str, str]) -> rules.NextUp | None:
    """What comes next with who leads or opens it by name (a board says it short)."""
    if next_up is None:
        return None
    return replace(
        next_up,
        leader=names.get(next_up.leader) if next_up.leader else None,
        opener=names.get(next_up.opener) if next_up.opener else None,
    )


def _apart(totals: list[int]) -> bool:
    """Whether one side is ahead of another: while every side has the same total (before the
    first points, or level) none is marked."""
    return len(set(totals)) > 1


def _key(match_id: int, version: int) -> str:
    return f"table.score:{match_id}:{version}"


def cache_score(match: Match, board: rules.Scoreboard) -> None:
    """Cache the score of a match in a season (the only ones a board shows), at the version just
    written, worked out by the entry that wrote it. ``match``: read
    ``seams.with_locked_match_joins()``, its season entry joined."""
    if seams.shown_on_boards(match):
        score = TableScore.of(board, _names(match))
        cache.set(_key(match.pk, match.version), score, SCORE_CACHED)


def scores_of(matches: Iterable[Match]) -> dict[int, TableScore]:
    """Each match's score by id, at its version. ``matches``: read with their seats (tables
    with_seats). One query of the cache; the matches whose score is not cached there (or was cached
    under a name since changed) have their hands and plays read, in two queries, and scored.
    Those are not cached: the database cache writes one entry at a time, a few queries each, and
    a board drawn cold would write every table's."""
    matches = list(matches)
    keys = {match.pk: _key(match.pk, match.version) for match in matches}
    cached = cache.get_many(list(keys.values()))
    scores = {}
    unscored = []
    for match in matches:
        score = cached.get(keys[match.pk])
        if score is not None and score.players == _names(match):
            scores[match.pk] = score
        else:
            unscored.append(match)
    if unscored:
        prefetch_related_objects(
            unscored,
            Prefetch("hands", queryset=Hand.objects.order_by("number")),
            Prefetch("hands__plays", queryset=Play.objects.order_by("number")),
        )
        scores.update(
            (match.pk, TableScore.of(scoreboard_of(match), _names(match))) for match in unscored
        )
    return scores


def _names(match: Match) -> tuple[str, ...]:
    return tuple(seat.player.shown_name for seat in match.seats.all())
