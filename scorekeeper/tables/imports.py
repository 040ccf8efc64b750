"""A match file brought in through the import page.

It is stored at once when the rules find no error in it. One with error findings is held while
the table decides: the page lists the findings and asks once to override them all
(docs/rules.md), and only the file that was checked and shown is stored when they do.
"""

from __future__ import annotations

import re
import secrets

from django.core.cache import cache

from scorekeeper import rules

#: how long a file with error findings waits for the table's answer
WAITS_FOR = 60 * 60
#: the findings the import page lists; it says how many more there are
MOST_LISTED = 50

_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")


def findings_to_override(value: rules.Match) -> list[rules.Finding]:
    """Every finding of a match that has an error finding; none for a match without one."""
    board = rules.score_match(value)
    return board.findings if board.errors else []


def hold(raw: bytes) -> str:
    """Keep the file until the table answers; the token names it in the page's question."""
    token = secrets.token_urlsafe(16)
    cache.set(_key(token), raw, WAITS_FOR)
    return token


def held(token: str) -> bytes | None:
    """The file the token names, while it waits; None when there is no such file (any more)."""
    if not _TOKEN.fullmatch(token):
        return None
    raw = cache.get(_key(token))
    return raw if isinstance(raw, bytes) else None


def release(token: str) -> None:
    if _TOKEN.fullmatch(token):
        cache.delete(_key(token))


def _key(token: str) -> str:
    return f"import-waiting:{token}"
