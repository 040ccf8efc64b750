"""Recording what happened at the table: one function for each kind of entry.

Each reads the match once under its lock, works out the match as it is after the entry, asks
the engine once, and keeps the entry only if the rules allow it (or the table keeps it on
purpose): the hands it changed, the scores, the change in the history and the entry's key, in
one transaction. Each returns one Outcome. ``hand_end_preview`` writes nothing.

What an entry does to the match is a Step of its own (``play_step``, ``end_step``,
``undo_step``): worked out without writing anything, as a phone's entries not yet sent are
(outbox.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import timedelta

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from scorekeeper import rules
from scorekeeper.rules import limits
from scorekeeper.rules.match_end import after_the_win
from scorekeeper.rules.matchfile import write_hands
from scorekeeper.rules.sedma import DOUBLES as SEDMA_DOUBLES
from scorekeeper.rules.sedma import TILES_EACH as SEDMA_TILES_EACH
from scorekeeper.rules.sedma import due_to_open
from scorekeeper.rules.text import Says, join_names
from scorekeeper.rules.tiles import parse_tile, tile_name
from scorekeeper.tables import seams
from scorekeeper.tables.changes import hands_before, kept, with_kept_hands
from scorekeeper.tables.models import Change, EntryKey, Hand, Match, Play
from scorekeeper.tables.scoring import (
    errors_at,
    match_value,
    play_rows,
    save_scores,
    store_hands,
    stored_value,
    with_everything,
)
from scorekeeper.tables.seats import by_name, by_seat

Kind = Change.Kind


@dataclass(frozen=True)
class Author:
    """Who made a change: the name shown beside it, the account if there is one, and which
    phone (a digest of its session) sent it."""

    name: str = ""
    user: object = None
    phone: str = ""


#: how long after a play the same play from another phone is taken for the same tap twice
ECHO_SECONDS = 10


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
    def can_keep(self) -> bool:
        """Whether the table may keep the refused entry on purpose: not past a limit."""
        return not any(found.code == "too-many-hands" for found in self.new_findings)

    @property
    def new_errors(self) -> list[rules.Finding]:
        return [f for f in self.new_findings if f.severity == rules.Severity.ERROR]


#: What an entry does to the match (players by name): the match after it.
Step = Callable[[rules.Match], rules.Match]


# -- the entries ---------------------------------------------------------------------------------


def play_record(
    *,
    match: Match,
    player: str,
    points: int | None = None,
    tile: str = "",
    lead: bool = False,
    by: Author,
    key: str = "",
    override: bool = False,
    again: bool = False,
) -> Outcome:
    """Straight: a scoring play (``lead``: the leader's first tile). Sedma: a tile laid.

    A Straight play the same as one another phone entered in the last few seconds (same
    player, points and hand) is not added unless ``again``: two phones at one table often
    enter the same play."""

    def said(value: rules.Match) -> tuple[str, dict]:
        seat = value.players.index(player)
        if tile:
            return Kind.LAID, {"seat": seat, "tile": tile}
        return Kind.SCORED, {"seat": seat, "points": points}

    def echo(row: Match, value: rules.Match) -> Change | None:
        if tile or again or not by.phone:
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
        play_step(player, points, tile, lead),
        said,
        by=by,
        key=key,
        override=override,
        echo=echo,
        ask=opened_out_of_turn if tile else None,
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
        due=hand.passed_opening[0],
        opener=hand.opener,
        passed=join_names(list(hand.passed_opening)),
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


def last_entry(value: rules.Match) -> tuple[str, rules.Play | None]:
    """What ``undo_last`` takes back: a Chickenfoot "round" (entered whole), the "end" of the
    last hand, its last "play" (the hand goes with its only one), or an empty "hand" after the
    first; "" when there is nothing (a first hand with nothing in it is how the match started)."""
    if not value.hands:
        return "", None
    last = value.hands[-1]
    if value.game == "chickenfoot":
        return "round", None
    if last.end is not None:
        return "end", None
    if last.plays:
        return "play", last.plays[-1]
    if len(value.hands) == 1:
        # the first hand's leader or opener chosen as the match started: the start is no entry
        return "", None
    return "hand", None


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
        seated = row.seating()
        value = by_name(stored_value(row, seated), seated.players)
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
        seated = by_seat(value)
        now = write_hands(value.game, seated.hands)
        return by_name(with_kept_hands(seated, hands_before(change, now)), value.players)

    said = _said(Kind.REVERTED, number=change.number)
    return _record(match, step, said, by=by, key=key, override=True, reverts=change)


# -- what an entry changes -----------------------------------------------------------------------


def _playing(value: rules.Match, player: str | None) -> tuple[tuple[rules.Hand, ...], rules.Hand]:
    """The hands before the one being played, and that one, started now when there is none.
    A new hand names no leader or opener: the engine knows who leads or opens it from the hands
    before. A Sedma hand's first double, laid by ``player``, opens it; those who had the turn
    to open before ``player`` passed (``opened_out_of_turn`` asks the table at once)."""
    if value.hands and value.hands[-1].end is None:
        hands, playing = value.hands[:-1], value.hands[-1]
    else:
        hands, playing = value.hands, rules.Hand()
    if value.game != "sedma" or player is None or playing.plays:
        return hands, playing
    scheduled = playing.opener or due_to_open(value.with_hands(hands)) or player
    passed = []
    while scheduled != player and len(passed) < len(value.players):
        passed.append(scheduled)
        scheduled = value.left_of(scheduled)
    opened = tuple(passed) if scheduled == player else ()
    return hands, replace(playing, opener=player, passed_opening=opened)


def _sedma_over(hand: rules.Hand, player: str) -> rules.Hand:
    """A Sedma hand is over once all seven doubles are down, or a player has laid seven tiles."""
    doubles = {play.tile for play in hand.plays if play.is_double}
    if len(doubles) == SEDMA_DOUBLES:
        return replace(hand, end=rules.HandEnd("all-doubles"))
    if (
        any(not play.is_double for play in hand.plays)
        and sum(1 for play in hand.plays if play.player == player) == SEDMA_TILES_EACH
    ):
        return replace(hand, end=rules.HandEnd("domino", player=player))
    return hand


def play_step(player: str, points: int | None = None, tile: str = "", lead: bool = False) -> Step:
    """Straight: a scoring play (``lead``: the leader's first tile). Sedma: a tile laid."""

    def step(value: rules.Match) -> rules.Match:
        laid = rules.Play(player, points=points, tile=parse_tile(tile) if tile else None, lead=lead)
        hands, playing = _playing(value, player)
        if lead and not hands and not playing.plays and playing.leader is None:
            # the first hand's leader was left to the table: the lead says who it was
            playing = replace(playing, leader=player)
        playing = replace(playing, plays=(*playing.plays, laid))
        if value.game == "sedma":
            playing = _sedma_over(playing, player)
        return value.with_hands((*hands, playing))

    return step


def end_step(end: rules.HandEnd, starter: str | None = None) -> Step:
    """Straight and Sedma: the hand being played ends. Chickenfoot: a whole round."""

    def step(value: rules.Match) -> rules.Match:
        if value.game == "chickenfoot":
            return value.with_hands((*value.hands, rules.Hand(end=end, starter=starter)))
        hands, playing = _playing(value, None)
        return value.with_hands((*hands, replace(playing, end=end)))

    return step


def undo_step(value: rules.Match) -> rules.Match:
    """The match without its last entry (``last_entry``)."""
    kind, _ = last_entry(value)
    if not kind:
        return value
    *earlier, last = value.hands
    if kind == "end":
        return value.with_hands((*earlier, replace(last, end=None)))
    if kind == "play" and len(last.plays) > 1:
        return value.with_hands((*earlier, replace(last, plays=last.plays[:-1])))
    return value.with_hands(tuple(earlier))


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


# -- keeping it ----------------------------------------------------------------------------------


def lock_for_entry(matches: QuerySet[Match]) -> QuerySet[Match]:
    """The match row locked (in the caller's ``transaction.atomic()``) with its seats, hands and
    plays: what an entry reads, once. Mark the row read with ``mark_read_for_entry``."""
    # of the match's own row alone: the caller may join rows that are not there (a match at no
    # league night), which PostgreSQL does not lock
    return with_everything(matches.select_for_update(of=("self",)))


def mark_read_for_entry(match: Match) -> Match:
    match._read_for_entry = True
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
    """Where the stored match holds an entry kept although the rules flag it."""
    flagged = set()
    for hand in row.hands.all():
        if hand.overridden:
            flagged.add((hand.number, None))
        flagged.update((hand.number, play.number) for play in hand.plays.all() if play.overridden)
    return flagged


def _new(
    board: rules.Scoreboard, flagged: set[tuple[int, int | None]], from_hand: int
) -> list[rules.Finding]:
    """The findings an entry brought: those on the hands it changed that were not already
    kept there. An error is stored only when it was kept on purpose, and marked so."""
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
        seated = row.seating()
        stored = stored_value(row, seated)
        before = by_name(stored, seated.players)
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
        after_stored = by_seat(after)
        from_hand, kept_before, kept_after = kept(row.game, stored.hands, after_stored.hands)
        new = _new(board, _flagged(row), from_hand)
        # a question the table answers by sending the entry again, as it keeps an error
        question = ask(after) if ask is not None and not override else None
        if question is not None or (
            any(found.severity == rules.Severity.ERROR for found in new) and not override
        ):
            # not kept: the board stays as stored, the entry's result goes beside its form
            return Outcome(False, row, after, board, new, question=question)
        _store_from(row, from_hand, stored.hands, after_stored.hands, board)
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
            user=by.user,
            phone=by.phone,
            from_hand=from_hand,
            before=kept_before,
            after=kept_after,
            reverts=reverts,
        )
        if key:
            EntryKey.objects.create(match=row, key=key, change=change)
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
