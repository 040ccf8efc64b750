"""The machinery every entry shares: who made it (Author), what it comes to (Outcome), the
match row locked and read once for it, and ``_record``, which works the entry out, checks it
with the engine and keeps it: its hands, the scores, the change in the history and its key."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import QuerySet

from scorekeeper import rules
from scorekeeper.live.announce import announce
from scorekeeper.rules import limits
from scorekeeper.rules.text import Says
from scorekeeper.tables import seams
from scorekeeper.tables.changes import changed_hands
from scorekeeper.tables.models import Change, EntryKey, Hand, Match, Play
from scorekeeper.tables.scoring import (
    errors_at,
    play_rows,
    save_scores,
    store_hands,
    stored_value,
    with_everything,
)
from scorekeeper.tables.steps import Step


@dataclass(frozen=True)
class Author:
    """Who made a change: the name shown beside it (blank when none was given), what made it
    when there is no name (``Change.Maker``), the account if there is one, and which phone (a
    digest of its session) sent it."""

    name: str = ""
    user: User | None = None
    phone: str = ""
    maker: str = ""


@dataclass(frozen=True)
class Outcome:
    saved: bool
    #: the match's row as it now stands, read with its seats, hands and plays (a saved entry
    #: changed its hands after they were read: use ``value`` and ``board`` for those)
    match: Match
    #: the engine's view and score: after the entry if saved or previewed, else as stored
    value: rules.Match
    board: rules.Scoreboard
    #: findings the entry brought that were not there before
    new_findings: list[rules.Finding]
    #: the same submission had been recorded already; nothing was done again
    replayed: bool = False
    #: the change the saved entry made
    change: Change | None = None
    #: not saved: the same play was just entered by another phone (this change); the table
    #: says whether to add another
    echo: Change | None = None
    #: not saved yet: something the rules allow but the table should say is so (a Sedma hand
    #: opened by a later player than the one due); asked, not an error (docs/rules.md)
    question: Says | None = None

    @property
    def can_override(self) -> bool:
        """Whether the table may override the findings and store the refused entry on purpose:
        not past a limit."""
        return not any(found.code == "too-many-hands" for found in self.new_findings)

    @property
    def new_errors(self) -> list[rules.Finding]:
        return [f for f in self.new_findings if f.severity == rules.Severity.ERROR]


def lock_for_entry(matches: QuerySet[Match]) -> QuerySet[Match]:
    """The match row locked (in the caller's ``transaction.atomic()``) with its seats, hands and
    plays: what an entry reads, once. Mark the row read with ``mark_read_for_entry``."""
    # of the match's own row alone: the caller may join rows that are not there (a match at no
    # league night), which PostgreSQL does not lock
    return with_everything(matches.select_for_update(of=("self",)))


def mark_read_for_entry(match: Match) -> Match:
    match._read_for_entry = True  # type: ignore[attr-defined]  # a mark, read below
    return match


def read_for_entry(match: Match) -> bool:
    """Whether ``match`` was locked and read with everything for the entry being made."""
    return getattr(match, "_read_for_entry", False)


def row_locked(match: Match) -> Match:
    """``match`` as its access helper locked and read it for the change being made
    (access/matches.py), in the transaction this is called in; any other row (a command's,
    a test's) is read again here, locked, as the helper reads it. A service calls this first
    and reads the match no more."""
    return match if read_for_entry(match) else locked_match(match.pk)


def locked_match(pk: int) -> Match:
    """The match row locked and read for the change being made, by its key: for a service
    that reaches the match through a row of its own (a night's table), in its transaction."""
    matches = seams.with_locked_match_joins(Match.objects.filter(pk=pk))
    return mark_read_for_entry(lock_for_entry(matches).get())


def _flagged(row: Match) -> set[tuple[int, int | None]]:
    """Where the stored match holds an entry overridden: stored although the rules flag it."""
    flagged: set[tuple[int, int | None]] = set()
    for hand in row.hands.all():
        if hand.overridden:
            flagged.add((hand.number, None))
        flagged.update((hand.number, play.number) for play in hand.plays.all() if play.overridden)
    return flagged


def _new(
    board: rules.Scoreboard, flagged: set[tuple[int, int | None]], from_hand: int
) -> list[rules.Finding]:
    """The findings an entry brought: those on the hands it changed that were not already
    overridden there. An error is stored only when it was overridden on purpose, and marked so."""
    return [
        found
        for found in board.findings
        if found.hand is not None
        and found.hand >= from_hand
        and (found.severity != rules.Severity.ERROR or (found.hand, found.play) not in flagged)
    ]


def _record(
    match: Match,
    step: Step,
    said: Callable[[rules.Match], tuple[str, dict]],
    *,
    by: Author,
    key: str,
    override: bool,
    reverts: Change | None = None,
    echo: Callable[[Match, rules.Match], Change | None] | None = None,
    ask: Callable[[rules.Match], Says | None] | None = None,
) -> Outcome:
    # ``match`` is, from a view, the row its access helper locked and read with everything
    # (access/matches.py), in the transaction this joins; any other row is read again here,
    # locked (row_locked). The lock orders the entries: two phones
    # entering at once are applied one after the other, so hand and play numbers never collide,
    # each sees the other's entry, and a submission that arrives twice finds its key already
    # stored by the first.
    with transaction.atomic(savepoint=False):
        row = row_locked(match)
        before = stored_value(row)
        if key and EntryKey.objects.filter(match=row, key=key).exists():
            board = rules.score_match(before)
            return Outcome(True, row, before, board, [], replayed=True)
        if echo is not None and (earlier := echo(row, before)) is not None:
            return Outcome(False, row, before, rules.score_match(before), [], echo=earlier)
        after = step(before)
        if too_many := limits.hands_past_the_limit(len(before.hands), len(after.hands)):
            # the bound a match file has, at the table too: refused even on purpose
            return Outcome(False, row, before, rules.score_match(before), too_many)
        board = rules.score_match(after)
        from_hand, written_before, written_after = changed_hands(
            row.game, before.hands, after.hands
        )
        new = _new(board, _flagged(row), from_hand)
        # a question the table answers by sending the entry again, as it overrides an error
        question = ask(after) if ask is not None and not override else None
        if question is not None or (
            any(found.severity == rules.Severity.ERROR for found in new) and not override
        ):
            # not stored: the board stays as stored, the entry's result goes beside its form
            return Outcome(False, row, after, board, new, question=question)
        _store_from(row, from_hand, before.hands, after.hands, board)
        row.version += 1
        # a match being played before and after counts for nothing yet: a play moves nothing
        moved = row.finished or board.finished
        save_scores(row, board)
        if moved:
            seams.result_moved(row)
        kind, params = said(before)
        change = Change.objects.create(
            match=row,
            number=row.version,
            kind=kind,
            params=params,
            made_by=by.name[:80],
            maker=by.maker,
            user=by.user,
            phone=by.phone,
            from_hand=from_hand,
            before=written_before,
            after=written_after,
            reverts=reverts,
        )
        if key:
            EntryKey.objects.create(match=row, key=key, change=change)
        announce(seams.live_topics(row))
    return Outcome(True, row, after, board, new, change=change)


def _store_from(
    row: Match,
    first: int,
    before: tuple[rules.Hand, ...],
    after: tuple[rules.Hand, ...],
    board: rules.Scoreboard,
) -> None:
    """Write the hands from number ``first`` on as they are ``after`` (players by seat key)."""
    changed = after[first - 1 :]
    if len(before) == len(after) == first and _only_plays_added(before[-1], after[-1]):
        # the usual tap: plays added to the hand being played, nothing else changes
        hand = row.hands.all()[first - 1]
        added = play_rows(hand, after[-1].plays, errors_at(board), stored=len(before[-1].plays))
        Play.objects.bulk_create(added)
        return
    ended_at = {hand.number: hand.ended_at for hand in row.hands.all() if hand.number >= first}
    Hand.objects.filter(match=row, number__gte=first).delete()
    store_hands(row, first, changed, board, ended_at)


def _only_plays_added(before: rules.Hand, after: rules.Hand) -> bool:
    count = len(before.plays)
    return (
        len(after.plays) > count
        and after.plays[:count] == before.plays
        and replace(after, plays=before.plays) == before
    )
