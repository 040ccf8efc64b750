"""The access helpers of what a league's organizer runs: a league, a season, a night and its
rounds (the apps above name the rows; access knows none of them).

``organizer_required`` is the decorator of a view only organizers open, whatever its method.
``locked_for_organizer`` reads the row a change of an organizer's is made to, locked, once,
inside the view's ``transaction.atomic()``, and hands it on: the service reads its other rows
under that lock and locks it no more (``was_locked``), so two such changes at once (a Draw and
a Start tapped together) are applied one after the other.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import TypeVar

from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from scorekeeper.access.permissions import require_organizer

RowT = TypeVar("RowT", bound=Model)


def organizer_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Only a league's organizer opens the view: anyone else is refused (403) before it runs."""

    @wraps(view)
    def checked(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        require_organizer(request)
        return view(request, *args, **kwargs)

    return checked


def locked_for_organizer(request: HttpRequest, rows: QuerySet[RowT], **lookup: object) -> RowT:
    """The row of ``rows`` that ``lookup`` finds, locked for a change the organizer makes: 403
    for anyone else, 404 for no such row. Its own row alone is locked, not those it is read
    with (``select_related``)."""
    require_organizer(request)
    row = get_object_or_404(rows.select_for_update(of=("self",)), **lookup)
    row._locked_for_change = True  # type: ignore[attr-defined]  # a mark, read below
    return row


def was_locked(row: Model) -> bool:
    """Whether ``row`` was read locked by ``locked_for_organizer`` for the change being made."""
    return getattr(row, "_locked_for_change", False)
