"""Ratings kept, not replayed: a match that finishes writes its rating changes in the same
transaction, a change to a finished match works them out again from that match on, and what is
kept always equals the ratings worked out from scratch, two records of one player merged
(records/merge.py) included."""

from __future__ import annotations

import datetime

import pytest
from django.db import transaction
from django.db.models import Case, When
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import rules
from scorekeeper.leagues import bundle
from scorekeeper.leagues.kept_ratings import games_from, ratings_rework, ratings_rework_all
from scorekeeper.leagues.models import (
    League,
    Rating,
    RatingChange,
    Season,
    SeasonMatch,
    StandingRow,
)
from scorekeeper.leagues.moves import match_delete, season_match_forfeit
from scorekeeper.leagues.ratings import Skill, latest, partnership_chance, replay
from scorekeeper.records.merge import merge_refusal, record_merge
from scorekeeper.tables.entries import hand_correct, play_record, undo_last
from scorekeeper.tables.models import Match, Player
from scorekeeper.tables.recording import Author
from scorekeeper.tables.scoring import create_match, player_named
from tests.clubs import the_club
from tests.leagues.bundles import renamed
from tests.seated import by_seats, seat_key
from tests.web.pages import text

ROSTER = ("Ana", "Bo", "Cy", "Di", "Eve")
BY = Author("Rosa")


def beats(winner: str, loser: str, *, partners: tuple[str, str] | None = None) -> rules.Match:
    """One hand to 50: the winner scores 30 and 20 (with partners: winner & partner against
    loser & the other)."""
    return rules.Match(
        "straight",
        (winner, loser),
        rules={"target": 50},
        hands=(won_hand(winner),),
    )


def won_hand(winner: str) -> rules.Hand:
    return rules.Hand(plays=(rules.Play(winner, points=30), rules.Play(winner, points=20)))


@pytest.fixture
def season(db: None) -> Season:
    league = League.objects.create(club=the_club(), name="Thursday", game="straight")
    return Season.objects.create(league=league, name="Autumn", starts_on=datetime.date(2026, 9, 1))


def in_season(season: Season, value: rules.Match) -> Match:
    return create_match(
        value, also_write=lambda match: SeasonMatch.objects.create(season=season, match=match)
    )


def kept() -> dict[tuple[int, int], tuple]:
    return {
        (row.match_id, row.player_id): (
            row.number,
            row.side,
            row.place,
            row.mu_before,
            row.sigma_before,
            row.mu_after,
            row.sigma_after,
            row.expected,
            row.share,
        )
        for row in RatingChange.objects.all()
    }


def from_scratch() -> dict[tuple[int, int], tuple]:
    changes = replay(value for value, _, _ in games_from("straight", None))
    return {
        (c.match_id, c.player): (
            c.number,
            c.side,
            c.place,
            c.before.mu,
            c.before.sigma,
            c.after.mu,
            c.after.sigma,
            c.expected,
            c.share,
        )
        for c in changes
    }


def assert_kept_equals_scratch() -> None:
    mine, theirs = kept(), from_scratch()
    assert mine.keys() == theirs.keys()
    for key, values in theirs.items():
        assert mine[key] == pytest.approx(values), key
    now = {
        (row.player_id): (row.mu, row.sigma, row.played, row.shown)
        for row in Rating.objects.filter(game="straight")
    }
    scratch = replay(value for value, _, _ in games_from("straight", None))
    expected = {
        player: (c.after.mu, c.after.sigma, c.number, c.after.shown)
        for player, c in latest(scratch).items()
    }
    assert now.keys() == expected.keys()
    for player, values in expected.items():
        assert now[player] == pytest.approx(values)


def test_a_match_that_finishes_writes_its_rating_changes(season: Season) -> None:
    match = in_season(season, beats("Ana", "Bo"))

    rows = {row.player.name: row for row in RatingChange.objects.select_related("player")}
    assert set(rows) == {"Ana", "Bo"}
    assert rows["Ana"].match_id == match.pk
    assert rows["Ana"].mu_after > rows["Ana"].mu_before
    assert rows["Ana"].expected == pytest.approx(0.5)
    assert {r.player.name: r.played for r in Rating.objects.select_related("player")} == {
        "Ana": 1,
        "Bo": 1,
    }


def test_a_play_in_a_match_being_played_writes_no_rating(season: Season) -> None:
    match = in_season(season, rules.Match("straight", ("Ana", "Bo"), rules={"target": 150}))
    before = list(RatingChange.objects.values_list("pk", flat=True))

    play_record(match=match, player=seat_key(match, "Ana"), points=10, by=BY)

    assert list(RatingChange.objects.values_list("pk", flat=True)) == before == []


def test_a_correction_that_changes_the_winner_works_out_that_match_and_the_later_ones(
    season: Season,
) -> None:
    earlier = in_season(season, beats("Di", "Eve"))
    first = in_season(season, beats("Ana", "Bo"))
    later = in_season(season, beats("Cy", "Ana"))
    earlier_rows = set(RatingChange.objects.filter(match=earlier).values_list("pk", flat=True))
    ana_later = RatingChange.objects.get(match=later, player__name="Ana")

    hand_correct(match=first, number=1, hand=by_seats(first, won_hand("Bo")), by=BY)

    assert RatingChange.objects.get(match=first, player__name="Bo").place == 1
    # Ana lost the corrected match: she came to the later one rated lower than before
    assert RatingChange.objects.get(match=later, player__name="Ana").mu_before < (
        ana_later.mu_before
    )
    # the match before the corrected one is kept as it was
    assert set(RatingChange.objects.filter(match=earlier).values_list("pk", flat=True)) == (
        earlier_rows
    )
    assert_kept_equals_scratch()


def test_a_correction_that_leaves_the_result_alone_rewrites_nothing(season: Season) -> None:
    first = in_season(season, beats("Ana", "Bo"))
    in_season(season, beats("Cy", "Ana"))
    rows = set(RatingChange.objects.values_list("pk", flat=True))

    same = rules.Hand(plays=(rules.Play("Ana", points=25), rules.Play("Ana", points=25)))
    hand_correct(match=first, number=1, hand=by_seats(first, same), by=BY)

    assert set(RatingChange.objects.values_list("pk", flat=True)) == rows


def test_a_forfeited_match_moves_no_rating(season: Season) -> None:
    match = in_season(season, rules.Match("straight", ("Ana", "Bo"), rules={"target": 50}))
    season_match_forfeit(entry=match.league_entry, side=1)

    play_record(match=match, player=seat_key(match, "Ana"), points=50, by=BY)

    assert not RatingChange.objects.exists()
    assert not Rating.objects.exists()


def test_a_match_a_phone_without_an_account_played_moves_no_rating(db: None) -> None:
    create_match(beats("Ana", "Bo"))

    assert not RatingChange.objects.exists()


def test_reworking_a_game_from_the_first_match_keeps_the_same_rows(season: Season) -> None:
    for winner, loser in (("Ana", "Bo"), ("Bo", "Cy"), ("Cy", "Ana")):
        in_season(season, beats(winner, loser))
    before = kept()

    ratings_rework(game="straight")

    after = kept()
    assert after.keys() == before.keys()
    assert all(after[key] == pytest.approx(values) for key, values in before.items())


# -- any sequence of finishes and corrections ---------------------------------------------------

steps = st.lists(
    st.one_of(
        st.tuples(st.just("finish"), st.sampled_from(ROSTER), st.sampled_from(ROSTER)),
        st.tuples(st.just("correct"), st.integers(0, 20)),
        st.tuples(st.just("undo"), st.integers(0, 20)),
        st.tuples(st.just("refinish"), st.integers(0, 20)),
        st.tuples(st.just("forfeit"), st.integers(0, 20)),
        st.tuples(st.just("delete"), st.integers(0, 20)),
        # the winner plays under a second record ("Ana 2"), merged into the first later
        st.tuples(st.just("as second record"), st.sampled_from(ROSTER), st.sampled_from(ROSTER)),
        st.tuples(st.just("merge")),
    ),
    min_size=1,
    max_size=10,
)


def apply(season: Season, step: tuple) -> None:
    kind, *args = step
    if kind == "finish":
        winner, loser = args
        if winner != loser:
            in_season(season, beats(winner, loser))
        return
    if kind == "as second record":
        winner, loser = args
        if winner != loser:
            in_season(season, beats(f"{winner} 2", loser))
        return
    if kind == "merge":
        merge_second_records()
        return
    matches = list(Match.objects.order_by("pk"))
    if not matches:
        return
    match = matches[args[0] % len(matches)]
    if kind == "correct" and match.finished:
        loser = match.seats.get(position=1).player.name
        hand_correct(match=match, number=1, hand=by_seats(match, won_hand(loser)), by=BY)
    elif kind == "undo" and match.finished:
        undo_last(match=match, by=BY)
    elif kind == "refinish" and not match.finished and match.hand_count:
        # the other player takes the last hand: the match finishes again, later than the rest
        # the player in the second seat
        hand_correct(
            match=match,
            number=1,
            hand=rules.Hand(plays=(rules.Play("1", points=50),)),
            by=BY,
        )
    elif kind == "forfeit" and not match.finished:
        entry = match.league_entry
        season_match_forfeit(entry=entry, side=0 if entry.forfeited_by is None else None)
    elif kind == "delete":
        match_delete(match)


def merge_second_records() -> None:
    """Every second record merged into the first, as the merge page does (the first made
    when missing: it is kept); refused, and nothing changes, for two that share a match."""
    for other in Player.objects.filter(name__endswith=" 2").order_by("pk"):
        kept = player_named(other.name.removesuffix(" 2"))
        (kept, other) = (
            Player.objects.select_for_update()
            .filter(pk__in=[kept.pk, other.pk])
            .order_by(Case(When(pk=kept.pk, then=0), default=1))
        )
        if not merge_refusal(kept=kept, other=other):
            record_merge(kept=kept, other=other)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps)
def test_kept_ratings_equal_ratings_worked_out_from_scratch_after_any_changes(
    season: Season, sequence: list[tuple]
) -> None:
    with transaction.atomic():
        for step in sequence:
            apply(season, step)
            assert_kept_equals_scratch()
        merge_second_records()
        assert_kept_equals_scratch()
        transaction.set_rollback(True)


def test_a_players_page_gives_each_partnership_its_chance_against_an_average_pair(
    season: Season,
) -> None:
    pairs = rules.Match(
        "straight",
        ("Ana", "Bo", "Cy", "Di"),
        partnerships=(("Ana", "Cy"), ("Bo", "Di")),
        rules={"target": 50},
        hands=(won_hand("Ana"),),
    )
    in_season(season, pairs)
    in_season(season, beats("Eve", "Ana"))
    skill = {r.player.name: Skill(r.mu, r.sigma) for r in Rating.objects.select_related("player")}
    average = Skill(
        sum(s.mu for s in skill.values()) / len(skill),
        sum(s.sigma for s in skill.values()) / len(skill),
    )
    chance = round(100 * partnership_chance([skill["Ana"], skill["Cy"]], average))

    ana = Rating.objects.get(player__name="Ana").player_id
    page = text(Client().get(reverse("leagues:player", args=[ana])))

    assert f"Cy: 1 of 1 (100%) · the ratings give the pair {chance}% against an average pair" in (
        page
    )
    assert "Ana & Cy were expected to win 50% of the time; won." in page


def test_matches_written_in_bulk_are_rated_by_working_every_game_out_once(
    season: Season, django_assert_max_num_queries
) -> None:
    for winner, loser in (("Ana", "Bo"), ("Bo", "Cy"), ("Cy", "Ana"), ("Di", "Eve")):
        in_season(season, beats(winner, loser))
    before = kept()
    RatingChange.objects.all().delete()
    Rating.objects.all().delete()

    # the games, then for each of the one game here: its kept changes, their players, the
    # matches and seats, the changes and ratings written (and the savepoint around them)
    with django_assert_max_num_queries(14):
        ratings_rework_all()

    after = kept()
    assert after.keys() == before.keys()
    assert all(after[key] == pytest.approx(values) for key, values in before.items())


def standing_rows(season: Season) -> dict[int, tuple]:
    return {
        row.player_id: (row.played, row.won, row.lost, row.points_for, row.points_against)
        for row in StandingRow.objects.filter(season=season)
    }


def test_a_bundle_imported_beside_kept_matches_is_rated_and_counted_as_match_by_match(
    season: Season,
) -> None:
    """A bundle's matches move the standings and ratings once for all of them
    (leagues/moves.matches_imported): what is kept is what match by match would keep."""
    for winner, loser in (("Ana", "Bo"), ("Bo", "Cy"), ("Cy", "Ana"), ("Di", "Ana")):
        in_season(season, beats(winner, loser))
    in_season(season, rules.Match("straight", ("Bo", "Eve"), rules={"target": 50}))
    version = Season.objects.get(pk=season.pk).version

    imported = bundle.import_league(
        renamed(b"".join(bundle.export_league(season.league)), "Again"), club=the_club()
    )

    again = Season.objects.get(league=imported)
    assert RatingChange.objects.filter(season=again).count() == 8
    assert_kept_equals_scratch()
    assert standing_rows(again) == standing_rows(season)
    assert again.counted_matches == 4
    assert Season.objects.get(pk=season.pk).version == version
    # a correction to the first match played, before the bundle's, reworks them too
    first = Match.objects.order_by("pk").first()
    hand_correct(match=first, number=1, hand=by_seats(first, won_hand("Bo")), by=BY)
    assert_kept_equals_scratch()


def test_a_season_or_an_entry_deleted_in_the_admin_leaves_the_ratings(
    season: Season, admin_client: Client
) -> None:
    """The admin deletes through the app's services (leagues/moves.py): the matches that leave
    a league are no longer rated, and what is kept equals the ratings worked out again."""
    kept_match = in_season(season, beats("Ana", "Bo"))
    other = Season.objects.create(
        league=season.league, name="Winter", starts_on=datetime.date(2026, 12, 1)
    )
    in_season(other, beats("Bo", "Cy"))
    entry_match = in_season(other, beats("Cy", "Ana"))
    assert RatingChange.objects.count() == 6

    response = admin_client.post(
        reverse("admin:leagues_seasonmatch_changelist"),
        {
            "action": "delete_selected",
            "_selected_action": [entry_match.league_entry.pk],
            "post": "yes",
        },
    )
    assert response.status_code == 302
    assert not RatingChange.objects.filter(match=entry_match).exists()
    assert_kept_equals_scratch()

    response = admin_client.post(
        reverse("admin:leagues_season_delete", args=[other.pk]), {"post": "yes"}
    )
    assert response.status_code == 302
    assert set(RatingChange.objects.values_list("match_id", flat=True)) == {kept_match.pk}
    assert_kept_equals_scratch()
