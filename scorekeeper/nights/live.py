"""What a night tells its live pages (scorekeeper/live): the night's board, desk and pairings
follow ``night:<id>``; a table's scoreboard shows its round's clock and is told ``clock``."""

from __future__ import annotations

from scorekeeper.live.announce import CLOCK, announce
from scorekeeper.nights.models import NightRound, NightTable
from scorekeeper.tables.models import Match


def night_topics(match: Match) -> list[str]:
    """The live page of the night ``match`` is played at: read from its table where it was
    joined (desk.ROUND_OF_MATCH), else asked."""
    cached = match._state.fields_cache
    if "night_table" in cached:
        table = cached["night_table"]
        night = table.night_round.night_id if table is not None else None
    else:
        night = (
            NightTable.objects.filter(match_id=match.pk)
            .values_list("night_round__night_id", flat=True)
            .first()
        )
    return [f"night:{night}"] if night is not None else []


def night_moved(night_id: int) -> None:
    """Something the night's pages show moved (a check-in, a draw, a round started, a player
    leaving, partners paired), in the change's transaction."""
    announce([f"night:{night_id}"])


def clock_moved(night_round: NightRound) -> None:
    """The round's clock started, paused, resumed, ended or was taken back: the night's pages,
    and the clock's line on the round's tables."""
    night_moved(night_round.night_id)
    matches = NightTable.objects.filter(night_round=night_round, match__isnull=False)
    announce(
        [f"match:{match}" for match in matches.values_list("match_id", flat=True)], event=CLOCK
    )
