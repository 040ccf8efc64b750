"""Straight Dominoes (All Fives, as played in Texas halls)."""

from __future__ import annotations

from scorekeeper.rules.claims import check_claims, check_player_count
from scorekeeper.rules.findings import Finding, finding
from scorekeeper.rules.match import Hand, HandEnd, Match, Side
from scorekeeper.rules.rounding import explain_round5, round5
from scorekeeper.rules.scoreboard import (
    HandScore,
    NextUp,
    Scoreboard,
    after_the_end,
    decided_at_time,
    hand_summary,
)
from scorekeeper.rules.text import N_, Says, join_names, sum_of

SET_PIPS = 168
#: pips in the 7 lightest tiles, all on the table once a player has dominoed
LIGHTEST_SEVEN = 15
#: pips in one whole suit (0-0 ... 0-6): a blocked layout has at least one suit all down
LIGHTEST_SUIT = 21
#: pips in the 7 heaviest tiles: the most a hand can hold when there is no boneyard
HEAVIEST_SEVEN = 69
#: pips in the 14 heaviest tiles: the most two hands, a partnership's, can hold together
HEAVIEST_FOURTEEN = 118
MAX_PLAY_WITH_SPINNER = 35
MAX_PLAY_WITHOUT_SPINNER = 20
#: the lead tile is alone on the table: its two halves, at most 6 + 6 = 12, score 5 or 10
MAX_LEAD = 10


class EndScore:
    """What the end of a hand gives: the side that scores, how much, and why."""

    def __init__(self) -> None:
        self.side: Side | None = None
        self.points = 0
        self.explanation: list[Says] = []
        self.findings: list[Finding] = []
        self.next_leader: str | None = None


def score_straight(match: Match) -> Scoreboard:
    sides = match.sides
    target = int(match.rule("target"))
    findings = check_player_count(match, 2, 4)
    totals = dict.fromkeys(sides, 0)
    winner: Side | None = None
    hands: list[HandScore] = []
    leader = None
    for number, hand in enumerate(match.hands, 1):
        findings += _check_lead(number, hand, hand.leader or leader)
        leader = hand.leader or leader or _lead_player(hand)
        points = dict.fromkeys(sides, 0)
        explanation: list[Says] = []
        if winner is not None:
            findings.append(after_the_end(number, winner))
        ended_before_hand = winner is not None

        findings += _check_plays(match, number, hand)
        for play_number, play in enumerate(hand.plays, 1):
            side = match.side_of(play.player)
            if winner is not None and not ended_before_hand:
                findings.append(
                    finding(
                        "after-match-end",
                        number,
                        play_number,
                        "{player} scored {points} after {winner} had won the match.",
                        player=play.player,
                        points=play.points,
                        winner=winner,
                    )
                )
            points[side] += play.points
            totals[side] += play.points
            if winner is None and totals[side] >= target:
                winner = side
                explanation.append(_reaches_target(side, totals[side], target))
        if hand.plays:
            explanation.insert(
                0,
                Says(
                    "Scored in play: {plays}.",
                    plays=", ".join(f"{p.player} {p.points}" for p in hand.plays),
                ),
            )

        if hand.end is not None:
            if winner is not None and not ended_before_hand:
                findings.append(
                    finding(
                        "after-match-end",
                        number,
                        None,
                        "the end of the hand was recorded after {winner} had won the match.",
                        winner=winner,
                    )
                )
            end = score_hand_end(match, number, hand.end, leader)
            explanation += end.explanation
            findings += end.findings
            if end.side is not None:
                points[end.side] += end.points
                totals[end.side] += end.points
                if winner is None and totals[end.side] >= target:
                    winner = end.side
                    explanation.append(_reaches_target(end.side, totals[end.side], target))
            leader = end.next_leader
        if len(sides) > 1 or hand.plays or hand.end:
            explanation.append(hand_summary(number, points))
        findings += check_claims(match, number, hand, points, explanation)
        if winner is None and hand.end is not None:
            winner, at_time = decided_at_time(match, number, totals)
            if at_time is not None:
                explanation.append(at_time)
        hands.append(
            HandScore(number, points, explanation, dict(totals), finished=hand.end is not None)
        )

    return Scoreboard(
        game=match.game,
        sides=sides,
        hands=hands,
        totals=totals,
        finished=winner is not None,
        winner=winner,
        findings=findings,
        next=None if winner is not None else _next_leader(match, hands, leader),
    )


def _about(side: Side, partnership: str, player: str, **params: object) -> Says:
    """A sentence about a side: partners take the plural verb, a single player the singular."""
    template = partnership if side.is_partnership else player
    return Says(template, side=side, **params)


def _reaches_target(side: Side, total: int, target: int) -> Says:
    return _about(
        side,
        N_("{side} reach {total}, the target is {target}: {side} win the match."),
        N_("{side} reaches {total}, the target is {target}: {side} wins the match."),
        total=total,
        target=target,
    )


def _next_leader(match: Match, hands: list[HandScore], leader: str | None) -> NextUp:
    if hands and not hands[-1].finished:
        number = hands[-1].number
    else:
        number = len(hands) + 1
    if leader is None and number == 1:
        says = Says("Hand {number}: whoever drew the highest double leads.", number=number)
    elif leader is None:
        # after a blocked tie, or partners level on pips, with the hand's leader never recorded
        says = Says(
            "Hand {number}: the rules cannot tell who leads; the table says.", number=number
        )
    else:
        says = Says("Hand {number}: {leader} leads.", number=number, leader=leader)
    return NextUp(hand=number, leader=leader, says=says)


def _lead_player(hand: Hand) -> str | None:
    """Who led the hand by its lead flag, where nothing before says who leads."""
    if hand.plays and hand.plays[0].lead:
        return hand.plays[0].player
    return None


def _check_lead(number: int, hand: Hand, leader: str | None) -> list[Finding]:
    """The lead flag belongs on the hand's first play, by its leader (``leader``: recorded, or
    worked out from the hands before; None where nothing says, and the lead's player leads)."""
    findings = []
    first_lead: int | None = None
    for play_number, play in enumerate(hand.plays, 1):
        if not play.lead:
            continue
        if first_lead is not None:
            findings.append(
                finding(
                    "lead-misplaced",
                    number,
                    play_number,
                    "{player}'s play is marked as the lead, but play {first} already led the hand.",
                    player=play.player,
                    first=first_lead,
                )
            )
        elif play_number != 1:
            findings.append(
                finding(
                    "lead-misplaced",
                    number,
                    play_number,
                    "{player}'s play is marked as the lead, but the lead is the hand's first play.",
                    player=play.player,
                )
            )
        elif leader is not None and play.player != leader:
            findings.append(
                finding(
                    "lead-misplaced",
                    number,
                    play_number,
                    "{player}'s play is marked as the lead, but {leader} leads this hand.",
                    player=play.player,
                    leader=leader,
                )
            )
        first_lead = first_lead or play_number
    return findings


def _check_plays(match: Match, number: int, hand: Hand) -> list[Finding]:
    highest = MAX_PLAY_WITH_SPINNER if match.rule("spinner") else MAX_PLAY_WITHOUT_SPINNER
    findings = []
    for play_number, play in enumerate(hand.plays, 1):
        if play.points % 5:
            findings.append(
                finding(
                    "play-not-multiple-of-five",
                    number,
                    play_number,
                    "{player} scored {points}, but the open ends only score when they add up "
                    "to a multiple of five (5, 10, 15 ...).",
                    player=play.player,
                    points=play.points,
                )
            )
        # a play can be wrong twice over (37): every finding that applies is reported
        if play.points > highest:
            findings.append(
                finding(
                    "play-too-high",
                    number,
                    play_number,
                    N_("{player} scored {points}, but the open ends can show at most {highest}.")
                    if match.rule("spinner")
                    else N_(
                        "{player} scored {points}, but the open ends can show at most "
                        "{highest} when the first double is no spinner."
                    ),
                    player=play.player,
                    points=play.points,
                    highest=highest,
                )
            )
        if play.lead and play.points > MAX_LEAD:
            findings.append(
                finding(
                    "lead-too-high",
                    number,
                    play_number,
                    "the lead scored {points}, but a lead tile alone makes at most {most} "
                    "(5 or 10).",
                    points=play.points,
                    most=MAX_LEAD,
                )
            )
    return findings


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
    side = match.side_of(player)
    if end.pips_of(player):
        result.findings.append(
            finding(
                "domino-with-pips",
                number,
                None,
                "{player} went out, so {player} holds no tiles, but {pips} pips were entered "
                "for {player}.",
                player=player,
                pips=end.pips_of(player),
            )
        )
    result.explanation.append(Says("{player} dominoed.", player=player))
    if _counted_together(end, side):
        result.explanation.append(
            Says(
                "{side}'s {pips} pips, counted together, are {player}'s own side's and do not "
                "count.",
                side=side,
                pips=end.pips[side.label],
                player=player,
            )
        )
    else:
        # a partner's pips are explained only when typed: a box left empty says nothing
        typed = [name for name in match.players_of(side) if name != player and name in end.pips]
        for partner in typed:
            result.explanation.append(
                Says(
                    "{partner}'s {pips} pips are {player}'s partner's and do not count.",
                    partner=partner,
                    pips=end.pips_of(partner),
                    player=player,
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
            pips="; ".join(_side_pips(match, side, end) for side in match.sides),
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
            result.next_leader = match.left_of(leader)
            result.explanation.append(
                Says(
                    "After a blocked tie the next player to the left of {leader} leads: {next}.",
                    leader=leader,
                    next=result.next_leader,
                )
            )
        if claimed_side is not None:
            result.findings.append(
                finding(
                    "claimed-mismatch",
                    number,
                    None,
                    "the table named {claimed} the winner, but {sides} tie for the fewest pips "
                    "({fewest}), so nobody scores.",
                    claimed=end.player,
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
    if claimed_side is not None and claimed_side != side:
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
                claimed=end.player,
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


def _side_pips(match: Match, side: Side, end: HandEnd) -> str:
    parts = _held(match, end, side)
    # one number: a player on their own, or partners counted together
    return f"{side}: {sum_of(parts)}" if len(parts) > 1 else f"{side} {parts[0][1]}"


def _counted_together(end: HandEnd, side: Side) -> bool:
    """Whether ``end`` gives the pips of partners ``side`` as one number, keyed by its label."""
    return side.is_partnership and side.label in end.pips


def _held(match: Match, end: HandEnd, side: Side) -> list[tuple[str, int]]:
    """The pips ``end`` gives for ``side``: partners counted together as one number under the
    side's label, else each player's."""
    if _counted_together(end, side):
        return [(side.label, end.pips[side.label])]
    return [(name, end.pips_of(name)) for name in match.players_of(side)]


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


def _round_each(parts: list[tuple[str, int]], explanation: list[Says]) -> list[tuple[str, int]]:
    rounded = []
    for name, pips in parts:
        explanation.append(Says("{name}: {how}", name=name, how=explain_round5(pips)))
        rounded.append((name, round5(pips)))
    return rounded


def _subtract_own(
    side: Side,
    opponents: list[tuple[str, int]],
    own: list[tuple[str, int]],
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
                        name=name,
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
                    players=join_names(named),
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
