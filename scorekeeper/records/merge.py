"""Two records of the same person made one: every row that names the other record (seats, seat
turns, league memberships, check-ins, a night's draw ...) moves to the record kept, in one
transaction, both rows locked by the access helper (access/records.py); the kept standings of
the seasons the other played in and the ratings from the other's first rated match on are then
worked out again (leagues/kept.py, leagues/kept_ratings.py), and the other record is deleted.

The rows that name a player are found from the model's relations, not listed here: a table an
app adds later moves with the others. Where a row of the other's would meet one of the kept
record's on a unique constraint (both checked in at the same night), the merge is refused;
two memberships of one league are one."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import models
from django.db.models import F
from django.utils.translation import gettext

from scorekeeper.leagues.kept import standings_rebuild
from scorekeeper.leagues.kept_ratings import Key, ratings_rework
from scorekeeper.leagues.models import (
    HeadToHead,
    Rating,
    RatingChange,
    Season,
    SeasonMatch,
    StandingRow,
)
from scorekeeper.records.claims import Refused
from scorekeeper.records.models import Claim
from scorekeeper.tables.models import Change, Player, Seat, SeatTurn
from scorekeeper.tables.players import player_renamed

#: rows worked out from the matches, not moved: the merge works them out again; and the other
#: record's claims, which go with it
WORKED_OUT: tuple[type[models.Model], ...] = (
    StandingRow,
    HeadToHead,
    RatingChange,
    Rating,
    Claim,
)


def _matches_of(player: Player) -> set[int]:
    seats = Seat.objects.filter(player=player).values_list("match_id", flat=True)
    turns = SeatTurn.objects.filter(player=player).values_list("match_id", flat=True)
    return set(seats) | set(turns)


def merge_refusal(*, kept: Player, other: Player) -> str:
    """Why the two records cannot be merged, or "" when they can (no change made)."""
    if kept.pk == other.pk:
        return gettext("Pick another record than this one.")
    if kept.account_id and other.account_id and kept.account_id != other.account_id:
        return gettext(
            "Both records are claimed, by different accounts: they cannot be the same person's."
        )
    if _matches_of(kept) & _matches_of(other):
        return gettext(
            "Both records sit in the same match: they cannot be the same person. "
            "Nothing was merged."
        )
    return ""


def record_merge(*, kept: Player, other: Player) -> None:
    """Merge ``other`` into ``kept`` (both locked by the caller's transaction). Refused with
    ``Refused`` and nothing changed when ``merge_refusal`` says why."""
    refusal = merge_refusal(kept=kept, other=other)
    if refusal:
        raise Refused(refusal)
    matches = _matches_of(other)
    seasons = set(
        SeasonMatch.objects.filter(match_id__in=matches).values_list("season_id", flat=True)
    ) | set(StandingRow.objects.filter(player=other).values_list("season_id", flat=True))
    starts = _first_rated(other)
    for model, field in _relations():
        _move(model, field, kept=kept, other=other)
    for change in Change.objects.filter(kind=Change.Kind.SEAT_TAKEN, params__left=other.pk):
        change.params = {**change.params, "left": kept.pk}
        change.save(update_fields=["params"])
    Rating.objects.filter(player=other).delete()
    account = other.account_id
    other.delete()
    changed = []
    if kept.account_id is None and account is not None:
        kept.account_id = account
        changed.append("account")
    if other.initials_only and not kept.initials_only:
        # either record asked for initials: the person asked
        kept.initials_only = True
        changed.append("initials_only")
    if changed:
        kept.save(update_fields=changed)
    for season_id in sorted(seasons):
        standings_rebuild(season_id=season_id)
    Season.objects.filter(pk__in=seasons).update(version=F("version") + 1)
    for game, start in sorted(starts.items()):
        ratings_rework(game=game, start=start, players=[kept.pk])
    player_renamed(kept)


def _first_rated(player: Player) -> dict[str, Key]:
    """Each game's first rated match of the player's, by its place in the ratings' order: the
    ratings change from there on."""
    starts: dict[str, Key] = {}
    rows = RatingChange.objects.filter(player=player).order_by("finished_at", "match_id")
    for game, finished_at, match_id in rows.values_list("game", "finished_at", "match_id"):
        starts.setdefault(game, (finished_at, match_id))
    return starts


def _relations() -> Iterable[tuple[type[models.Model], models.ForeignKey]]:
    """Every foreign key to a player, hidden ones (related_name "+", a many-to-many's table)
    included, but those of the rows worked out again."""
    for relation in Player._meta.get_fields(include_hidden=True):
        if not (relation.one_to_many or relation.one_to_one) or not relation.auto_created:
            continue
        model = relation.related_model
        if model in WORKED_OUT:
            continue
        assert isinstance(relation, models.ForeignObjectRel)
        yield model, relation.field  # type: ignore[misc]  # a foreign key's reverse


def _unique_sets(model: type[models.Model], name: str) -> list[tuple[str, ...]]:
    """The model's unique sets of fields that hold ``name`` (the column of the player)."""
    found = []
    opts = model._meta
    for constraint in opts.constraints:
        if isinstance(constraint, models.UniqueConstraint) and constraint.condition is None:
            found.append(tuple(constraint.fields))
    found.extend(tuple(fields) for fields in opts.unique_together)
    column = opts.get_field(name)
    if isinstance(column, models.Field) and column.unique:
        found.append((name,))
    return [fields for fields in found if name in fields]


def _move(
    model: type[models.Model], field: models.ForeignKey, *, kept: Player, other: Player
) -> None:
    """Move the rows of ``model`` that name ``other`` in ``field`` to ``kept``."""
    manager = model._default_manager
    rows = manager.filter(**{field.name: other})
    if not rows.exists():
        return
    for fields in _unique_sets(model, field.name):
        rest = [name for name in fields if name != field.name]
        if not rest:
            # one row a player: the other's clashes when the kept record has one
            clashes = (
                list(rows.values_list("pk", flat=True))
                if manager.filter(**{field.name: kept}).exists()
                else []
            )
        else:
            theirs = set(manager.filter(**{field.name: kept}).values_list(*rest))
            clashes = [
                pk for pk, *values in rows.values_list("pk", *rest) if tuple(values) in theirs
            ]
        if not clashes:
            continue
        if model._meta.auto_created:
            # a many-to-many's table (a league's members): both already in, one row is enough
            manager.filter(pk__in=clashes).delete()
            continue
        # said by what the two rows share ("the same night"), else by the row's own name
        shared = model._meta.get_field(rest[0]) if len(rest) == 1 else None
        what = shared.verbose_name if isinstance(shared, models.Field) else None
        raise Refused(
            gettext("Both records are in the same %(what)s: they cannot be merged.")
            % {"what": what or model._meta.verbose_name}
        )
    manager.filter(**{field.name: other}).update(**{field.name: kept})
