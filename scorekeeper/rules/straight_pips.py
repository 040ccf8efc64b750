"""The pips left in the hands at the end of a Straight Dominoes hand: each player's, or
partners' counted together, and the bounds a double-six set puts on them."""

from __future__ import annotations

from scorekeeper.rules.findings import Finding, finding
from scorekeeper.rules.match import HandEnd, Match, Side
from scorekeeper.rules.text import Named, Says, Who, join_names

SET_PIPS = 168
#: pips in the 7 lightest tiles, all on the table once a player has dominoed
LIGHTEST_SEVEN = 15
#: pips in one whole suit (0-0 ... 0-6): a blocked layout has at least one suit all down
LIGHTEST_SUIT = 21
#: pips in the 7 heaviest tiles: the most a hand can hold when there is no boneyard
HEAVIEST_SEVEN = 69
#: pips in the 14 heaviest tiles: the most two hands, a partnership's, can hold together
HEAVIEST_FOURTEEN = 118


def _counted_together(end: HandEnd, side: Side) -> bool:
    """Whether ``end`` gives the pips of partners ``side`` as one number, keyed by its label."""
    return side.is_partnership and side.label in end.pips


def _held(match: Match, end: HandEnd, side: Side) -> list[tuple[Named, int]]:
    """The pips ``end`` gives for ``side``: partners counted together as one number under the
    side's label, else each player's."""
    if _counted_together(end, side):
        return [(side, end.pips[side.label])]
    return [(Who(name), end.pips_of(name)) for name in match.players_of(side)]


def _check_pips(match: Match, number: int, end: HandEnd) -> list[Finding]:
    """Sanity bounds: the pips in hands cannot exceed what the set leaves off the table."""
    on_table = LIGHTEST_SEVEN if end.how == "domino" else LIGHTEST_SUIT
    limit = SET_PIPS - on_table
    # partners counted together are counted once, even when one of them is given too
    total = sum(pips for side in match.sides for _, pips in _held(match, end, side))
    findings = []
    if len(match.players) == 4:
        for name, pips in end.pips.items():
            if name in match.players and pips > HEAVIEST_SEVEN:
                findings.append(
                    finding(
                        "pips-exceed-set",
                        number,
                        None,
                        "{name} holds {pips} pips, but with four players nobody draws, and the "
                        "seven heaviest tiles hold only {limit}.",
                        name=Who(name),
                        pips=pips,
                        limit=HEAVIEST_SEVEN,
                    )
                )
    if total > limit:
        findings.append(
            finding(
                "pips-exceed-set",
                number,
                None,
                "the hands hold {total} pips in all, but a double-six set has {set_pips} and "
                "{why} at least {on_table} are on the table, so at most {limit} can be left.",
                total=total,
                set_pips=SET_PIPS,
                why=Says("after a domino") if end.how == "domino" else Says("when a hand blocks"),
                on_table=on_table,
                limit=limit,
            )
        )
    return findings


def _check_counted_together(
    match: Match, number: int, end: HandEnd, scoring: Side | None
) -> list[Finding]:
    """Partners' pips counted together: given twice, or where each player's pips are needed
    (``scoring``: the side that scores the hand's end, if one does)."""
    findings = []
    for side in match.sides:
        if not _counted_together(end, side):
            continue
        total = end.pips[side.label]
        # the player who went out may be given 0 beside their partner's count: it adds nothing
        named = [
            name
            for name in match.players_of(side)
            if name in end.pips
            and not (name == end.player and end.how == "domino" and not end.pips[name])
        ]
        if named:
            findings.append(
                finding(
                    "pips-given-twice",
                    number,
                    None,
                    "{side}'s pips were given counted together ({total}) and also for {players} "
                    "alone: give one or the other.",
                    side=side,
                    total=total,
                    players=join_names([Who(name) for name in named]),
                )
            )
        if end.how == "blocked" and side == scoring:
            findings.append(
                finding(
                    "pips-counted-together",
                    number,
                    None,
                    "{side}'s pips were counted together ({total}), but a blocked hand needs "
                    "each player's pips to tell who leads the next hand.",
                    side=side,
                    total=total,
                )
            )
        elif (
            match.rule("round_each_hand")
            and scoring is not None
            # the winner's own pips count only when they are subtracted
            and (side != scoring or match.rule("subtract_own"))
        ):
            findings.append(
                finding(
                    "pips-counted-together",
                    number,
                    None,
                    "{side}'s pips were counted together ({total}), but the house rule rounds "
                    "each player's pips on their own.",
                    side=side,
                    total=total,
                )
            )
        if total > HEAVIEST_FOURTEEN:
            findings.append(
                finding(
                    "pips-exceed-set",
                    number,
                    None,
                    "{side} hold {pips} pips counted together, but with four players nobody "
                    "draws, and the fourteen heaviest tiles hold only {limit}.",
                    side=side,
                    pips=total,
                    limit=HEAVIEST_FOURTEEN,
                )
            )
    return findings
