"""Recording what happened at the table: every entry is written, scored and checked in one
transaction, and rolled back whole when it brings an error finding the user did not accept."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from django.db import transaction
from django.utils import timezone

from scorekeeper import rules
from scorekeeper.rules.matchfile import parse_match, write_match
from scorekeeper.rules.sedma import DOUBLES as SEDMA_DOUBLES
from scorekeeper.rules.sedma import TILES_EACH as SEDMA_TILES_EACH
from scorekeeper.tables.changes import hands_before, kept
from scorekeeper.tables.models import Change, EntryKey, Hand, Match, Play
from scorekeeper.tables.scoring import (
    State,
    keep_state,
    match_value,
    refetch,
    save_scores,
    stored_state,
    write_hand,
)
from scorekeeper.tables.turns import entries_in_turn


@dataclass(frozen=True)
class Outcome:
    saved: bool
    #: the scoreboard as it now stands (after the entry if saved, or as a preview)
    board: rules.Scoreboard
    #: findings the entry brought that were not there before
    new_findings: list[rules.Finding]
    #: the same submission had been recorded already; nothing was done again
    replayed: bool = False
    #: the match's version once the entry was saved, and the engine's view of it
    version: int | None = None
    value: rules.Match | None = None
    #: the change the saved entry made
    change: Change | None = None

    @property
    def new_errors(self) -> list[rules.Finding]:
        return [f for f in self.new_findings if f.severity == rules.Severity.ERROR]


@dataclass(frozen=True)
class Author:
    """Who made a change: the name shown beside it, and the account if there is one."""

    name: str = ""
    user: object = None


#: A change to a match's rows, given the locked match and the engine's view of it as stored.
#: It returns the engine's view after the change when it knows it, else None (read it back).
Write = Callable[[Match, rules.Match], "rules.Match | None"]


def _key(found: rules.Finding) -> tuple:
    return (found.code, found.hand, found.play)


def record(
    match: Match,
    write: Write,
    *,
    action: str,
    author: Author = Author(),
    key: str = "",
    override: bool = False,
    preview: bool = False,
    reverts: Change | None = None,
    state: State | None = None,
) -> Outcome:
    """Apply ``write`` to ``match`` and keep it only if the rules allow it (or ``override``).

    A saved change is numbered, signed and kept with the hands it changed, before and after.
    ``key`` identifies one submission: when it has been recorded already, nothing is done again.
    ``state`` is the match as the caller read it, if it did.
    """
    with entries_in_turn(), transaction.atomic():
        # Lock the match row: two phones entering at once are applied one after the other, so
        # hand and play numbers never collide, each sees the other's entry, and a submission
        # that arrives twice finds its key already stored by the first.
        locked = Match.objects.select_for_update().get(pk=match.pk)
        # Every change bumps the version under this lock: at the same version, what the caller
        # read is still what is stored and need not be read again.
        if state is None or (match.version, match.updated_at) != (
            locked.version,
            locked.updated_at,
        ):
            state = stored_state(locked)
        before_value, before = state.value, state.board
        if key and EntryKey.objects.filter(match=locked, key=key).exists():
            return Outcome(saved=True, board=before, new_findings=[], replayed=True)
        after_value = write(locked, before_value) or match_value(refetch(locked))
        after = rules.score_match(after_value)
        known = {_key(f) for f in before.findings}
        new = [f for f in after.findings if _key(f) not in known]
        outcome = Outcome(saved=False, board=after, new_findings=new)
        if preview or (outcome.new_errors and not override):
            transaction.set_rollback(True)
            return outcome
        if outcome.new_errors:
            _mark_overridden(locked, outcome.new_errors)
        locked.version += 1
        save_scores(locked, after)
        from_hand, kept_before, kept_after = kept(
            locked.game, before_value.hands, after_value.hands
        )
        change = Change.objects.create(
            match=locked,
            number=locked.version,
            action=action[:120],
            made_by=author.name[:80],
            user=author.user,
            from_hand=from_hand,
            before=kept_before,
            after=kept_after,
            reverts=reverts,
        )
        if key:
            EntryKey.objects.create(match=locked, key=key, change=change)
        # what the next entry or page starts from, kept with the entry or not at all
        keep_state(locked, State(after_value, after))
    return Outcome(
        saved=True,
        board=after,
        new_findings=new,
        version=locked.version,
        value=after_value,
        change=change,
    )


def _mark_overridden(match: Match, errors: list[rules.Finding]) -> None:
    for found in errors:
        hands = Hand.objects.filter(match=match, number=found.hand)
        if found.play is not None:
            Play.objects.filter(hand__in=hands, number=found.play).update(overridden=True)
        elif found.hand is not None:
            hands.update(overridden=True)


# -- the writes ---------------------------------------------------------------------------------


def current_hand(match: Match, value: rules.Match) -> Hand:
    """The hand being played, started now (with its leader, opener or double) if there is none.
    ``value`` is the engine's view of the match as stored."""
    last = match.hands.order_by("-number").first()
    if last is not None and not last.end_how:
        return last
    next_up = rules.score_match(value).next
    number = (last.number if last else 0) + 1
    return Hand.objects.create(
        match=match,
        number=number,
        leader=(next_up.leader or "") if next_up and match.game == "straight" else "",
    )


def add_play(player: str, *, points: int | None = None, tile: str = "") -> Write:
    def write(match: Match, value: rules.Match) -> rules.Match | None:
        if match.game == "straight" and value.hands and value.hands[-1].end is None:
            # the usual tap: a score in the hand being played, which changes nothing else
            playing = value.hands[-1]
            hand = Hand.objects.filter(match=match, number=len(value.hands))
            Play.objects.create(
                hand_id=hand.values_list("id", flat=True).get(),
                number=len(playing.plays) + 1,
                player=player,
                points=points,
            )
            played = replace(playing, plays=(*playing.plays, rules.Play(player, points=points)))
            return value.with_hands((*value.hands[:-1], played))
        hand = current_hand(match, value)
        if match.game == "sedma" and not hand.plays.exists():
            _open_sedma_hand(match, hand, player)
        number = (hand.plays.order_by("-number").values_list("number", flat=True).first() or 0) + 1
        Play.objects.create(hand=hand, number=number, player=player, points=points, tile=tile)
        if match.game == "sedma":
            _end_sedma_hand_when_over(hand, player)
        return None

    return write


def _open_sedma_hand(match: Match, hand: Hand, player: str) -> None:
    """The first double of a Sedma hand: whoever had the turn to open before ``player`` passed."""
    value = match_value(refetch(match))
    scheduled = hand.opener or (value.hands and rules.score_match(value).next.opener) or player
    passed = []
    while scheduled != player and len(passed) < len(value.players):
        passed.append(scheduled)
        scheduled = value.left_of(scheduled)
    hand.passed_opening = passed if scheduled == player else []
    hand.opener = player
    hand.save(update_fields=["passed_opening", "opener"])


def _end_sedma_hand_when_over(hand: Hand, player: str) -> None:
    """A Sedma hand is over once all seven doubles are down, or a player has laid seven tiles."""
    tiles = list(hand.plays.values_list("player", "tile"))
    doubles = {tile for _, tile in tiles if tile[0] == tile[-1]}
    if len(doubles) == SEDMA_DOUBLES:
        hand.end_how = "all-doubles"
    elif (
        any(tile[0] != tile[-1] for _, tile in tiles)
        and sum(1 for name, _ in tiles if name == player) == SEDMA_TILES_EACH
    ):
        hand.end_how, hand.end_player = "domino", player
    else:
        return
    hand.ended_at = timezone.now()
    hand.save(update_fields=["end_how", "end_player", "ended_at"])


def end_hand(end: rules.HandEnd, **hand_fields: object) -> Write:
    """End the hand being played (or record a whole Chickenfoot round) with ``end``."""

    def write(match: Match, value: rules.Match) -> None:
        hand = current_hand(match, value)
        hand.end_how = end.how
        hand.end_player = end.player or ""
        hand.pips = dict(end.pips)
        hand.double_blank = list(end.double_blank)
        hand.ended_at = timezone.now()
        for name, value in hand_fields.items():
            setattr(hand, name, value)
        hand.save()

    return write


def replace_hand(number: int, hand: rules.Hand) -> Write:
    """Edit an earlier hand: its rows are replaced by the corrected hand."""

    def write(match: Match, value: rules.Match) -> None:
        old = Hand.objects.get(match=match, number=number)
        ended_at = old.ended_at or timezone.now()
        old.delete()
        row = write_hand(match, number, hand, {})
        if hand.end is not None:
            row.ended_at = ended_at
            row.save(update_fields=["ended_at"])

    return write


def delete_hand(number: int) -> Write:
    def write(match: Match, value: rules.Match) -> None:
        Hand.objects.filter(match=match, number=number).delete()
        # later hands move up, so the hands stay numbered 1, 2, 3 ...
        for hand in Hand.objects.filter(match=match, number__gt=number).order_by("number"):
            hand.number -= 1
            hand.save(update_fields=["number"])

    return write


def undo_last(match: Match, value: rules.Match) -> None:
    """Take back the last entry: a hand's end, else its last play, else the empty hand.

    A Chickenfoot round is entered whole, so it goes whole.
    """
    last = match.hands.order_by("-number").first()
    if last is None:
        return
    if last.end_how and match.game != "chickenfoot":
        last.end_how = ""
        last.end_player = ""
        last.pips = {}
        last.double_blank = []
        last.ended_at = None
        last.save()
        return
    play = last.plays.order_by("-number").first()
    if play is not None and match.game != "chickenfoot":
        play.delete()
    if match.game == "chickenfoot" or not last.plays.exists():
        last.delete()


def restore_before(change: Change) -> Write:
    """Put back the hands as they were just before ``change`` (a revert): the rows are replaced."""

    def write(match: Match, value: rules.Match) -> None:
        written = write_match(value)
        hands = hands_before(change, written["hands"])
        value = parse_match({**written, "hands": hands})
        Hand.objects.filter(match=match).delete()
        for number, hand in enumerate(value.hands, 1):
            row = write_hand(match, number, hand, {})
            if hand.end is not None:
                row.ended_at = timezone.now()
                row.save(update_fields=["ended_at"])

    return write
