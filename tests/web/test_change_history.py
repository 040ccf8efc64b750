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
from scorekeeper.tables.scoring import match_value, refetch
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
    return write_match(match_value(refetch(match)))["hands"]


def replay(changes: list[Change]) -> list[dict]:
    """The hands as the newest of ``changes`` (oldest first, from the match's first) left them."""
    hands: list[dict] = []
    for change in changes:
        hands = hands[: change.from_hand - 1] + list(change.after)
    return hands


def write_for(entry: tuple, value: rules.Match, match: Match) -> entries.Write | None:
    """The write for ``entry`` on the match as it stands, or None when it is about nothing."""
    if entry[0] == "revert":
        return entries.restore_before(reverted(entry, match)) if match.version > 1 else None
    kind, *args = entry
    if kind == "play":
        return entries.add_play(FOUR[args[0]], points=args[1])
    if kind == "end":
        winner = FOUR[args[0]]
        pips = {name: 7 for name in FOUR if name != winner}
        return entries.end_hand(rules.HandEnd("domino", player=winner, pips=pips))
    if kind == "undo":
        return entries.undo_last
    if not value.hands:
        return None
    number = 1 + args[0] % len(value.hands)
    if kind == "delete":
        return entries.delete_hand(number)
    hand = value.hands[number - 1]
    more = (*hand.plays, rules.Play(FOUR[args[1]], points=10))
    return entries.replace_hand(number, replace(hand, plays=more))


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
        value = match_value(refetch(match))
        write = write_for(entry, value, match)
        if write is None:
            continue
        undone = reverted(entry, match) if entry[0] == "revert" else None
        outcome = entries.record(match, write, action=entry[0], override=True, reverts=undone)
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

    entries.record(match, entries.add_play("Bo", points=15), action="Bo scored 15")

    change = match.changes.get(number=2)
    assert (change.from_hand, change.hand_count_before, change.hand_count_after) == (41, 41, 41)
    assert change.after == [{"leader": "Bo", "plays": [{"player": "Bo", "points": 15}]}]
