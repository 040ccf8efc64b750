"""Whole pages kept rendered in the shared cache, for the pages a hall reloads most: a
scoreboard and a season's standings.

A page is kept under its address, language, time zone, asker and this release of the app, with
the stamp of what it shows (versions: every change bumps them), and served only while the stamp
is still the one it was drawn from, so a kept page is never stale. A watcher's page is the same
for every watcher: it is kept gzipped, so a hit costs neither a template nor compression. A
scorekeeper's page has per-request parts, the CSRF token and the one-time entry key of its
forms, kept as slots and filled in when it is served: a hit costs no template.
"""

from __future__ import annotations

import gzip
import hashlib
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache as once
from pathlib import Path

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.utils.cache import patch_vary_headers
from django.utils.timezone import get_current_timezone_name
from django.utils.translation import get_language

#: stand-ins rendered into a kept page, replaced when it is served
CSRF_SLOT = "csrf-token-slot-5d0c9e"
ENTRY_KEY_SLOT = "entry-key-slot-5d0c9e"
SLOTS = {"csrf_token": CSRF_SLOT, "entry_key": ENTRY_KEY_SLOT}
_SLOT = re.compile(f"{CSRF_SLOT}|{ENTRY_KEY_SLOT}")
#: white space between tags: one space shows the same and sends fewer bytes
_BETWEEN_TAGS = re.compile(r">\s+<")
_ACCEPTS_GZIP = re.compile(r"\bgzip\b")


@dataclass(frozen=True)
class Packed:
    """A page ready to send: without slots (a watcher's page) gzipped whole, else as text."""

    #: the whole page gzipped, when it has no slots
    whole: bytes = b""
    #: the page with its slots, when it has any
    text: str = ""

    @classmethod
    def of(cls, html: str) -> Packed:
        html = _BETWEEN_TAGS.sub("> <", html)
        if not _SLOT.search(html):
            return cls(whole=gzip.compress(html.encode(), mtime=0))
        return cls(text=html)

    def response(self, request: HttpRequest) -> HttpResponse:
        if not self.whole:
            # compressed on the way out (GZipMiddleware), as any page
            return HttpResponse(_filled(self.text, request))
        response = HttpResponse()
        if _ACCEPTS_GZIP.search(request.headers.get("accept-encoding", "")):
            response.content = self.whole
            response["Content-Encoding"] = "gzip"
        else:
            response.content = gzip.decompress(self.whole)
        response["Content-Length"] = str(len(response.content))
        patch_vary_headers(response, ("Accept-Encoding",))
        return response


def _filled(html: str, request: HttpRequest) -> str:
    if CSRF_SLOT in html:
        html = html.replace(CSRF_SLOT, get_token(request))
    # one key for the whole page, drawn anew each time it is served, as when it is drawn
    return html.replace(ENTRY_KEY_SLOT, uuid.uuid4().hex)


def served(
    request: HttpRequest, page: tuple, stamp: tuple, draw: Callable[[dict], str]
) -> HttpResponse:
    """The page for this request. ``page`` tells it from the other pages at the same address
    (the asker's role, say); ``stamp`` names what it shows that changes (versions). ``draw``
    draws it with the given context added to its own (the slots, when it is to be kept).

    One entry per page: a newer stamp replaces the page drawn for an older one, so the cache
    holds the pages people look at, not every version of them."""
    if get_messages(request):
        # a page that carries a message is drawn for that once
        return HttpResponse(draw({}))
    key = page_key(request, page)
    kept = cache.get(key)
    if kept is not None and kept[0] == stamp:
        packed = kept[1]
    else:
        packed = Packed.of(draw(SLOTS))
        cache.set(key, (stamp, packed))
    return packed.response(request)


def page_key(request: HttpRequest, page: tuple) -> str:
    asker = request.user.pk if request.user.is_authenticated else None
    parts = (
        release(),
        request.get_full_path(),
        get_language(),
        get_current_timezone_name(),
        asker,
        page,
    )
    return f"page:{hashlib.sha256(repr(parts).encode()).hexdigest()[:40]}"


@once
def release() -> str:
    """This release of the code, templates, translations and static files: what an older
    release kept in the cache (a database shared with it) is never used by this one."""
    base = Path(settings.BASE_DIR)
    files = [
        *sorted((base / "scorekeeper").rglob("*.py")),
        *sorted((base / "templates").rglob("*.html")),
        *sorted((base / "locale").rglob("*.mo")),
        Path(settings.STATIC_ROOT) / "staticfiles.json",
    ]
    digest = hashlib.sha256()
    for path in files:
        if path.is_file():
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
