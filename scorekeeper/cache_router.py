"""Django's database cache in a database of its own (settings: ``DATABASES["cache"]``, a second
SQLite file beside the app's): storing a page in the cache takes that file's write lock, never
the app database's, which every entry at every table waits for."""

from __future__ import annotations

from typing import Any

from django.db.models import Model

#: the app label of Django's cache table model (django.core.cache.backends.db.CacheEntry)
CACHE_APP = "django_cache"
CACHE_DATABASE = "cache"


class CacheRouter:
    def db_for_read(self, model: type[Model], **hints: Any) -> str | None:
        return CACHE_DATABASE if model._meta.app_label == CACHE_APP else None

    def db_for_write(self, model: type[Model], **hints: Any) -> str | None:
        return CACHE_DATABASE if model._meta.app_label == CACHE_APP else None

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool | None:
        # the cache's table there and nowhere else, and nothing else there
        if app_label == CACHE_APP:
            return db == CACHE_DATABASE
        return False if db == CACHE_DATABASE else None
