from __future__ import annotations

from django import template
from django.utils.translation import pgettext

from scorekeeper.rules.text import Says
from scorekeeper.tables import i18n
from scorekeeper.tables.i18n import say as say_in_language

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


@register.filter
def change_said(change, seating) -> str:
    """``{{ change|change_said:seating }}``: a change in the reader's language, with the
    players' names as they are now (``seating``: the engine's view of the match's seats)."""
    return i18n.change_said(change, seating.game, seating.players)
