"""Where a match ends: the entries recorded after it was decided, and the match without them.

A correction can move the moment a match is decided: a hand's pips counted again can make a
side reach the target hands earlier, and then everything recorded after that moment is
``after-match-end``. ``after_the_win`` says where the match now ends and gives the match
ended there, as the director settles it: the later entries leave the result (the history
keeps them).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from scorekeeper.rules.games import score_match
from scorekeeper.rules.match import Hand, Match, Side
from scorekeeper.rules.scoreboard import Scoreboard

AFTER_THE_END = "after-match-end"


@dataclass(frozen=True)
class AfterTheWin:
    """The match ended where it was decided, and what that leaves out."""

    #: the match ended at the winning moment: nothing recorded after it
    ended: Match
    board: Scoreboard
    #: the hand the match now ends in (1-based)
    hand: int
    #: the play of that hand that decided it, when entries of that hand came after it
    play: int | None
    #: the first and last of the later hands left out, or None when none is
    later: tuple[int, int] | None
    winner: Side | list[Side]
    #: the target the winner reached, or None when the match was decided otherwise (time)
    reached: int | None


def after_the_win(match: Match, board: Scoreboard | None = None) -> AfterTheWin | None:
    """The match ended at the moment it was decided, or None when nothing was recorded after
    that moment (``board``: the match's scoreboard, when already worked out)."""
    board = board if board is not None else score_match(match)
    if not _after(board):
        return None
    hands = match.hands
    # the fewest hands whose record already holds an entry after the end: the hand before
    # them is clean, and the last of them is where the match was decided
    low, high = 0, len(hands)
    while low + 1 < high:
        middle = (low + high) // 2
        if _after(score_match(match.with_hands(hands[:middle]))):
            high = middle
        else:
            low = middle
    kept = hands[: high - 1]
    deciding = hands[high - 1]
    ended, play = _decided_within(match, kept, deciding)
    final = score_match(ended)
    assert final.winner is not None  # entries came after the win: the match ended there
    number = len(ended.hands)
    later = (number + 1, len(hands)) if len(hands) > number else None
    return AfterTheWin(
        ended=ended,
        board=final,
        hand=number,
        play=play,
        later=later,
        winner=final.winner,
        reached=_reached(ended, final),
    )


def _decided_within(
    match: Match, kept: tuple[Hand, ...], deciding: Hand
) -> tuple[Match, int | None]:
    """The longest part of ``deciding`` (its plays in order, then its end) recorded before the
    match was decided, after the clean hands ``kept``; and the play that decided it when
    entries of the hand are left out."""
    for count in range(len(deciding.plays), 0, -1):
        part = replace(deciding, plays=deciding.plays[:count], end=None)
        candidate = match.with_hands((*kept, part))
        if not _after(score_match(candidate)):
            return candidate, count
    # nothing of the hand came before the decision: the match ends with the hand before it
    return match.with_hands(kept), None


def _after(board: Scoreboard) -> bool:
    return any(found.code == AFTER_THE_END for found in board.findings)


def _reached(match: Match, board: Scoreboard) -> int | None:
    """The target the winner reached, where the game has one and the winner is at it."""
    if match.game == "chickenfoot" or not isinstance(board.winner, Side):
        return None
    target = int(match.rule("target"))
    return target if board.totals[board.winner] >= target else None
