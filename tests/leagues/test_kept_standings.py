"""The standings kept as matches change equal the standings worked out from every match, after
any sequence of plays, finishes, corrections (those that end a match where a correction
makes it won included), reverts, forfeits, renames and merges of two records of one player
(records/merge.py); a play in a match
being played changes nothing about them."""

from __future__ import annotations

import datetime
import itertools
from dataclasses import replace

from django.db import transaction
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from scorekeeper import rules
from scorekeeper.leagues.kept import standings_read, standings_rebuild
from scorekeeper.leagues.models import HeadToHead, League, Season, SeasonMatch, StandingRow
from scorekeeper.leagues.moves import season_match_forfeit, season_match_remove
from scorekeeper.leagues.standings import Standing, standings
from scorekeeper.records.merge import merge_refusal, record_merge
from scorekeeper.tables import entries
from scorekeeper.tables.models import Change, Match, Player
from scorekeeper.tables.players import player_renamed
from scorekeeper.tables.recording import Author
from scorekeeper.tables.scoring import create_match, match_value, with_everything
from tests.clubs import the_club
from tests.leagues.from_scratch import season_results
from tests.web.table import FOUR

BY = Author("the organizer")
#: a domino with 12 pips in each other hand scores 10 or more: one hand finishes a match to 10
TARGET = 10
MATCH = st.integers(0, 5)
SEAT = st.integers(0, 3)
STEP = st.one_of(
    st.tuples(st.just("new"), st.sampled_from(["two", "three", "partners"])),
    st.tuples(st.just("play"), MATCH, SEAT, st.just(5)),
    st.tuples(st.just("end"), MATCH, SEAT),
    st.tuples(st.just("end"), MATCH, SEAT),
    st.tuples(st.just("correct"), MATCH, st.integers(0, 5), SEAT),
    # a correction that makes a side win earlier, the match ended there (a dispute settled)
    st.tuples(st.just("settle"), MATCH, st.integers(0, 5), SEAT),
    st.tuples(st.just("end at win"), MATCH),
    st.tuples(st.just("delete"), MATCH, st.integers(0, 5)),
    st.tuples(st.just("undo"), MATCH),
    st.tuples(st.just("revert"), MATCH, st.integers(0, 20)),
    st.tuples(st.just("forfeit"), MATCH, st.integers(0, 2)),
    st.tuples(st.just("forfeit"), MATCH, st.integers(0, 2)),
    st.tuples(st.just("rename"), SEAT),
    st.tuples(st.just("leave"), MATCH),
    # the player in a seat plays on under a second record, later merged into the first
    st.tuples(st.just("alias"), SEAT),
    st.tuples(st.just("alias"), SEAT),
    st.tuples(st.just("alias"), SEAT),
    st.tuples(st.just("merge"), SEAT),
    st.tuples(st.just("merge"), SEAT),
)
_seasons = itertools.count(1)
#: a season's seats played under a second record: the seat and the first record's name
_aliases: dict[int, dict[int, str]] = {}


def shown(rows: list[Standing]) -> list[tuple]:
    return [
        (
            r.rank,
            r.player,
            r.played,
            r.won,
            r.lost,
            r.forfeits,
            r.points_for,
            r.points_against,
            r.total_sum,
            dict(r.placings),
            r.decided_by,
        )
        for r in rows
    ]


def from_scratch(season: Season) -> list[Standing]:
    return standings(season_results(season.pk), lowest_wins=season.league.game == "chickenfoot")


def new_season() -> Season:
    number = next(_seasons)
    league = League.objects.create(club=the_club(), name=f"Kept {number}", game="straight")
    return Season.objects.create(league=league, name="Autumn", starts_on=datetime.date(2026, 9, 1))


def start(season: Season, how: str, players: list[str]) -> None:
    seated = {"two": players[:2], "three": players[:3], "partners": players}[how]
    partnerships = ((seated[0], seated[2]), (seated[1], seated[3])) if how == "partners" else ()
    value = rules.Match(
        "straight",
        tuple(seated),
        partnerships=partnerships,
        rules={"target": TARGET},
        hands=(rules.Hand(leader=seated[0]),),
    )
    create_match(
        value, also_write=lambda match: SeasonMatch.objects.create(season=season, match=match)
    )


def make(step: tuple, season: Season, players: list[str]) -> Match | None:
    """Do ``step`` to the season as the app's pages would, or nothing when it is about nothing
    (a refused entry saves nothing). Returns the match it was about, if any."""
    kind, *args = step
    if kind == "new":
        start(season, args[0], players)
        return
    if kind == "rename":
        player = Player.objects.filter(name=players[args[0]]).first()
        if player is None:
            return
        player.name = f"{player.name}x"
        player.save()
        player_renamed(player)
        players[args[0]] = player.name
        return
    if kind in ("alias", "merge"):
        record_again(kind, season, players, args[0])
        return
    matches = list(Match.objects.filter(league_entry__season=season).order_by("pk"))
    if not matches:
        return
    match = matches[args[0] % len(matches)]
    entry = match.league_entry
    if kind == "forfeit":
        # the forfeit page takes a match being played only
        if not match.finished and entry.forfeited_by is None:
            season_match_forfeit(entry=entry, side=args[1] % len(match.seating().sides))
        return
    if kind == "leave":
        season_match_remove(entry=entry)
        return
    value = match_value(with_everything(Match.objects.filter(pk=match.pk)).get())
    played_on(match, kind, value, args)
    return match


def record_again(kind: str, season: Season, players: list[str], seat: int) -> None:
    """``alias``: the seat's player sits down at a new match under a second record (a name
    the organizer did not recognise), and plays on under it; ``merge``: every such record
    of the season is merged into the first, as the merge page does."""
    aliases = _aliases.setdefault(season.pk, {})
    if kind == "alias":
        if seat not in aliases:
            other = players[(seat + 1) % len(players)]
            if not Player.objects.filter(name=players[seat]).exists():
                start(season, "two", [players[seat], other])
            aliases[seat] = players[seat]
            players[seat] = f"{players[seat]}z"
            start(season, "two", [players[seat], other])
        return
    for seat, first in sorted(aliases.items()):
        alias, players[seat] = players[seat], first
        locked = {
            p.name: p for p in Player.objects.select_for_update().filter(name__in=[first, alias])
        }
        kept, other = locked[first], locked[alias]
        assert not merge_refusal(kept=kept, other=other)
        record_merge(kept=kept, other=other)
    aliases.clear()


def played_on(match: Match, kind: str, value: rules.Match, args: list) -> None:
    if kind == "play":
        name = value.players[args[1] % len(value.players)]
        entries.play_record(match=match, player=name, points=args[2], by=BY, override=True)
    elif kind == "end":
        winner = value.players[args[1] % len(value.players)]
        pips = {name: 12 for name in value.players if name != winner}
        end = rules.HandEnd("domino", player=winner, pips=pips)
        entries.hand_end(match=match, end=end, by=BY, override=True)
    elif kind == "undo":
        entries.undo_last(match=match, by=BY)
    elif kind == "end at win":
        entries.match_end_at_win(match=match, by=BY)
    elif kind == "revert":
        if match.version > 1:
            number = 2 + args[1] % (match.version - 1)
            change = Change.objects.get(match=match, number=number)
            entries.change_revert(match=match, change=change, by=BY)
    elif value.hands:
        number = 1 + args[1] % len(value.hands)
        if kind == "delete":
            entries.hand_delete(match=match, number=number, by=BY)
        else:
            hand = value.hands[number - 1]
            scorer = value.players[args[2] % len(value.players)]
            more = (*hand.plays, rules.Play(scorer, points=10))
            entries.hand_correct(
                match=match,
                number=number,
                hand=replace(hand, plays=more),
                by=BY,
                override=kind == "correct",
                end_at_win=kind == "settle",
            )


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(STEP, min_size=1, max_size=16))
# B wins hand 1 by a domino, a play is kept after it; hand 1 corrected, A reaches the target
# within it: the match ends there, B's domino and hand 2 leave the result
@example([("new", "two"), ("play", 0, 0, 5), ("end", 0, 1), ("play", 0, 0, 5), ("settle", 0, 0, 0)])
# a play kept after the win, then the match ended where it was won
@example([("new", "partners"), ("end", 0, 0), ("play", 0, 1, 5), ("end at win", 0)])
# Ana plays a second record from the second match on, merged into hers after its finish
@example([("new", "two"), ("end", 0, 0), ("alias", 0), ("end", 1, 1), ("merge", 0), ("end", 0, 1)])
def test_the_kept_standings_equal_the_standings_worked_out_from_every_match(
    db: None, steps: list[tuple]
) -> None:
    season = new_season()
    players = [f"{name}{season.pk}" for name in FOUR]
    for step in steps:
        kept_before = list(StandingRow.objects.filter(season=season).values())
        version_before = season.version
        playing_before = set(
            Match.objects.filter(league_entry__season=season, finished=False).values_list(
                "pk", flat=True
            )
        )
        with transaction.atomic():
            match = make(step, season, players)
        season.refresh_from_db()
        assert shown(standings_read(season)) == shown(from_scratch(season)), step
        playing = set(
            Match.objects.filter(league_entry__season=season, finished=False).values_list(
                "pk", flat=True
            )
        )
        if step[0] == "play" and match and match.pk in playing_before and match.pk in playing:
            # a tap in a match being played moves nothing about the standings
            assert list(StandingRow.objects.filter(season=season).values()) == kept_before
            assert season.version == version_before
    # the second records still played under are merged at the end
    with transaction.atomic():
        record_again("merge", season, players, 0)
    season.refresh_from_db()
    assert shown(standings_read(season)) == shown(from_scratch(season)), "merge"
    counted = SeasonMatch.objects.filter(season=season).exclude(counted=None).count()
    assert season.counted_matches == counted


def kept(model: type, season: Season) -> list[tuple]:
    """The kept rows of the season, without their ids."""
    return sorted(row[2:] for row in model.objects.filter(season=season).values_list())


def test_a_season_worked_out_again_from_scratch_keeps_the_same_rows(db: None) -> None:
    season = new_season()
    players = [f"{name}{season.pk}" for name in FOUR]
    for step in [("new", "two"), ("end", 0, 0), ("new", "partners"), ("end", 1, 1)]:
        make(step, season, players)
    rows, beats = kept(StandingRow, season), kept(HeadToHead, season)
    assert rows and beats

    standings_rebuild(season_id=season.pk)

    assert kept(StandingRow, season) == rows
    assert kept(HeadToHead, season) == beats
    season.refresh_from_db()
    assert season.counted_matches == 2


def test_a_forfeit_counts_in_the_kept_standings_as_a_loss_and_a_win(db: None) -> None:
    season = new_season()
    players = [f"{name}{season.pk}" for name in FOUR]
    make(("new", "two"), season, players)
    make(("play", 0, 0, 5), season, players)

    make(("forfeit", 0, 1), season, players)

    season.refresh_from_db()
    rows = {row.player: row for row in standings_read(season)}
    assert (rows[players[0]].won, rows[players[1]].lost, rows[players[1]].forfeits) == (1, 1, 1)
    assert season.counted_matches == 1
