"""ASGI entry point, e.g. `uvicorn scorekeeper.asgi:application`."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
# read by the settings: connections under ASGI (scorekeeper/settings.py, SERVED_BY_ASGI)
os.environ["SCOREKEEPER_ASGI"] = "1"
application = get_asgi_application()

from scorekeeper.settings import refuse_insecure_key  # noqa: E402

refuse_insecure_key()
