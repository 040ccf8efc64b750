"""A round's draw: the players here drawn (nights/draw.py) or paired (nights/tournament.py)
and stored by player id, what the draw reads of the rounds before (who sat out), the
rotating-partners schedule and the fairness of a round's draw.

The draw itself is pure (nights/draw.py): it is given the players' names, so anyone with the
names and the seed shown on the page draws the same tables. What is stored is by player id.
"""

from __future__ import annotations

import functools
from collections import Counter

from django.db import IntegrityError, transaction
from django.db.models import Prefetch
from django.utils.translation import gettext

from scorekeeper.leagues.models import Rating
from scorekeeper.leagues.ratings import Skill
from scorekeeper.nights import draw, tournament
from scorekeeper.nights.fairness import fairness
from scorekeeper.nights.live import night_moved
from scorekeeper.nights.models import (
    Night,
    NightRound,
    NightTable,
    SittingOut,
    TableSeat,
    new_seed,
)
from scorekeeper.nights.rounds import (
    NightError,
    RematchesNeeded,
    drawn_players,
    lock_night,
    next_number,
    playing_in,
    plays_partners,
    started_rounds,
    table_sizes,
    why_not_draw,
)
from scorekeeper.tables.models import SeatTurn


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
    # the draw's players are any keys (nights/draw.py): here names, for ids
    names: dict[draw.Player, int] = {check_in.player.name: check_in.player.pk for check_in in here}
    if night.is_tournament:
        try:
            drawn = tournament.pair_round(
                night, number, here, _played(night), allow_rematches=allow_rematches
            )
        except tournament.RematchesNeeded as refused:
            raise RematchesNeeded(str(refused)) from None
        except tournament.TournamentError as refused:
            raise NightError(str(refused)) from None
        by_id: dict[draw.Player, draw.Player] = {pk: name for name, pk in names.items()}
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
    night: Night, number: int, seed: str, drawn: draw.Round, names: dict[draw.Player, int]
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
    tables = NightTable.objects.select_related("match__league_entry").prefetch_related("seats")
    return list(
        NightRound.objects.filter(night=night).prefetch_related(
            Prefetch("tables", tables), "sitting_out"
        )
    )


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


def _store_draw(
    night: Night, number: int, seed: str, drawn: draw.Round, names: dict[draw.Player, int]
) -> NightRound:
    with transaction.atomic():
        lock_night(night)
        night_moved(night.pk)
        NightRound.objects.filter(night=night, number=number, started_at=None).delete()
        night_round = NightRound.objects.create(night=night, number=number, seed=seed)
        tables = NightTable.objects.bulk_create(
            NightTable(night_round=night_round, number=table.number) for table in drawn.tables
        )
        TableSeat.objects.bulk_create(
            TableSeat(night_table=stored, position=position, player_id=names[name])
            for stored, table in zip(tables, drawn.tables, strict=True)
            for position, name in enumerate(table.seats)
        )
        SittingOut.objects.bulk_create(
            SittingOut(night_round=night_round, player_id=names[name]) for name in drawn.sitting_out
        )
    return night_round


def _random_draw(
    night: Night, number: int, names: dict[draw.Player, int], seed: str, sizes: tuple[int, ...]
) -> draw.Round:
    """A blind or balanced draw of the players (by name: id)."""
    counts = _sat_out(night, number, set(names.values()))
    sat_out: dict[draw.Player, int] = {name: counts.get(pk, 0) for name, pk in names.items()}
    partnerships = plays_partners(night)
    if night.draw == Night.Draw.BALANCED:
        kept = Rating.objects.filter(
            game=night.season.league.game, player_id__in=names.values()
        ).values_list("player_id", "mu", "sigma")
        skills = {pk: Skill(mu, sigma) for pk, mu, sigma in kept}
        by_name: dict[draw.Player, Skill] = {
            name: skills[pk] for name, pk in names.items() if pk in skills
        }
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
    earlier = night.night_rounds.filter(number__lt=number).prefetch_related("tables__seats")
    for night_round in earlier:
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
        first.get((table.match_id or 0, position), pk)
        for table in night_round.tables.all()
        for position, pk in enumerate(table.player_ids)
    }


def _rotating(night: Night, number: int, names: dict[draw.Player, int]) -> draw.Round:
    """The whist schedule for the players here (by name: id), from where it is up to: it
    starts afresh whenever someone comes or goes (a schedule is for a set of players), with
    its first byes for those who sat out least tonight before it started."""
    schedule = _schedule(tuple(sorted(str(name) for name in names)))
    ids = set(names.values())
    done = 0
    for earlier in sorted(started_rounds(night), key=lambda r: -r.number):
        if drawn_players(earlier) != ids:
            break
        done += 1
    counts = _sat_out(night, number - done, ids)
    sat_out: dict[draw.Player, int] = {name: counts.get(pk, 0) for name, pk in names.items()}
    return draw.rotating_round(schedule, done, sitting_out_counts=sat_out)


@functools.lru_cache(maxsize=64)
def _schedule(names: tuple[str, ...]) -> draw.Schedule:
    return draw.rotating_partners(list(names))


def schedule_said(night: Night, names: list[str]) -> dict | None:
    """For a rotating-partners night, what the schedule for the players here gives: a whist
    schedule, or the closest found with its repeats counted."""
    if night.draw != Night.Draw.ROTATING or not plays_partners(night) or len(names) < 4:
        return None
    schedule = _schedule(tuple(sorted(str(name) for name in names)))
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
        .prefetch_related("tables__seats", "sitting_out")
    )
    partnerships = plays_partners(night)
    so_far = [
        draw.Round(
            tuple(
                draw.Table(t.number, tuple(t.player_ids), partnerships and len(t.player_ids) == 4)
                for t in sorted(r.tables.all(), key=lambda t: t.number)
            ),
            tuple(r.sitting_out_ids),
        )
        for r in played
    ]
    ids = {pk for r in so_far for pk in r.players}
    skills: dict[draw.Player, Skill] = {
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
            (
                (names.get(pk, "?") if isinstance(pk, int) else "?", times)
                for pk, times in found.sat_out
            ),
            key=lambda said: (-said[1], said[0]),
        ),
        "closeness": [(number, round(100 * close)) for number, close in found.closeness],
        "closest": round(100 * found.closest),
        "least_close": round(100 * found.least_close),
    }
