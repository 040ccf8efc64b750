"""A night's rounds: who plays in each, drawing one, starting it, and someone leaving early.

The draw itself is pure (nights/draw.py): it is given the players' names, so anyone with the
names and the seed shown on the page draws the same tables. What is stored is by player id.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence

from django.db import IntegrityError, transaction
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext

from scorekeeper import rules
from scorekeeper.access.models import SCOREKEEPER, ShareLink
from scorekeeper.access.organizers import was_locked
from scorekeeper.leagues.models import Rating, SeasonMatch
from scorekeeper.leagues.moves import season_match_forfeit
from scorekeeper.leagues.ratings import Skill
from scorekeeper.nights import draw, tournament
from scorekeeper.nights.fairness import fairness
from scorekeeper.nights.models import CheckIn, Night, NightRound, NightTable, new_seed
from scorekeeper.tables.models import Change, Match, Player, Seat, SeatTurn
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


def draw_round(night: Night, *, seed: str = "", allow_rematches: bool = False) -> NightRound:
    """Draw the next round (again, if it was drawn and not started): its tables and who sits
    out. Byes go round: whoever sat out least tonight sits out first. A Swiss or round robin
    night pairs its entries instead (nights/tournament.py); ``allow_rematches`` lets a Swiss
    round that cannot avoid one pair with the fewest."""
    reason = why_not_draw(night)
    if reason:
        raise NightError(reason)
    number = next_number(night)
    here = playing_in(night, number)
    names = {check_in.player.name: check_in.player.pk for check_in in here}
    if night.is_tournament:
        try:
            drawn = tournament.pair_round(
                night, number, here, _played(night), allow_rematches=allow_rematches
            )
        except tournament.RematchesNeeded as refused:
            raise RematchesNeeded(str(refused)) from None
        except tournament.TournamentError as refused:
            raise NightError(str(refused)) from None
        by_id = {pk: name for name, pk in names.items()}
        drawn = draw.Round(
            tuple(
                draw.Table(t.number, tuple(by_id[pk] for pk in t.seats), t.partnerships)
                for t in drawn.tables
            ),
            tuple(by_id[pk] for pk in drawn.sitting_out),
        )
        return _stored(night, number, "", drawn, names)
    sizes = table_sizes(night)
    if len(names) < min(sizes):
        raise NightError(
            gettext("Check in at least %(count)s players to draw a round.") % {"count": min(sizes)}
        )
    if night.draw == Night.Draw.ROTATING and plays_partners(night):
        seed, drawn = "", _rotating(night, number, names)
    else:
        seed = seed.strip()[:64] or _seed_for(night, number)
        drawn = _random_draw(night, number, names, seed, sizes)
    return _stored(night, number, seed, drawn, names)


def _stored(
    night: Night, number: int, seed: str, drawn: draw.Round, names: dict[str, int]
) -> NightRound:
    try:
        return _store_draw(night, number, seed, drawn, names)
    except IntegrityError:
        # another tap drew the same round at the same moment: its draw stands
        raise NightError(
            gettext("Round %(number)s was just drawn: here it is.") % {"number": number}
        ) from None


def _played(night: Night) -> list[NightRound]:
    """The night's rounds with their tables' matches and season entries (what a tournament's
    standings read), read afresh."""
    tables = NightTable.objects.select_related("match__league_entry")
    return list(NightRound.objects.filter(night=night).prefetch_related(Prefetch("tables", tables)))


def _seed_for(night: Night, number: int) -> str:
    """The seed of a draw the organizer typed none for: the night's own followed by the round's
    number, and for a round drawn again a new one (shown with it, so the draw can be checked)."""
    drawn_before = (
        NightRound.objects.filter(night=night, number=number, started_at=None)
        .values_list("seed", flat=True)
        .first()
    )
    if drawn_before is None:
        return f"{night.seed}-{number}"
    seed = drawn_before
    while seed == drawn_before:
        seed = new_seed()
    return seed


def lock_night(night: Night) -> None:
    """Take the night's row first, in every action on a night that writes (draw, start, check
    in, leave): two such actions at once are applied one after the other instead of each
    holding rows the other waits for (on PostgreSQL, a Draw and a Start tapped together
    deadlocked). Call inside the action's transaction. A night its view locked already
    (access.organizers.locked_for_organizer) is not read again."""
    if not was_locked(night):
        list(Night.objects.select_for_update().filter(pk=night.pk).values_list("pk", flat=True))


def _store_draw(
    night: Night, number: int, seed: str, drawn: draw.Round, names: dict[str, int]
) -> NightRound:
    with transaction.atomic():
        lock_night(night)
        NightRound.objects.filter(night=night, number=number, started_at=None).delete()
        night_round = NightRound.objects.create(
            night=night,
            number=number,
            seed=seed,
            sitting_out=[names[name] for name in drawn.sitting_out],
        )
        NightTable.objects.bulk_create(
            NightTable(
                night_round=night_round,
                number=table.number,
                seats=[names[name] for name in table.seats],
            )
            for table in drawn.tables
        )
    return night_round


def _random_draw(
    night: Night, number: int, names: dict[str, int], seed: str, sizes: tuple[int, ...]
) -> draw.Round:
    """A blind or balanced draw of the players (by name: id)."""
    counts = _sat_out(night, number, set(names.values()))
    sat_out = {name: counts.get(pk, 0) for name, pk in names.items()}
    partnerships = plays_partners(night)
    if night.draw == Night.Draw.BALANCED:
        kept = Rating.objects.filter(
            game=night.season.league.game, player_id__in=names.values()
        ).values_list("player_id", "mu", "sigma")
        skills = {pk: Skill(mu, sigma) for pk, mu, sigma in kept}
        by_name = {name: skills[pk] for name, pk in names.items() if pk in skills}
        return draw.balanced_draw(
            list(names),
            by_name,
            seed=seed,
            table_size=sizes,
            partnerships=partnerships,
            sitting_out_counts=sat_out,
        )
    return draw.blind_draw(
        list(names),
        seed=seed,
        table_size=sizes,
        partnerships=partnerships,
        sitting_out_counts=sat_out,
    )


def _sat_out(night: Night, number: int, players: set[int]) -> Counter:
    """How many of the rounds before ``number`` each of ``players`` (by id) did not play: sat
    out, or had not come yet. A late arrival is not the first to sit out once they come.

    A round counts as the draw seated it: someone drawn to sit out who took a leaver's seat
    mid-match has sat it out all the same (they are not sent out again before those who played
    it), and the one who left has played it."""
    counts: Counter = Counter()
    first = first_in_seats(night)
    for night_round in night.night_rounds.filter(number__lt=number).prefetch_related("tables"):
        counts.update(players - drawn_to_play(night_round, first))
    return counts


def first_in_seats(night: Night) -> dict[tuple[int, int], int]:
    """The players (by id) the draw seated in the night's seats handed over since, by match
    and seat."""
    turns = SeatTurn.objects.filter(
        from_change=0, match__night_table__night_round__night=night
    ).values_list("match_id", "position", "player_id")
    return {(match, position): player for match, position, player in turns}


def drawn_to_play(night_round: NightRound, first: dict[tuple[int, int], int]) -> set[int]:
    """The players (by id) the round's draw seated at its tables, a seat handed over since
    (``first``: first_in_seats) counted for the one who sat in it first."""
    return {
        first.get((table.match_id, position), pk)
        for table in night_round.tables.all()
        for position, pk in enumerate(table.seats)
    }


def _rotating(night: Night, number: int, names: dict[str, int]) -> draw.Round:
    """The whist schedule for the players here (by name: id), from where it is up to: it
    starts afresh whenever someone comes or goes (a schedule is for a set of players), with
    its first byes for those who sat out least tonight before it started."""
    schedule = _schedule(tuple(sorted(names)))
    ids = set(names.values())
    done = 0
    for earlier in sorted(started_rounds(night), key=lambda r: -r.number):
        if drawn_players(earlier) != ids:
            break
        done += 1
    counts = _sat_out(night, number - done, ids)
    sat_out = {name: counts.get(pk, 0) for name, pk in names.items()}
    return draw.rotating_round(schedule, done, sitting_out_counts=sat_out)


def seated(night_round: NightRound) -> set[int]:
    """The players (by id) at the round's tables."""
    return {pk for table in night_round.tables.all() for pk in table.seats}


def drawn_players(night_round: NightRound) -> set[int]:
    """The players (by id) the round was drawn for: at its tables or sitting out."""
    return seated(night_round) | set(night_round.sitting_out)


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
    if here != drawn_players(night_round):
        raise NightError(
            gettext("Players came or left since this draw: draw round %(number)s again.")
            % {"number": night_round.number}
        )
    season = night.season
    league = season.league
    tables = list(night_round.tables.all())
    players = Player.objects.in_bulk({pk for table in tables for pk in table.seats})
    with transaction.atomic():
        lock_night(night)
        # claimed first: of two taps on Start at once, the second finds the round started
        now = timezone.now()
        if not NightRound.objects.filter(pk=night_round.pk, started_at=None).update(started_at=now):
            raise NightError(
                gettext("Round %(number)s has started.") % {"number": night_round.number}
            )
        night_round.started_at = now
        for table in tables:
            names = tuple(players[pk].name for pk in table.seats)
            partnerships = ()
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
                    label=gettext("Table %(number)s") % {"number": table.number},
                    created_by=match.created_by,
                )
                table.save(update_fields=["match", "link"])

            create_match(
                value,
                kind=Change.Kind.LEAGUE_MATCH,
                params={"season": str(season)},
                made_by=by.name,
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
        found.left_after = current.number if current else 0
        found.save(update_fields=["left_after"])
        table = _playing_at(current, player) if current else None
        if table is None:
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
    playing = night_round.tables.filter(
        match__finished=False, match__league_entry__forfeited_by=None
    )
    return next((table for table in playing if player.pk in table.seats), None)


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
    match = locked_match(table.match_id)
    seat = Seat.objects.select_related("player").get(match=match, player=player)
    seat_hand_over(match=match, seat=seat, player=other, by=by)
    table.seats = [other.pk if pk == player.pk else pk for pk in table.seats]
    table.save(update_fields=["seats"])
    night_round.sitting_out = [pk for pk in night_round.sitting_out if pk != other.pk]
    night_round.save(update_fields=["sitting_out"])


@functools.lru_cache(maxsize=64)
def _schedule(names: tuple[str, ...]) -> draw.Schedule:
    return draw.rotating_partners(list(names))


def schedule_said(night: Night, names: list[str]) -> dict | None:
    """For a rotating-partners night, what the schedule for the players here gives: a whist
    schedule, or the closest found with its repeats counted."""
    if night.draw != Night.Draw.ROTATING or not plays_partners(night) or len(names) < 4:
        return None
    schedule = _schedule(tuple(sorted(names)))
    return {
        "players": len(names),
        "rounds": len(schedule.rounds),
        "is_whist": schedule.is_whist,
        "partner_repeats": schedule.partner_repeats,
        "never_partners": schedule.never_partners,
    }


def fairness_report(night: Night, night_round: NightRound, names: dict[int, str]) -> dict:
    """The fairness of a round's draw for the night so far (nights/fairness.py), with the
    players' names: read from the night's rounds and the players' ratings (two queries)."""
    played = (
        night.night_rounds.filter(number__lte=night_round.number)
        .order_by("number")
        .prefetch_related("tables")
    )
    partnerships = plays_partners(night)
    so_far = [
        draw.Round(
            tuple(
                draw.Table(t.number, tuple(t.seats), partnerships and len(t.seats) == 4)
                for t in sorted(r.tables.all(), key=lambda t: t.number)
            ),
            tuple(r.sitting_out),
        )
        for r in played
    ]
    ids = {pk for r in so_far for pk in r.players}
    skills = {
        pk: Skill(mu, sigma)
        for pk, mu, sigma in Rating.objects.filter(
            game=night.season.league.game, player_id__in=ids
        ).values_list("player_id", "mu", "sigma")
    }
    # the rounds each player of this round sat out, this one included, as the draw counts them
    here = drawn_players(night_round)
    sat_out = _sat_out(night, night_round.number + 1, here)
    found = fairness(so_far, skills, sat_out)

    def pair(two: tuple) -> tuple[str, ...]:
        return tuple(names.get(pk, "?") for pk in two)

    return {
        # every player for themself: nobody partners anyone, no side faces another
        "partnerships": partnerships,
        "partner_repeats": [(pair(p), times) for p, times in found.partner_repeats],
        "opponent_repeats": [(pair(p), times) for p, times in found.opponent_repeats],
        "sat_out": sorted(
            ((names.get(pk, "?"), times) for pk, times in found.sat_out),
            key=lambda said: (-said[1], said[0]),
        ),
        "closeness": [(number, round(100 * close)) for number, close in found.closeness],
        "closest": round(100 * found.closest),
        "least_close": round(100 * found.least_close),
    }
