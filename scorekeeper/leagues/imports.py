"""League bundles imported by the worker, their progress shown while they are read.

A bundle of the most matches the limits allow (2,000) took longer than the app server's 30-s
timeout to import on PostgreSQL under load: the answer was a 500 and nothing was kept. So the
upload is kept as a file under ``settings.BUNDLES_ROOT`` and imported by the worker (``manage.py
db_worker``, as the heavy exports are built: exports.py); the organizer is sent to a page that
shows how many of its matches are read and checked, asks again every few seconds (a meta
refresh, no JavaScript), and shows the league once it is in, or why the bundle was refused.
The import itself is bundle.import_league's: all or nothing, in one transaction.

Where tasks run in the request (``DJANGO_TASKS=immediate``) the import is done by the time the
upload is answered, and the answer is the league, or the refusal, as before.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.utils import timezone
from django.utils.translation import gettext
from django_tasks import task

from scorekeeper.clubs.models import Club
from scorekeeper.leagues import bundle
from scorekeeper.leagues.models import BundleImport

logger = logging.getLogger(__name__)

#: an import neither done nor refused this long after it was asked for was lost with its
#: worker (the transaction it writes in kept nothing): its page says so
IMPORT_LOST_AFTER = timedelta(minutes=30)

#: how often the page of an import under way asks again (seconds)
ASK_AGAIN_EVERY = 2


def bundle_import_ask(*, upload: UploadedFile, club: Club) -> BundleImport:
    """Keep the uploaded bundle and queue its import into ``club``; the import as it stands
    once queued (done already where tasks run in the request)."""
    asked = BundleImport.objects.create(club=club)
    path = bundle_path(asked.pk)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as file:
        for piece in upload.chunks():
            file.write(piece)
    import_bundle.enqueue(import_id=asked.pk)
    # where tasks run in the request (make run, the tests) the import is over by now, written
    # by the task through its own query: the row as the task left it, for the page to say
    asked.refresh_from_db()
    return asked


def bundle_path(import_id: int) -> Path:
    return Path(settings.BUNDLES_ROOT) / f"bundle-{import_id}.zip"


def import_lost(asked: BundleImport) -> bool:
    """Neither done nor refused long after it was asked for: its worker was stopped."""
    under_way = asked.state not in (BundleImport.State.DONE, BundleImport.State.FAILED)
    return under_way and asked.asked_at < timezone.now() - IMPORT_LOST_AFTER


@task()
def import_bundle(*, import_id: int) -> None:
    """The worker's task: import the kept bundle, telling its row how far the reading is."""
    row = BundleImport.objects.filter(pk=import_id)
    club = Club.objects.get(bundleimport__pk=import_id)
    path = bundle_path(import_id)

    def told(read: int, listed: int) -> None:
        state = BundleImport.State.READING if read < listed else BundleImport.State.WRITING
        row.update(state=state, read=read, matches=listed)

    try:
        league = bundle.import_league(path.read_bytes(), club=club, progress=told)
    except bundle.BundleError as problem:
        row.update(state=BundleImport.State.FAILED, error=str(problem), status=problem.status)
    except BaseException:
        row.update(
            state=BundleImport.State.FAILED,
            error=gettext("The bundle could not be imported; nothing of it was kept."),
            status=422,
        )
        raise
    else:
        row.update(state=BundleImport.State.DONE, league=league)
    finally:
        path.unlink(missing_ok=True)
