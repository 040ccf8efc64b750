"""What a change writes of the hands, and the whole match put back together from it.

A change writes the hands from the first one it made differ, before and after: a tap writes the
hand being played, a correction the hand corrected and every hand after it. What a change costs
to store and to show does not grow with the length of the match.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from scorekeeper import rules
from scorekeeper.rules.matchfile import parse_match, write_hands, write_match
from scorekeeper.tables.models import Change


def changed_hands(
    game: str, before: Sequence[rules.Hand], after: Sequence[rules.Hand]
) -> tuple[int, list[dict], list[dict]]:
    """The number of the first hand that differs after a change, and the hands from it on,
    before and after, as the match file writes them."""
    same = 0
    for old, new in zip(before, after, strict=False):
        # the hands a tap leaves alone are the very same objects: no hand is compared in depth
        if old is not new and old != new:
            break
        same += 1
    return same + 1, write_hands(game, before[same:]), write_hands(game, after[same:])


def rewind(hands: list[dict], changes: Iterable[Change]) -> list[dict]:
    """The hands as they were before the earliest of ``changes`` (given newest first), from
    ``hands`` as the newest left them: each change in turn gives back the hands it replaced."""
    for change in changes:
        hands = hands[: change.from_hand - 1] + list(change.before)
    return hands


def hands_before(change: Change, now: list[dict]) -> list[dict]:
    """The whole match's hands just before ``change``, from its hands ``now`` (as the match file
    writes them): every change since ``change``, and ``change`` itself, taken back."""
    since = (
        Change.objects.filter(match_id=change.match_id, number__gte=change.number)
        .order_by("-number")
        .only("from_hand", "before")
    )
    return rewind(now, since)


def with_written_hands(seated: rules.Match, hands: list[dict]) -> rules.Match:
    """``seated`` (players by seat key) with ``hands`` as a change writes them. The hands are
    read as the match file reads them; the house rules are the match's own as stored."""
    written = write_match(replace(seated, rules={}, hands=()))
    return replace(parse_match({**written, "hands": hands}), rules=dict(seated.rules))
