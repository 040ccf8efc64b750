"""Heavy exports, built once and stored as files under the version of what they hold.

A season's hands.csv and a league's bundle read and score every match they hold: 10 s of CPU
and more for the benchmark's 10,000-match season, and more than gunicorn's 30-s timeout on a
loaded machine. So they are built off the request path, by the worker (``manage.py
db_worker``, the task ``build_export``), once per version however many ask at once: the first
request makes the version's ``ExportBuild`` row (one per export and version, a unique
constraint) and queues the build in the same transaction; every request meanwhile is answered
at once with a page saying it is being built, which asks again every few seconds (a meta
refresh, no JavaScript) and gets the file once it is there. An app worker never waits on a
build, so a hall's boards and polls never wait behind an export.

The file is stored under ``settings.EXPORTS_ROOT``, named by a digest of its version and the
release; a download while that version stands is the file, sent as it is read, without a query
for a match. A new version (a match finished, forfeited, corrected, added or taken away, a
player renamed, a play in a match being played) names a new file, and writing it removes the
older ones of the same export. The waiting page asks for the build it waited on (``?build=``),
so a reader in a hall where every play moves the version still gets the file that was built.

Where tasks run in the request (``DJANGO_TASKS=immediate``: the development server, the tests
that read an export's bytes), the export is written as it is sent instead, and stored once
sent whole: no worker would build it.

A file rather than the cache: the answers are several MB, which neither the database's cache
table nor Redis should hold, and a file is sent without being read into memory.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import timedelta
from itertools import chain
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.http import FileResponse, HttpRequest, HttpResponseBase, StreamingHttpResponse
from django.shortcuts import render
from django.utils import timezone
from django_tasks import task, task_backends
from django_tasks.backends.immediate import ImmediateBackend

from scorekeeper.access.throttle import count_export
from scorekeeper.access.views import too_many_exports
from scorekeeper.leagues import bundle
from scorekeeper.leagues.models import ExportBuild, League
from scorekeeper.leagues.results import season_hands
from scorekeeper.tables.spreadsheet import csv_lines

logger = logging.getLogger(__name__)

#: what is sent and written at a time: a CSV comes a line at a time, and a line per write to
#: the file and the network cost more than the line
PIECE = 64 * 1024

#: a build asked for this long ago and not done is taken as lost (its worker was stopped) and
#: asked for again; the benchmark's season builds in about 10 s
BUILD_LOST_AFTER = timedelta(minutes=10)

#: how often the page of an export being built asks again (seconds)
ASK_AGAIN_EVERY = 3

#: each kind of export: its file's ending and its content type
KINDS = {
    "hands": (".csv", "text/csv; charset=utf-8"),
    "league": (".zip", "application/zip"),
}

_DIGEST = re.compile(r"[0-9a-f]{24}")


@dataclass(frozen=True)
class Export:
    """A heavy export of one season (``hands``) or league (``league``) at one version."""

    kind: str
    pk: int
    version: str

    @property
    def name(self) -> str:
        return f"{self.kind}-{self.pk}"

    @property
    def suffix(self) -> str:
        return KINDS[self.kind][0]

    @property
    def filename(self) -> str:
        return f"{self.name}{self.suffix}"

    @property
    def digest(self) -> str:
        return hashlib.sha256(f"{self.version}|{settings.RELEASE}".encode()).hexdigest()[:24]


def export_answer(
    request: HttpRequest, export: Export, written: Iterable[bytes | str]
) -> HttpResponseBase:
    """The answer to a download of ``export``: its stored file, or the page saying it is being
    built (its build asked for by the first to ask). ``written``: the export's content, an
    iterator not started unless tasks run in the request. Read without an account, a download
    counts as a heavy export when it is a file or starts a build; the waiting page does not,
    nor the file it waited for."""
    asked = request.GET.get("build", "")
    if _DIGEST.fullmatch(asked) and asked != export.digest:
        # the build the waiting page waited on, though the season has moved on since
        if (stored := _open(export, asked)) is not None:
            return _file(stored, export)
        if _being_built(export, asked):
            return _building(request, export, asked)
    stored = _open(export, export.digest)
    if stored is not None:
        if asked != export.digest and (refusal := count_export(request)):
            stored.close()
            return too_many_exports(request, refusal)
        return _file(stored, export)
    if isinstance(task_backends["default"], ImmediateBackend):
        if refusal := count_export(request):
            return too_many_exports(request, refusal)
        return _streamed(export, written)
    if not _being_built(export, export.digest):
        if refusal := count_export(request):
            return too_many_exports(request, refusal)
        export_build_ask(export=export)
    return _building(request, export, export.digest)


def export_build_ask(*, export: Export) -> None:
    """Queue the build of ``export`` unless it is already queued or being built: one build per
    export and version, however many ask at once. A build that failed, was lost with its
    worker, or whose file is gone (the folder emptied) is asked for again, once."""
    now = timezone.now()
    # The row and the queued task are written together: two requests at once make one row
    # (the unique constraint; the second reads the first's), and only the one that made it,
    # or took it up again, queues a build.
    with transaction.atomic():
        build, made = ExportBuild.objects.get_or_create(
            name=export.name, digest=export.digest, defaults={"asked_at": now}
        )
        if not made:
            again = ExportBuild.objects.filter(
                pk=build.pk, state=build.state, asked_at=build.asked_at
            )
            if build.state == ExportBuild.State.BUILDING:
                again = again.filter(asked_at__lt=now - BUILD_LOST_AFTER)
            if not again.update(state=ExportBuild.State.BUILDING, asked_at=now, built_at=None):
                return
        build_export.enqueue(kind=export.kind, pk=export.pk, digest=export.digest)


def hands_written(season_id: int) -> Iterator[str]:
    """A season's hands.csv: one row per side per hand, with the running total, read a chunk of
    matches at a time."""
    header = [["match", "game", "hand", "side", "points", "running total"]]
    return csv_lines(chain(header, season_hands(season_id)))


def league_written(league: League) -> Iterator[bytes]:
    """A league's bundle.zip, as it is written (bundle.py)."""
    return bundle.export_league(league)


@task()
def build_export(*, kind: str, pk: int, digest: str) -> None:
    """The worker's task: build the export of season or league ``pk`` asked for under
    ``digest``, as the season or league stands now (a change since names a newer version,
    which its own build will hold)."""
    export = Export(kind=kind, pk=pk, version="")
    builds = ExportBuild.objects.filter(name=export.name, digest=digest)
    try:
        if kind == "hands":
            written: Iterable[bytes | str] = hands_written(pk)
        else:
            written = league_written(League.objects.get(pk=pk))
        export_store(export=export, digest=digest, written=written)
    except BaseException:
        # the next to ask asks for it again (export_build_ask)
        builds.update(state=ExportBuild.State.FAILED)
        raise
    builds.update(state=ExportBuild.State.READY, built_at=timezone.now())
    # the older versions' files are gone (export_store); a build still under way stays
    ExportBuild.objects.filter(name=export.name).exclude(digest=digest).exclude(
        state=ExportBuild.State.BUILDING
    ).delete()


def export_store(*, export: Export, digest: str, written: Iterable[bytes | str]) -> None:
    """Write ``written`` whole to a temporary file and store it as the file of ``export`` under
    ``digest``: a build stopped half way stores nothing."""
    path = _path(export, digest)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, writing = tempfile.mkstemp(dir=path.parent, prefix=".writing-", suffix=export.suffix)
    try:
        with os.fdopen(handle, "wb") as file:
            for data in _in_pieces(written):
                file.write(data)
        _store(writing, path, export)
    finally:
        Path(writing).unlink(missing_ok=True)


def _path(export: Export, digest: str) -> Path:
    return Path(settings.EXPORTS_ROOT) / f"{export.name}-{digest}{export.suffix}"


def _open(export: Export, digest: str):
    try:
        return _path(export, digest).open("rb")
    except OSError:
        # none stored yet (or a folder the app cannot read: built again)
        return None


def _file(stored, export: Export) -> FileResponse:
    return FileResponse(
        stored, as_attachment=True, filename=export.filename, content_type=KINDS[export.kind][1]
    )


def _being_built(export: Export, digest: str) -> bool:
    """A build of that version asked for and neither done, failed nor lost."""
    return ExportBuild.objects.filter(
        name=export.name,
        digest=digest,
        state=ExportBuild.State.BUILDING,
        asked_at__gte=timezone.now() - BUILD_LOST_AFTER,
    ).exists()


def _building(request: HttpRequest, export: Export, digest: str) -> HttpResponseBase:
    """202: the export is being built; the page asks again for that very build."""
    again = f"{request.path}?build={digest}"
    response = render(
        request,
        "leagues/export_building.html",
        {"filename": export.filename, "again": again, "seconds": ASK_AGAIN_EVERY},
        status=202,
    )
    response["Retry-After"] = str(ASK_AGAIN_EVERY)
    response["Cache-Control"] = "no-store"
    return response


def _store(writing: str, path: Path, export: Export) -> None:
    """The file written whole at ``writing`` stored as ``path``, the export's older files gone."""
    for older in path.parent.glob(f"{export.name}-*{export.suffix}"):
        older.unlink(missing_ok=True)
    os.replace(writing, path)


def _streamed(export: Export, written: Iterable[bytes | str]) -> StreamingHttpResponse:
    """The export written as it is sent, and stored once sent whole."""
    response = StreamingHttpResponse(
        _stored_as_sent(export, _path(export, export.digest), written),
        content_type=KINDS[export.kind][1],
    )
    response["Content-Disposition"] = f'attachment; filename="{export.filename}"'
    return response


def _stored_as_sent(export: Export, path: Path, pieces: Iterable[bytes | str]) -> Iterator[bytes]:
    """``pieces`` as bytes, written to a temporary file beside ``path`` as they are sent, and
    renamed to ``path`` once the last is sent. An answer not sent whole (the reader went away,
    the worker stopped) leaves no file; two first downloads at once each write their own and
    the second rename replaces the first with the same bytes."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, writing = tempfile.mkstemp(
            dir=path.parent, prefix=".writing-", suffix=export.suffix
        )
    except OSError as problem:
        # a folder the app cannot write to costs the storing, not the download
        logger.warning("Export not stored in %s: %s", path.parent, problem)
        yield from _in_pieces(pieces)
        return
    try:
        with os.fdopen(handle, "wb") as file:
            for data in _in_pieces(pieces):
                file.write(data)
                yield data
        _store(writing, path, export)
    finally:
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
