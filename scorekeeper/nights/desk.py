"""The director's desk: every table of the round being played with its state, and the round
clock the director starts, pauses, resumes and ends from it, and the call of time taken back
while no table has finished by it (nights/clock.py does the arithmetic; this module reads and
writes the rows).

When a round's time is up under the night's "finish the hand" rule, each match of the round
is given its last hand (the engine's ``last_hand`` rule, rules/scoreboard.py) at its first
entry after the time: the entry's access helper calls ``time_called`` on the match it locked,
so the hand's end that follows is scored with it and ends the match.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from enum import StrEnum

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils.translation import get_language, gettext, ngettext

from scorekeeper.nights import clock
from scorekeeper.nights.live import clock_moved
from scorekeeper.nights.models import Dispute, Night, NightRound, NightTable
from scorekeeper.nights.results import TableNow
from scorekeeper.rules.games import score_match
from scorekeeper.rules.scoreboard import LAST_HAND, without_last_hand
from scorekeeper.tables.models import Match
from scorekeeper.tables.recording import lock_for_entry
from scorekeeper.tables.scoring import match_value

#: a table that has entered nothing for this long is marked on the desk
IDLE_MINUTES = 10


class TableState(StrEnum):
    PLAYING = "playing"
    #: playing, and nothing entered for IDLE_MINUTES or more
    IDLE = "idle"
    FINISHED = "finished"
    FORFEITED = "forfeited"


#: The result's signature, as nights/signing.py's ``sign_state`` says it: "waiting" for the
#: other side, "signed", "disputed", or None where a match is not signed (not finished yet).
#: The desk lists disputes first.
SignState = str | None
DISPUTED = "disputed"


def no_signatures(match: Match) -> SignState:
    """Nothing to say about a signature (a table's state worked out on its own)."""
    return None


@dataclass(frozen=True)
class DeskTable:
    """A table as the desk shows it."""

    shown: TableNow
    state: TableState
    #: the hand being played (none once the match is done)
    hand: int | None
    #: minutes since the table's last entry
    quiet_minutes: int
    sign: SignState
    #: the round's time is up and this hand is the table's last
    last_hand: bool
    #: the open dispute's id, for the director's link to settle it
    dispute: int | None = None

    @property
    def number(self) -> int:
        return self.shown.table.number

    @property
    def disputed(self) -> bool:
        return self.sign == DISPUTED


def table_state(
    shown: TableNow,
    *,
    last_entry_at: datetime | None,
    now: datetime,
    time_up: bool = False,
    idle_minutes: int = IDLE_MINUTES,
    sign: SignState = None,
) -> DeskTable:
    """A table's state on the desk: forfeited, finished, playing, or playing and quiet for
    ``idle_minutes``; ``sign`` is its result's signature (``SignState``), ``time_up`` whether
    the round's time is up with the "finish the hand" rule."""
    quiet = 0
    if last_entry_at is not None:
        quiet = max(0, int((now - last_entry_at).total_seconds() // 60))
    if shown.forfeited:
        state = TableState.FORFEITED
    elif shown.finished:
        state = TableState.FINISHED
    elif quiet >= idle_minutes:
        state = TableState.IDLE
    else:
        state = TableState.PLAYING
    playing = state in (TableState.PLAYING, TableState.IDLE)
    hand = shown.next_up.hand if playing and shown.next_up is not None else None
    return DeskTable(shown, state, hand, quiet, sign, time_up and playing)


def desk_tables(
    tables: list[TableNow],
    *,
    now: datetime,
    time_up: bool = False,
    sign_state: Callable[[Match], SignState] = no_signatures,
    disputes: dict[int, int] | None = None,
) -> list[DeskTable]:
    """The round's tables for the desk: disputes first, then the tables still playing (quiet
    ones among them), then those done, each by number; ``disputes`` maps a match's id to its
    open dispute's. On a phone the desk is a list: what needs the director stays on top."""
    shown = []
    for table in tables:
        match = table.table.match
        desk = table_state(
            table,
            last_entry_at=match.updated_at if match is not None else None,
            now=now,
            time_up=time_up,
            sign=sign_state(match) if match is not None else None,
        )
        if desk.disputed and disputes and match is not None and match.pk in disputes:
            desk = replace(desk, dispute=disputes[match.pk])
        shown.append(desk)
    still_playing = (TableState.PLAYING, TableState.IDLE)
    return sorted(
        shown, key=lambda desk: (not desk.disputed, desk.state not in still_playing, desk.number)
    )


# -- the round clock -----------------------------------------------------------------------------


def clock_of(night_round: NightRound, night: Night | None = None) -> clock.Clock:
    night = night or night_round.night
    return clock.Clock(
        night.round_minutes,
        night_round.clock_started_at,
        night_round.clock_paused_at,
        night_round.clock_paused_seconds,
        night_round.clock_ended_at,
    )


@dataclass(frozen=True)
class ClockShown:
    """The round clock as the boards and the desk show it."""

    number: int
    state: clock.State
    #: seconds left (0 once up); the boards count down from it
    seconds_left: int
    #: when the time runs out, while it runs (for the countdown)
    runs_out_at: datetime | None
    finish_the_hand: bool
    #: the time is up because the director called it (the call can be taken back)
    called: bool = False

    @property
    def left(self) -> str:
        return clock.minutes_and_seconds(timedelta(seconds=self.seconds_left))

    @property
    def up(self) -> bool:
        return self.state == clock.State.UP

    @property
    def last_hand(self) -> bool:
        """The boards say "last hand": the time is up and the hand being played finishes."""
        return self.up and self.finish_the_hand


def clock_shown(night_round: NightRound, night: Night, now: datetime) -> ClockShown | None:
    """The round's clock at ``now``, or None for an untimed night."""
    kept = clock_of(night_round, night)
    state = clock.state(kept, now)
    if state == clock.State.UNTIMED:
        return None
    left = clock.time_left(kept, now) or timedelta(0)
    return ClockShown(
        night_round.number,
        state,
        int(left.total_seconds()),
        clock.runs_out_at(kept) if state == clock.State.RUNNING else None,
        night.at_time == Night.AtTime.FINISH_HAND,
        called=state == clock.State.UP and clock.called(kept),
    )


class ClockError(ValueError):
    """The clock cannot do that now; the message says why."""


def _locked_round(night_round: NightRound) -> NightRound:
    # the round's row only: a Start or a Draw takes the night's row first (rounds.lock_night)
    rows = NightRound.objects.select_for_update(of=("self",)).select_related("night")
    return rows.get(pk=night_round.pk)


def _save_clock(night_round: NightRound, kept: clock.Clock) -> None:
    clock_moved(night_round)
    night_round.clock_started_at = kept.started_at
    night_round.clock_paused_at = kept.paused_at
    night_round.clock_paused_seconds = kept.paused_seconds
    night_round.clock_ended_at = kept.ended_at
    night_round.save(
        update_fields=[
            "clock_started_at",
            "clock_paused_at",
            "clock_paused_seconds",
            "clock_ended_at",
        ]
    )


def clock_start(*, night_round: NightRound, now: datetime) -> None:
    """Start the round's clock: the round must have started and its night be timed. Its row is
    locked: two directors' taps at once start it once."""
    with transaction.atomic():
        found = _locked_round(night_round)
        if not found.night.round_minutes:
            raise ClockError(gettext("This night's rounds are not timed."))
        if found.started_at is None:
            raise ClockError(gettext("Start round %(number)s first.") % {"number": found.number})
        if found.clock_started_at is not None:
            raise ClockError(
                gettext("The clock of round %(number)s has started.") % {"number": found.number}
            )
        kept = clock.Clock(found.night.round_minutes, started_at=now)
        _save_clock(found, kept)


def clock_pause(*, night_round: NightRound, now: datetime) -> None:
    with transaction.atomic():
        found = _locked_round(night_round)
        kept = clock_of(found)
        if clock.state(kept, now) != clock.State.RUNNING:
            raise ClockError(gettext("The clock is not running."))
        _save_clock(found, clock.paused(kept, now))


def clock_resume(*, night_round: NightRound, now: datetime) -> None:
    with transaction.atomic():
        found = _locked_round(night_round)
        kept = clock_of(found)
        if clock.state(kept, now) != clock.State.PAUSED:
            raise ClockError(gettext("The clock is not paused."))
        _save_clock(found, clock.resumed(kept, now))


def clock_end(*, night_round: NightRound, now: datetime) -> None:
    """Call time now: the round's time is up, as if the clock had run out."""
    with transaction.atomic():
        found = _locked_round(night_round)
        kept = clock_of(found)
        if clock.state(kept, now) not in (clock.State.RUNNING, clock.State.PAUSED):
            raise ClockError(gettext("The clock is not running."))
        _save_clock(
            found,
            clock.Clock(kept.minutes, kept.started_at, kept.paused_at, kept.paused_seconds, now),
        )


def clock_take_back(*, night_round: NightRound, now: datetime) -> None:
    """Take back the director's call of time: the clock runs on with the time it had when the
    call was made, and the tables given their last hand by it play on as before. Refused once
    a table has finished by it (the side ahead at the end of its last hand won): that result
    stands, and so does the call."""
    with transaction.atomic():
        found = _locked_round(night_round)
        kept = clock_of(found)
        if clock.state(kept, now) != clock.State.UP or not clock.called(kept):
            raise ClockError(
                gettext("The round's time was not called: there is nothing to take back.")
            )
        # the round's matches, locked as an entry locks its match: none is finished by the
        # call while it is taken back
        matches = list(
            lock_for_entry(Match.objects.filter(night_table__night_round=found).order_by("pk"))
        )
        given = [match for match in matches if LAST_HAND in match.rules]
        ended = [match for match in given if _ended_by_time(match)]
        if ended:
            numbers = ", ".join(
                str(number)
                for number in NightTable.objects.filter(match__in=ended)
                .order_by("number")
                .values_list("number", flat=True)
            )
            raise ClockError(
                ngettext(
                    "Table %(tables)s has finished by the time called: the call stands.",
                    "Tables %(tables)s have finished by the time called: the call stands.",
                    len(ended),
                )
                % {"tables": numbers}
            )
        for match in given:
            rules = {name: value for name, value in match.rules.items() if name != LAST_HAND}
            # the match's row moves too: its board, kept in the cache, is drawn again
            Match.objects.filter(pk=match.pk).update(rules=rules, updated_at=now)
        _save_clock(found, clock.call_taken_back(kept, now))


def _ended_by_time(match: Match) -> bool:
    """Whether the match finished because its last hand ended, not by reaching its target."""
    if not match.finished:
        return False
    return not score_match(without_last_hand(match_value(match))).finished


#: what an entry reads with the match it locks, for ``time_called``: its table's round and night
ROUND_OF_MATCH = "night_table__night_round__night"


def time_called(match: Match, *, now: datetime) -> bool:
    """Give ``match`` its last hand when its round's time is up under the "finish the hand"
    rule: the hand that was being played when the time ran out (clock.last_hand). Called on the
    locked row, read with its hands and, joined to it, its table's round and night
    (``ROUND_OF_MATCH``), before an entry is scored (access/matches.py): no question of
    its own for a match whose time runs on, or that is not at a night. Says whether it did."""
    if LAST_HAND in match.rules or match.finished:
        return False
    try:
        night_round = match.night_table.night_round
    except NightTable.DoesNotExist:
        return False
    night = night_round.night
    if (
        night_round.clock_started_at is None
        or night.round_minutes is None
        or night.at_time != Night.AtTime.FINISH_HAND
    ):
        return False
    up = clock.runs_out_at(clock_of(night_round, night))
    if up is None or up > now:
        return False
    match.rules = {**match.rules, LAST_HAND: clock.last_hand(_ended(match), up)}
    Match.objects.filter(pk=match.pk).update(rules=match.rules)
    return True


def _ended(match: Match) -> list[datetime | None]:
    return [hand.ended_at for hand in match.hands.all()]


# -- what the desk's poll is answered by ---------------------------------------------------------


def desk_version(night_id: int, now: datetime, *, idle_minutes: int = IDLE_MINUTES) -> str:
    """Moves with anything the desk shows: a round drawn or started, a play at any table, a
    forfeit, the clock started, paused, resumed, ended or run out, a table turning quiet and
    each minute it stays quiet, a result signed or disputed. Two small queries: the desk asks
    every few seconds."""
    night = Night.objects.filter(pk=night_id).values_list("round_minutes", "at_time").first() or ()
    open_dispute = Dispute.objects.filter(match=OuterRef("match"), closed_at=None)
    rows = list(
        NightTable.objects.filter(night_round__night_id=night_id)
        .annotate(disputed=Exists(open_dispute))
        .order_by("pk")
        .values_list(
            "pk",
            "night_round__number",
            "night_round__started_at",
            "night_round__drawn_at",
            "night_round__clock_started_at",
            "night_round__clock_paused_at",
            "night_round__clock_paused_seconds",
            "night_round__clock_ended_at",
            "match__version",
            "match__updated_at",
            "match__league_entry__forfeited_by",
            # a result signed or disputed (nights/signing.py)
            "match__signature__id",
            "disputed",
        )
    )
    minutes = night[0] if night else None
    moved = []
    for row in rows:
        *table, started, paused, paused_seconds, ended, version, updated, forfeited = row[:-2]
        signed = row[-2:]
        kept = clock.Clock(minutes, started, paused, paused_seconds, ended)
        # a quiet table's minutes: the desk says how long it has been quiet
        quiet = int((now - updated).total_seconds() // 60) if updated is not None else 0
        shown_quiet = quiet if quiet >= idle_minutes else 0
        moved.append((table, kept, clock.state(kept, now), version, forfeited, shown_quiet, signed))
    return hashlib.sha256(repr((night, moved)).encode()).hexdigest()[:16]


def round_clock_of(match_id: int, now: datetime) -> dict:
    """The clock of the round a match is played in, for its table's board (what _clock.html
    is given): empty for a match of no timed round. One query."""
    found = (
        NightRound.objects.filter(tables__match_id=match_id, night__round_minutes__isnull=False)
        .select_related("night")
        .first()
    )
    if found is None:
        return {}
    return {
        "round_clock": clock_shown(found, found.night, now),
        "round_clock_round": found,
        "round_clock_version": clock_version(found, now),
    }


def clock_version(night_round: NightRound, now: datetime) -> str:
    """Moves when the clock is started, paused, resumed, ended or runs out (and with the
    language the line is said in)."""
    kept = clock_of(night_round)
    said = (kept, night_round.night.at_time, clock.state(kept, now), get_language())
    return hashlib.sha256(repr(said).encode()).hexdigest()[:16]
