"""Between the database and the rules engine: the engine's Match from the stored rows, and
an engine Match written back as rows.

Rows name players by seat (tables/seats.py), and so does the engine: it is given the seats'
keys, and a page puts in the names as they are now when it says what the engine says. A name
goes into the engine only where a match file is written or read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Prefetch, QuerySet
from django.utils import timezone

from scorekeeper import rules
from scorekeeper.rules.matchfile import write_hands as file_hands
from scorekeeper.rules.tiles import parse_tile, tile_name
from scorekeeper.tables import seams
from scorekeeper.tables.models import Change, Hand, Match, Play, Player, Seat
from scorekeeper.tables.names import name_key, normal_name
from scorekeeper.tables.seats import by_name, by_seat, seat_names, seating


def with_seats(matches: QuerySet[Match]) -> QuerySet[Match]:
    return matches.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position"))
    )


def with_everything(matches: QuerySet[Match]) -> QuerySet[Match]:
    """Fetch seats, players, hands and plays in a fixed number of queries."""
    return with_seats(matches).prefetch_related(
        Prefetch("hands", queryset=Hand.objects.order_by("number")),
        Prefetch("hands__plays", queryset=Play.objects.order_by("number")),
    )


def seated(match: Match) -> rules.Match:
    """The engine's view of a match's seating and rules, its seats read now (for a match
    fetched without them)."""
    seats = Seat.objects.filter(match=match).select_related("player").order_by("position")
    return seating(match.game, [(seat.player.name, seat.team) for seat in seats], match.rules)


def match_value(match: Match) -> rules.Match:
    """The engine's view of a stored match, players by seat key (use a match fetched
    `with_everything`); ``names_of`` names them."""
    return stored_value(match)


def seats_and_names(match: Match) -> tuple[rules.Match, list[str]]:
    """The engine's view of the match's seating and rules, players by seat, and the name of
    who sits in each seat now (``with_seats``): what an entry form is drawn from."""
    seated = match.seating()
    return by_seat(seated), list(seated.players)


def names_of(match: Match) -> dict[str, str]:
    """Each seat's key and the name of the player in it now (``with_seats``)."""
    return seat_names(match.seating().players)


def match_file_value(match: Match) -> rules.Match:
    """The stored match with its players by name, as a match file writes it."""
    seated = match.seating()
    return by_name(stored_value(match, seated), seated.players)


def stored_value(match: Match, seated: rules.Match | None = None) -> rules.Match:
    """The stored match as the engine reads it, players named by seat key."""
    seated = by_seat(seated or match.seating())
    return seated.with_hands(tuple(hand_value(hand) for hand in match.hands.all()))


def _key(seat: int | None) -> str | None:
    return None if seat is None else str(seat)


def hand_value(hand: Hand) -> rules.Hand:
    """One stored hand, players named by seat key."""
    end = None
    if hand.end_how:
        end = rules.HandEnd(
            how=hand.end_how,
            player=_key(hand.end_seat),
            pips=dict(hand.pips),
            double_blank=tuple(str(seat) for seat in hand.double_blank),
        )
    return rules.Hand(
        plays=tuple(
            rules.Play(
                str(play.seat),
                points=play.points,
                tile=parse_tile(play.tile) if play.tile else None,
                lead=play.lead,
            )
            for play in hand.plays.all()
        ),
        end=end,
        leader=_key(hand.leader_seat),
        starter=_key(hand.starter_seat),
        double=hand.double,
        opener=_key(hand.opener_seat),
        passed_opening=tuple(str(seat) for seat in hand.passed_seats),
        claimed=dict(hand.claimed),
    )


def scoreboard_of(match: Match) -> rules.Scoreboard:
    return rules.score_match(match_value(match))


def save_scores(match: Match, board: rules.Scoreboard) -> None:
    """Keep the derived columns in step with the hands; call inside the writing transaction.
    What depends on the result (a season's standings, the ratings) is the caller's to move
    (``seams.result_moved``)."""
    match.totals = [board.totals[side] for side in board.sides]
    match.finished = board.finished
    match.winners = winners_of(board)
    match.hand_count = len(board.hands)
    if not board.finished:
        match.finished_at = None
    elif match.finished_at is None:
        match.finished_at = timezone.now()
    match.save(
        update_fields=[
            "totals",
            "finished",
            "winners",
            "hand_count",
            "finished_at",
            "version",
            "updated_at",
        ]
    )


def winners_of(board: rules.Scoreboard) -> list[int]:
    """The winning sides by their place in the board's sides (none while the match goes on)."""
    winners: Sequence[rules.Side | None]
    if isinstance(board.winner, list):
        winners = board.winner
    else:
        winners = [board.winner]
    return [i for i, side in enumerate(board.sides) if side in winners]


def player_named(name: str) -> Player:
    """The known player of that name (the same player: any case or spacing, tables/names.py),
    or a new one under the name as it is stored."""
    name = normal_name(name)
    key = name_key(name)
    found = Player.objects.filter(key=key).first()
    if found is not None:
        return found
    try:
        # a savepoint: two phones starting matches with the same newcomer at once (a double tap
        # on Start) both try to add them; the one that loses takes the player the other added
        with transaction.atomic():
            return Player.objects.create(name=name)
    except IntegrityError:
        return Player.objects.get(key=key)


@dataclass(frozen=True)
class ScoredMatch:
    """A whole match scored by the engine and ready to be written: what ``create_match`` works
    out before its transaction begins."""

    value: rules.Match
    stored: rules.Match
    board: rules.Scoreboard
    hands_written: list


def score_new_match(value: rules.Match) -> ScoredMatch:
    """Score a whole match (a new setup, or an imported match file) without writing anything."""
    stored = by_seat(value)
    return ScoredMatch(
        value, stored, rules.score_match(stored), file_hands(stored.game, stored.hands)
    )


def create_match(
    value: rules.Match | ScoredMatch,
    *,
    kind: str = Change.Kind.STARTED,
    params: dict | None = None,
    made_by: str = "",
    maker: str = "",
    user=None,
    phone: str = "",
    also_write: Callable[[Match], object] | None = None,
    moved_by_caller: bool = False,
) -> Match:
    """Store a whole match (a new setup, or an imported match file) in one transaction, so an
    import that fails half way leaves nothing behind. It is the match's first change.
    ``also_write`` writes more rows for the new match (its place in a season) in the same
    transaction. ``moved_by_caller``: what follows a result (standings, ratings, live pages) is
    moved by the caller, once for all the matches it writes in its transaction (a league
    bundle: leagues/moves.matches_imported), not here for each.

    The engine scores it and its hands are written out before the transaction begins: on
    SQLite a transaction holds the write lock from its start, and every phone's tap waits
    for it, so it holds only the writing. A caller that writes several matches in a
    transaction of its own (a league bundle) scores them first with ``score_new_match`` and
    hands the scored matches in. The largest match file the limits allow (100 hands of 30
    plays) is written in well under a second."""
    scored = value if isinstance(value, ScoredMatch) else score_new_match(value)
    value, stored, board = scored.value, scored.stored, scored.board
    team_of = {name: i for i, team in enumerate(value.partnerships) for name in team}
    with transaction.atomic():
        match = Match.objects.create(
            game=value.game,
            rules=dict(value.rules),
            version=1,
            created_by=user if user is not None and user.is_authenticated else None,
        )
        Seat.objects.bulk_create(
            Seat(match=match, player=player_named(name), position=position, team=team_of.get(name))
            for position, name in enumerate(value.players)
        )
        store_hands(match, 1, stored.hands, board)
        save_scores(match, board)
        Change.objects.create(
            match=match,
            number=1,
            kind=kind,
            params=params or {},
            made_by=made_by[:80],
            maker=maker,
            user=match.created_by,
            phone=phone,
            before=[],
            after=scored.hands_written,
        )
        if also_write is not None:
            also_write(match)
        if not moved_by_caller and (board.finished or also_write is not None):
            # one finished already counts; one written with rows of its own (its season's
            # entry) shows on their pages. A new match being played, by itself, moves nothing.
            seams.result_moved(match)
    return match


def store_hands(
    match: Match,
    first: int,
    hands: tuple[rules.Hand, ...] | list[rules.Hand],
    board: rules.Scoreboard,
    ended_at: Mapping[int, object] | None = None,
) -> None:
    """Store ``hands`` (players named by seat key) as hands ``first``, ``first`` + 1 ...
    An entry the rules flag as an error is stored only when the table kept it on purpose, so
    whatever ``board`` flags as an error is marked as kept."""
    ended_at = ended_at or {}
    errors = errors_at(board)
    now = timezone.now()
    rows = Hand.objects.bulk_create(
        _hand_row(match, number, hand, (number, None) in errors, ended_at.get(number) or now)
        for number, hand in enumerate(hands, first)
    )
    Play.objects.bulk_create(
        play
        for row, hand in zip(rows, hands, strict=True)
        for play in play_rows(row, hand.plays, errors)
    )


def play_rows(
    row: Hand, plays: tuple[rules.Play, ...], errors: set, *, stored: int = 0
) -> list[Play]:
    """The rows of the hand's ``plays`` (players named by seat key) after the first ``stored``.
    A play at a place in ``errors`` (hand, play) was kept on purpose and is marked so."""
    return [
        Play(
            hand=row,
            number=number,
            seat=int(play.player),
            points=play.points,
            tile=tile_name(play.tile) if play.tile else "",
            lead=play.lead,
            overridden=(row.number, number) in errors,
        )
        for number, play in enumerate(plays, 1)
        if number > stored
    ]


def errors_at(board: rules.Scoreboard) -> set[tuple[int | None, int | None]]:
    """Where the board flags an error: (hand, play), play None for the hand itself."""
    return {(f.hand, f.play) for f in board.errors}


def _seat(key: str | None) -> int | None:
    return None if key is None else int(key)


def _hand_row(match: Match, number: int, hand: rules.Hand, flagged: bool, ended_at) -> Hand:
    end = hand.end
    return Hand(
        match=match,
        number=number,
        leader_seat=_seat(hand.leader),
        starter_seat=_seat(hand.starter),
        double=hand.double,
        opener_seat=_seat(hand.opener),
        passed_seats=[int(player) for player in hand.passed_opening],
        end_how=end.how if end else "",
        end_seat=_seat(end.player) if end else None,
        pips=dict(end.pips) if end else {},
        double_blank=[int(player) for player in end.double_blank] if end else [],
        claimed=dict(hand.claimed),
        overridden=flagged,
        ended_at=ended_at if end else None,
    )
