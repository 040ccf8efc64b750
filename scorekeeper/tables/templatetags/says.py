from __future__ import annotations

from django import template
from django.utils.translation import pgettext

from scorekeeper.rules.text import Says
from scorekeeper.tables import i18n
from scorekeeper.tables.i18n import say as say_in_language
from scorekeeper.tables.turns import Turns, names_by_id

register = template.Library()


@register.filter
def say(says: Says | str) -> str:
    """``{{ next_up.says|say }}``: what the engine says, in the reader's language."""
    if isinstance(says, Says):
        return say_in_language(says)
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
def change_said(change, seating, turns: Turns) -> str:
    """``{% change_said change seating turns %}``: a change in the reader's language, with the
    players' names as they are now (``seating``: the engine's view of the match's seats;
    ``turns``: its seats handed over, which name who left one)."""
    return i18n.change_said(change, seating.game, seating.players, names_by_id(turns))
