"""Chickenfoot: rounds start with descending doubles; every player scores their own pips."""

from __future__ import annotations

from scorekeeper.rules.claims import check_claims, check_player_count
from scorekeeper.rules.findings import Finding, finding
from scorekeeper.rules.match import Hand, HandEnd, Match, Side
from scorekeeper.rules.scoreboard import (
    HandScore,
    NextUp,
    Scoreboard,
    after_the_end,
    decided_at_time,
)
from scorekeeper.rules.text import N_, NOTHING, Says, Who, join_names
from scorekeeper.rules.tiles import set_pips


def round_double(match: Match, number: int) -> int | None:
    """The double that starts round ``number``: the highest first, down to 0-0."""
    double = int(match.rule("set")) - (number - 1)
    return double if double >= 0 else None


def round_count(match: Match) -> int:
    return int(match.rule("set")) + 1


def score_chickenfoot(match: Match) -> Scoreboard:
    highest = int(match.rule("set"))
    most_players = 4 if highest == 6 else 8
    findings = check_player_count(
        match, 2, most_players, Says(" with a {set_name} set", set_name=_set_name(highest))
    )
    sides = match.sides
    totals = dict.fromkeys(sides, 0)
    hands: list[HandScore] = []
    #: the side ahead when time was up (the match's ``last_hand``), before the last round
    at_time: Side | None = None
    played = 0
    for number, hand in enumerate(match.hands, 1):
        if at_time is not None:
            findings.append(after_the_end(number, at_time, in_round=True))
        explanation, round_findings, points = _score_round(match, number, hand)
        findings += round_findings
        for name in sides:
            totals[name] += points[name]  # type: ignore[index]  # a side is found by its label
        findings += check_claims(match, number, hand, points, explanation, in_round=True)
        played += hand.end is not None
        if at_time is None and hand.end is not None and played < round_count(match):
            # the set's last round ends the game as always, whatever the time
            at_time, said = decided_at_time(match, number, totals, lowest_wins=True)
            if said is not None:
                explanation.append(said)
        hands.append(
            HandScore(
                number,
                points,  # type: ignore[arg-type]  # by player: each player is a side
                explanation,
                dict(totals),
                finished=hand.end is not None,
            )
        )

    last = _last_round(match, hands)
    finished = last is not None or at_time is not None
    winner: Side | list[Side] | None = at_time
    if at_time is None and last is not None and sides:
        # rounds kept beyond the last count in the totals, but the game was over before them:
        # the winner is whoever stood lowest once the last round was done
        standing = last.running
        lowest = min(standing.values())
        winners = [name for name in sides if standing[name] == lowest]
        winner = winners[0] if len(winners) == 1 else winners
    return Scoreboard(
        game=match.game,
        sides=sides,
        hands=hands,
        totals=totals,
        finished=finished,
        winner=winner,
        findings=findings,
        next=None if finished else _next_round(match, hands),
        lowest_wins=True,
    )


def _last_round(match: Match, hands: list[HandScore]) -> HandScore | None:
    """The round that ended the game (the set's last, counting finished rounds), if played."""
    played = 0
    for hand in hands:
        played += hand.finished
        if played == round_count(match):
            return hand
    return None


_SET_NAMES = {6: N_("double-six"), 9: N_("double-nine"), 12: N_("double-twelve")}


def _set_name(highest: int) -> Says:
    if highest in _SET_NAMES:
        return Says(_SET_NAMES[highest])
    return Says("double-{highest}", highest=highest)


def _next_round(match: Match, hands: list[HandScore]) -> NextUp:
    number = hands[-1].number if hands and not hands[-1].finished else len(hands) + 1
    double = round_double(match, number)
    if number <= len(match.hands) and match.hands[number - 1].double is not None:
        double = match.hands[number - 1].double
    says = Says(
        "Round {number} starts with {double}-{double}: whoever holds it sets it; if nobody "
        "does, players draw in turn until someone has it.",
        number=number,
        double=double,
    )
    return NextUp(hand=number, double=double, says=says)


def _score_round(
    match: Match, number: int, hand: Hand
) -> tuple[list[Says], list[Finding], dict[str, int]]:
    findings: list[Finding] = []
    expected = round_double(match, number)
    if number > round_count(match):
        findings.append(
            finding(
                "too-many-rounds",
                number,
                None,
                "a {set_name} set has only {rounds} rounds (6-6 down to 0-0).",
                in_round=True,
                set_name=_set_name(int(match.rule("set"))),
                rounds=round_count(match),
            )
        )
    elif hand.double is not None and hand.double != expected:
        findings.append(
            finding(
                "wrong-round-double",
                number,
                None,
                "round {number} starts with {expected}-{expected}, not {double}-{double}: the "
                "rounds go down one double at a time from the highest.",
                in_round=True,
                number=number,
                expected=expected,
                double=hand.double,
            )
        )
    double = hand.double if hand.double is not None else expected
    explanation = [_round_start(number, double, hand.starter)]
    points = dict.fromkeys(match.players, 0)
    end = hand.end
    if end is None:
        explanation.append(Says("The round is still being played."))
        return explanation, findings, points

    holders = end.double_blank
    bonus = int(match.rule("double_blank"))
    out = end.player if end.how == "domino" else None
    findings += _check_double_blank(number, holders, double, out)
    if out is not None:
        explanation.append(Says("{player} went out.", player=Who(out)))
        if end.pips_of(out):
            findings.append(
                finding(
                    "domino-with-pips",
                    number,
                    None,
                    "{player} went out, so {player} holds no tiles, but {pips} pips were "
                    "entered for {player}.",
                    in_round=True,
                    player=Who(out),
                    pips=end.pips_of(out),
                )
            )
    else:
        explanation.append(Says("Blocked: nobody can play."))
    for name in match.players:
        pips = end.pips_of(name)
        points[name] = pips + (bonus if name in holders else 0)
        if name in holders:
            explanation.append(
                Says(
                    "{name}: {pips} pips + 0-0 counted as {bonus} = {points}.",
                    name=Who(name),
                    pips=pips,
                    bonus=bonus,
                    points=points[name],
                )
            )
        elif name == out and not pips:
            explanation.append(Says("{name}: went out, 0.", name=Who(name)))
        else:
            explanation.append(
                Says("{name}: 1 pip.", name=Who(name))
                if pips == 1
                else Says("{name}: {pips} pips.", name=Who(name), pips=pips)
            )
    findings += _check_players_out(match, number, end, out)
    findings += _check_pips(match, number, end, double)
    return explanation, findings, points


def _round_start(number: int, double: int | None, starter: str | None) -> Says:
    if double is None:
        return Says("Round {number}.", number=number)
    if starter:
        return Says(
            "Round {number} started with {double}-{double}, set by {starter}.",
            number=number,
            double=double,
            starter=Who(starter),
        )
    return Says("Round {number} started with {double}-{double}.", number=number, double=double)


def _check_double_blank(
    number: int, holders: tuple[str, ...], double: int | None, out: str | None
) -> list[Finding]:
    findings = []
    if len(holders) > 1:
        findings.append(
            finding(
                "impossible-double-blank",
                number,
                None,
                "there is only one 0-0, but {holders} are each said to hold it.",
                in_round=True,
                holders=join_names([Who(holder) for holder in holders]),
            )
        )
    if holders and double == 0:
        findings.append(
            finding(
                "impossible-double-blank",
                number,
                None,
                "this round started with 0-0, so nobody can be left holding it.",
                in_round=True,
            )
        )
    if out is not None and out in holders:
        findings.append(
            finding(
                "impossible-double-blank",
                number,
                None,
                "{player} went out, so {player} cannot be holding 0-0.",
                in_round=True,
                player=Who(out),
            )
        )
    return findings


def _check_players_out(match: Match, number: int, end: HandEnd, out: str | None) -> list[Finding]:
    empty = [
        name
        for name in match.players
        if name != out and end.pips_of(name) == 0 and name not in end.double_blank
    ]
    if (out is not None and empty) or len(empty) > 1:
        return [
            finding(
                "two-players-out",
                number,
                None,
                N_(
                    "only one player can go out, but {others} is left with no pips and no "
                    "0-0{also}."
                )
                if len(empty) == 1
                else N_(
                    "only one player can go out, but {others} are left with no pips and no "
                    "0-0{also}."
                ),
                in_round=True,
                others=join_names([Who(name) for name in empty]),
                also=Says(" as well as {out}, who went out", out=Who(out))
                if out
                else Says(NOTHING),
            )
        ]
    return []


def _check_pips(match: Match, number: int, end: HandEnd, double: int | None) -> list[Finding]:
    highest = int(match.rule("set"))
    left = set_pips(highest) - 2 * (double if double is not None and double >= 0 else 0)
    pips = end.pips
    findings = []
    for name, held in pips.items():
        if held > left:
            who = Says("{name} holds {held}", name=Who(name), held=held)
            findings.append(_too_many(number, who, highest, double, left))
    total = sum(pips.values())
    if not findings and total > left:
        who = Says("the hands hold {total} in all", total=total)
        findings.append(_too_many(number, who, highest, double, left))
    return findings


def _too_many(number: int, who: Says, highest: int, double: int | None, left: int) -> Finding:
    return finding(
        "pips-exceed-set",
        number,
        None,
        "{who} pips, but a {set_name} set has only {left} pips off the table once "
        "{double}-{double} is down.",
        in_round=True,
        who=who,
        set_name=_set_name(highest),
        double=double if double is not None else 0,
        left=left,
    )
