"""Recording what happened at the table: one function for each kind of entry.

Each reads the match once under its lock, works out the match as it is after the entry, asks
the engine once, and keeps the entry only if the rules allow it (or the table keeps it on
purpose): the hands it changed, the scores, the change in the history and the entry's key, in
one transaction (recording.py). Each returns one Outcome. ``hand_end_preview`` writes nothing.

What an entry does to the match is a Step of its own (``play_step``, ``tile_step``,
``end_step``, ``undo_step``, in steps.py): worked out without writing anything, as a phone's
entries not yet sent are (outbox.py).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from scorekeeper import rules
from scorekeeper.rules.match_end import after_the_win
from scorekeeper.rules.matchfile import write_hands
from scorekeeper.rules.text import Says, Who, join_names
from scorekeeper.rules.tiles import tile_name
from scorekeeper.tables.changes import hands_before, with_written_hands
from scorekeeper.tables.models import Change, EntryKey, Match
from scorekeeper.tables.recording import Author, Outcome, _flagged, _new, _record, row_locked
from scorekeeper.tables.scoring import match_value, stored_value
from scorekeeper.tables.steps import Step, end_step, last_entry, play_step, tile_step, undo_step

Kind = Change.Kind

#: how long after a play the same play from another phone is taken for the same tap twice
ECHO_SECONDS = 10


def play_record(
    *,
    match: Match,
    player: str,
    points: int,
    lead: bool = False,
    by: Author,
    key: str = "",
    override: bool = False,
    again: bool = False,
) -> Outcome:
    """Straight: a scoring play (``lead``: the leader's first tile).

    A play the same as one another phone entered in the last few seconds (same player, points
    and hand) is not added unless ``again``: two phones at one table often enter the same
    play."""

    def echo(row: Match, value: rules.Match) -> Change | None:
        if again or not by.phone:
            return None
        hand = len(value.hands) if value.hands and value.hands[-1].end is None else 0
        return (
            row.changes.filter(
                kind=Kind.SCORED,
                from_hand=hand,
                made_at__gte=timezone.now() - timedelta(seconds=ECHO_SECONDS),
                params__seat=value.players.index(player),
                params__points=points,
            )
            .exclude(phone=by.phone)
            .order_by("-number")
            .first()
        )

    return _record(
        match,
        play_step(player, points, lead),
        _seat_said(Kind.SCORED, player, points=points),
        by=by,
        key=key,
        override=override,
        echo=echo,
    )


def tile_record(
    *, match: Match, player: str, tile: str, by: Author, key: str = "", override: bool = False
) -> Outcome:
    """Sedma: a tile laid (``tile`` as "4-4"). The hand's first double opens it: laid by a
    later player than the one due, the table is asked (``opened_out_of_turn``)."""
    return _record(
        match,
        tile_step(player, tile),
        _seat_said(Kind.LAID, player, tile=tile),
        by=by,
        key=key,
        override=override,
        ask=opened_out_of_turn,
    )


def opened_out_of_turn(after: rules.Match) -> Says | None:
    """A Sedma hand opened by a later player than the one due: legal (those in between had no
    double), so a question, not a finding. Asked at once, so a mis-tapped opener is not blamed
    on a player who sets a double later in the hand."""
    hand = after.hands[-1]
    if len(hand.plays) != 1 or not hand.passed_opening:
        return None
    return Says(
        "Hand {number}: {due} had the first turn to open, so {opener} opening means {passed} "
        "had no double. Is that so?",
        number=len(after.hands),
        due=Who(hand.passed_opening[0]),
        opener=Who(hand.opener or ""),
        passed=join_names([Who(player) for player in hand.passed_opening]),
    )


def hand_end(
    *,
    match: Match,
    end: rules.HandEnd,
    starter: str | None = None,
    by: Author,
    key: str = "",
    override: bool = False,
) -> Outcome:
    """Straight and Sedma: end the hand being played. Chickenfoot: record a whole round."""
    return _record(match, end_step(end, starter), _end_said(end), by=by, key=key, override=override)


def hand_end_preview(*, match: Match, end: rules.HandEnd, starter: str | None = None) -> Outcome:
    """What ``hand_end`` would make of the hand, with its explanation; nothing is written.
    ``match``: read with everything (access.matches.match_for_preview), not locked."""
    row = match
    value = match_value(row)
    after = end_step(end, starter)(value)
    board = rules.score_match(after)
    return Outcome(
        saved=False,
        match=row,
        value=after,
        board=board,
        new_findings=_new(board, _flagged(row), len(value.hands)),
    )


def undo_last(*, match: Match, by: Author, key: str = "") -> Outcome:
    """Take back the last entry: a hand's end, else its last play, else the empty hand.
    A Chickenfoot round is entered whole, so it goes whole."""
    return _record(match, undo_step, _undone_said, by=by, key=key, override=True)


def _undone_said(value: rules.Match) -> tuple[str, dict]:
    """What the undo takes back, kept with it so that the history and "Last change" say it."""
    kind, play = last_entry(value)
    if not kind:
        return Kind.UNDONE, {}
    if play is None:
        return Kind.UNDONE, {"what": kind, "hand": len(value.hands)}
    params: dict = {"what": kind, "seat": value.players.index(play.player)}
    if play.tile is not None:
        params["tile"] = tile_name(play.tile)
    else:
        params["points"] = play.points
    return Kind.UNDONE, params


def recorded(match: Match, key: str) -> bool:
    """Whether the entry sent with ``key`` (table_pages.phones.submission_key) was recorded already:
    a phone whose answer was lost sends it again, and it is answered as the first time was
    (``_record``), even once the match is over."""
    return bool(key) and EntryKey.objects.filter(match=match, key=key).exists()


def hand_correct(
    *,
    match: Match,
    number: int,
    hand: rules.Hand,
    by: Author,
    key: str = "",
    override: bool = False,
    end_at_win: bool = False,
) -> Outcome:
    """Correct an earlier hand: it is replaced by ``hand``; the totals follow.

    ``end_at_win``: where the correction makes a side win earlier than recorded, the match
    ends at that moment and what was recorded after it leaves the result (the change keeps it,
    so the history shows it and can put it back)."""
    ended_at: list[int] = []

    def step(value: rules.Match) -> rules.Match:
        hands = list(value.hands)
        hands[number - 1] = hand
        corrected = value.with_hands(tuple(hands))
        if not end_at_win:
            return corrected
        return _ended_at_win(corrected, ended_at)

    def said(value: rules.Match) -> tuple[str, dict]:
        if ended_at:
            return Kind.HAND_CORRECTED, {"hand": number, "ended_at": ended_at[0]}
        return Kind.HAND_CORRECTED, {"hand": number}

    return _record(match, step, said, by=by, key=key, override=override)


def match_end_at_win(*, match: Match, by: Author, key: str = "") -> Outcome:
    """End the match where it was decided: entries recorded after a side had won (kept on
    purpose, or left behind when a correction moved the win earlier) leave the result; the
    change keeps them, so the history shows them and can put them back. Nothing recorded after
    the win: nothing is done (not saved)."""
    with transaction.atomic(savepoint=False):
        row = row_locked(match)
        value = stored_value(row)
        board = rules.score_match(value)
        if after_the_win(value, board) is None:
            return Outcome(False, row, value, board, [])
        return _record(row, *_ending_at_win(), by=by, key=key, override=False)


def _ending_at_win() -> tuple[Step, Callable[[rules.Match], tuple[str, dict]]]:
    """The step that ends a match where it was won, and what the history says of it."""
    ended_at: list[int] = []

    def step(value: rules.Match) -> rules.Match:
        return _ended_at_win(value, ended_at)

    def said(value: rules.Match) -> tuple[str, dict]:
        return Kind.HAND_CORRECTED, {"ended_at": ended_at[0] if ended_at else len(value.hands)}

    return step, said


def _ended_at_win(value: rules.Match, ended_at: list[int]) -> rules.Match:
    """The match ended where it was decided (``ended_at`` is told the hand it ends in)."""
    trimmed = after_the_win(value)
    if trimmed is None:
        return value
    ended_at.append(trimmed.hand)
    return trimmed.ended


def hand_delete(*, match: Match, number: int, by: Author, key: str = "") -> Outcome:
    """Delete a hand; the later ones move up, so the hands stay numbered 1, 2, 3 ..."""

    def step(value: rules.Match) -> rules.Match:
        return value.with_hands(value.hands[: number - 1] + value.hands[number:])

    said = _said(Kind.HAND_DELETED, hand=number)
    return _record(match, step, said, by=by, key=key, override=True)


def change_revert(*, match: Match, change: Change, by: Author, key: str = "") -> Outcome:
    """Put the hands back as they were just before ``change``, as a new change."""

    def step(value: rules.Match) -> rules.Match:
        now = write_hands(value.game, value.hands)
        return with_written_hands(value, hands_before(change, now))

    said = _said(Kind.REVERTED, number=change.number)
    return _record(match, step, said, by=by, key=key, override=True, reverts=change)


def _end_said(end: rules.HandEnd) -> Callable[[rules.Match], tuple[str, dict]]:
    def said(value: rules.Match) -> tuple[str, dict]:
        params: dict = {"how": end.how}
        if end.player:
            params["seat"] = value.players.index(end.player)
        if value.game == "chickenfoot":
            return Kind.ROUND_RECORDED, params
        return Kind.HAND_ENDED, params

    return said


def _said(kind: str, **params: object) -> Callable[[rules.Match], tuple[str, dict]]:
    return lambda value: (kind, params)


def _seat_said(
    kind: str, player: str, **params: object
) -> Callable[[rules.Match], tuple[str, dict]]:
    """What the history keeps of a player's entry: their seat, and ``params``."""
    return lambda value: (kind, {"seat": value.players.index(player), **params})
