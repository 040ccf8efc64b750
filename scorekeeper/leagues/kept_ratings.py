"""Ratings kept, not replayed: each rated match's changes are written when it finishes, in the
same transaction, and a change to a finished match works the ratings out again from that match
on (only the later matches). Pages read the kept rows (RatingChange, Rating).

A match is rated when it counts (results.counted: a league season's, or started by a signed-in
account), is finished, has two sides or more and was not forfeited; at a league night that
counts only signed results, once it is signed. A forfeit is a result in the
standings but not a game played: it says nothing of anyone's skill, so it moves no rating.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction
from django.db.models import OuterRef, Q, Subquery
from django.db.models.functions import Coalesce

from scorekeeper.leagues.models import Rating, RatingChange, Season
from scorekeeper.leagues.ratings import Change, Game, Skill, replay
from scorekeeper.leagues.results import counted
from scorekeeper.leagues.seams import awaits_signature
from scorekeeper.leagues.standings import Result
from scorekeeper.rules.match import Side
from scorekeeper.tables.models import Match, Seat
from scorekeeper.tables.seats import seating

#: a match's place in the ratings' order: when it finished, then its id
Key = tuple[datetime.datetime, int]


def rated_matches(game: str, using: str = "default"):
    """The matches of the game that are rated, each with its ``rated_at`` (its place in the
    order, with the match's id)."""
    matches = counted(Match.objects.using(using).filter(game=game, finished=True)).filter(
        league_entry__forfeited_by=None
    )
    # a league night that counts only signed results rates its match once it is signed, as
    # its standings count it (nights/signing.py)
    matches = matches.exclude(awaits_signature())
    return matches.annotate(rated_at=Coalesce("finished_at", "created_at")).order_by(
        "rated_at", "pk"
    )


def _after(key: Key, *, at: str = "rated_at", match: str = "pk") -> Q:
    moment, match_id = key
    return Q(**{f"{at}__gt": moment}) | Q(**{at: moment, f"{match}__gte": match_id})


def games_from(
    game: str, start: Key | None, using: str = "default"
) -> list[tuple[Game, Key, int | None]]:
    """The game's rated results from ``start`` on (all when None), in order, each with its key
    and its season: two queries."""
    matches = rated_matches(game, using)
    if start is not None:
        matches = matches.filter(_after(start))
    rows = list(
        matches.values_list(
            "pk", "rules", "totals", "winners", "rated_at", "league_entry__season_id"
        )
    )
    seats: dict[int, list[tuple[str, int | None]]] = defaultdict(list)
    if rows:
        # the seats of the game's finished matches from the first on, joined rather than asked
        # of a subquery: PostgreSQL plans "match_id IN (counted matches)" as a loop over every
        # seat and match of a table whose statistics are not gathered yet (just filled),
        # taking minutes at a thousand matches; those of matches not rated are read and left
        found = Seat.objects.using(using).filter(match__game=game, match__finished=True)
        if start is not None:
            found = found.annotate(
                rated_at=Coalesce("match__finished_at", "match__created_at")
            ).filter(rated_at__gte=start[0])
        for match_id, player_id, team in found.order_by("match_id", "position").values_list(
            "match_id", "player_id", "team"
        ):
            seats[match_id].append((str(player_id), team))
    games = []
    for pk, house_rules, totals, winners, rated_at, season_id in rows:
        game_value = game_of(pk, game, house_rules, seats[pk], totals, winners)
        if game_value is not None:
            games.append((game_value, (rated_at, pk), season_id))
    return games


def game_of(
    match_id: int,
    game: str,
    house_rules: dict,
    seats: list[tuple[str, int | None]],
    totals: list,
    winners: list,
) -> Game | None:
    """The rated result of a finished match from its seats (player id as text, partnership),
    or None for a match of fewer than two sides."""
    sides = [side.players for side in seating(game, seats, house_rules).sides]
    if len(sides) < 2:
        return None
    padded = [int(total) for total in totals] + [0] * len(sides)
    result = Result(
        match_id=match_id,
        sides=tuple(sides),
        totals=tuple(padded[: len(sides)]),
        finished=True,
        winners=frozenset(winners),
        lowest_wins=game == "chickenfoot",
    )
    return Game(
        match_id,
        tuple(tuple(int(player) for player in side) for side in sides),
        tuple(result.place(index) for index in range(len(sides))),
    )


def ratings_rework(
    *,
    game: str,
    start: Key | None = None,
    players: Iterable[int] = (),
    using: str = "default",
) -> None:
    """Work the game's ratings out again from the match at ``start`` on (from the first when
    None): the kept changes from there are replaced, the players' ratings follow (and those of
    ``players``, whose changes went with a deleted match). Call inside the transaction that
    changed the match."""
    with transaction.atomic(using=using):
        later = RatingChange.objects.using(using).filter(game=game)
        if start is not None:
            later = later.filter(_after(start, at="finished_at", match="match_id"))
        touched = set(players) | set(later.values_list("player_id", flat=True).distinct())
        later.delete()
        games = games_from(game, start, using)
        for value, _, _ in games:
            for side in value.sides:
                touched.update(side)  # type: ignore[arg-type]  # kept by id
        skills, played = _standing_before(game, start, touched, using)
        rated = [value for value, _, _ in games]
        changes = replay(rated, skills, played)  # type: ignore[arg-type]  # kept by id
        where = {value.match_id: (key, season) for value, key, season in games}
        RatingChange.objects.using(using).bulk_create(
            (rating_change_row(game, change, *where[change.match_id]) for change in changes),
            batch_size=500,
        )
        last: dict[int, Change] = {}
        for change in changes:
            last[change.player] = change  # type: ignore[index]  # kept by id
        _keep_ratings(game, touched, skills, played, last, using)


def _standing_before(
    game: str, start: Key | None, players: Iterable[int], using: str
) -> tuple[dict[int, Skill], dict[int, int]]:
    """The players' skills and rated matches before ``start``: from each one's last change
    before it (one query)."""
    if start is None:
        return {}, {}
    before = RatingChange.objects.filter(
        game=game, player_id=OuterRef("player_id"), finished_at__lte=start[0]
    ).exclude(finished_at=start[0], match_id__gte=start[1])
    last = Subquery(before.order_by("-finished_at", "-match_id").values("pk")[:1])
    rows = (
        RatingChange.objects.using(using)
        .filter(game=game, player_id__in=players, pk=last)
        .values_list("player_id", "mu_after", "sigma_after", "number")
    )
    skills, played = {}, {}
    for player, mu, sigma, number in rows:
        skills[player] = Skill(mu, sigma)
        played[player] = number
    return skills, played


def rating_change_row(game: str, change: Change, key: Key, season_id: int | None) -> RatingChange:
    """The kept row of one player's change in one match; ``key`` is (finished at, match id)."""
    return RatingChange(  # type: ignore[misc]  # kept by id
        game=game,
        match_id=change.match_id,
        player_id=change.player,
        season_id=season_id,
        finished_at=key[0],
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


def _keep_ratings(
    game: str,
    players: set[int],
    skills: dict[int, Skill],
    played: dict[int, int],
    last: dict[int, Change],
    using: str,
) -> None:
    """Each of ``players``' rating as it now stands: their last change (``last``), or the last
    before the reworked matches, or none."""
    Rating.objects.using(using).filter(game=game, player_id__in=players).delete()
    rows = []
    for player in players:
        if player in last:
            change = last[player]
            skill, count, delta = change.after, change.number, change.delta
        elif player in skills:
            skill, count, delta = skills[player], played[player], 0
        else:
            continue
        rows.append(
            Rating(
                game=game,
                player_id=player,
                mu=skill.mu,
                sigma=skill.sigma,
                shown=skill.shown,
                played=count,
                last_delta=delta,
            )
        )
    Rating.objects.using(using).bulk_create(rows, batch_size=500)


def ratings_after_change(*, match: Match) -> None:
    """Keep the ratings in step with a match that changed: nothing when it was not rated and is
    not now, or when its result and place in the order are as they were; otherwise work them
    out again from the earlier of its old and new places on."""
    was = list(
        RatingChange.objects.filter(match_id=match.pk).values_list(
            "finished_at", "player_id", "side", "place"
        )
    )
    now = games_from_match(match)
    if not was and now is None:
        return
    old_key = (was[0][0], match.pk) if was else None
    start: Key | None
    if now is not None:
        value, new_key = now
        kept = {(player, side, place) for _, player, side, place in was}
        made = {
            (player, index, value.places[index])
            for index, side in enumerate(value.sides)
            for player in side
        }
        if old_key == new_key and kept == made:
            return
        start = new_key if old_key is None else min(old_key, new_key)
    else:
        start = old_key
    ratings_rework(game=match.game, start=start)


def ratings_after_new_seasons(*, game: str, seasons: Iterable[Season]) -> None:
    """Keep the game's ratings in step with new seasons whose matches were just written: worked
    out again once, from the first of those matches that is rated on (none rated: nothing)."""
    first = (
        rated_matches(game)
        .filter(league_entry__season__in=list(seasons))
        .values_list("rated_at", "pk")
        .first()
    )
    if first is not None:
        ratings_rework(game=game, start=first)


def games_from_match(match: Match) -> tuple[Game, Key] | None:
    """The match's rated result and key, or None when it is not rated (two queries)."""
    row = (
        rated_matches(match.game)
        .filter(pk=match.pk)
        .values_list("rules", "totals", "winners", "rated_at")
        .first()
    )
    if row is None:
        return None
    house_rules, totals, winners, rated_at = row
    seats = [
        (str(player_id), team)
        for player_id, team in Seat.objects.filter(match_id=match.pk)
        .order_by("position")
        .values_list("player_id", "team")
    ]
    value = game_of(match.pk, match.game, house_rules, seats, totals, winners)
    return None if value is None else (value, (rated_at, match.pk))


def ratings_rework_all(using: str = "default") -> None:
    """Every game's ratings worked out from the first match, after matches were written in
    bulk, outside the app's services (leagues/moves.py): the demo data, the benchmark's hall,
    the migration."""
    # order_by("game"): the matches' own ordering would make every match's game "distinct"
    games = Match.objects.using(using).order_by("game").values_list("game", flat=True)
    for game in games.distinct():
        ratings_rework(game=game, using=using)


# -- what the pages read -----------------------------------------------------------------------


def change_of(row: RatingChange) -> Change:
    return Change(
        match_id=row.match_id,
        player=row.player_id,
        side=row.side,
        place=row.place,
        before=Skill(row.mu_before, row.sigma_before),
        after=Skill(row.mu_after, row.sigma_after),
        expected=row.expected,
        share=row.share,
        number=row.number,
    )


@dataclass
class Explained:
    """One player's change in a match, with the names it is explained by."""

    name: str
    player_id: int
    change: Change


@dataclass
class SideExplained:
    """A side of a rated match: its players' changes, its place and the chance it was given."""

    index: int
    place: int
    expected: float
    players: list[Explained]
    #: "won", "lost" or "drew" between two sides; "placed" or "shared" (a place) among more
    outcome: str = ""

    @property
    def label(self) -> str:
        """The side's players as the pages name a side ("Ana & Cy")."""
        return Side(tuple(player.name for player in self.players)).label

    @property
    def expected_percent(self) -> int:
        return round(100 * self.expected)


@dataclass
class MatchExplained:
    match_id: int
    game: str
    sides: list[SideExplained]

    def side_of(self, player_id: int) -> SideExplained | None:
        return next(
            (s for s in self.sides if any(p.player_id == player_id for p in s.players)), None
        )


def matches_explained(match_ids: Iterable[int]) -> dict[int, MatchExplained]:
    """The rating changes of the matches, side by side, with the players' names (one query)."""
    rows = RatingChange.objects.filter(match_id__in=list(match_ids)).select_related("player")
    found: dict[int, MatchExplained] = {}
    for row in rows.order_by("match_id", "side", "pk"):
        match = found.setdefault(row.match_id, MatchExplained(row.match_id, row.game, []))
        if not match.sides or match.sides[-1].index != row.side:
            match.sides.append(SideExplained(row.side, row.place, row.expected, []))
        match.sides[-1].players.append(
            Explained(row.player.shown_name, row.player_id, change_of(row))
        )
    for match in found.values():
        for side in match.sides:
            shared = sum(1 for other in match.sides if other.place == side.place) > 1
            if len(match.sides) == 2:
                side.outcome = "drew" if shared else "won" if side.place == 1 else "lost"
            else:
                side.outcome = "shared" if shared else "placed"
    return found
