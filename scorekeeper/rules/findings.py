"""What the validator can say about a match: codes, severities and the sentence for players."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from scorekeeper.rules.text import NOTHING, Says

#: where a finding happened, then what: translated separately
_WHERE_WHAT = "{where}{what}"


class Severity(StrEnum):
    #: a number the rules make impossible; kept only when the user overrides on purpose
    ERROR = "error"
    #: unusual but possible; kept and flagged
    WARNING = "warning"


#: Every finding code and its severity. The codes are part of the public interface.
CODES: dict[str, Severity] = {
    "play-not-multiple-of-five": Severity.ERROR,
    "play-too-high": Severity.ERROR,
    "lead-too-high": Severity.ERROR,
    "lead-misplaced": Severity.ERROR,
    "domino-with-pips": Severity.ERROR,
    "claimed-mismatch": Severity.WARNING,
    "after-match-end": Severity.ERROR,
    "after-hand-end": Severity.ERROR,
    "pips-exceed-set": Severity.ERROR,
    "pips-given-twice": Severity.ERROR,
    "pips-counted-together": Severity.WARNING,
    "wrong-player-count": Severity.ERROR,
    "wrong-round-double": Severity.ERROR,
    "too-many-rounds": Severity.ERROR,
    #: more hands than a match holds (rules/limits.py): refused, even on purpose
    "too-many-hands": Severity.ERROR,
    "two-players-out": Severity.ERROR,
    "impossible-double-blank": Severity.ERROR,
    "double-repeated": Severity.ERROR,
    "bad-opening": Severity.ERROR,
    "opener-passed-but-held-double": Severity.ERROR,
    "chain-mismatch": Severity.ERROR,
    "impossible-tiles": Severity.ERROR,
}


@dataclass(frozen=True)
class Finding:
    code: str
    severity: Severity
    hand: int | None
    play: int | None
    says: Says

    @property
    def message(self) -> str:
        return str(self.says)

    def as_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": str(self.severity),
            "hand": self.hand,
            "play": self.play,
            "message": self.message,
        }


def finding(
    code: str,
    hand: int | None,
    play: int | None,
    template: str,
    /,
    *,
    in_round: bool = False,
    **params: object,
) -> Finding:
    """A finding of ``code`` whose sentence starts with where it happened.

    ``in_round`` names the hand a round, as Chickenfoot players do.
    """
    if play is not None:
        where = Says("Hand {hand}, play {play}: ", hand=hand, play=play)
    elif hand is not None and in_round:
        where = Says("Round {hand}: ", hand=hand)
    elif hand is not None:
        where = Says("Hand {hand}: ", hand=hand)
    else:
        where = Says(NOTHING)
    return Finding(
        code=code,
        severity=CODES[code],
        hand=hand,
        play=play,
        says=Says(_WHERE_WHAT, where=where, what=Says(template, **params)),
    )
