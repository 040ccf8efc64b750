"""How large a number, a name or a match the app takes at all.

Below these bounds a number the rules make impossible is kept and flagged by a finding: the
record says what the table decided. Above them it is refused at the door (`invalid-number`, or
`too-many` / `too-large` for a file's size): no table can have meant it, and every sum, page and
list built from it would only cost memory. The entry forms take the same bounds, so whatever a
table entered can be exported and read back.
"""

from __future__ import annotations

from scorekeeper.rules.findings import Finding, finding
from scorekeeper.rules.tiles import set_pips

#: the pips of the largest set (double-twelve): no hand, and no score made of pips, holds more
MOST_PIPS = set_pips(12)
#: a play shows at most 35; a mistyped play is kept and flagged up to this, as the forms take it
MOST_PLAY_POINTS = 1000
#: the highest target a match can be played to, as the setup form takes it
MOST_TARGET = 10_000
#: what a table can have written down for one hand
MOST_CLAIMED = MOST_TARGET

#: a name, as the tables store it
MOST_NAME_LENGTH = 40
#: twice the most seats any game has (8): a wrong player count is still a finding below this
MOST_PLAYERS = 16
#: a match to 250 takes a dozen hands or so, a Chickenfoot game at most 13 rounds: a match file
#: holds at most this many, and a table enters no more (``hands_past_the_limit``), so every
#: match can be exported and read back, and no page or tap of it grows past what this many cost
MOST_HANDS = 100
#: 28 tiles make a double-six hand, so at most 28 scoring plays or tiles in a line; a Sedma line
#: recorded with a tile or two more is still read, and flagged
MOST_PLAYS = 30
#: a match file at the most players, hands and plays above, written out, stays below this
MOST_FILE_BYTES = 1_000_000


def hands_past_the_limit(before: int, after: int) -> list[Finding]:
    """An entry that takes a match from ``before`` hands to ``after``, past MOST_HANDS: the
    finding that refuses it (an entry that changes no hand count, a correction, is kept)."""
    if after <= max(before, MOST_HANDS):
        return []
    return [
        finding(
            "too-many-hands",
            after,
            None,
            "a match holds at most {most} hands. Start a rematch to play on.",
            most=MOST_HANDS,
        )
    ]
