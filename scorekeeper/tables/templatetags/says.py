from __future__ import annotations

from collections.abc import Mapping

from django import template
from django.utils.translation import pgettext

from scorekeeper.rules.text import Says
from scorekeeper.tables import i18n
from scorekeeper.tables.i18n import say as say_in_language
from scorekeeper.tables.turns import Turns, names_by_id

register = template.Library()


@register.filter
def say(says: Says | str, names: Mapping[str, str] | None = None) -> str:
    """``{{ next_up.says|say:names }}``: what the engine says, in the reader's language, each
    player by their name (``names``: by seat, as the board's context has them)."""
    if isinstance(says, Says):
        return say_in_language(says, names)
    return says


@register.filter
def severity(value: str) -> str:
    """``{{ finding.severity|severity }}``: "Error" or "Warning" in the reader's language."""
    words = {
        "error": pgettext("the severity of a finding", "Error"),
        "warning": pgettext("the severity of a finding", "Warning"),
    }
    return words.get(str(value), str(value).capitalize())


@register.simple_tag
def change_said(change, seated, turns: Turns) -> str:
    """``{% change_said change seated turns %}``: a change in the reader's language, with the
    players' names as they are now (``seated``: the match's seating by name, Match.seating;
    ``turns``: its seats handed over, which name who left one)."""
    return i18n.change_said(change, seated.game, seated.players, names_by_id(turns))
