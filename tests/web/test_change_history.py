"""A change keeps only the hands it changed, and the whole match can still be put back together
from the changes: at every change, whatever was entered, corrected, deleted or reverted."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import rules
from scorekeeper.rules.matchfile import write_match
from scorekeeper.tables import entries
from scorekeeper.tables.changes import hands_before
from scorekeeper.tables.models import Change, Match
from scorekeeper.tables.recording import Author, Outcome
from scorekeeper.tables.scoring import match_value, with_everything
from tests.seated import seat_key
from tests.web.table import FOUR, stored

SEAT = st.integers(0, len(FOUR) - 1)
#: what the phones do, in any order: which hand or change an entry is about is taken modulo
#: what there is when it is made
ENTRY = st.one_of(
    st.tuples(st.just("play"), SEAT, st.sampled_from(range(5, 36, 5))),
    st.tuples(st.just("play"), SEAT, st.sampled_from(range(5, 36, 5))),
    st.tuples(st.just("end"), SEAT),
    st.tuples(st.just("correct"), st.integers(0, 20), SEAT),
    st.tuples(st.just("delete"), st.integers(0, 20)),
    st.tuples(st.just("undo")),
    st.tuples(st.just("revert"), st.integers(0, 40)),
)


def hands_of(match: Match) -> list[dict]:
    """The hands as stored, players by seat, as a change keeps them."""
    stored = with_everything(Match.objects.filter(pk=match.pk)).get()
    return write_match(match_value(stored))["hands"]


def replay(changes: list[Change]) -> list[dict]:
    """The hands as the newest of ``changes`` (oldest first, from the match's first) left them."""
    hands: list[dict] = []
    for change in changes:
        hands = hands[: change.from_hand - 1] + list(change.after)
    return hands


BY = Author("a phone")
#: FOUR's seats, as the engine knows the players
SEATS = ("0", "1", "2", "3")


def enter(entry: tuple, value: rules.Match, match: Match) -> Outcome | None:
    """Make ``entry`` on the match as it stands, or nothing when it is about nothing."""
    if entry[0] == "revert":
        if match.version == 1:
            return None
        return entries.change_revert(match=match, change=reverted(entry, match), by=BY)
    kind, *args = entry
    if kind == "play":
        return entries.play_record(
            match=match, player=SEATS[args[0]], points=args[1], by=BY, override=True
        )
    if kind == "end":
        winner = SEATS[args[0]]
        pips = {seat: 7 for seat in SEATS if seat != winner}
        end = rules.HandEnd("domino", player=winner, pips=pips)
        return entries.hand_end(match=match, end=end, by=BY, override=True)
    if kind == "undo":
        return entries.undo_last(match=match, by=BY)
    if not value.hands:
        return None
    number = 1 + args[0] % len(value.hands)
    if kind == "delete":
        return entries.hand_delete(match=match, number=number, by=BY)
    hand = value.hands[number - 1]
    more = (*hand.plays, rules.Play(SEATS[args[1]], points=10))
    return entries.hand_correct(
        match=match, number=number, hand=replace(hand, plays=more), by=BY, override=True
    )


def reverted(entry: tuple, match: Match) -> Change:
    """The change a revert is about: any change but the match's first."""
    return Change.objects.get(match=match, number=2 + entry[1] % (match.version - 1))


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(ENTRY, min_size=1, max_size=14))
def test_every_change_puts_back_the_whole_match_as_it_was(db: None, done: list[tuple]) -> None:
    match = stored("straight", rules={"target": 100_000}, hands=(rules.Hand(leader="Ana"),))
    # the hands as each change left them, by the change's number
    left = {1: hands_of(match)}
    for entry in done:
        value = match_value(with_everything(Match.objects.filter(pk=match.pk)).get())
        undone = reverted(entry, match) if entry[0] == "revert" and match.version > 1 else None
        outcome = enter(entry, value, match)
        if outcome is None:
            continue
        assert outcome.saved
        match.refresh_from_db()
        left[match.version] = hands_of(match)
        if undone is not None:
            # the hands are back as they were just before the change reverted
            assert left[match.version] == left[undone.number - 1]

    changes = list(Change.objects.filter(match=match).order_by("number"))
    assert [change.number for change in changes] == sorted(left)
    # forward: the changes, one after the other, give the hands as stored
    assert replay(changes) == left[match.version]
    # backward: from the hands as stored, every change gives back the hands just before it
    now = hands_of(match)
    for change in changes[1:]:
        assert hands_before(change, now) == left[change.number - 1]
    # and each keeps no hand it left as it was, but the one a tap or an end was about
    for change in changes[1:]:
        if change.before and change.after:
            assert change.before[0] != change.after[0]


def test_a_tap_late_in_a_long_match_keeps_one_hand(db: None) -> None:
    ended = rules.Hand(
        leader="Ana",
        plays=(rules.Play("Ana", points=10),),
        end=rules.HandEnd("domino", player="Ana", pips={"Bo": 5, "Cy": 5, "Di": 5}),
    )
    match = stored(
        "straight", rules={"target": 100_000}, hands=(*[ended] * 40, rules.Hand(leader="Bo"))
    )

    entries.play_record(match=match, player=seat_key(match, "Bo"), points=15, by=BY)

    change = match.changes.get(number=2)
    assert (change.from_hand, change.hand_count_before, change.hand_count_after) == (41, 41, 41)
    # players by seat: Bo sits in seat 2
    assert change.after == [{"leader": "1", "plays": [{"player": "1", "points": 15}]}]
