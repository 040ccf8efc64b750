"""How fair a night's draw is, for the night so far: partners and opponents met more than once,
how often each player sat out, and how close the ratings predict each table of the round.
Pure Python: no Django import. Every draw shows it (blind, rotating and balanced alike)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scorekeeper.leagues.ratings import NEWCOMER, Skill, closeness
from scorekeeper.nights.draw import Player, Round, meetings


@dataclass(frozen=True)
class Fairness:
    #: pairs who partnered more than once tonight, with how often
    partner_repeats: list[tuple[tuple[Player, Player], int]]
    #: pairs who played against each other more than once tonight, with how often
    opponent_repeats: list[tuple[tuple[Player, Player], int]]
    #: everyone who sat a round out tonight, with how many
    sat_out: list[tuple[Player, int]]
    #: each table of the round, by number, with its predicted closeness (1: an even match)
    closeness: list[tuple[int, float]]

    @property
    def closest(self) -> float:
        return max((close for _, close in self.closeness), default=1.0)

    @property
    def least_close(self) -> float:
        return min((close for _, close in self.closeness), default=1.0)


def fairness(
    rounds: Sequence[Round],
    skills: Mapping[Player, Skill],
    sat_out: Mapping[Player, int] | None = None,
) -> Fairness:
    """The fairness of the last of ``rounds`` (the night so far, that round included); a
    player the ratings do not know counts as a newcomer. ``sat_out``: how many rounds each
    player sat out so far, that round included, as the draw counts them (nights/round_draw.py: a
    round missed by coming late is one, docs/nights.md, *Byes*); without it, the rounds' byes."""
    partners, opponents = meetings(rounds)
    if sat_out is None:
        sat = Counter(player for night_round in rounds for player in night_round.sitting_out)
    else:
        sat = Counter({player: times for player, times in sat_out.items() if times})

    def pairs(met: Counter) -> list[tuple[tuple[Player, Player], int]]:
        repeated = [(tuple(sorted(pair, key=str)), times) for pair, times in met.items()]
        return sorted(
            ((pair, times) for pair, times in repeated if times > 1),
            key=lambda item: (-item[1], [str(p) for p in item[0]]),
        )

    last = rounds[-1] if rounds else Round(())
    return Fairness(
        partner_repeats=pairs(partners),
        opponent_repeats=pairs(opponents),
        sat_out=sorted(sat.items(), key=lambda item: (-item[1], str(item[0]))),
        closeness=[
            (
                table.number,
                closeness([[skills.get(p, NEWCOMER) for p in side] for side in table.sides]),
            )
            for table in last.tables
        ],
    )
