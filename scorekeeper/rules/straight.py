"""Straight Dominoes (All Fives, as played in Texas halls): a match scored hand by hand, the
plays, who leads, and the target. The end of a hand is scored in straight_hand_end.py."""

from __future__ import annotations

from scorekeeper.rules.claims import check_claims, check_player_count
from scorekeeper.rules.findings import Finding, finding
from scorekeeper.rules.match import Hand, Match, Play, Side
from scorekeeper.rules.scoreboard import (
    HandScore,
    NextUp,
    Scoreboard,
    after_the_end,
    decided_at_time,
    hand_summary,
)
from scorekeeper.rules.straight_hand_end import _about, score_hand_end
from scorekeeper.rules.text import N_, Says, Who, listed, scored

MAX_PLAY_WITH_SPINNER = 35
MAX_PLAY_WITHOUT_SPINNER = 20
#: the lead tile is alone on the table: its two halves, at most 6 + 6 = 12, score 5 or 10
MAX_LEAD = 10


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
                        player=Who(play.player),
                        points=play.points,
                        winner=winner,
                    )
                )
            points[side] += _points(play)
            totals[side] += _points(play)
            if winner is None and totals[side] >= target:
                winner = side
                explanation.append(_reaches_target(side, totals[side], target))
        if hand.plays:
            explanation.insert(
                0,
                Says(
                    "Scored in play: {plays}.",
                    plays=listed([scored(Who(p.player), p.points) for p in hand.plays]),
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
        says = Says("Hand {number}: {leader} leads.", number=number, leader=Who(leader))
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
                    player=Who(play.player),
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
                    player=Who(play.player),
                )
            )
        elif leader is not None and play.player != leader:
            findings.append(
                finding(
                    "lead-misplaced",
                    number,
                    play_number,
                    "{player}'s play is marked as the lead, but {leader} leads this hand.",
                    player=Who(play.player),
                    leader=Who(leader),
                )
            )
        first_lead = first_lead or play_number
    return findings


def _check_plays(match: Match, number: int, hand: Hand) -> list[Finding]:
    highest = MAX_PLAY_WITH_SPINNER if match.rule("spinner") else MAX_PLAY_WITHOUT_SPINNER
    findings = []
    for play_number, play in enumerate(hand.plays, 1):
        if _points(play) % 5:
            findings.append(
                finding(
                    "play-not-multiple-of-five",
                    number,
                    play_number,
                    "{player} scored {points}, but the open ends only score when they add up "
                    "to a multiple of five (5, 10, 15 ...).",
                    player=Who(play.player),
                    points=play.points,
                )
            )
        # a play can be wrong twice over (37): every finding that applies is reported
        if _points(play) > highest:
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
                    player=Who(play.player),
                    points=play.points,
                    highest=highest,
                )
            )
        if play.lead and _points(play) > MAX_LEAD:
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


def _points(play: Play) -> int:
    """A Straight play's points: every one has them (the match file's reader and the forms
    refuse a Straight play without)."""
    assert play.points is not None, "a Straight play without points"
    return play.points
