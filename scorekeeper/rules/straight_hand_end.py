"""The end of a Straight Dominoes hand: a domino, or a blocked hand won by the fewest pips;
who scores it, the arithmetic of its points, and who leads the next hand."""

from __future__ import annotations

from scorekeeper.rules.findings import Finding, finding
from scorekeeper.rules.match import HandEnd, Match, Side
from scorekeeper.rules.rounding import explain_round5, round5
from scorekeeper.rules.straight_pips import (
    _check_counted_together,
    _check_pips,
    _counted_together,
    _held,
)
from scorekeeper.rules.text import N_, Named, Says, Who, join_names, listed, scored, sum_of

#: a side's pips added up, "Bo & Di: Bo 12 + Di 11 = 23" (no words of its own to translate)
_SIDE_SUM = "{side}: {sum}"


class EndScore:
    """What the end of a hand gives: the side that scores, how much, and why."""

    def __init__(self) -> None:
        self.side: Side | None = None
        self.points = 0
        self.explanation: list[Says] = []
        self.findings: list[Finding] = []
        self.next_leader: str | None = None


def score_hand_end(match: Match, number: int, end: HandEnd, leader: str | None) -> EndScore:
    """Score a hand's end: a domino, or a blocked hand won by the fewest pips."""
    result = EndScore()
    result.findings += _check_pips(match, number, end)
    result.findings += _check_counted_together(match, number, end, _scoring_side(match, end))
    if end.how == "domino":
        _score_domino(match, number, end, result)
    else:
        _score_blocked(match, number, end, leader, result)
    return result


def _score_domino(match: Match, number: int, end: HandEnd, result: EndScore) -> None:
    player = end.player
    assert player is not None, "a domino names who went out (the reader and forms see to it)"
    side = match.side_of(player)
    if end.pips_of(player):
        result.findings.append(
            finding(
                "domino-with-pips",
                number,
                None,
                "{player} went out, so {player} holds no tiles, but {pips} pips were entered "
                "for {player}.",
                player=Who(player),
                pips=end.pips_of(player),
            )
        )
    result.explanation.append(Says("{player} dominoed.", player=Who(player)))
    if _counted_together(end, side):
        result.explanation.append(
            Says(
                "{side}'s {pips} pips, counted together, are {player}'s own side's and do not "
                "count.",
                side=side,
                pips=end.pips[side.label],
                player=Who(player),
            )
        )
    else:
        # a partner's pips are explained only when typed: a box left empty says nothing
        typed = [name for name in match.players_of(side) if name != player and name in end.pips]
        for partner in typed:
            result.explanation.append(
                Says(
                    "{partner}'s {pips} pips are {player}'s partner's and do not count.",
                    partner=Who(partner),
                    pips=end.pips_of(partner),
                    player=Who(player),
                )
            )
    result.side = side
    result.points = _winning_score(match, end, side, result.explanation)
    result.next_leader = player


def _side_pips_of(match: Match, end: HandEnd) -> dict[Side, int]:
    return {side: sum(pips for _, pips in _held(match, end, side)) for side in match.sides}


def _scoring_side(match: Match, end: HandEnd) -> Side | None:
    """Who scores the hand's end: the side that dominoed, or the one side with the fewest pips
    when it blocked (None on a blocked tie)."""
    if end.how == "domino":
        return match.side_of(end.player) if end.player else None
    side_pips = _side_pips_of(match, end)
    fewest = min(side_pips.values())
    lowest = [side for side, pips in side_pips.items() if pips == fewest]
    return lowest[0] if len(lowest) == 1 else None


def _score_blocked(
    match: Match, number: int, end: HandEnd, leader: str | None, result: EndScore
) -> None:
    side_pips = _side_pips_of(match, end)
    fewest = min(side_pips.values())
    lowest = [side for side, pips in side_pips.items() if pips == fewest]
    result.explanation.append(
        Says(
            "Blocked. Pips left: {pips}.",
            pips=listed([_side_pips(match, side, end) for side in match.sides], "; "),
        )
    )
    claimed_side = match.side_of(end.player) if end.player else None
    if len(lowest) > 1:
        result.explanation.append(
            Says(
                "{sides} tie for the fewest pips ({fewest}): nobody scores.",
                sides=join_names(lowest),
                fewest=fewest,
            )
        )
        if leader is not None:
            result.next_leader = following = match.left_of(leader)
            result.explanation.append(
                Says(
                    "After a blocked tie the next player to the left of {leader} leads: {next}.",
                    leader=Who(leader),
                    next=Who(following),
                )
            )
        if claimed_side is not None and end.player is not None:
            result.findings.append(
                finding(
                    "claimed-mismatch",
                    number,
                    None,
                    "the table named {claimed} the winner, but {sides} tie for the fewest pips "
                    "({fewest}), so nobody scores.",
                    claimed=Who(end.player),
                    sides=join_names(lowest),
                    fewest=fewest,
                )
            )
        return
    side = lowest[0]
    result.side = side
    result.explanation.append(
        _about(
            side,
            N_("{side} hold the fewest pips ({fewest})."),
            N_("{side} holds the fewest pips ({fewest})."),
            fewest=fewest,
        )
    )
    result.points = _winning_score(match, end, side, result.explanation)
    result.next_leader = _blocked_winner_leads(match, end, side, leader)
    if claimed_side is not None and end.player is not None and claimed_side != side:
        # chosen before the call: the extractor would take any literal in the call's argument
        template = (
            N_(
                "the table named {claimed} the winner, but {side} hold the fewest pips "
                "({fewest} against {claimed_pips})."
            )
            if side.is_partnership
            else N_(
                "the table named {claimed} the winner, but {side} holds the fewest pips "
                "({fewest} against {claimed_pips})."
            )
        )
        result.findings.append(
            finding(
                "claimed-mismatch",
                number,
                None,
                template,
                claimed=Who(end.player),
                side=side,
                fewest=fewest,
                claimed_pips=side_pips[claimed_side],
            )
        )


def _blocked_winner_leads(match: Match, end: HandEnd, side: Side, leader: str | None) -> str | None:
    """Who leads after ``side`` won a blocked hand: its player with the fewest pips; partners
    level on pips, the one who comes first in playing order from this hand's leader. None
    where the rules cannot tell: the side's pips given as one number, or partners level and
    the hand's leader never recorded (the table says)."""
    if _counted_together(end, side):
        return None
    own = {name: end.pips_of(name) for name in match.players_of(side)}
    level = [name for name, pips in own.items() if pips == min(own.values())]
    if len(level) == 1:
        return level[0]
    if leader is None:
        return None
    return min(level, key=lambda name: _turns_after(match, leader, name))


def _turns_after(match: Match, leader: str, player: str) -> int:
    """How many turns after ``leader`` ``player`` plays."""
    start = match.players.index(leader)
    return (match.players.index(player) - start) % len(match.players)


def _side_pips(match: Match, side: Side, end: HandEnd) -> Says:
    parts = _held(match, end, side)
    # one number: a player on their own, or partners counted together
    return Says(_SIDE_SUM, side=side, sum=sum_of(parts)) if len(parts) > 1 else scored(*parts[0])


def _about(side: Side, partnership: str, player: str, **params: object) -> Says:
    """A sentence about a side: partners take the plural verb, a single player the singular."""
    template = partnership if side.is_partnership else player
    return Says(template, side=side, **params)


def _winning_score(match: Match, end: HandEnd, side: Side, explanation: list[Says]) -> int:
    """The points for the side that won the hand, with the arithmetic added to ``explanation``."""
    own = _held(match, end, side)
    others = [other for other in match.sides if other != side]
    opponents = [part for other in others for part in _held(match, end, other)]
    each = bool(match.rule("round_each_hand"))
    subtract = bool(match.rule("subtract_own"))
    if len(others) == 1 and _counted_together(end, others[0]):
        explanation.append(
            Says(
                "{side}'s pips, counted together: {pips}.",
                side=others[0],
                pips=end.pips[others[0].label],
            )
        )
    else:
        explanation.append(Says("Opponents' pips: {sum}.", sum=sum_of(opponents)))
    if each:
        opponents = _round_each(opponents, explanation)
        if subtract:
            own = _round_each(own, explanation)
    if subtract:
        return _subtract_own(side, opponents, own, each, explanation)
    total = sum(pips for _, pips in opponents)
    if each:
        score = total
        if len(opponents) > 1:
            explanation.append(Says("Rounded hand by hand: {sum}.", sum=sum_of(opponents)))
    else:
        score = round5(total)
        explanation.append(explain_round5(total))
    explanation.append(_scores(side, score))
    return score


def _scores(side: Side, score: int) -> Says:
    return _about(side, N_("{side} score {score}."), N_("{side} scores {score}."), score=score)


def _round_each(parts: list[tuple[Named, int]], explanation: list[Says]) -> list[tuple[Named, int]]:
    rounded = []
    for name, pips in parts:
        explanation.append(Says("{name}: {how}", name=name, how=explain_round5(pips)))
        rounded.append((name, round5(pips)))
    return rounded


def _subtract_own(
    side: Side,
    opponents: list[tuple[Named, int]],
    own: list[tuple[Named, int]],
    each: bool,
    explanation: list[Says],
) -> int:
    theirs = sum(pips for _, pips in opponents)
    ours = sum(pips for _, pips in own)
    difference = max(0, theirs - ours)
    explanation.append(
        Says(
            N_(
                "House rule, own pips subtracted: {theirs} - {ours} ({own}) = {difference} "
                "(never below 0)."
            )
            if theirs < ours
            else N_("House rule, own pips subtracted: {theirs} - {ours} ({own}) = {difference}."),
            theirs=theirs,
            ours=ours,
            own=sum_of(own) if own else Says("none"),
            difference=difference,
        )
    )
    score = difference if each else round5(difference)
    if not each:
        explanation.append(explain_round5(difference))
    explanation.append(_scores(side, score))
    return score
