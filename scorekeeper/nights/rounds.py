"""A night's rounds: who plays in each, whether the next can be drawn, starting one, check-in
and someone leaving early. The draw itself and its storage are in round_draw.py.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.db.models import Prefetch, prefetch_related_objects
from django.utils import timezone
from django.utils.translation import gettext

from scorekeeper import rules
from scorekeeper.access.clubs import was_locked
from scorekeeper.access.models import SCOREKEEPER, ShareLink
from scorekeeper.leagues.models import SeasonMatch
from scorekeeper.leagues.moves import season_match_forfeit
from scorekeeper.nights import draw
from scorekeeper.nights.live import night_moved
from scorekeeper.nights.models import CheckIn, Night, NightRound, NightTable, SittingOut, TableSeat
from scorekeeper.tables.models import Change, Match, Player, Seat
from scorekeeper.tables.recording import Author, locked_match
from scorekeeper.tables.scoring import create_match, player_named
from scorekeeper.tables.turns import seat_hand_over


class NightError(ValueError):
    """What the organizer asked cannot be done now; the message says why."""


class RematchesNeeded(NightError):
    """A Swiss round has no pairing without a rematch: the Draw form offers the fewest."""


def table_sizes(night: Night) -> tuple[int, ...]:
    """The table sizes the night's game allows, up to the night's most at a table."""
    league = night.season.league
    allowed = draw.table_sizes(
        league.game, partnerships=plays_partners(night), highest_double=league.rules.get("set", 6)
    )
    sizes = tuple(size for size in allowed if size <= night.most_at_a_table)
    return sizes or (min(allowed),)


def plays_partners(night: Night) -> bool:
    return night.partnerships and night.season.league.game == "straight"


def started_rounds(night: Night) -> list[NightRound]:
    return [r for r in night.night_rounds.all() if r.started_at is not None]


def next_number(night: Night) -> int:
    """The round to draw or start next: the one after the last started."""
    return len(started_rounds(night)) + 1


def playing_in(night: Night, number: int) -> list[CheckIn]:
    """The checked-in players who play in round ``number``."""
    check_ins = night.check_ins.select_related("player")
    return [check_in for check_in in check_ins if check_in.plays_in(number)]


def round_done(night_round: NightRound) -> bool:
    """Every table's match is finished or forfeited (or was taken away)."""
    for table in night_round.tables.all():
        match = table.match
        if match is None or match.finished:
            continue
        entry = getattr(match, "league_entry", None)
        if entry is None or entry.forfeited_by is None:
            return False
    return True


def why_not_draw(night: Night) -> str:
    """Why the next round cannot be drawn now, or "" when it can."""
    number = next_number(night)
    if number > night.rounds:
        return gettext("All %(rounds)s rounds have been played.") % {"rounds": night.rounds}
    started = started_rounds(night)
    if started and not round_done(started[-1]):
        return gettext("Round %(number)s is still being played.") % {"number": started[-1].number}
    return ""


def lock_night(night: Night) -> None:
    """Take the night's row first, in every action on a night that writes (draw, start, check
    in, leave): two such actions at once are applied one after the other instead of each
    holding rows the other waits for (on PostgreSQL, a Draw and a Start tapped together
    deadlocked). Call inside the action's transaction. A night its view locked already
    (nights/directors.py: night_for_director) is not read again."""
    if not was_locked(night):
        list(Night.objects.select_for_update().filter(pk=night.pk).values_list("pk", flat=True))


def seated(night_round: NightRound) -> set[int]:
    """The players (by id) at the round's tables."""
    return {pk for table in night_round.tables.all() for pk in table.player_ids}


def drawn_players(night_round: NightRound) -> set[int]:
    """The players (by id) the round was drawn for: at its tables or sitting out."""
    return seated(night_round) | set(night_round.sitting_out_ids)


def start_round(night_round: NightRound, *, by: Author) -> list[NightTable]:
    """Every table's match at once, each in the season, with a scorekeeper's link for its
    card: all the round's tables or none. The matches are new and empty, so scoring them inside
    the one transaction holds no lock for long (tables/scoring.create_match)."""
    night = night_round.night
    if night_round.started_at is not None:
        raise NightError(gettext("Round %(number)s has started.") % {"number": night_round.number})
    reason = why_not_draw(night)
    if reason:
        raise NightError(reason)
    here = {check_in.player_id for check_in in playing_in(night, night_round.number)}
    # the draw read once: its tables, their seats with the players' names, who sits out
    seats = TableSeat.objects.select_related("player")
    prefetch_related_objects([night_round], Prefetch("tables__seats", seats), "sitting_out")
    if here != drawn_players(night_round):
        raise NightError(
            gettext("Players came or left since this draw: draw round %(number)s again.")
            % {"number": night_round.number}
        )
    season = night.season
    league = season.league
    tables = list(night_round.tables.all())
    with transaction.atomic():
        lock_night(night)
        night_moved(night.pk)
        # claimed first: of two taps on Start at once, the second finds the round started
        now = timezone.now()
        if not NightRound.objects.filter(pk=night_round.pk, started_at=None).update(started_at=now):
            raise NightError(
                gettext("Round %(number)s has started.") % {"number": night_round.number}
            )
        night_round.started_at = now
        for table in tables:
            names = tuple(seat.player.name for seat in table.seats.all())
            partnerships: tuple[tuple[str, ...], ...] = ()
            if plays_partners(night) and len(names) == 4:
                partnerships = ((names[0], names[2]), (names[1], names[3]))
            value = rules.Match(
                game=league.game, players=names, partnerships=partnerships, rules=league.rules
            )

            def also_write(match: Match, table: NightTable = table) -> None:
                SeasonMatch.objects.create(season=season, match=match)
                table.match = match
                table.link = ShareLink.objects.create(
                    match=match,
                    role=SCOREKEEPER,
                    table_number=table.number,
                    created_by=match.created_by,
                )
                table.save(update_fields=["match", "link"])

            create_match(
                value,
                kind=Change.Kind.LEAGUE_MATCH,
                params={"season": str(season)},
                made_by=by.name,
                maker=by.maker,
                user=by.user,
                also_write=also_write,
            )
    return tables


def open_night(night: Night, members: list[Player], walk_ins: Sequence[str]) -> list[CheckIn]:
    """A new night with who came, all at once."""
    with transaction.atomic():
        night.save()
        return check_in(night, members, walk_ins)


def check_in(night: Night, members: list[Player], walk_ins: Sequence[str] = ()) -> list[CheckIn]:
    """Check players in, members and walk-ins (by name: they join the league), all or none.
    They play from the first round not yet started; someone who left and comes back plays
    again from that round."""
    number = next_number(night)
    came = []
    with transaction.atomic():
        lock_night(night)
        night_moved(night.pk)
        walked_in = [player_named(name) for name in walk_ins]
        night.season.league.members.add(*walked_in)
        for player, walk_in in [(p, False) for p in members] + [(p, True) for p in walked_in]:
            found, made = CheckIn.objects.get_or_create(
                night=night, player=player, defaults={"from_round": number, "walk_in": walk_in}
            )
            if not made and found.left_after is not None:
                found.from_round, found.left_after = number, None
                found.save(update_fields=["from_round", "left_after"])
            came.append(found)
    return came


def leave(
    night: Night,
    player: Player,
    *,
    replacement: Player | None = None,
    by: Author,
) -> str:
    """``player`` leaves after the round being played. At a table still playing, the one who
    takes the seat (someone here who is not at a table) plays on in it; with nobody to take it,
    the player's side forfeits the match, as the standings know a forfeit. Says what was done."""
    found = night.check_ins.filter(player=player, left_after=None).first()
    if found is None:
        raise NightError(gettext("%(player)s is not checked in.") % {"player": player})
    started = started_rounds(night)
    current = started[-1] if started else None
    with transaction.atomic():
        lock_night(night)
        night_moved(night.pk)
        found.left_after = current.number if current else 0
        found.save(update_fields=["left_after"])
        table = _playing_at(current, player) if current else None
        if current is None or table is None or table.match_id is None:
            return gettext("%(player)s left.") % {"player": player}
        if replacement is not None:
            _take_seat(night, current, table, player, replacement, by=by)
            return gettext("%(player)s left; %(other)s took their seat at table %(table)s.") % {
                "player": player,
                "other": replacement,
                "table": table.number,
            }
        seat = Seat.objects.get(match_id=table.match_id, player=player)
        side = seat.team if seat.team is not None else seat.position
        entry = SeasonMatch.objects.get(match_id=table.match_id)
        season_match_forfeit(entry=entry, side=side)
        return gettext("%(player)s left; their side forfeited table %(table)s.") % {
            "player": player,
            "table": table.number,
        }


def _playing_at(night_round: NightRound, player: Player) -> NightTable | None:
    return night_round.tables.filter(
        match__finished=False, match__league_entry__forfeited_by=None, seats__player=player
    ).first()


def _take_seat(
    night: Night,
    night_round: NightRound,
    table: NightTable,
    player: Player,
    other: Player,
    *,
    by: Author,
) -> None:
    if other.pk in seated(night_round):
        raise NightError(
            gettext("%(other)s is at a table this round: pick someone sitting out.")
            % {"other": other}
        )
    came = night.check_ins.filter(player=other, left_after=None).first()
    if came is None:
        raise NightError(gettext("Check %(other)s in first.") % {"other": other})
    if came.from_round > night_round.number:
        came.from_round = night_round.number
        came.save(update_fields=["from_round"])
    # the match's row locked and read, as every entry does: its changes are numbered in turn
    assert table.match_id is not None, "a table being played has its match"
    match = locked_match(table.match_id)
    seat = Seat.objects.select_related("player").get(match=match, player=player)
    seat_hand_over(match=match, seat=seat, player=other, by=by)
    TableSeat.objects.filter(night_table=table, player=player).update(player=other)
    SittingOut.objects.filter(night_round=night_round, player=other).delete()
