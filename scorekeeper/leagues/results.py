"""Stored matches as the standings see them: sides, totals, winners."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import replace
from types import SimpleNamespace
from typing import NamedTuple, TypeVar

from django.db.models import BooleanField, Case, F, Prefetch, Q, QuerySet, Value, When

from scorekeeper import rules
from scorekeeper.leagues.models import SeasonMatch
from scorekeeper.leagues.seams import awaits_signature
from scorekeeper.leagues.standings import Result
from scorekeeper.rules.match import SIDE_JOIN, Side
from scorekeeper.tables.board_scores import scores_of
from scorekeeper.tables.models import Hand, Match, Play, Seat
from scorekeeper.tables.models import initials as initials_of
from scorekeeper.tables.scoring import hand_value, with_seats
from scorekeeper.tables.seats import by_seat, seat_keys, seating

T = TypeVar("T")


def sides_of(match: Match) -> list[tuple[str, ...]]:
    """The match's sides in seat order (use a match with its seats prefetched)."""
    return _sides(match.seating())


def shown_sides_of(match: Match) -> list[tuple[str, ...]]:
    """The match's sides as public pages name them (initials where a player asked: tables'
    Player.shown_name), in seat order (seats prefetched)."""
    shown = {seat.player.name: seat.player.shown_name for seat in match.seats.all()}
    return [tuple(shown.get(name, name) for name in side) for side in sides_of(match)]


def _sides(value: rules.Match) -> list[tuple[str, ...]]:
    return [side.players for side in value.sides]


def result_of(match: Match, forfeited_by: int | None = None) -> Result:
    stored = _Stored(
        match.pk, match.game, match.rules, match.totals, match.winners, match.finished, forfeited_by
    )
    return _result(match.seating(), stored)


def _result(value: rules.Match, match: _Stored) -> Result:
    """The result of a stored match, seated as the engine's ``value``."""
    sides = _sides(value)
    totals = list(match.totals) + [0] * (len(sides) - len(match.totals))
    return Result(
        match_id=match.match_id,
        sides=tuple(sides),
        totals=tuple(int(total) for total in totals[: len(sides)]),
        finished=match.finished,
        winners=frozenset(match.winners),
        lowest_wins=match.game == "chickenfoot",
        forfeited_by=match.forfeited_by,
    )


def forfeited_by(match: Match) -> int | None:
    """The side that forfeited the match if it is a forfeited league match (select the match's
    ``league_entry`` with it to save a query)."""
    try:
        return match.league_entry.forfeited_by
    except SeasonMatch.DoesNotExist:
        return None


def entries_with_seats(entries: QuerySet[SeasonMatch]) -> QuerySet[SeasonMatch]:
    """Season entries with their matches and seats, in a fixed number of queries."""
    return entries.select_related("match").prefetch_related(
        Prefetch(
            "match__seats", queryset=Seat.objects.select_related("player").order_by("position")
        )
    )


class Playing(NamedTuple):
    """A season's match being played, as the wall board shows it."""

    match: Match
    #: each side's players and total, in seating order
    sides: list[tuple[tuple[str, ...], int]]
    #: the hand being played (or next), and who leads or opens it or which double starts it
    next_up: rules.NextUp | None
    #: the sides ahead, by index (board_scores.TableScore.leading)
    leading: tuple[int, ...] = ()


def playing_now(season_id: int, only: Iterable[int] | None = None) -> list[Playing]:
    """The season's matches being played, each with its score as the boards show it: their
    totals, and the hand at the table with who leads it (Straight), opens it (Sedma) or the
    double that starts it (Chickenfoot), as the match's scoreboard says, cached once per version
    of the match (tables/board_scores.py). Read afresh: a play changes them without changing the
    season's version. A fixed number of queries, whatever their number. ``only``: those of
    these ids alone."""
    matches = Match.objects.filter(
        league_entry__season_id=season_id,
        league_entry__forfeited_by=None,
        finished=False,
    ).order_by("league_entry__created_at", "league_entry__pk")
    if only is not None:
        matches = matches.filter(pk__in=list(only))
    listed = list(with_seats(matches))
    scores = scores_of(listed)
    return [
        Playing(match, score.sides, score.next_up, score.leading)
        for match, score in ((match, scores[match.pk]) for match in listed)
    ]


def playing_versions(season_id: int) -> list[tuple[int, int]]:
    """Each match being played in the season, by id, with its version (one more with every
    change to it): one small query, which tells whether anything on the wall board moved."""
    return list(
        SeasonMatch.objects.filter(season_id=season_id, forfeited_by=None, match__finished=False)
        .order_by("created_at", "pk")
        .values_list("match_id", "match__version")
    )


def in_progress(season_id: int) -> list[tuple[SeasonMatch, list[str]]]:
    """The season's matches being played, each with its sides' names, in one query (their
    seats, each with its match and entry), however many have finished."""
    seats = (
        Seat.objects.filter(
            match__league_entry__season_id=season_id,
            match__league_entry__forfeited_by=None,
            match__finished=False,
        )
        .select_related("player", "match__league_entry")
        .order_by("match__league_entry__created_at", "match__league_entry__pk", "position")
    )
    seated: dict[int, list[Seat]] = {}
    for seat in seats:
        seated.setdefault(seat.match_id, []).append(seat)
    found = []
    for match_seats in seated.values():
        match = match_seats[0].match
        value = seating(match.game, [(s.player.name, s.team) for s in match_seats], match.rules)
        # said as public pages name the players (initials where a player asked)
        shown = {s.player.name: s.player.shown_name for s in match_seats}
        labels = [Side(tuple(shown[name] for name in side.players)).label for side in value.sides]
        found.append((match.league_entry, labels))
    return found


def results_of(entries: Iterable[SeasonMatch]) -> list[Result]:
    """The results of entries read with entries_with_seats."""
    return [result_of(entry.match, entry.forfeited_by) for entry in entries]


class _Stored(NamedTuple):
    """What a result needs of a stored match, read as plain values."""

    match_id: int
    game: str
    rules: dict
    #: each side's total, in seating order
    totals: list
    #: the winning sides, by place
    winners: list
    finished: bool
    forfeited_by: int | None = None


#: a match's columns as _Stored has them, after its id
_MATCH_COLUMNS = ("game", "rules", "totals", "winners", "finished")


def _entry_columns(
    entries: QuerySet[SeasonMatch], *, signed: bool = True
) -> tuple[QuerySet[SeasonMatch], list[str]]:
    """The entries with their matches' columns as _Stored has them (after the match's id), a
    match awaiting its signature (leagues/seams.py) taken as not finished. Without ``signed``
    (a migration's models, from before results were signed), as stored."""
    if not signed:
        return entries, [f"match__{name}" for name in _MATCH_COLUMNS]
    entries = entries.annotate(
        counted_finished=Case(
            When(awaits_signature("match__"), then=Value(False)),
            default=F("match__finished"),
            output_field=BooleanField(),
        )
    )
    columns = [
        f"match__{name}" if name != "finished" else "counted_finished" for name in _MATCH_COLUMNS
    ]
    return entries, columns


def _results(
    stored: list[_Stored],
    seats: QuerySet[Seat],
    player: str = "player__name",
    initials: dict[str, str] | None = None,
) -> list[Result]:
    """The results of matches read as plain values, with their seats (``seats``: those of
    the same matches). Large seasons and ratings are worked out from these, without a model
    instance per match, seat and player. ``player`` says what names a player in the sides:
    their name, or (``"player_id"``) their id, as a string. ``initials``, where given (with
    players named by name), is filled with the initials of the players who asked for them, by
    name (Player.shown_name), read in the same query."""
    seated: dict[int, list[tuple[str, int | None]]] = defaultdict(list)
    asked = ("player__initials_only",) if initials is not None else ()
    for match_id, name, team, *whose in seats.order_by("match_id", "position").values_list(
        "match_id", player, "team", *asked
    ):
        seated[match_id].append((str(name), team))
        if initials is not None and whose[0]:
            initials[str(name)] = initials_of(str(name))
    return [
        _result(seating(match.game, seated[match.match_id], match.rules), match) for match in stored
    ]


def results_by_player_id(
    entries: QuerySet[SeasonMatch], seats: QuerySet[Seat], *, signed: bool = True
) -> list[tuple[int, Result]]:
    """Each entry's id with its result, the sides naming players by id (ints), in two
    queries (``seats``: those of the entries' matches): what the kept standings count
    (``signed``: see _entry_columns)."""
    entries, columns = _entry_columns(entries, signed=signed)
    rows = list(entries.values_list("pk", "match_id", *columns, "forfeited_by"))
    stored = [_Stored(*row[1:]) for row in rows]
    found = []
    for row, result in zip(rows, _results(stored, seats, "player_id"), strict=True):
        sides = tuple(tuple(int(pk) for pk in side) for side in result.sides)
        found.append((row[0], replace(result, sides=sides)))  # type: ignore[arg-type]  # by id
    return found


def player_results(
    player_id: int, initials: dict[str, str] | None = None
) -> list[tuple[str, Result]]:
    """Each match that counts for the player (``counted``), newest first, as its game and its
    result, read as plain values in two queries: a player page's records, partners and
    opponents, without a model instance per match, seat and player (at 2,000 matches of one
    player those took two thirds of the page's 0.5 s). ``initials``, where given: filled with
    the initials of the players met who asked for them, by name (``_results``)."""
    matches = counted(Match.objects.filter(seats__player_id=player_id))
    rows = list(
        matches.order_by("-updated_at", "-pk").values_list(
            "pk", *_MATCH_COLUMNS, "league_entry__forfeited_by"
        )
    )
    # by the keys just read, not a subquery: on PostgreSQL with statistics not yet taken of
    # rows written in bulk (a bundle imported a minute ago), the planner took the subquery's
    # tables for empty and nested its loops, and a page of 2,000 matches ran for minutes
    seats = Seat.objects.filter(match_id__in=[row[0] for row in rows])
    results = _results([_Stored(*row) for row in rows], seats, initials=initials)
    return [(row[1], result) for row, result in zip(rows, results, strict=True)]


def counted(matches: QuerySet[Match]) -> QuerySet[Match]:
    """The matches that count in ratings and player records: those of a league season and
    those started by a signed-in account. A match started by a phone without an account counts
    for nothing there: anyone could make up as many as they liked (README: Ratings)."""
    return matches.filter(Q(league_entry__isnull=False) | Q(created_by__isnull=False))


#: the matches a season's export reads at a time: the same four queries for each so many, and
#: no more than these in memory, whatever the season's size
EXPORT_CHUNK = 200

_HAND_COLUMNS = (
    "id",
    "match_id",
    "end_how",
    "end_seat",
    "pips",
    "double_blank",
    "leader_seat",
    "starter_seat",
    "double",
    "opener_seat",
    "passed_seats",
    "claimed",
)


class _Rows(list):
    """Rows read as plain values, handed to ``hand_value`` where it reads a related manager."""

    def all(self) -> _Rows:
        return self


def season_hands(season_id: int) -> Iterator[list]:
    """Every hand of the season as rows (match, game, hand, side, points, running total), one
    per side, each match scored by the engine: a chunk of matches at a time, read as plain
    values (not model instances: half the time of a season's export went to making them), the
    engine scoring each by seat and the sides labelled with the players' names."""
    matches = (
        Match.objects.filter(league_entry__season_id=season_id)
        .order_by("created_at", "pk")
        .values_list("pk", "game", "rules")
    )
    for chunk in in_chunks(matches.iterator(chunk_size=EXPORT_CHUNK), EXPORT_CHUNK):
        yield from _hand_rows(chunk)


def in_chunks(rows: Iterable[T], size: int) -> Iterator[list[T]]:
    """``rows`` in lists of ``size`` (the last one shorter)."""
    chunk: list[T] = []
    for row in rows:
        chunk.append(row)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def stored_matches(
    chunk: list[tuple[int, str, dict]],
) -> Iterator[tuple[int, rules.Match, rules.Match]]:
    """For each (id, game, house rules) of a chunk of stored matches, in order: its id, the
    engine's view of its seating (players by name) and the match with its hands (players by
    seat key), read as plain values in three queries (seats, hands, plays)."""
    ids = [pk for pk, _, _ in chunk]
    seats: dict[int, list[tuple[str, int | None]]] = defaultdict(list)
    for match_id, name, team in (
        Seat.objects.filter(match_id__in=ids)
        .order_by("match_id", "position")
        .values_list("match_id", "player__name", "team")
    ):
        seats[match_id].append((name, team))
    hands: dict[int, list[SimpleNamespace]] = defaultdict(list)
    by_id = {}
    for row in (
        Hand.objects.filter(match_id__in=ids).order_by("match_id", "number").values(*_HAND_COLUMNS)
    ):
        hand = SimpleNamespace(**row, plays=_Rows())
        hands[row["match_id"]].append(hand)
        by_id[row["id"]] = hand
    for hand_id, seat, points, tile, lead in (
        # by the chunk's match ids (a join): the hands' ids are ten times as many parameters
        Play.objects.filter(hand__match_id__in=ids)
        .order_by("hand_id", "number")
        .values_list("hand_id", "seat", "points", "tile", "lead")
    ):
        by_id[hand_id].plays.append(SimpleNamespace(seat=seat, points=points, tile=tile, lead=lead))
    for pk, game, house_rules in chunk:
        seated = seating(game, seats[pk], house_rules)
        # the rows in a hand's shape (SimpleNamespace), read as the model's hands are
        kept = tuple(hand_value(h) for h in hands[pk])  # type: ignore[arg-type]  # a Hand's shape
        yield pk, seated, by_seat(seated).with_hands(kept)


def _hand_rows(chunk: list[tuple[int, str, dict]]) -> Iterator[list]:
    for pk, seated, value in stored_matches(chunk):
        names = dict(zip(seat_keys(len(seated.players)), seated.players, strict=True))
        board = rules.score_match(value)
        labels = {side: SIDE_JOIN.join(names[p] for p in side.players) for side in board.sides}
        for hand in board.hands:
            for side in board.sides:
                points, running = hand.points[side], hand.running[side]
                yield [pk, value.game, hand.number, labels[side], points, running]
