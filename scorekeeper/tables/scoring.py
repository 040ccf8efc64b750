"""Between the database and the rules engine: build the engine's Match from what was entered,
and write an engine Match (an imported match file) back as rows."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Prefetch, QuerySet
from django.utils import timezone

from scorekeeper import rules
from scorekeeper.pages import release
from scorekeeper.rules.matchfile import write_match
from scorekeeper.rules.tiles import parse_tile, tile_name
from scorekeeper.tables.i18n import MATCH_STARTED
from scorekeeper.tables.models import Change, Hand, Match, Play, Player, Seat


def with_everything(matches: QuerySet[Match]) -> QuerySet[Match]:
    """Fetch seats, players, hands and plays in a fixed number of queries."""
    return matches.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position")),
        Prefetch("hands", queryset=Hand.objects.order_by("number")),
        Prefetch("hands__plays", queryset=Play.objects.order_by("number")),
    )


def seated_match(match: Match) -> rules.Match:
    """The engine's view of a stored match's seating and rules, without its hands (use a match
    with its seats and their players prefetched)."""
    seats = [(seat.player.name, seat.team) for seat in match.seats.all()]
    return seating(match.game, seats, match.rules)


def seating(game: str, seats: list[tuple[str, int | None]], rules_: dict) -> rules.Match:
    """The engine's view of a match from its seats in playing order, each a player's name and
    their partnership (None without one), and its rules."""
    teams: dict[int, list[str]] = {}
    for name, team in seats:
        if team is not None:
            teams.setdefault(team, []).append(name)
    return rules.Match(
        game=game,
        players=tuple(name for name, _ in seats),
        partnerships=tuple(tuple(team) for _, team in sorted(teams.items())),
        rules=dict(rules_),
    )


def match_value(match: Match) -> rules.Match:
    """The engine's view of a stored match (use a match fetched `with_everything`)."""
    return seated_match(match).with_hands(tuple(hand_value(hand) for hand in match.hands.all()))


def hand_value(hand: Hand) -> rules.Hand:
    end = None
    if hand.end_how:
        end = rules.HandEnd(
            how=hand.end_how,
            player=hand.end_player or None,
            pips=dict(hand.pips),
            double_blank=tuple(hand.double_blank),
        )
    return rules.Hand(
        plays=tuple(
            rules.Play(
                play.player,
                points=play.points,
                tile=parse_tile(play.tile) if play.tile else None,
            )
            for play in hand.plays.all()
        ),
        end=end,
        leader=hand.leader or None,
        starter=hand.starter or None,
        double=hand.double,
        opener=hand.opener or None,
        passed_opening=tuple(hand.passed_opening),
        claimed=dict(hand.claimed),
    )


@dataclass(frozen=True)
class State:
    """A stored match as the engine sees it, and its score."""

    value: rules.Match
    board: rules.Scoreboard


def stored_state(match: Match) -> State:
    """The engine's view and score of ``match`` as stored, at the version the row says. Kept in
    the shared cache with that version: the phones at a table and the entries they send work
    it out once per change, not once per request."""
    kept = cache.get(_state_key(match))
    if kept is not None and kept[0] == stamp(match):
        return kept[1]
    value = match_value(refetch(match))
    state = State(value, rules.score_match(value))
    keep_state(match, state)
    return state


def keep_state(match: Match, state: State) -> None:
    """Remember what a change left (call it once the row has its new version); it replaces
    what an older version left."""
    cache.set(_state_key(match), (stamp(match), state))


def _state_key(match: Match) -> str:
    # the release keeps an older engine's results from being used
    return f"state:{release()}:{match.pk}"


def stamp(match: Match) -> tuple:
    """What is kept of a match (its engine view, its scoreboard page) is used only while this
    is unchanged: every change moves the version, and every write of the row moves updated_at
    (an edit in the admin too)."""
    return (match.version, match.updated_at)


def scoreboard_of(match: Match) -> rules.Scoreboard:
    return rules.score_match(match_value(match))


def save_scores(match: Match, board: rules.Scoreboard) -> None:
    """Keep the derived columns in step with the hands; call inside the writing transaction."""
    # A match that was being played and still is counts in no standings yet: its seasons'
    # standings stand as they are (leagues/signals.py). The wall board reads its score afresh.
    match.leaves_standings = not match.finished and not board.finished
    match.totals = dict(board.totals)
    match.finished = board.finished
    match.winner = board.winner
    match.hand_count = len(board.hands)
    if not board.finished:
        match.finished_at = None
    elif match.finished_at is None:
        match.finished_at = timezone.now()
    match.save(
        update_fields=[
            "totals",
            "finished",
            "winner",
            "hand_count",
            "finished_at",
            "version",
            "updated_at",
        ]
    )


def player_named(name: str) -> Player:
    """The known player of that name (any case), or a new one."""
    found = Player.objects.filter(name__iexact=name).first()
    if found is not None:
        return found
    try:
        # a savepoint: two phones starting matches with the same newcomer at once (a double tap
        # on Start) both try to add them; the one that loses takes the player the other added
        with transaction.atomic():
            return Player.objects.create(name=name)
    except IntegrityError:
        return Player.objects.get(name__iexact=name)


@transaction.atomic
def create_match(value: rules.Match, *, action: str = "", made_by: str = "", user=None) -> Match:
    """Store a whole match (a new setup, or an imported match file) in one transaction, so an
    import that fails half way leaves nothing behind. It is the match's first change."""
    match = Match.objects.create(
        game=value.game,
        rules=dict(value.rules),
        version=1,
        created_by=user if user is not None and user.is_authenticated else None,
    )
    team_of = {name: i for i, team in enumerate(value.partnerships) for name in team}
    seated = []
    for position, name in enumerate(value.players):
        player = player_named(name)
        seated.append(player.name)
        Seat.objects.create(match=match, player=player, position=position, team=team_of.get(name))
    # a known player's name is kept as first written; the hands must use that spelling too
    renamed = dict(zip(value.players, seated, strict=True))
    for number, hand in enumerate(value.hands, 1):
        write_hand(match, number, hand, renamed)
    stored = match_value(refetch(match))
    save_scores(match, rules.score_match(stored))
    Change.objects.create(
        match=match,
        number=1,
        action=action or MATCH_STARTED,
        made_by=made_by[:80],
        user=match.created_by,
        before=[],
        after=write_match(stored)["hands"],
    )
    return match


def write_hand(match: Match, number: int, hand: rules.Hand, renamed: dict[str, str]) -> Hand:
    def name(value: str | None) -> str:
        return renamed.get(value, value) if value else ""

    end = hand.end
    row = Hand.objects.create(
        match=match,
        number=number,
        leader=name(hand.leader),
        starter=name(hand.starter),
        double=hand.double,
        opener=name(hand.opener),
        passed_opening=[name(player) for player in hand.passed_opening],
        end_how=end.how if end else "",
        end_player=name(end.player) if end else "",
        pips={name(player): pips for player, pips in end.pips.items()} if end else {},
        double_blank=[name(player) for player in end.double_blank] if end else [],
        claimed={_rename_side(key, renamed): value for key, value in hand.claimed.items()},
    )
    Play.objects.bulk_create(
        Play(
            hand=row,
            number=i,
            player=name(play.player),
            points=play.points,
            tile=tile_name(play.tile) if play.tile else "",
        )
        for i, play in enumerate(hand.plays, 1)
    )
    return row


def _rename_side(key: str, renamed: dict[str, str]) -> str:
    return " & ".join(renamed.get(part, part) for part in key.split(" & "))


def refetch(match: Match) -> Match:
    return with_everything(Match.objects.filter(pk=match.pk)).get()
