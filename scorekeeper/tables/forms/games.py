"""The entry forms of each game."""

from __future__ import annotations

from collections.abc import Sequence

from scorekeeper import rules
from scorekeeper.tables.forms.chickenfoot import RoundForm
from scorekeeper.tables.forms.entry import EntryForm
from scorekeeper.tables.forms.sedma import SedmaEndForm, TileForm
from scorekeeper.tables.forms.straight import HandEndForm, PlayForm

#: the form that ends a hand, by game: Chickenfoot's records a whole round
END_FORMS = {"straight": HandEndForm, "chickenfoot": RoundForm, "sedma": SedmaEndForm}


def play_form(match: rules.Match, names: Sequence[str], data=None) -> PlayForm | TileForm:
    """The form for a play: Straight points, a Sedma tile (Chickenfoot has none: it is entered
    a round at a time). ``names``: who sits in each seat."""
    form = TileForm if match.game == "sedma" else PlayForm
    return form(match, data, names=names)


def hand_end_form(match: rules.Match, names: Sequence[str], data=None, **kwargs) -> EntryForm:
    """The form that ends a hand: Straight, Sedma; a whole round of Chickenfoot."""
    return END_FORMS[match.game](match, data, names=names, **kwargs)
