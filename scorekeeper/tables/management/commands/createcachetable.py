"""Django's ``createcachetable``, for every database when none is named: on SQLite the cache
has a database of its own (scorekeeper/cache_router.py), and the one command deployments, the
Makefile and the tests already run makes its table there; on PostgreSQL, in the app's database.
The router says which database holds the table; elsewhere nothing is made."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandParser
from django.core.management.commands import createcachetable
from django.db import connections


class Command(createcachetable.Command):
    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.set_defaults(database=None)

    def handle(self, *tablenames: Any, **options: Any) -> None:
        if options["database"] is not None:
            return super().handle(*tablenames, **options)
        for alias in connections:
            super().handle(*tablenames, **{**options, "database": alias})
        return None
