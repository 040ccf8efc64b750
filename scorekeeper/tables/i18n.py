"""What the app stores or the engine says, in the reader's language.

The rules engine stays free of Django: each sentence it says is a `Says`, an English template
apart from its values. Here the template is looked up in the active language's catalog (the
custom `makemessages` extracts every engine template) and the values are filled in after. The
history's names for changes are stored in English and said the same way when shown.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext, gettext_noop, pgettext

from scorekeeper.rules.match import GAME_NAMES
from scorekeeper.rules.text import Says


def translate(template: str) -> str:
    # gettext("") would answer the catalog's header, not an empty sentence
    return gettext(template) if template else template


def say(says: Says) -> str:
    """The sentence in the active language; English when no translation is active."""
    return says.render(translate)


def game_name(game: str) -> str:
    """A game's name as the halls say it in the active language."""
    return gettext(GAME_NAMES[game])


def rule_label(name: str) -> str:
    """A house rule's name as the board and the league page show it."""
    labels = {
        "target": gettext("target"),
        "spinner": gettext("spinner"),
        "round_each_hand": gettext("round each hand"),
        "subtract_own": gettext("subtract own"),
        "set": gettext("set"),
        "double_blank": gettext("double blank"),
    }
    return labels.get(name, name.replace("_", " "))


# -- the history ---------------------------------------------------------------------------------
# A change is stored with its name in English (the history is a record, the same for everyone)
# and said in each reader's language when it is shown: the name is matched against the shapes
# below and the matching one is translated with the same values. Anything else (a name stored
# before these shapes, or typed elsewhere) is shown as stored.

MATCH_STARTED = gettext_noop("Match started")
IMPORTED = gettext_noop("Imported")
SCORED = gettext_noop("%(player)s scored %(points)s")
LAID = gettext_noop("%(player)s laid %(tile)s")
ROUND_WENT_OUT = gettext_noop("Round recorded, %(player)s went out")
ROUND_BLOCKED = gettext_noop("Round recorded, blocked")
HAND_DOMINOED = gettext_noop("Hand ended: %(player)s dominoed")
HAND_ENDED = gettext_noop("Hand ended: %(how)s")
UNDONE = gettext_noop("Undo the last entry")
ROUND_DELETED = gettext_noop("Round %(number)s deleted")
HAND_DELETED = gettext_noop("Hand %(number)s deleted")
ROUND_CORRECTED = gettext_noop("Round %(number)s corrected")
HAND_CORRECTED = gettext_noop("Hand %(number)s corrected")
REVERTED = gettext_noop("Reverted change %(number)s (%(action)s)")
REMATCH = gettext_noop("Rematch of %(match)s")
LEAGUE_MATCH = gettext_noop("League match started for %(season)s")
#: who made a change from a phone that gave no name
A_PHONE = gettext_noop("a phone at the table")
#: the label of the link a phone without an account keeps score with
STARTED_ON_THIS_PHONE = gettext_noop("Started on this phone")

_CHANGES = [
    MATCH_STARTED,
    IMPORTED,
    ROUND_BLOCKED,
    UNDONE,
    REVERTED,
    HAND_DOMINOED,
    HAND_ENDED,
    ROUND_WENT_OUT,
    ROUND_DELETED,
    HAND_DELETED,
    ROUND_CORRECTED,
    HAND_CORRECTED,
    REMATCH,
    LEAGUE_MATCH,
    SCORED,
    LAID,
]


def _shape(template: str) -> re.Pattern[str]:
    parts = re.split(r"%\((\w+)\)s", template)
    pattern = "".join(
        re.escape(part) if i % 2 == 0 else f"(?P<{part}>.+?)" for i, part in enumerate(parts)
    )
    return re.compile(f"^{pattern}$", re.S)


_SHAPES = [(template, _shape(template)) for template in _CHANGES]


def change_said(action: str) -> str:
    """A change's stored name in the reader's language."""
    for template, shape in _SHAPES:
        found = shape.match(action)
        if found is None:
            continue
        values = found.groupdict()
        if "action" in values:
            values["action"] = change_said(values["action"])
        if "how" in values:
            values["how"] = _how_said(values["how"])
        return gettext(template) % values
    return action


def _how_said(how: str) -> str:
    hows = {
        "domino": pgettext("how a hand ended", "domino"),
        "blocked": pgettext("how a hand ended", "blocked"),
        "all-doubles": pgettext("how a hand ended", "all-doubles"),
        "target": pgettext("how a hand ended", "target"),
    }
    return hows.get(how, how)


def stored_name_said(name: str) -> str:
    """Who made a change, or a link's label: the app's own words translated, a name as typed."""
    if name in (A_PHONE, STARTED_ON_THIS_PHONE):
        return gettext(name)
    return name
