"""What the app stores or the engine says, in the reader's language.

The rules engine stays free of Django: each sentence it says is a `Says`, an English template
apart from its values. Here the template is looked up in the active language's catalog (the
custom `makemessages` extracts every engine template) and the values are filled in after. The
history's changes are said from their kind and values (below).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.utils.translation import gettext, gettext_noop, ngettext, pgettext

from scorekeeper.rules.match import GAME_NAMES, Side
from scorekeeper.rules.match_end import AfterTheWin
from scorekeeper.rules.text import Says, join_names


def translate(template: str) -> str:
    # gettext("") would answer the catalog's header, not an empty sentence
    return gettext(template) if template else template


def say(says: Says, names: Mapping[str, str] | None = None) -> str:
    """The sentence in the active language (English when no translation is active), each
    player said by their name in ``names`` (by seat key)."""
    return says.render(translate, names)


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


def rule_said(name: str, setting: object) -> str:
    """A house rule and its value, "spinner: on", "double blank: 25", in the reader's language."""
    if setting is True:
        shown = pgettext("a house rule is", "on")
    elif setting is False:
        shown = pgettext("a house rule is", "off")
    else:
        shown = str(setting)
    return f"{rule_label(name)}: {shown}"


# -- the history ---------------------------------------------------------------------------------
# A change keeps its kind and its values (a seat, points, a hand's number ...), never a
# sentence: it is said in each reader's language when it is shown, with the players' names as
# they are now.

SCORED = gettext_noop("%(player)s scored %(points)s")
LAID = gettext_noop("%(player)s laid %(tile)s")
ROUND_WENT_OUT = gettext_noop("Round recorded, %(player)s went out")
ROUND_BLOCKED = gettext_noop("Round recorded, blocked")
HAND_DOMINOED = gettext_noop("Hand ended: %(player)s dominoed")
HAND_ENDED = gettext_noop("Hand ended: %(how)s")
#: a hand's end as the board and the history list it: what each hand held
PIPS_LEFT = gettext_noop("pips left: %(pips)s")
#: a Chickenfoot round as listed: it has no plays, only who went out (or nobody: blocked)
ROUND_OUT = gettext_noop("%(player)s went out")
ROUND_DELETED = gettext_noop("Round %(number)s deleted")
HAND_DELETED = gettext_noop("Hand %(number)s deleted")
ROUND_CORRECTED = gettext_noop("Round %(number)s corrected")
HAND_CORRECTED = gettext_noop("Hand %(number)s corrected")
#: a correction that moved the win earlier, and the match ended there (entries.hand_correct)
ROUND_CORRECTED_ENDED = gettext_noop(
    "Round %(number)s corrected; the match ends at round %(ended)s, where it was won"
)
HAND_CORRECTED_ENDED = gettext_noop(
    "Hand %(number)s corrected; the match ends at hand %(ended)s, where it was won"
)
#: entries after the win left out of the result (entries.match_end_at_win)
ENDED_AT_ROUND = gettext_noop(
    "The match ends at round %(ended)s, where it was won; what came after is left out"
)
ENDED_AT_HAND = gettext_noop(
    "The match ends at hand %(ended)s, where it was won; what came after is left out"
)
REVERTED = gettext_noop("Reverted change %(number)s (%(action)s)")
REMATCH = gettext_noop("Rematch of %(match)s")
LEAGUE_MATCH = gettext_noop("League match started for %(season)s")
SEAT_TAKEN = gettext_noop("%(left)s left; %(player)s plays on in that seat")
#: what an undo took back (entries.undo_last), by what it was
UNDONE = {
    "play": gettext_noop("Undo of %(player)s %(points)s"),
    "end": gettext_noop("Undo of the end of hand %(number)s"),
    "round": gettext_noop("Undo of round %(number)s"),
    "hand": gettext_noop("Undo of hand %(number)s"),
}

_FIXED = {
    "started": gettext_noop("Match started"),
    "imported": gettext_noop("Imported"),
    "undone": gettext_noop("Undo the last entry"),
}


def change_said(
    change, game: str, names: Sequence[str], by_id: Mapping[int, str] | None = None
) -> str:
    """A change in the reader's language, its players by ``names`` (by seat, as now) and, where
    it keeps a player by id (who left a seat), by ``by_id`` (turns.names_by_id)."""
    kind, params = change.kind, change.params

    def player() -> str:
        seat = params.get("seat")
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    if kind == "undone" and params.get("what") in UNDONE:
        played = params.get("points", params.get("tile"))
        return gettext(UNDONE[params["what"]]) % {
            "player": player(),
            "points": played,
            "number": params.get("hand"),
        }
    if kind in _FIXED:
        return gettext(_FIXED[kind])
    if kind == "scored":
        return gettext(SCORED) % {"player": player(), "points": params.get("points")}
    if kind == "laid":
        return gettext(LAID) % {"player": player(), "tile": params.get("tile")}
    if kind == "round-recorded":
        if "seat" in params:
            return gettext(ROUND_WENT_OUT) % {"player": player()}
        return gettext(ROUND_BLOCKED)
    if kind == "hand-ended":
        if params.get("how") == "domino" and "seat" in params:
            return gettext(HAND_DOMINOED) % {"player": player()}
        return gettext(HAND_ENDED) % {"how": how_said(params.get("how", ""))}
    if kind == "hand-corrected" and "ended_at" in params:
        chickenfoot = game == "chickenfoot"
        ended = {"number": params.get("hand"), "ended": params["ended_at"]}
        if "hand" not in params:
            return gettext(ENDED_AT_ROUND if chickenfoot else ENDED_AT_HAND) % ended
        return gettext(ROUND_CORRECTED_ENDED if chickenfoot else HAND_CORRECTED_ENDED) % ended
    if kind in ("hand-deleted", "hand-corrected"):
        chickenfoot = game == "chickenfoot"
        template = {
            ("hand-deleted", True): ROUND_DELETED,
            ("hand-deleted", False): HAND_DELETED,
            ("hand-corrected", True): ROUND_CORRECTED,
            ("hand-corrected", False): HAND_CORRECTED,
        }[(kind, chickenfoot)]
        return gettext(template) % {"number": params.get("hand")}
    if kind == "reverted":
        reverted = change.reverts
        action = change_said(reverted, game, names, by_id) if reverted is not None else "?"
        return gettext(REVERTED) % {"number": params.get("number"), "action": action}
    if kind == "rematch":
        match = f"{game_name(game)} #{params.get('match')}"
        return gettext(REMATCH) % {"match": match}
    if kind == "league-match":
        return gettext(LEAGUE_MATCH) % {"season": params.get("season", "")}
    if kind == "seat-taken":
        left = params.get("left")
        # a name: a change kept before changes kept who left by id, whose name no player had
        # any more when they were moved to ids (tables/migrations/0012)
        if not isinstance(left, str):
            left = (by_id or {}).get(left, "?") if isinstance(left, int) else "?"
        return gettext(SEAT_TAKEN) % {"left": left, "player": player()}
    return str(params.get("text", kind))


def how_said(how: str) -> str:
    hows = {
        "domino": pgettext("how a hand ended", "domino"),
        "blocked": pgettext("how a hand ended", "blocked"),
        "all-doubles": pgettext("how a hand ended", "all-doubles"),
        "target": pgettext("how a hand ended", "target"),
    }
    return hows.get(how, how)


# -- a match decided before its last entry -------------------------------------------------------


def after_the_win_said(found: AfterTheWin, names: Mapping[str, str]) -> str:
    """What was recorded after the match was decided, as the director settling it reads it:
    "Hands 4-5 come after Ana & Cy reached 100" (``names``: the seats' players, by key)."""
    values = {
        "side": found.winner.said_with(names)
        if isinstance(found.winner, Side)
        else say(join_names(found.winner), names),
        "target": found.reached,
        "hand": found.hand,
        "play": found.play,
    }
    if found.play is not None:
        if found.reached is not None:
            template = gettext(
                "What was recorded after play %(play)s of hand %(hand)s comes after %(side)s "
                "reached %(target)s."
            )
        else:
            template = gettext(
                "What was recorded after play %(play)s of hand %(hand)s comes after %(side)s "
                "won the match."
            )
        return template % values
    first, last = found.later or (found.hand + 1, found.hand + 1)
    values["hands"] = str(first) if first == last else f"{first}-{last}"
    count = last - first + 1
    if found.reached is not None:
        template = ngettext(
            "Hand %(hands)s comes after %(side)s reached %(target)s.",
            "Hands %(hands)s come after %(side)s reached %(target)s.",
            count,
        )
    else:
        template = ngettext(
            "Hand %(hands)s comes after %(side)s won the match.",
            "Hands %(hands)s come after %(side)s won the match.",
            count,
        )
    return template % values


def end_at_win_said(found: AfterTheWin) -> str:
    """The button that ends the match where it was decided."""
    return gettext("End the match at hand %(hand)s") % {"hand": found.hand}
