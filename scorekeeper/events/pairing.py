"""Who plays whom in a round of a tournament: Swiss rounds and round robin.

Pure Python, no Django; the matching is networkx's. An entry is a partnership or a player
alone (see standings.py); a table here is two entries, the better ranked first. Which side
sits where does not matter.

A Swiss round pairs the entries by the standings: a maximum-weight matching of the graph whose
edges are the pairs that have not met yet, so a rematch is not a poorer choice but no choice.
The weights put, in this order of importance:

1. the bye (odd fields) on the lowest ranked entry among those with the fewest byes, so
   nobody has a second bye while someone has none; a higher one only when the lower ones
   would leave the rest impossible to pair without a rematch;
2. score groups (entries on equal match points): a pair costs how many groups apart the two
   are, and the round's total is kept as low as will go, so the odd one out of a group meets
   the top of the next group down;
3. partners near in the standings: the cost of a pair is the square of how many places apart
   they are, so the top two of a score group meet, then the next two, and when a rematch
   forbids a pair the change is spread over several near pairs rather than one far one.

When no pairing avoids a rematch (a small field late in the event), `swiss_round` refuses
with `NoPairing`; asked again with ``allow_rematches=True`` it pairs with the fewest rematches
and lists them in the pairing.

The same ranking and results give the same pairing: the graph is built in ranking order and the
matching is exact (whole-number weights), so ties are settled the same way on every machine.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import networkx as nx

from scorekeeper.events.standings import (
    Bye,
    Entry,
    Game,
    Result,
    entries_of,
    match_points,
    records,
    sorted_entries,
)

#: the matching graph's node for "no opponent": whoever is matched with it has the bye
_BYE = object()


@dataclass(frozen=True)
class Pairing:
    """One round: the tables (two entries each, the better ranked first, the top table first),
    the entry with the bye if the field is odd, and any rematch the round could not avoid."""

    tables: tuple[tuple[Entry, Entry], ...]
    bye: Entry | None = None
    rematches: tuple[tuple[Entry, Entry], ...] = ()


class NoPairing(ValueError):
    """No pairing of the round avoids a rematch while keeping the byes fair.

    `reason` is a key for the pages to word in the reader's language: "rematch" (an even
    field) or "rematch_or_second_bye" (an odd one)."""

    MESSAGES = {
        "rematch": "every pairing of this round has a rematch",
        "rematch_or_second_bye": "every pairing of this round has a rematch or a second bye",
    }

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(self.MESSAGES[reason])


def swiss_round(
    ranking: Sequence[Entry], results: Iterable[Result], *, allow_rematches: bool = False
) -> Pairing:
    """The next Swiss round for the entries in `ranking` (the standings' order, best first),
    given the event's results so far (standings.Game and standings.Bye). Results may name
    entries no longer in the ranking (withdrawn): they are not paired, and their games count
    in the others' meetings and scores as played."""
    ranked = list(ranking)
    if len(set(ranked)) != len(ranked):
        raise ValueError("an entry is listed twice")
    if len(ranked) < 2:
        raise ValueError("a round needs at least two entries")
    results = list(results)
    # an entry that withdrew is not in the ranking, but whom it met and how it did still count
    by_entry = records({*ranked, *entries_of(results)}, results)
    met = {
        frozenset((game.first, game.second))
        for record in by_entry.values()
        for game in record.games
    }
    scores = {entry: match_points(entry, by_entry) for entry in ranked}
    fewest_byes = min(by_entry[entry].byes for entry in ranked)
    may_sit_out = [entry for entry in ranked if by_entry[entry].byes == fewest_byes]
    graph = _graph(ranked, scores, met, may_sit_out, allow_rematches)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) < len(graph):
        raise NoPairing("rematch" if len(ranked) % 2 == 0 else "rematch_or_second_bye")
    place = {entry: number for number, entry in enumerate(ranked)}
    bye = None
    tables = []
    for one, other in matching:
        if one is _BYE or other is _BYE:
            bye = other if one is _BYE else one
        else:
            tables.append(tuple(sorted((one, other), key=place.__getitem__)))
    tables.sort(key=lambda table: place[table[0]])
    rematches = tuple(table for table in tables if frozenset(table) in met)
    return Pairing(tuple(tables), bye, rematches)


def _graph(
    ranked: Sequence[Entry],
    scores: dict[Entry, Fraction],
    met: set[frozenset[Entry]],
    may_sit_out: Sequence[Entry],
    allow_rematches: bool,
) -> nx.Graph:
    """The pairs allowed this round, weighted so that a heavier matching is a better round.

    Each tier of the weights outweighs everything the tiers below it can add up to over a
    whole round, so the matching settles the tiers in order (the module's docstring lists
    them). Whole numbers keep networkx's matching exact.
    """
    count = len(ranked)
    groups = {score: number for number, score in enumerate(sorted(set(scores.values()))[::-1])}
    # one pair's cost of standings distance is under count**2, a round's under count**3
    across_group = count**3
    # one pair's cost of score groups crossed is under count * count**3, a round's under
    # count**5; the bye's place costs a step per place above the last
    bye_step = count**5
    # the bye's cost is under count * count**5, so a rematch outweighs any bye and any pairs
    rematch = count**7
    # every matching the maximum cardinality allows has the same number of edges, so a base
    # on each edge changes no choice; it keeps every weight positive
    base = count**8
    graph = nx.Graph()
    graph.add_nodes_from(ranked)
    for i, one in enumerate(ranked):
        for j in range(i + 1, count):
            other = ranked[j]
            rematched = frozenset((one, other)) in met
            if rematched and not allow_rematches:
                continue
            cost = (j - i) ** 2 + across_group * abs(groups[scores[one]] - groups[scores[other]])
            graph.add_edge(one, other, weight=base - cost - (rematch if rematched else 0))
    if count % 2:
        graph.add_node(_BYE)
        place = {entry: number for number, entry in enumerate(ranked)}
        for entry in may_sit_out:
            graph.add_edge(entry, _BYE, weight=base - bye_step * (count - 1 - place[entry]))
    return graph


def round_robin(entries: Iterable[Entry]) -> tuple[Pairing, ...]:
    """Every entry against every other once, by the circle method.

    The entries are taken in id order; the first stays put and the others turn round it one
    place a round. An odd field adds an empty seat: whoever faces it has the bye, so each entry
    has exactly one bye. n entries play n - 1 rounds, or n rounds when n is odd.
    """
    listed: list[Entry | None] = list(sorted_entries(entries))
    if len(listed) < 2:
        raise ValueError("a round robin needs at least two entries")
    if len(listed) % 2:
        listed.append(None)
    count = len(listed)
    fixed, turning = listed[0], listed[1:]
    rounds = []
    for number in range(count - 1):
        circle = [fixed, *turning[number:], *turning[:number]]
        facing = [(circle[k], circle[count - 1 - k]) for k in range(count // 2)]
        bye = next((a if b is None else b for a, b in facing if None in (a, b)), None)
        tables = tuple((a, b) for a, b in facing if a is not None and b is not None)
        rounds.append(Pairing(tables, bye))
    return tuple(rounds)


def results_of(pairing: Pairing, points: Sequence[tuple[int, int]]) -> list[Result]:
    """A round's results from its pairing and each table's points, in table order."""
    if len(points) != len(pairing.tables):
        raise ValueError("one pair of points per table")
    played: list[Result] = [
        Game(one, other, mine, theirs)
        for (one, other), (mine, theirs) in zip(pairing.tables, points, strict=True)
    ]
    if pairing.bye is not None:
        played.append(Bye(pairing.bye))
    return played
