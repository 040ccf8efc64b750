"""Sedma: only doubles score; 0-0 is both the lightest and the heaviest double."""

from __future__ import annotations

from dataclasses import dataclass, field

from scorekeeper.rules.claims import check_claims, check_player_count
from scorekeeper.rules.findings import Finding, finding
from scorekeeper.rules.match import Hand, Match, Side
from scorekeeper.rules.scoreboard import (
    HandScore,
    NextUp,
    Scoreboard,
    after_the_end,
    decided_at_time,
    hand_summary,
)
from scorekeeper.rules.text import N_, Says, Who, join_names
from scorekeeper.rules.tiles import tile_name

DOUBLES = 7
TILES_EACH = 7


def double_points(double: int, line: list[int]) -> int:
    """Points for setting ``double``-``double`` when the doubles in ``line`` are already down.

    1, plus 1 for each lighter double in the line; 0-0 is lighter than every other double and
    also heavier than all of them, so 0-0 itself scores 1 + every double already down.
    """
    if double == 0:
        return 1 + len(line)
    return 1 + sum(1 for down in line if down < double)


def explain_double(player: str, double: int, line: list[int]) -> Says:
    points = double_points(double, line)
    lighter = line if double == 0 else [down for down in line if down < double]
    names = join_names([f"{d}-{d}" for d in lighter])
    if not lighter:
        return Says(
            "{player} sets {double}-{double}: 1 (no lighter double is down) = 1.",
            player=Who(player),
            double=double,
        )
    template = (
        N_("{player} sets 0-0: 1 + {count} for every double already down ({names}) = {points}.")
        if double == 0
        else N_(
            "{player} sets {double}-{double}: 1 + {count} for the lighter doubles down "
            "({names}) = {points}."
        )
    )
    return Says(
        template, player=Who(player), double=double, count=len(lighter), names=names, points=points
    )


@dataclass
class _HandState:
    """What is on the table so far in one hand."""

    line: list[int] = field(default_factory=list)
    seen: set[tuple[int, int]] = field(default_factory=set)
    tiles_played: dict[str, int] = field(default_factory=dict)
    open_end: int | None = None
    ended: Says | None = None
    #: who passed the opening for want of a double, as recorded or as taken to have
    passed: tuple[str, ...] = ()


def score_sedma(match: Match) -> Scoreboard:
    findings = check_player_count(match, 4, 4)
    sides = match.sides
    target = int(match.rule("target"))
    totals = dict.fromkeys(sides, 0)
    winner: Side | None = None
    hands: list[HandScore] = []
    scheduled: str | None = None
    for number, hand in enumerate(match.hands, 1):
        scheduled_now = _due(match, hand, scheduled)
        points = dict.fromkeys(sides, 0)
        explanation: list[Says] = []
        passed = _passed_opening(match, hand, scheduled_now)
        opening, scheduled = _check_opening(match, number, hand, passed, scheduled_now)
        findings += opening
        if winner is not None:
            findings.append(after_the_end(number, winner))
        ended_before_hand = winner is not None
        whole_line = any(not play.is_double for play in hand.plays)
        # a record that names some of those in between but not all is a bad opening, and
        # those left off passed all the same: none of them held a double
        held_none = (
            *passed,
            *(p for p in _in_between(match, hand, scheduled_now) if p not in passed),
        )
        state = _HandState(passed=held_none)
        for play_number, play in enumerate(hand.plays, 1):
            assert play.tile is not None  # a Sedma play is a tile laid (the match file's reader)
            if winner is not None and not ended_before_hand:
                findings.append(
                    finding(
                        "after-match-end",
                        number,
                        play_number,
                        "{player} laid {tile} after {winner} had won the match.",
                        player=Who(play.player),
                        tile=tile_name(play.tile),
                        winner=winner,
                    )
                )
            elif state.ended is not None:
                findings.append(
                    finding(
                        "after-hand-end",
                        number,
                        play_number,
                        "{player} laid {tile}, but the hand was over: {why}",
                        player=Who(play.player),
                        tile=tile_name(play.tile),
                        why=state.ended,
                    )
                )
            findings += _lay_tile(match, number, hand, play_number, state, whole_line)
            if play.is_double:
                double = play.tile[0]
                scored = double_points(double, state.line)
                explanation.append(explain_double(play.player, double, state.line))
                if double not in state.line:
                    state.line.append(double)
                side = match.side_of(play.player)
                points[side] += scored
                totals[side] += scored
                if winner is None and totals[side] >= target:
                    winner = match.side_of(play.player)
                    explanation.append(
                        Says(
                            "{player} reaches {total}, the target is {target}: {player} wins "
                            "the match.",
                            player=Who(play.player),
                            total=totals[side],
                            target=target,
                        )
                    )
            _note_hand_over(state, play.player)
        if len(state.line) == DOUBLES:
            explanation.append(Says("All seven doubles are down."))
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
        next=None if winner is not None else _next_opener(match, hands, scheduled),
    )


def _note_hand_over(state: _HandState, player: str) -> None:
    if state.ended is not None:
        return
    if len(state.line) == DOUBLES:
        state.ended = Says("all seven doubles were down.")
    elif state.tiles_played.get(player, 0) == TILES_EACH:
        state.ended = Says("{player} had played all seven tiles.", player=Who(player))


def _lay_tile(
    match: Match,
    number: int,
    hand: Hand,
    play_number: int,
    state: _HandState,
    whole_line: bool,
) -> list[Finding]:
    play = hand.plays[play_number - 1]
    assert play.tile is not None  # a Sedma play is a tile laid (the match file's reader)
    low, high = sorted(play.tile)
    tile = (low, high)
    findings = []
    opener = hand.opener or hand.plays[0].player
    if play_number == 1 and not play.is_double:
        findings.append(
            finding(
                "bad-opening",
                number,
                play_number,
                "a hand opens with a double, not {tile}.",
                tile=tile_name(play.tile),
            )
        )
    if play_number == 1 and play.player != opener:
        findings.append(
            finding(
                "bad-opening",
                number,
                play_number,
                "{opener} opened the hand, but the first double is recorded for {player}.",
                opener=Who(opener),
                player=Who(play.player),
            )
        )
    if tile in state.seen:
        code = "double-repeated" if play.is_double else "impossible-tiles"
        findings.append(
            finding(
                code,
                number,
                play_number,
                "{tile} is already in the line; there is only one of each tile.",
                tile=tile_name(play.tile),
            )
        )
    state.seen.add(tile)
    if play.is_double and play.player in state.passed:
        findings.append(
            finding(
                "opener-passed-but-held-double",
                number,
                play_number,
                "{player} passed the opening for want of a double, so cannot set {tile} "
                "later in the hand: there is no drawing in Sedma.",
                player=Who(play.player),
                tile=tile_name(play.tile),
            )
        )
    if whole_line:
        state.tiles_played[play.player] = state.tiles_played.get(play.player, 0) + 1
        if state.tiles_played[play.player] == TILES_EACH + 1:
            findings.append(
                finding(
                    "impossible-tiles",
                    number,
                    play_number,
                    "{player} has now laid {count} tiles, but each player holds only seven.",
                    player=Who(play.player),
                    count=TILES_EACH + 1,
                )
            )
        findings += _match_chain(number, play_number, play.tile, state)
    return findings


def _match_chain(
    number: int, play_number: int, tile: tuple[int, int], state: _HandState
) -> list[Finding]:
    first, second = tile
    if state.open_end is None:
        state.open_end = second
        return []
    if first == state.open_end:
        state.open_end = second
        return []
    if second == state.open_end:
        state.open_end = first
        return []
    open_end = state.open_end
    state.open_end = second
    return [
        finding(
            "chain-mismatch",
            number,
            play_number,
            "{tile} does not match the open end {open_end}.",
            tile=tile_name(tile),
            open_end=open_end,
        )
    ]


def _passed_opening(match: Match, hand: Hand, scheduled: str | None) -> tuple[str, ...]:
    """Who passed the opening: as recorded, or else everyone from the scheduled opener up to the
    one who opened (the table did not write down the passes it knew of)."""
    if hand.passed_opening:
        return hand.passed_opening
    return _in_between(match, hand, scheduled)


def _in_between(match: Match, hand: Hand, scheduled: str | None) -> tuple[str, ...]:
    """The players from the scheduled opener up to the one who opened: each had the turn to
    open and no double, whatever the record says."""
    opener = hand.opener or (hand.plays[0].player if hand.plays else None)
    if scheduled is None or opener is None:
        return ()
    passed: list[str] = []
    turn = scheduled
    while turn != opener and len(passed) < len(match.players):
        passed.append(turn)
        turn = match.left_of(turn)
    return tuple(passed) if turn == opener else ()


def _due(match: Match, hand: Hand, scheduled: str | None) -> str | None:
    """Who had the first turn to open ``hand``, the last hand's scheduled opener being
    ``scheduled``: the next to their left. In the first hand, where no earlier hand says who
    was due, the first player ``passed_opening`` names was; None when it names nobody (the
    opener drew the lot)."""
    if scheduled is not None:
        return match.left_of(scheduled)
    return hand.passed_opening[0] if hand.passed_opening else None


def due_to_open(match: Match) -> str | None:
    """Who has the first turn to open the hand after ``match.hands``: left of the last hand's
    scheduled opener; None when the first hand's opener is still to be drawn by lot."""
    scheduled: str | None = None
    for number, hand in enumerate(match.hands, 1):
        now = _due(match, hand, scheduled)
        _, scheduled = _check_opening(match, number, hand, _passed_opening(match, hand, now), now)
    return match.left_of(scheduled) if scheduled else None


def _check_opening(
    match: Match, number: int, hand: Hand, passed: tuple[str, ...], scheduled: str | None
) -> tuple[list[Finding], str | None]:
    """Check who had the turn to open; returns the findings and this hand's scheduled opener."""
    opener = hand.opener or (hand.plays[0].player if hand.plays else None)
    turns = [*passed, *([opener] if opener else [])]
    if not turns:
        return [], scheduled
    findings = []
    if scheduled is not None and turns[0] != scheduled:
        findings.append(
            finding(
                "bad-opening",
                number,
                None,
                "{scheduled} had the first turn to open this hand (the next player to the left "
                "of the last hand's), not {first}.",
                scheduled=Who(scheduled),
                first=Who(turns[0]),
            )
        )
    for before, after in zip(turns, turns[1:], strict=False):
        if after != match.left_of(before):
            findings.append(
                finding(
                    "bad-opening",
                    number,
                    None,
                    "the turn to open passes to the left: after {before} comes {left}, "
                    "not {after}.",
                    before=Who(before),
                    left=Who(match.left_of(before)),
                    after=Who(after),
                )
            )
            break
    if len(turns) > len(match.players):
        findings.append(
            finding(
                "bad-opening",
                number,
                None,
                "{players} all passed the opening; someone holds a double.",
                players=join_names([Who(name) for name in passed]),
            )
        )
    return findings, scheduled or turns[0]


def _next_opener(match: Match, hands: list[HandScore], scheduled: str | None) -> NextUp:
    if hands and not hands[-1].finished:
        number = hands[-1].number
        hand = match.hands[-1]
        if not hand.plays:
            return _opens(number, hand.opener or scheduled)
        opener = hand.opener or hand.plays[0].player
        says = Says("Hand {number}: {opener} opened.", number=number, opener=Who(opener))
        return NextUp(hand=number, opener=opener, says=says)
    number = len(hands) + 1
    if scheduled is None:
        return NextUp(
            hand=number,
            says=Says("Hand {number}: the opener is chosen by lot.", number=number),
        )
    return _opens(number, match.left_of(scheduled))


def _opens(number: int, opener: str | None) -> NextUp:
    if opener is None:
        return NextUp(
            hand=number,
            says=Says("Hand {number}: the opener is chosen by lot.", number=number),
        )
    says = Says(
        "Hand {number}: {opener} opens with a double; without one, the turn passes to the left.",
        number=number,
        opener=Who(opener),
    )
    return NextUp(hand=number, opener=opener, says=says)
