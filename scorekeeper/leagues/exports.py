"""Heavy exports kept as files under the version of what they hold.

A season's hands.csv and a league's bundle read and score every match they hold: 10 s of CPU
and more for the benchmark's 10,000-match season. The first download is written as it is sent
(streamed, a chunk of matches at a time) and, once it is sent whole, kept as a file under
``settings.EXPORTS_ROOT``, named by a digest of its version and the release; a download while
that version stands is the file, sent as it is read, without a query for a match. A new version
(a match finished, forfeited, corrected, added or taken away, a player renamed, a play in a
match being played) names a new file, and writing it removes the older ones of the same export.

A file rather than the cache: the answers are several MB, which neither the database's cache
table nor Redis should hold, and a file is sent without being read into memory.
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path

from django.conf import settings
from django.http import FileResponse, HttpResponseBase, StreamingHttpResponse

logger = logging.getLogger(__name__)

#: what is sent and written at a time: a CSV comes a line at a time, and a line per write to
#: the file and the network cost more than the line
PIECE = 64 * 1024


def export_kept(
    *,
    name: str,
    version: str,
    suffix: str,
    content_type: str,
    filename: str,
    written: Iterable[bytes | str],
) -> HttpResponseBase:
    """The export ``name`` (unique to its season or league, e.g. ``hands-12``) at ``version``:
    the kept file when there is one, else ``written`` (an iterator, not started until sent)
    streamed and kept as it goes."""
    digest = hashlib.sha256(f"{version}|{settings.RELEASE}".encode()).hexdigest()[:24]
    path = Path(settings.EXPORTS_ROOT) / f"{name}-{digest}{suffix}"
    try:
        kept = path.open("rb")
    except OSError:
        # none kept yet (or a folder the app cannot read: the export is written afresh)
        response: HttpResponseBase = StreamingHttpResponse(
            _kept_as_sent(path, name, suffix, written), content_type=content_type
        )
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response
    return FileResponse(kept, as_attachment=True, filename=filename, content_type=content_type)


def _kept_as_sent(
    path: Path, name: str, suffix: str, pieces: Iterable[bytes | str]
) -> Iterator[bytes]:
    """``pieces`` as bytes, written to a temporary file beside ``path`` as they are sent, and
    renamed to ``path`` once the last is sent. An answer not sent whole (the reader went away,
    the worker stopped) leaves no file; two first downloads at once each write their own and
    the second rename replaces the first with the same bytes."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, writing = tempfile.mkstemp(dir=path.parent, prefix=".writing-", suffix=suffix)
    except OSError as problem:
        # a folder the app cannot write to costs the keeping, not the download
        logger.warning("Export not kept in %s: %s", path.parent, problem)
        yield from _in_pieces(pieces)
        return
    kept = False
    try:
        with os.fdopen(handle, "wb") as file:
            for data in _in_pieces(pieces):
                file.write(data)
                yield data
        for older in path.parent.glob(f"{name}-*{suffix}"):
            older.unlink(missing_ok=True)
        os.replace(writing, path)
        kept = True
    finally:
        if not kept:
            Path(writing).unlink(missing_ok=True)


def _in_pieces(parts: Iterable[bytes | str]) -> Iterator[bytes]:
    """``parts`` as bytes, joined into pieces of about PIECE."""
    held: list[bytes] = []
    size = 0
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        held.append(data)
        size += len(data)
        if size >= PIECE:
            yield b"".join(held)
            held, size = [], 0
    if held:
        yield b"".join(held)
