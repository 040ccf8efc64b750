"""A hall's worth of data, written in bulk: players, a league season of finished matches, one
long match and the open matches that the benchmark records plays on.

Every match is played out at random through the rules engine, so its hands and plays are ones a
table could have entered, and its derived columns (totals, finished, winner, hand count) are the
engine's answer for them, as `record` would have stored them.
"""

from __future__ import annotations

import datetime
import random
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db import connections, models
from django.utils import timezone

from scorekeeper import rules
from scorekeeper.access.models import SCOREKEEPER, MatchRole, ShareLink
from scorekeeper.clubs.models import Club, Membership, Role
from scorekeeper.leagues.kept import standings_rebuild
from scorekeeper.leagues.kept_ratings import ratings_rework_all
from scorekeeper.leagues.models import League, Season, SeasonMatch
from scorekeeper.nights.models import CheckIn, Night, NightRound, NightTable, TableSeat
from scorekeeper.rules.matchfile import write_match
from scorekeeper.rules.straight_hand_end import score_hand_end
from scorekeeper.tables.models import Change, Hand, Match, Play, Player, Seat
from scorekeeper.tables.scoring import winners_of
from scorekeeper.tables.seats import by_seat

FIRST_NAMES = (
    "Ana", "Bo", "Cy", "Di", "Eve", "Flo", "Gus", "Hal", "Ida", "Jo",
    "Kit", "Lu", "Mo", "Ned", "Ola", "Pat", "Rex", "Sal", "Tia", "Vic",
)  # fmt: skip
INITIALS = "ABCDEFGHJKLMNPRSTVWZ"
#: the matches written in one go: enough to keep the inserts large, few enough for memory
CHUNK = 500
#: the long match whose scoreboard is measured plays to this, so it has many hands
LONG_TARGET = 1000
#: the open matches play to this, so recording plays on them never ends them
OPEN_TARGET = 1_000_000
OPEN_HANDS = 5


@dataclass
class Hall:
    league_id: int = 0
    season_id: int = 0
    #: a finished match with many hands, in the season: its scoreboard is measured
    long_match_id: int = 0
    long_match_hands: int = 0
    #: the open matches (pk, a player seated there) that plays are recorded on
    tables: list[tuple[int, str]] = field(default_factory=list)
    username: str = "bench-organizer"
    password: str = field(default_factory=lambda: secrets.token_urlsafe(16))
    players: int = 0
    matches: int = 0
    hands: int = 0
    plays: int = 0


def player_names(count: int) -> list[str]:
    """Distinct names such as "Ana B.", as a hall's roster would have them."""
    names = []
    for i in range(count):
        first = FIRST_NAMES[i % len(FIRST_NAMES)]
        initial = INITIALS[(i // len(FIRST_NAMES)) % len(INITIALS)]
        lap = i // (len(FIRST_NAMES) * len(INITIALS))
        names.append(f"{first} {initial}." + (f" {lap + 1}" if lap else ""))
    return names


def deal(
    rng: random.Random, value: rules.Match, *, hands: int | None = None
) -> tuple[rules.Hand, ...]:
    """Straight hands played at random until a side reaches the target (or ``hands`` are done).

    Each hand has a few scoring plays and ends in a domino; the match ends on the play or the
    hand end that takes a side to the target, as it would at the table.
    """
    target = int(value.rule("target"))
    totals = dict.fromkeys(value.sides, 0)
    played: list[rules.Hand] = []
    leader: str | None = rng.choice(value.players)
    while hands is None or len(played) < hands:
        plays: list[rules.Play] = []
        for _ in range(rng.choice((0, 1, 2, 2, 3, 3, 4, 5))):
            player = rng.choice(value.players)
            points = rng.choice((5, 5, 10, 10, 15, 20))
            plays.append(rules.Play(player, points=points))
            totals[value.side_of(player)] += points
            if totals[value.side_of(player)] >= target:
                played.append(rules.Hand(plays=tuple(plays), leader=leader))
                return tuple(played)
        out = rng.choice(value.players)
        pips = {name: rng.randint(0, 18) for name in value.players if name != out}
        end = rules.HandEnd("domino", out, pips)
        scored = score_hand_end(value, len(played) + 1, end, leader)
        played.append(rules.Hand(plays=tuple(plays), end=end, leader=leader))
        assert scored.side is not None  # a domino: the side that went out scores
        totals[scored.side] += scored.points
        if totals[scored.side] >= target:
            break
        leader = scored.next_leader
    return tuple(played)


def seating(rng: random.Random, roster: list[str]) -> rules.Match:
    """Two, three or four players for themselves, or two partnerships."""
    kind = rng.random()
    if kind < 0.3:
        seated = rng.sample(roster, 4)
        return rules.Match(
            "straight", tuple(seated), ((seated[0], seated[2]), (seated[1], seated[3]))
        )
    count = 2 if kind < 0.7 else 3 if kind < 0.9 else 4
    return rules.Match("straight", tuple(rng.sample(roster, count)))


def fill(using: str, *, players: int, matches: int, tables: int, seed: int = 2026) -> Hall:
    """Write the hall into the database ``using`` (migrated and empty)."""
    rng = random.Random(seed)
    hall = Hall(players=players)
    roster = player_names(players)
    stored = Player.objects.using(using).bulk_create(Player(name=name) for name in roster)
    by_name = {player.name: player for player in stored}

    club = Club.objects.using(using).create(name="Thursday Hall")
    league = League.objects.using(using).create(club=club, name="Thursday League", game="straight")
    league.members.set(stored)
    season = Season.objects.using(using).create(
        league=league, name="All year", starts_on=timezone.localdate() - datetime.timedelta(365)
    )
    hall.league_id, hall.season_id = league.pk, season.pk

    finished = (
        value.with_hands(deal(rng, value))
        for value in (seating(rng, roster) for _ in range(matches))
    )
    started = timezone.now() - datetime.timedelta(days=365)
    step = datetime.timedelta(days=365) / max(matches + 1, 1)
    for number, chunk in enumerate(_chunks(finished, CHUNK)):
        moments = [started + step * (number * CHUNK + i) for i in range(len(chunk))]
        _write(using, hall, chunk, by_name, season=season, finished_at=moments)

    long_value = rules.Match(
        "straight", tuple(rng.sample(roster, 4)), rules={"target": LONG_TARGET}
    )
    long_value = long_value.with_hands(deal(rng, long_value))
    [hall.long_match_id] = _write(
        using, hall, [long_value], by_name, season=season, finished_at=[timezone.now()]
    )
    hall.long_match_hands = len(long_value.hands)
    # written in bulk, outside the services that keep the standings: worked out once here
    standings_rebuild(season_id=season.pk, using=using)

    open_values = []
    for _ in range(tables):
        value = rules.Match("straight", tuple(rng.sample(roster, 4)), rules={"target": OPEN_TARGET})
        open_values.append(value.with_hands(deal(rng, value, hands=OPEN_HANDS)))
    ids = _write(using, hall, open_values, by_name, season=None, finished_at=None)
    hall.tables = [(pk, value.players[0]) for pk, value in zip(ids, open_values, strict=True)]
    # written in bulk, the matches moved nothing: their ratings are worked out once, here
    ratings_rework_all(using)

    organizer = (
        get_user_model()
        .objects.db_manager(using)
        .create_user(hall.username, password=hall.password)
    )
    Membership.objects.using(using).create(club=club, user=organizer, role=Role.ORGANIZER)
    # the open tables are casual matches, no club's: the account keeps them as their scorekeeper
    MatchRole.objects.using(using).bulk_create(
        MatchRole(match_id=pk, user=organizer, role=SCOREKEEPER) for pk, _ in hall.tables
    )
    return hall


def _chunks(values: Iterator[rules.Match], size: int) -> Iterator[list[rules.Match]]:
    chunk: list[rules.Match] = []
    for value in values:
        chunk.append(value)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _insert(using: str, model: type[models.Model], rows: list[dict]) -> None:
    """Rows of ``model`` written without a model instance each, several times faster than
    ``bulk_create`` for the fill's most numerous rows (hands, plays, seats), whose per-value
    conversions were most of its time. Each row gives database values by column (the same for
    every row); every other column takes its field's default, converted once."""
    if not rows:
        return
    connection = connections[using]
    now = timezone.now()
    given = list(rows[0])
    defaults = {
        field.column: field.get_db_prep_save(
            now if getattr(field, "auto_now_add", False) else field.get_default(), connection
        )
        for field in model._meta.concrete_fields
        if not field.primary_key and field.column not in given
    }
    columns = [*given, *defaults]
    quoted = ", ".join(connection.ops.quote_name(column) for column in columns)
    slots = ", ".join(["%s"] * len(columns))
    constant = tuple(defaults.values())
    with connection.cursor() as cursor:
        cursor.executemany(
            f"INSERT INTO {connection.ops.quote_name(model._meta.db_table)} ({quoted})"
            f" VALUES ({slots})",
            [(*(row[column] for column in given), *constant) for row in rows],
        )


def _write(
    using: str,
    hall: Hall,
    values: list[rules.Match],
    by_name: dict[str, Player],
    *,
    season: Season | None,
    finished_at: list[datetime.datetime] | None,
) -> list[int]:
    """Store the matches as the table would have: rows for what was entered, the engine's
    derived columns, and the first change holding the hands."""
    boards = [rules.score_match(value) for value in values]
    for board in boards:
        assert not board.errors, f"a generated match broke the rules: {board.errors[0]}"
        assert board.finished == (finished_at is not None), "a generated match did not end"
    rows = Match.objects.using(using).bulk_create(
        Match(
            game=value.game,
            rules=dict(value.rules),
            totals=[board.totals[side] for side in board.sides],
            finished=board.finished,
            winners=winners_of(board),
            hand_count=len(board.hands),
            finished_at=finished_at[i] if finished_at else None,
            version=1,
        )
        for i, (value, board) in enumerate(zip(values, boards, strict=True))
    )
    connection = connections[using]
    pips = Hand._meta.get_field("pips")
    # what is stored names players by seat
    seated = [by_seat(value) for value in values]
    seats: list[dict] = []
    hands: list[dict] = []
    plays_of: dict[tuple[int, int], tuple[rules.Play, ...]] = {}
    for match, value, at_seats in zip(rows, values, seated, strict=True):
        team_of = {name: i for i, team in enumerate(value.partnerships) for name in team}
        seats += [
            {
                "match_id": match.pk,
                "player_id": by_name[name].pk,
                "position": position,
                "team": team_of.get(name),
            }
            for position, name in enumerate(value.players)
        ]
        ended_at = connection.ops.adapt_datetimefield_value(match.finished_at or timezone.now())
        for number, hand in enumerate(at_seats.hands, 1):
            end = hand.end
            hands.append(
                {
                    "match_id": match.pk,
                    "number": number,
                    "leader_seat": int(hand.leader) if hand.leader else None,
                    "end_how": end.how if end else "",
                    "end_seat": int(end.player) if end and end.player else None,
                    "pips": pips.get_db_prep_save(dict(end.pips) if end else {}, connection),
                    "ended_at": ended_at if end else None,
                }
            )
            plays_of[match.pk, number] = hand.plays
    _insert(using, Seat, seats)
    _insert(using, Hand, hands)
    hand_ids = {
        (match_id, number): pk
        for pk, match_id, number in Hand.objects.using(using)
        .filter(match__in=rows)
        .values_list("pk", "match_id", "number")
    }
    _insert(
        using,
        Play,
        [
            {
                "hand_id": hand_ids[key],
                "number": number,
                "seat": int(play.player),
                "points": play.points,
            }
            for key, plays in plays_of.items()
            for number, play in enumerate(plays, 1)
        ],
    )
    Change.objects.using(using).bulk_create(
        Change(
            match=match,
            number=1,
            kind=Change.Kind.IMPORTED,
            after=write_match(at_seats)["hands"],
        )
        for match, at_seats in zip(rows, seated, strict=True)
    )
    if season is not None:
        SeasonMatch.objects.using(using).bulk_create(
            SeasonMatch(season=season, match=match) for match in rows
        )
    hall.matches += len(rows)
    hall.hands += len(hands)
    hall.plays += sum(len(plays) for plays in plays_of.values())
    return [match.pk for match in rows]


# -- a league night ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """A match being played on league night, and the token of its scorekeeper share link."""

    match_id: int
    token: str


#: the season each night's tables are moved to once the night is over
PAST_NIGHTS = "Past nights"


def open_tables(using: str, *, season_id: int, count: int, seed: int) -> list[Table]:
    """``count`` tables of four players, each a league match of the season being played: five
    hands played, the sixth about to begin, and a scorekeeper share link for the table's phone.

    Written in bulk, as ``fill`` writes, so no season's version moves: the standings stand, as
    they do when a league night's matches start.
    """
    rng = random.Random(seed)
    players = list(Player.objects.using(using).order_by("pk"))
    by_name = {player.name: player for player in players}
    roster = [player.name for player in players]
    season = Season.objects.using(using).get(pk=season_id)
    values = []
    for _ in range(count):
        value = rules.Match("straight", tuple(rng.sample(roster, 4)), rules={"target": OPEN_TARGET})
        values.append(value.with_hands(deal(rng, value, hands=OPEN_HANDS)))
    ids = _write(using, Hall(), values, by_name, season=season, finished_at=None)
    links = ShareLink.objects.using(using).bulk_create(
        ShareLink(match_id=pk, role=SCOREKEEPER, label=f"Table {number}")
        for number, pk in enumerate(ids, 1)
    )
    return [Table(pk, link.token) for pk, link in zip(ids, links, strict=True)]


def close_tables(using: str, *, season_id: int, tables: list[Table]) -> None:
    """Move a night's tables out of the season, to one that keeps past nights, so the next
    night's wall board lists only its own tables."""
    season = Season.objects.using(using).get(pk=season_id)
    past, _ = Season.objects.using(using).get_or_create(
        league_id=season.league_id, name=PAST_NIGHTS, defaults={"starts_on": season.starts_on}
    )
    SeasonMatch.objects.using(using).filter(
        season=season, match_id__in=[table.match_id for table in tables]
    ).update(season=past)
    # the night's matches leave the season's kept standings (nobody looks at the other's)
    standings_rebuild(season_id=season.pk, using=using)


def open_night(using: str, *, season_id: int, tables: list[Table]) -> int:
    """The league night the tables are played at, as its TV shows it: everyone seated checked
    in, one round of one, started, a table of the round for each match (its seats as the match
    has them). Returns the night's id."""
    season = Season.objects.using(using).get(pk=season_id)
    night = Night.objects.using(using).create(
        season=season, played_on=timezone.localdate(), rounds=1, partnerships=False
    )
    night_round = NightRound.objects.using(using).create(
        night=night, number=1, started_at=timezone.now()
    )
    seats: dict[int, list[int]] = {}
    for match_id, player_id in (
        Seat.objects.using(using)
        .filter(match_id__in=[table.match_id for table in tables])
        .order_by("match_id", "position")
        .values_list("match_id", "player_id")
    ):
        seats.setdefault(match_id, []).append(player_id)
    stored = NightTable.objects.using(using).bulk_create(
        NightTable(night_round=night_round, number=number, match_id=table.match_id)
        for number, table in enumerate(tables, 1)
    )
    TableSeat.objects.using(using).bulk_create(
        TableSeat(night_table=night_table, position=position, player_id=player)
        for night_table, table in zip(stored, tables, strict=True)
        for position, player in enumerate(seats[table.match_id])
    )
    CheckIn.objects.using(using).bulk_create(
        CheckIn(night=night, player_id=player)
        for player in sorted({player for seated in seats.values() for player in seated})
    )
    return night.pk


def close_night(using: str, *, night_id: int) -> None:
    """The night and its round go; its matches stay (close_tables moves them out)."""
    Night.objects.using(using).filter(pk=night_id).delete()
