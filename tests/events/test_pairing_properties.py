"""Property tests of the pairings over whole events: random fields of 5 to 120 entries play 7
Swiss rounds with random results, and a round robin meets every pair once.

Small fields (up to 16 entries) run out of new opponents within 7 rounds; for them a search by
hand checks each claim the pairing makes: that the bye could go no lower without a rematch,
and that a refused round, or the rematches allowed, were the fewest the field allows."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Collection, Sequence
from functools import cache
from itertools import combinations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from scorekeeper.events.pairing import NoPairing, Pairing, results_of, round_robin, swiss_round
from scorekeeper.events.standings import Result, standings

ROUNDS = 7

#: up to this many entries the search by hand is cheap (at most 2**16 states)
SEARCHED = 16


def fewest_rematches(entries: Collection[int], met: Collection[frozenset[int]]) -> int:
    """The fewest rematches of any pairing of an even number of entries, by trying them all."""

    @cache
    def fewest(left: frozenset[int]) -> int:
        if not left:
            return 0
        first = min(left)
        return min(
            (frozenset((first, other)) in met) + fewest(left - {first, other})
            for other in left - {first}
        )

    return fewest(frozenset(entries))


def random_points(rng: random.Random, tables: int) -> list[tuple[int, int]]:
    """Match totals, a draw now and then."""
    points = []
    for _ in range(tables):
        first = rng.choice((150, 185, 200, 250, 250, 300))
        second = first if rng.random() < 0.1 else rng.choice((100, 150, 185, 250))
        points.append((first, second))
    return points


def check_round(
    ranking: Sequence[int],
    pairing: Pairing,
    met: set[frozenset[int]],
    byes: Counter[int],
    rematches_allowed: bool,
) -> None:
    seated = [entry for table in pairing.tables for entry in table]
    # everyone plays but the bye, once
    assert sorted(seated + ([pairing.bye] if pairing.bye is not None else [])) == sorted(ranking)
    assert (pairing.bye is None) == (len(ranking) % 2 == 0)
    rematched = [table for table in pairing.tables if frozenset(table) in met]
    assert list(pairing.rematches) == rematched
    if not rematches_allowed:
        assert rematched == []
    if pairing.bye is None:
        if rematches_allowed:
            assert len(rematched) == fewest_rematches(ranking, met)
        return
    # nobody has a second bye while someone has none
    fewest = min(byes[entry] for entry in ranking)
    assert byes[pairing.bye] == fewest
    place = ranking.index(pairing.bye)
    lower = [entry for entry in ranking[place + 1 :] if byes[entry] == fewest]
    if len(ranking) > SEARCHED:
        # room enough: the lowest ranked without a bye has it
        assert lower == []
        return
    if rematches_allowed:
        most = len(rematched)
        assert most == fewest_rematches(set(ranking) - {pairing.bye}, met)
    else:
        most = 0
    # a lower entry sitting out would have forced more rematches
    for entry in lower:
        assert fewest_rematches(set(ranking) - {entry}, met) > most


def play_swiss(count: int, seed: int) -> tuple[Counter[int], set[frozenset[int]]]:
    rng = random.Random(seed)
    entries = list(range(count))
    results: list[Result] = []
    met: set[frozenset[int]] = set()
    byes: Counter[int] = Counter()
    for _ in range(ROUNDS):
        ranking = [row.entry for row in standings(entries, results)]
        try:
            pairing = swiss_round(ranking, results)
            rematches_allowed = False
        except NoPairing:
            # only a small field runs out of new opponents in seven rounds, and then truly
            assert count <= SEARCHED
            may_sit_out = [e for e in entries if byes[e] == min(byes[x] for x in entries)]
            if count % 2:
                assert all(fewest_rematches(set(entries) - {e}, met) > 0 for e in may_sit_out)
            else:
                assert fewest_rematches(entries, met) > 0
            pairing = swiss_round(ranking, results, allow_rematches=True)
            rematches_allowed = True
        check_round(ranking, pairing, met, byes, rematches_allowed)
        if count <= SEARCHED:
            # the results' order does not matter
            again = swiss_round(ranking, results[::-1], allow_rematches=rematches_allowed)
            assert again == pairing
        results += results_of(pairing, random_points(rng, len(pairing.tables)))
        met |= {frozenset(table) for table in pairing.tables}
        if pairing.bye is not None:
            byes[pairing.bye] += 1
    return byes, met


@settings(max_examples=40, deadline=None)
@given(st.integers(5, SEARCHED), st.integers(0, 2**32))
def test_small_swiss_fields_avoid_rematches_while_they_can_and_keep_byes_fair(
    count: int, seed: int
) -> None:
    byes, _ = play_swiss(count, seed)

    if count % 2:
        assert max(byes.values()) - min(byes[entry] for entry in range(count)) <= 1
    else:
        assert byes == Counter()


# the largest fields, even and odd, every run; then a few others (about 10 s in all)
@settings(max_examples=2, deadline=None)
@given(st.integers(SEARCHED + 1, 120), st.integers(0, 2**32))
@example(120, 25)
@example(119, 7)
def test_large_swiss_fields_never_rematch_and_give_each_bye_to_someone_new(
    count: int, seed: int
) -> None:
    byes, met = play_swiss(count, seed)

    assert len(met) == ROUNDS * (count // 2)
    assert all(times == 1 for times in byes.values())
    assert len(byes) == (ROUNDS if count % 2 else 0)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 30))
def test_in_a_round_robin_every_pair_meets_exactly_once(count: int) -> None:
    rounds = round_robin(range(count))
    meetings = Counter(frozenset(table) for round_ in rounds for table in round_.tables)
    byes = Counter(round_.bye for round_ in rounds if round_.bye is not None)

    assert len(rounds) == count - 1 + count % 2
    assert set(meetings) == {frozenset(pair) for pair in combinations(range(count), 2)}
    assert set(meetings.values()) == {1}
    assert byes == (Counter(range(count)) if count % 2 else Counter())
    for round_ in rounds:
        seated = [entry for table in round_.tables for entry in table]
        assert sorted(seated + [round_.bye] * (round_.bye is not None)) == list(range(count))
