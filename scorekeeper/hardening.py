"""Requests that no page can answer get a clear 4xx, decided in one place.

- A request body larger than its door takes is refused with 413 before it is read: the limits
  are in settings (`MOST_REQUEST_BYTES`, and `MOST_BUNDLE_REQUEST_BYTES` for a league bundle;
  a body without files, a form's fields, `DATA_UPLOAD_MAX_MEMORY_SIZE`).
- A number in the request that no database column holds (`OverflowError` from a lookup) is 400,
  and so is text with half of a UTF-16 pair in it (a lone surrogate, which no database stores).
- An address with a query longer than `MOST_QUERY_BYTES` is refused with 414: no form here
  sends one that long, and a page that shows the fields back would grow with it.
- A form (``application/x-www-form-urlencoded``) declared in a charset other than UTF-8 or
  ASCII is 400: browsers send forms as UTF-8, and Django refuses any other while it reads them.
  So is a form whose bytes are not UTF-8, declared so or sent without a charset: Django would
  read each such byte as U+FFFD and store a name that nobody typed.
- An entry that waited for SQLite's write lock past its timeout (or that PostgreSQL chose to end
  a deadlock) is 503 with Retry-After: it was rolled back whole, and the phone sends it again
  with the same entry key; a plain form gets a page with a button that sends it again.
- Ids in URLs are matched by :class:`IdConverter`: at most 18 digits, so an id past 64 bits is a
  404 before any lookup.

Django answers the rest itself with 400: a multipart body without a boundary, more fields or
files than DATA_UPLOAD_MAX_NUMBER_FIELDS / _FILES, a form body past DATA_UPLOAD_MAX_MEMORY_SIZE.
docs/limits.md lists every door and its limits.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable
from urllib.parse import unquote_to_bytes

from django.conf import settings
from django.db import OperationalError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext

#: the charsets a form's fields may be declared in (by codecs' name): UTF-8 and its subset
FORM_CHARSETS = {"utf-8", "ascii"}


class IdConverter:
    """A database id in a URL: 1 to 18 digits, every one of which a 64-bit column holds."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


class RequestLimitsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if len(request.META.get("QUERY_STRING", "")) > settings.MOST_QUERY_BYTES:
            return _refused(414, "The address is longer than the app takes.")
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return _refused(400, "Bad request: the length of its body is not a number.")
        most = _most_bytes(request)
        if not (request.content_type or "").startswith("multipart/"):
            # without files, a body is a form's fields: Django would refuse it with a bare 400
            most = min(most, settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
        if length > most:
            return _refused(
                413,
                gettext("That is more than the app takes at once (at most %(size)s MB).")
                % {"size": _megabytes(most)},
            )
        if request.content_type == "application/x-www-form-urlencoded":
            # A form is UTF-8 (Django refuses another charset while it reads the fields, and
            # its answer to that read them again, a 500). ASCII is UTF-8 as it stands.
            if request.encoding and codecs.lookup(request.encoding).name not in FORM_CHARSETS:
                return _refused(400, "Bad request: a form is sent as UTF-8.")
            if not _utf_8(request.body):
                return _refused(400, "Bad request: a form is sent as UTF-8.")
            request.encoding = "utf-8"
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, OverflowError):
            return _refused(400, "Bad request: a number in it is larger than any kept.")
        if isinstance(exception, UnicodeEncodeError) and "surrogate" in exception.reason:
            return _refused(400, "Bad request: it holds text that is not valid Unicode.")
        if isinstance(exception, OperationalError) and _busy(exception):
            # SQLite: the entry waited its turn for the write lock (settings: "timeout") and
            # did not get it; PostgreSQL: it was chosen to end a deadlock, or under ASGI it
            # waited for one of the pool's connections and none came free. Its transaction was
            # rolled back whole, so sending it again with the same entry key records it once;
            # a phone does so by itself (app.js), and a plain form gets a button to.
            if request.method == "POST" and not request.headers.get("HX-Request"):
                response = render(request, "busy.html", {"resend": _resend(request)}, status=503)
            else:
                response = _refused(
                    503, gettext("The scores are busy: nothing was saved yet. Sending it again.")
                )
            response["Retry-After"] = "1"
            return response
        return None


def _utf_8(body: bytes) -> bool:
    """Whether a form's fields are UTF-8 once their %-escapes are undone. Django reads them
    with ``errors="replace"``; the body is at most DATA_UPLOAD_MAX_MEMORY_SIZE, checked above.
    Fields are joined by ``&`` and ``=``, which no UTF-8 sequence holds, so the whole body is
    UTF-8 exactly when every name and value is."""
    try:
        unquote_to_bytes(body).decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _busy(exception: OperationalError) -> bool:
    text = str(exception)
    return (
        "locked" in text
        or "deadlock detected" in text
        # psycopg_pool.PoolTimeout (settings.py: the pool under ASGI)
        or "couldn't get a connection" in text
    )


def _resend(request: HttpRequest) -> list[tuple[str, str]] | None:
    """The form's fields, to send them again as they were; None for a form with files, which
    a page cannot hold."""
    if request.FILES:
        return None
    return [(name, value) for name, values in request.POST.lists() for value in values]


def _most_bytes(request: HttpRequest) -> int:
    if request.path == reverse("leagues:import_bundle"):
        return settings.MOST_BUNDLE_REQUEST_BYTES
    return settings.MOST_REQUEST_BYTES


def _megabytes(size: int) -> str:
    return f"{size / 1_000_000:g}"


def _refused(status: int, message: str) -> HttpResponse:
    # plain text: whatever the request held, the answer is one short sentence. A malformed
    # request (400) comes from a program, not a person, and is answered in English as Django
    # answers its own; a body too large (413) may be a person's upload and is translated.
    return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")
