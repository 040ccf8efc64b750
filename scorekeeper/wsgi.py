"""WSGI entry point, e.g. `gunicorn scorekeeper.wsgi`."""

from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
application = get_wsgi_application()

from scorekeeper.settings import refuse_insecure_key  # noqa: E402

refuse_insecure_key()
