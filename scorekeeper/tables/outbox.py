"""A phone's entries not yet sent (its outbox), applied to the match as stored: the match as it
would stand had they all reached the server. Nothing is written.

Each entry is read by the very form its view reads it with, so its fields mean what they would
have meant had it been sent. An entry the form refuses is skipped and said so; one the rules
flag is kept, as the table said it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from django.core.exceptions import NON_FIELD_ERRORS
from django.utils.datastructures import MultiValueDict
from django.utils.translation import gettext

from scorekeeper import rules
from scorekeeper.tables.forms.games import hand_end_form, play_form
from scorekeeper.tables.models import Match
from scorekeeper.tables.scoring import match_value, seats_and_names
from scorekeeper.tables.steps import Step, end_step, play_step, tile_step, undo_step

#: what a form said was wrong with an entry, by field (NON_FIELD_ERRORS: the entry as a whole)
Errors = dict[str, list[str]]


@dataclass(frozen=True)
class Skipped:
    """An entry left out: its place in the outbox (from 1), its kind, and why."""

    number: int
    kind: str
    errors: Errors


def with_outbox(row: Match, entries: Iterable[Mapping]) -> tuple[rules.Match, list[Skipped]]:
    """The stored match (fetched ``with_everything``) with each entry applied in order, each
    ``{"kind": "play" | "end" | "undo", "fields": {name: [values]}}`` as OutboxForm reads
    them; and the entries left out."""
    value = match_value(row)
    seating, names = seats_and_names(row)
    skipped = []
    for number, entry in enumerate(entries, 1):
        step, errors = entry_step(entry["kind"], seating, names, MultiValueDict(entry["fields"]))
        if step is None:
            skipped.append(Skipped(number, entry["kind"], errors))
        else:
            value = step(value)
    return value, skipped


def entry_step(
    kind: str, seating: rules.Match, names: list[str], data: MultiValueDict
) -> tuple[Step | None, Errors]:
    """What an entry of ``kind`` posting ``data`` does to the match, as its view reads it
    (table_pages/entries.py); None and the form's errors when the form refuses it.
    ``seating``: players by seat; ``names``: who sits in each."""
    if kind == "undo":
        return undo_step, {}
    if kind == "play":
        if seating.game == "chickenfoot":
            return _refused(gettext("Chickenfoot is entered a round at a time."))
        form = play_form(seating, names, data)
        if not form.is_valid():
            return None, _errors(form)
        played = form.cleaned_data
        if seating.game == "sedma":
            return tile_step(played["player"], played["tile"]), {}
        return play_step(played["player"], played["points"], played.get("lead", False)), {}
    if "preview" in data:
        return _refused(gettext("A preview of the hand's end: it records nothing."))
    end_form = hand_end_form(seating, names, data)
    if not end_form.is_valid():
        return None, _errors(end_form)
    ended = end_form.cleaned_data
    starter = ended.get("starter") or None if seating.game == "chickenfoot" else None
    return end_step(ended["end"], starter), {}


def _refused(message: str) -> tuple[None, Errors]:
    return None, {NON_FIELD_ERRORS: [message]}


def _errors(form) -> Errors:
    return {name: list(messages) for name, messages in form.errors.items()}
