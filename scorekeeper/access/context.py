from __future__ import annotations

from django.http import HttpRequest

from scorekeeper.access.permissions import is_organizer


def roles(request: HttpRequest) -> dict[str, bool]:
    """``is_organizer`` in every template, to show league controls only to those who may."""
    return {"is_organizer": is_organizer(request)}
