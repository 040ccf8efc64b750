"""Stored plays with their players' names, for tests that read what was stored."""

from __future__ import annotations

from django.db.models import OuterRef, QuerySet, Subquery

from scorekeeper.tables.models import Play, Seat


def named_plays(plays: QuerySet[Play] | None = None) -> QuerySet[Play]:
    """``plays`` with ``player``: the name of who played each, as the player is called now."""
    seat = Seat.objects.filter(match=OuterRef("hand__match"), position=OuterRef("seat"))
    return (plays if plays is not None else Play.objects.all()).annotate(
        player=Subquery(seat.values("player__name")[:1])
    )


def changes_said(match) -> list[tuple[int, str, str]]:
    """Every change of ``match``: (number, the change as said in English, who made it)."""
    from django.utils import translation

    from scorekeeper.tables.i18n import change_said
    from scorekeeper.tables.models import Change
    from scorekeeper.tables.scoring import seated

    seating = seated(match)
    found = Change.objects.filter(match=match).select_related("reverts").order_by("number")
    with translation.override("en"):
        return [
            (change.number, change_said(change, match.game, seating.players), change.made_by)
            for change in found
        ]


def seat_key(match, name: str) -> str:
    """The seat key the engine knows the player called ``name`` in ``match`` by ("0", "1" ...)."""
    return str(Seat.objects.get(match=match, player__name=name).position)


def by_seats(match, hand):
    """A hand (or a hand's end) written with names, as the engine takes it: players by seat."""
    from scorekeeper import rules
    from scorekeeper.rules.keys import rekeyed_hand

    names = Seat.objects.filter(match=match).values_list("player__name", "position")
    keys = {name: str(position) for name, position in names}
    if isinstance(hand, rules.HandEnd):
        end = rekeyed_hand(rules.Hand(end=hand), keys).end
        assert end is not None
        return end
    return rekeyed_hand(hand, keys)
