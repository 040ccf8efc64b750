"""Two records of one person merged by an organizer of a club both play in, and a name
forgotten on request: the history moves or stays, the kept standings and ratings equal what
is worked out from every match."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from scorekeeper.leagues.kept import standings_read
from scorekeeper.leagues.models import StandingRow
from scorekeeper.leagues.standings import standings
from scorekeeper.nights.models import CheckIn, Night
from scorekeeper.nights.rounds import check_in
from scorekeeper.records.models import Claim
from scorekeeper.tables.models import Match, Player
from tests.leagues.from_scratch import season_results
from tests.leagues.test_kept_ratings import assert_kept_equals_scratch
from tests.leagues.test_kept_standings import shown
from tests.records.hall import Hall, account, hall, played, player, signed_in, won


@pytest.fixture
def north(db: None) -> Hall:
    """Ana was entered twice, as "Ana" and "Ana Lopez": each won a match, lost one."""
    north = hall("North Hall", ("Ana", "Ana Lopez", "Bo", "Cy"))
    played(north.season, won("Ana", "Bo"))
    played(north.season, won("Cy", "Ana"))
    played(north.season, won("Ana Lopez", "Cy"))
    played(north.season, won("Bo", "Ana Lopez"))
    return north


def merge(client, kept: str, other: str, *, confirm: bool = True):
    data = {"other": player(other).pk}
    if confirm:
        data["confirm"] = "1"
    return client.post(reverse("records:merge", args=[player(kept).pk]), data)


def assert_kept_equals_worked_out(hall: Hall) -> None:
    season = hall.season
    season.refresh_from_db()
    scratch = standings(season_results(season.pk))
    assert shown(standings_read(season)) == shown(scratch)
    assert_kept_equals_scratch()


def test_a_merge_moves_every_match_to_the_record_kept(north: Hall) -> None:
    kept = player("Ana")

    response = merge(signed_in(north.organizer), "Ana", "Ana Lopez")

    assert response.status_code == 302
    assert not Player.objects.filter(name="Ana Lopez").exists()
    assert Match.objects.filter(seats__player=kept).count() == 4
    assert list(north.league.members.filter(name__startswith="Ana")) == [kept]
    row = StandingRow.objects.get(season=north.season, player=kept)
    assert (row.played, row.won, row.lost) == (4, 2, 2)
    assert_kept_equals_worked_out(north)


def test_a_merge_asks_before_it_changes_anything(north: Hall) -> None:
    response = merge(signed_in(north.organizer), "Ana", "Ana Lopez", confirm=False)

    assert response.status_code == 200
    assert "cannot be undone" in response.content.decode()
    assert Player.objects.filter(name="Ana Lopez").exists()


def test_the_record_kept_takes_the_others_owner(north: Hall) -> None:
    other = player("Ana Lopez")
    other.account = account("ana")
    other.save(update_fields=["account"])

    merge(signed_in(north.organizer), "Ana", "Ana Lopez")

    assert player("Ana").account == account("ana")


def test_a_merge_of_records_claimed_by_two_accounts_is_refused(north: Hall) -> None:
    for name, username in (("Ana", "ana"), ("Ana Lopez", "other ana")):
        record = player(name)
        record.account = account(username)
        record.save(update_fields=["account"])

    response = merge(signed_in(north.organizer), "Ana", "Ana Lopez")

    assert response.status_code == 409
    assert "different accounts" in response.content.decode()
    assert Player.objects.filter(name="Ana Lopez").exists()


def test_a_merge_of_two_players_of_the_same_match_is_refused(north: Hall) -> None:
    response = merge(signed_in(north.organizer), "Ana", "Bo")

    assert response.status_code == 409
    assert "same match" in response.content.decode()
    assert Player.objects.filter(name="Bo").exists()
    assert_kept_equals_worked_out(north)


def test_a_stranger_cannot_merge(north: Hall) -> None:
    response = merge(signed_in(account("stranger")), "Ana", "Ana Lopez")

    assert response.status_code == 403
    assert Player.objects.filter(name="Ana Lopez").exists()


def test_an_organizer_of_another_club_cannot_merge(north: Hall) -> None:
    south = hall("South Hall", ("Di",))

    response = merge(signed_in(south.organizer), "Ana", "Ana Lopez")

    assert response.status_code == 403
    assert Player.objects.filter(name="Ana Lopez").exists()


def test_an_organizer_of_one_of_the_two_clubs_cannot_merge_them(north: Hall) -> None:
    south = hall("South Hall", ("Ana Maria",))

    response = merge(signed_in(south.organizer), "Ana Maria", "Ana")

    assert response.status_code == 400  # Ana is no one this organizer may pick
    assert Player.objects.filter(name="Ana").exists()


def test_a_record_that_is_not_one_is_a_clear_message(north: Hall) -> None:
    response = signed_in(north.organizer).post(
        reverse("records:merge", args=[player("Ana").pk]), {"other": "nothing", "confirm": "1"}
    )

    assert response.status_code == 400
    assert "Pick one of the records listed" in response.content.decode()


def test_a_forgotten_player_keeps_their_matches_and_totals_without_the_name(north: Hall) -> None:
    ana = player("Ana")
    ana.account = account("ana")
    ana.save(update_fields=["account"])
    Claim.objects.create(player=ana, code_digest="x", made_by=north.organizer)
    before = StandingRow.objects.get(season=north.season, player=ana)

    response = signed_in(north.organizer).post(reverse("records:forget", args=[ana.pk]))

    assert response.status_code == 302
    ana.refresh_from_db()
    assert ana.name == f"Player {ana.pk}"
    assert ana.account is None
    assert not Claim.objects.filter(player=ana, revoked_at=None).exists()
    after = StandingRow.objects.get(season=north.season, player=ana)
    assert (after.played, after.won, after.points_for) == (
        before.played,
        before.won,
        before.points_for,
    )
    assert Match.objects.filter(seats__player=ana).count() == 2
    page = signed_in(account("someone")).get(
        reverse("leagues:season", args=[north.league.pk, north.season.pk])
    )
    assert f"Player {ana.pk}" in page.content.decode()
    assert ">Ana<" not in page.content.decode()
    assert_kept_equals_worked_out(north)


def test_a_stranger_cannot_forget_a_name(north: Hall) -> None:
    response = signed_in(account("stranger")).post(
        reverse("records:forget", args=[player("Ana").pk])
    )

    assert response.status_code == 403
    assert Player.objects.filter(name="Ana").exists()


def test_a_merge_moves_the_others_check_ins(north: Hall) -> None:
    night = Night.objects.create(season=north.season, played_on=datetime.date(2026, 9, 4))
    check_in(night, [player("Ana Lopez"), player("Bo")])

    merge(signed_in(north.organizer), "Ana", "Ana Lopez")

    assert list(CheckIn.objects.filter(night=night).values_list("player__name", flat=True)) == [
        "Ana",
        "Bo",
    ]


def test_a_merge_of_two_records_checked_in_at_the_same_night_is_refused(north: Hall) -> None:
    night = Night.objects.create(season=north.season, played_on=datetime.date(2026, 9, 4))
    check_in(night, [player("Ana"), player("Ana Lopez")])

    response = merge(signed_in(north.organizer), "Ana", "Ana Lopez")

    assert response.status_code == 409
    assert "Both records are in the same night" in response.content.decode()
    assert CheckIn.objects.filter(night=night, player__name="Ana Lopez").exists()
    assert_kept_equals_worked_out(north)
