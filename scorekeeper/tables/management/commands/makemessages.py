"""Django's makemessages, taught where this project's sentences are.

Besides gettext and friends, the extractor learns the rules engine's calls: every ``Says``
template, the template of every ``finding`` (its fourth argument), and ``N_``, which marks a
template that an expression chooses (the engine keeps no Django import, so it cannot call
gettext itself; the front doors translate its templates when they render them). xgettext takes
only one argument position per keyword, so a call choosing between two templates, such as
``_about``, marks each with ``N_``.

    python manage.py makemessages -l es -l pl -l cs
"""

from __future__ import annotations

from django.core.management.commands import makemessages

#: never scanned: the tests (they quote sentences, they do not say them), collected static files,
#: the browser tests' output, the catalogs themselves
IGNORED = ["tests", "staticfiles", "static", "test-results", "locale", "node_modules"]

KEYWORDS = ["--keyword=Says", "--keyword=finding:4", "--keyword=N_"]


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, *KEYWORDS]

    def handle(self, *args, **options) -> None:
        options["ignore_patterns"] = [*(options.get("ignore_patterns") or []), *IGNORED]
        super().handle(*args, **options)
