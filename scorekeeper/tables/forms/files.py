"""What a phone or a person sends as a file: the outbox's waiting entries, a match file."""

from __future__ import annotations

import json

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scorekeeper import rules
from scorekeeper.rules.matchfile import MatchFileError, read_match
from scorekeeper.tables.names import BadName
from scorekeeper.tables.players import stored_names

#: the most entries a phone sends at once: far more taps than a whole match takes
MOST_OUTBOX_ENTRIES = 500
OUTBOX_KINDS = ("play", "end", "undo")


class OutboxForm(forms.Form):
    """A phone's entries not yet sent, in the order they were tapped: a JSON list of
    ``{"kind": "play" | "end" | "undo", "fields": {name: value or [values]}}``, the fields
    being those the entry's form would have posted."""

    entries = forms.CharField(strip=False)

    def clean_entries(self) -> list[dict]:
        try:
            entries = json.loads(self.cleaned_data["entries"])
        except (ValueError, RecursionError):
            raise ValidationError(gettext("The entries sent are not JSON.")) from None
        if not isinstance(entries, list):
            raise ValidationError(gettext("The entries sent must be a JSON list."))
        if len(entries) > MOST_OUTBOX_ENTRIES:
            raise ValidationError(
                gettext("At most %(most)s entries can be sent at once; %(count)s were sent.")
                % {"most": MOST_OUTBOX_ENTRIES, "count": len(entries)}
            )
        return [_outbox_entry(number, entry) for number, entry in enumerate(entries, 1)]


def _outbox_entry(number: int, entry: object) -> dict:
    """One entry with its fields as a browser posts them: each a list of texts. What the phone
    sent is never quoted back: it may hold anything."""
    if not isinstance(entry, dict) or entry.get("kind") not in OUTBOX_KINDS:
        raise ValidationError(
            gettext("Entry %(number)s is not a play, an end or an undo.") % {"number": number}
        )
    fields = entry.get("fields", {})
    if not isinstance(fields, dict):
        raise ValidationError(
            gettext("Entry %(number)s: its fields must be a JSON object.") % {"number": number}
        )
    posted = {}
    for name, value in fields.items():
        items = value if isinstance(value, list) else [value]
        if not all(item is None or isinstance(item, str | int | float) for item in items):
            raise ValidationError(
                gettext("Entry %(number)s: a field holds something other than text or numbers.")
                % {"number": number}
            )
        posted[name] = [text for item in items if (text := _posted(item)) is not None]
    return {"kind": entry["kind"], "fields": posted}


def _posted(value: str | int | float | None) -> str | None:
    """A value as a browser posts it: text; a ticked box "on", an unticked one not at all."""
    if value is None or value is False:
        return None
    if value is True:
        return "on"
    return value if isinstance(value, str) else str(value)


class ImportForm(forms.Form):
    file = forms.FileField(label=_("Match file (.json)"))

    def clean_file(self) -> rules.Match:
        upload = self.cleaned_data["file"]
        if upload.size > 2_000_000:
            raise ValidationError(gettext("That file is too large to be a match file."))
        try:
            match = read_match(upload.read())
        except MatchFileError as error:
            raise ValidationError(_unreadable(str(error))) from None
        try:
            match = stored_names(match)
        except BadName as problem:
            raise ValidationError(_unreadable(str(problem))) from None
        return match


def _unreadable(problem: str) -> str:
    # the problem itself names a place in the file and stays in English, as the file format does
    return gettext("This is not a match file the app can read: %(problem)s") % {"problem": problem}
