"""The kept standings equal the standings worked out from every match when some matches are a
league night's that counts only signed results: whatever the order of plays, finishes,
corrections, signatures, disputes and their settling, a match of that night counts once it is
signed and not before (tests/leagues/test_kept_standings.py: the same without signing)."""

from __future__ import annotations

import datetime

from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.leagues.kept import standings_read, standings_rebuild
from scorekeeper.leagues.models import (
    HeadToHead,
    Rating,
    RatingChange,
    Season,
    SeasonMatch,
    StandingRow,
)
from scorekeeper.nights import signing
from scorekeeper.nights.models import Night, NightRound, NightTable
from scorekeeper.tables.models import Match
from scorekeeper.tables.recording import Author
from tests.leagues.test_kept_ratings import assert_kept_equals_scratch
from tests.leagues.test_kept_standings import STEP, from_scratch, kept, make, new_season, shown
from tests.web.table import FOUR

BY = Author("a phone", phone="0123456789abcdef")
MATCH = st.integers(0, 5)
SIGN_STEP = st.one_of(
    STEP,
    st.tuples(st.just("night"), st.booleans()),
    st.tuples(st.just("night"), st.booleans()),
    st.tuples(st.just("sign"), MATCH),
    st.tuples(st.just("sign"), MATCH),
    st.tuples(st.just("dispute"), MATCH),
    st.tuples(st.just("settle"), MATCH),
)


def night_of(season: Season, signed_only: bool) -> NightRound:
    night, _ = Night.objects.get_or_create(
        season=season, signed_only=signed_only, defaults={"played_on": datetime.date(2026, 12, 4)}
    )
    night_round, _ = NightRound.objects.get_or_create(night=night, number=1)
    return night_round


def signed_step(step: tuple, season: Season, players: list[str]) -> None:
    """A match at a night (``"night"``: counting only signed results or not), or a side's or
    the director's answer; else a step of the kept standings' own test."""
    kind, *args = step
    if kind not in ("night", "sign", "dispute", "settle"):
        make(step, season, players)
        return
    if kind == "night":
        make(("new", "partners"), season, players)
        night_round = night_of(season, args[0])
        match = Match.objects.filter(league_entry__season=season).latest("pk")
        NightTable.objects.create(
            night_round=night_round, number=night_round.tables.count() + 1, match=match
        )
        return
    at_nights = list(
        Match.objects.filter(league_entry__season=season, night_table__isnull=False).order_by("pk")
    )
    if not at_nights:
        return
    match = at_nights[args[0] % len(at_nights)]
    state = signing.sign_state(match)
    if kind == "sign" and state == signing.WAITING:
        signing.match_sign(match=match, side=1, version=match.version, via=signing.BY_LINK, by=BY)
    elif kind == "dispute" and state == signing.WAITING:
        signing.dispute_open(
            match=match,
            side=1,
            version=match.version,
            hand=1,
            reason="points",
            text="",
            via="link",
            by=BY,
        )
    elif kind == "settle" and state == signing.DISPUTED:
        dispute = match.disputes.get(closed_at=None)
        signing.dispute_close(dispute_id=dispute.pk, match=match, version=match.version, by=BY)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(SIGN_STEP, min_size=1, max_size=16))
def test_the_kept_standings_count_a_signed_only_nights_match_once_it_is_signed(
    db: None, steps: list[tuple]
) -> None:
    season = new_season()
    players = [f"{name}{season.pk}" for name in FOUR]
    for step in steps:
        with transaction.atomic():
            signed_step(step, season, players)
        season.refresh_from_db()
        assert shown(standings_read(season)) == shown(from_scratch(season)), step
    held = SeasonMatch.objects.filter(
        season=season,
        match__finished=True,
        match__night_table__night_round__night__signed_only=True,
        match__signature__isnull=True,
        forfeited_by=None,
    )
    assert all(entry.counted is None for entry in held)
    counted = SeasonMatch.objects.filter(season=season).exclude(counted=None).count()
    assert season.counted_matches == counted
    rows, beats = kept(StandingRow, season), kept(HeadToHead, season)
    standings_rebuild(season_id=season.pk)
    assert (kept(StandingRow, season), kept(HeadToHead, season)) == (rows, beats)
    # the ratings too: a match of such a night is rated once signed
    assert_kept_equals_scratch()
    assert not RatingChange.objects.filter(match__in=held.values("match")).exists()


def finished_at_a_signed_only_night() -> tuple[Season, list[str], Match]:
    """A season's match at a night that counts only signed results, finished, not signed."""
    season = new_season()
    players = [f"{name}{season.pk}" for name in FOUR]
    signed_step(("night", True), season, players)
    signed_step(("end", 0, 0), season, players)
    match = Match.objects.get(league_entry__season=season)
    assert match.finished
    return season, players, match


def test_a_signed_only_nights_match_counts_when_signed_not_when_it_finishes(db: None) -> None:
    season, players, _ = finished_at_a_signed_only_night()
    assert standings_read(season) == []

    signed_step(("sign", 0), season, players)

    assert sorted(row.won for row in standings_read(season)) == [0, 0, 1, 1]


def test_a_signed_only_nights_match_moves_the_ratings_when_signed_not_when_it_finishes(
    db: None,
) -> None:
    season, players, match = finished_at_a_signed_only_night()
    assert not RatingChange.objects.filter(match=match).exists()

    signed_step(("sign", 0), season, players)

    assert RatingChange.objects.filter(match=match).count() == 4
    assert Rating.objects.filter(player__name__in=players).count() == 4
