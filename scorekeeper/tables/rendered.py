"""Scoreboards rendered once per version of the match and kept in the shared cache.

A board is the same for everyone with the same role, language and address until the match
changes, and every change bumps ``Match.version`` (every write of the row also moves
``updated_at``): the key holds both, so a cached board can never show an old state, and several
app servers sharing the database share the cache too. The board's only per-request parts, the
CSRF token and the entry key of its forms, are left as slots and filled in when it is served.
"""

from __future__ import annotations

import hashlib
import re
import uuid
from collections.abc import Callable

from django.core.cache import cache
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.utils.timezone import get_current_timezone_name
from django.utils.translation import get_language

from scorekeeper.tables.models import Match

CSRF_SLOT = "csrf-token-slot-5d0c9e"
ENTRY_KEY_SLOT = "entry-key-slot-5d0c9e"
#: white space between tags: one space shows the same and sends fewer bytes
_BETWEEN_TAGS = re.compile(r">\s+<")


def board_key(request: HttpRequest, match: Match, role: str | None) -> str:
    made_from = (
        match.pk,
        match.version,
        match.updated_at.isoformat(),
        role or "",
        get_language(),
        get_current_timezone_name(),
        request.path,
    )
    return f"board:{match.pk}:{hashlib.sha256(repr(made_from).encode()).hexdigest()[:40]}"


def cached_board(
    request: HttpRequest, match: Match, role: str | None, render: Callable[[dict], str]
) -> str:
    """The board's HTML for this request: from the cache, or rendered by ``render`` (given the
    slots to put in the context) and cached."""
    key = board_key(request, match, role)
    html = cache.get(key)
    if html is None:
        slots = {"csrf_token": CSRF_SLOT, "entry_key": ENTRY_KEY_SLOT}
        html = _BETWEEN_TAGS.sub("> <", render(slots))
        cache.set(key, html)
    if CSRF_SLOT in html:
        html = html.replace(CSRF_SLOT, get_token(request))
    # one key for the whole board, drawn anew each time it is served, as when it is rendered
    return html.replace(ENTRY_KEY_SLOT, uuid.uuid4().hex)
