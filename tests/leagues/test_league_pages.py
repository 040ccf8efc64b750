"""The league pages over a season of generated matches: every number on them is worked out here
from the generated results, never read back from the app."""

from __future__ import annotations

import datetime
import html
import re
from fractions import Fraction
from typing import TYPE_CHECKING

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper import rules
from scorekeeper.leagues.models import League, Season, SeasonMatch
from scorekeeper.leagues.moves import season_match_forfeit
from scorekeeper.leagues.ratings import Change, Game, replay
from scorekeeper.leagues.standings import Result
from scorekeeper.leagues.views import seasons
from scorekeeper.tables.models import Match, Player
from tests.clubs import the_club
from tests.leagues.pages import by_player, csv_rows, listed_matches, standings, table_rows
from tests.leagues.season import (
    ROSTER,
    TARGET,
    Generated,
    Record,
    ahead,
    expected_ranks,
    expected_records,
    round5,
)
from tests.web.pages import HTMX, content, text
from tests.web.table import correction

if TYPE_CHECKING:
    from tests.leagues.conftest import StoredSeason

pytestmark = pytest.mark.django_db


def percent(won: int, played: int) -> int:
    """A win rate in whole percent, halves rounded up, as the page shows it."""
    return int(Fraction(100 * won, played) + Fraction(1, 2))


def page(client: Client, url: str, **headers: str) -> str:
    response = client.get(url, headers=headers)
    assert response.status_code == 200
    return content(response)


def assert_table_matches(
    client: Client, league: StoredSeason, *, lowest_wins: bool = False
) -> dict[str, Record]:
    """The standings page shows exactly the records worked out from the generated season."""
    records = expected_records(league.matches, league.forfeits)
    ranks = expected_ranks(
        league.matches, records, lowest_wins=lowest_wins, forfeits=league.forfeits
    )
    shown = standings(client.get(league.url("season")))
    assert sorted(row["Player"] for row in shown) == sorted(records)
    for row in shown:
        record = records[row["Player"]]
        assert int(row["#"]) == ranks[record.player], record.player
        assert (int(row["P"]), int(row["W"]), int(row["L"])) == (
            record.played,
            record.won,
            record.lost,
        ), record.player
        assert float(row["Win %"]) == pytest.approx(record.win_percent, abs=0.05)
        if lowest_wins:
            assert float(row["Avg"]) == pytest.approx(float(record.average_total), abs=0.05)
        else:
            assert (int(row["For"]), int(row["Agst"]), int(row["+/−"])) == (
                record.points_for,
                record.points_against,
                record.difference,
            ), record.player
    assert [int(row["#"]) for row in shown] == sorted(int(row["#"]) for row in shown)
    return records


def two_player(players: tuple[str, str], hands: list[tuple[str, int]]) -> Generated:
    """Ana-v-Bo style: each hand is (who dominoed, the pips the other held); to the league's
    target, the totals kept here by the rules."""
    totals = [0, 0]
    winner = None
    match_hands = []
    for out, pips in hands:
        other = players[1 - players.index(out)]
        match_hands.append(
            rules.Hand(end=rules.HandEnd("domino", player=out, pips={out: 0, other: pips}))
        )
        totals[players.index(out)] += round5(pips)
        if winner is None and totals[players.index(out)] >= TARGET:
            winner = players.index(out)
    return Generated(
        value=rules.Match("straight", players, rules={"target": TARGET}, hands=tuple(match_hands)),
        sides=((players[0],), (players[1],)),
        totals=tuple(totals),
        finished=winner is not None,
        winners=frozenset() if winner is None else frozenset({winner}),
    )


# -- a league, a season, a match ----------------------------------------------------------------


def test_a_league_is_created_with_its_game_members_and_target(client: Client) -> None:
    response = client.post(
        reverse("leagues:league_list"),
        {"name": "Thursday Fives", "game": "straight", "members": "Ana\nBo, Cy", "target": "60"},
    )

    league = League.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("leagues:league", args=[league.pk])
    assert (league.name, league.game, league.rules) == (
        "Thursday Fives",
        "straight",
        {"target": 60},
    )
    assert sorted(league.members.values_list("name", flat=True)) == ["Ana", "Bo", "Cy"]


def test_a_league_left_at_the_games_default_target_stores_no_house_rules(client: Client) -> None:
    client.post(
        reverse("leagues:league_list"),
        {"name": "Hall", "game": "straight", "members": "Ana", "target": "250"},
    )

    assert League.objects.get().rules == {}


def test_a_second_league_of_the_same_name_is_refused(client: Client) -> None:
    League.objects.create(club=the_club(), name="Thursday Fives", game="straight")

    response = client.post(
        reverse("leagues:league_list"), {"name": "thursday fives", "game": "sedma"}
    )

    assert response.status_code == 422
    assert "There is already a league called thursday fives." in text(response)
    assert League.objects.count() == 1


def test_a_season_is_opened_from_the_league_page(client: Client) -> None:
    league = League.objects.create(club=the_club(), name="Thursday Fives", game="straight")

    response = client.post(
        reverse("leagues:league", args=[league.pk]),
        {"name": "Autumn", "starts_on": "2026-09-01", "ends_on": "2026-12-15"},
    )

    season = Season.objects.get()
    assert response["Location"] == reverse("leagues:season", args=[league.pk, season.pk])
    assert (season.league, season.starts_on) == (league, datetime.date(2026, 9, 1))
    assert "Autumn" in page(client, reverse("leagues:league", args=[league.pk]))


def test_a_season_cannot_end_before_it_starts(client: Client) -> None:
    league = League.objects.create(club=the_club(), name="Thursday Fives", game="straight")

    response = client.post(
        reverse("leagues:league", args=[league.pk]),
        {"name": "Autumn", "starts_on": "2026-09-01", "ends_on": "2026-08-01"},
    )

    assert response.status_code == 422
    assert not Season.objects.exists()


def test_a_match_started_from_a_season_has_the_leagues_target_filled_in(
    client: Client, straight_league: StoredSeason
) -> None:
    form = page(client, straight_league.url("new_match"))

    assert 'name="target" value="60"' in form


def test_a_chickenfoot_match_started_from_a_double_nine_league_has_the_set_chosen(
    client: Client,
) -> None:
    client.post(
        reverse("leagues:league_list"),
        {"name": "Nines", "game": "chickenfoot", "members": "Ana, Bo", "chickenfoot_set": "9"},
    )
    league = League.objects.get()
    season = Season.objects.create(
        league=league, name="Winter", starts_on=datetime.date(2026, 1, 5)
    )

    form = page(client, reverse("leagues:new_match", args=[league.pk, season.pk]))

    assert league.rules == {"set": 9}
    assert '<option value="9" selected>' in form


def test_a_chickenfoot_league_sets_what_0_0_counts_and_its_page_shows_its_house_rules(
    client: Client,
) -> None:
    """RULES.md: 0-0 left in a hand counts 50, or 25 (or 0) by house rule."""
    created = client.post(
        reverse("leagues:league_list"),
        {"name": "Quarters", "game": "chickenfoot", "members": "Ana, Bo", "double_blank": "25"},
    )
    assert created.status_code == 302, text(created)
    league = League.objects.get()
    season = Season.objects.create(
        league=league, name="Winter", starts_on=datetime.date(2026, 1, 5)
    )

    shown = text(client.get(reverse("leagues:league", args=[league.pk])))
    form = page(client, reverse("leagues:new_match", args=[league.pk, season.pk]))

    assert league.rules == {"double_blank": 25}
    assert "House rules: set: 6; double blank: 25." in shown
    assert '<option value="25" selected>' in form


def test_a_straight_leagues_page_shows_every_house_rule_defaults_included(
    client: Client,
) -> None:
    league = League.objects.create(
        club=the_club(), name="Fives", game="straight", rules={"target": 150}
    )

    shown = text(client.get(reverse("leagues:league", args=[league.pk])))

    assert (
        "House rules: target: 150; spinner: on; round each hand: off; subtract own: off." in shown
    )


def test_a_match_started_from_a_season_offers_the_leagues_members(
    client: Client, straight_league: StoredSeason
) -> None:
    form = page(client, straight_league.url("new_match"))

    datalist = form[form.index('<datalist id="known-players">') :].split("</datalist>")[0]
    assert [f'<option value="{name}">' in datalist for name in ROSTER] == [True] * len(ROSTER)


def test_a_match_started_from_a_season_is_played_for_it_under_the_leagues_rules(
    client: Client, straight_league: StoredSeason
) -> None:
    response = client.post(
        straight_league.url("new_match"),
        {"seat_1": "Ana", "seat_2": "Bo", "target": "60", "spinner": "on"},
    )

    entry = SeasonMatch.objects.latest("pk")
    assert response["Location"] == reverse("tables:scoreboard", args=[entry.match.pk])
    assert entry.season == straight_league.season
    assert entry.match.rules == {"target": 60}


# -- the standings --------------------------------------------------------------------------------


def test_the_standings_show_the_numbers_worked_out_from_the_seasons_results(
    client: Client, straight_league: StoredSeason
) -> None:
    assert_table_matches(client, straight_league)


def test_the_generated_season_has_partnerships_ties_and_a_match_in_progress(
    straight_league: StoredSeason,
) -> None:
    """The season above is worth testing against: what it must exercise is in it."""
    matches = straight_league.matches.values()
    records = expected_records(straight_league.matches)

    assert any(len(match.sides[0]) == 2 and match.finished for match in matches)
    assert any(len(match.sides) == 3 for match in matches)
    assert any(not match.finished for match in matches)
    levels = [record.win_fraction for record in records.values()]
    assert len(set(levels)) < len(levels), "no two players level on win %"


def test_chickenfoot_standings_show_placings_and_the_average_total(
    client: Client, chickenfoot_league: StoredSeason
) -> None:
    records = assert_table_matches(client, chickenfoot_league, lowest_wins=True)

    rows = by_player(client.get(chickenfoot_league.url("season")))
    for player, record in records.items():
        for place, count in record.places.items():
            suffix = {1: "st", 2: "nd", 3: "rd"}.get(place, "th")
            assert int(rows[player][f"{place}{suffix}"]) == count, (player, place)


def test_the_standings_page_states_the_tie_break_order(
    client: Client, straight_league: StoredSeason
) -> None:
    shown = text(client.get(straight_league.url("season")))

    stated = "win %, then head-to-head wins among the tied players, then point difference."
    assert f"Ties are broken by {stated}" in shown


def test_the_chickenfoot_standings_state_that_the_lower_average_breaks_ties(
    client: Client, chickenfoot_league: StoredSeason
) -> None:
    shown = text(client.get(chickenfoot_league.url("season")))

    assert "then lower average total." in shown


def test_a_match_in_progress_is_shown_apart_and_not_counted(
    client: Client, straight_league: StoredSeason
) -> None:
    (pk, match) = next(iter(straight_league.in_progress.items()))

    season_page = page(client, straight_league.url("season"))

    in_progress = season_page.split("In progress")[1].split("Played")[0]
    assert reverse("tables:scoreboard", args=[pk]) in in_progress
    assert f"All {len(straight_league.finished)} finished or forfeited matches" in html.unescape(
        season_page
    )
    assert pk not in listed_matches(
        client.get(straight_league.url("season_matches") + f"?player={match.players[0]}")
    )


def test_a_partnership_win_counts_for_both_partners_on_the_standings_page(
    client: Client, straight_league: StoredSeason
) -> None:
    before = by_player(client.get(straight_league.url("season")))
    straight_league.add(
        Generated(
            value=rules.Match(
                "straight",
                ("Ana", "Bo", "Cy", "Di"),
                partnerships=(("Ana", "Cy"), ("Bo", "Di")),
                rules={"target": TARGET},
                hands=(rules.Hand(plays=(rules.Play("Cy", points=20),) * 3),),
            ),
            sides=(("Ana", "Cy"), ("Bo", "Di")),
            totals=(60, 0),
            finished=True,
            winners=frozenset({0}),
        )
    )

    after = by_player(client.get(straight_league.url("season")))

    for partner in ("Ana", "Cy"):
        assert int(after[partner]["W"]) == int(before[partner]["W"]) + 1
        assert int(after[partner]["For"]) == int(before[partner]["For"]) + 60
    for opponent in ("Bo", "Di"):
        assert int(after[opponent]["L"]) == int(before[opponent]["L"]) + 1
        assert int(after[opponent]["Agst"]) == int(before[opponent]["Agst"]) + 60
    assert_table_matches(client, straight_league)


def test_a_forfeit_counts_as_a_loss_for_the_side_that_gave_it_up(
    client: Client, straight_league: StoredSeason
) -> None:
    pk, match = next(iter(straight_league.in_progress.items()))

    response = client.post(
        reverse(
            "leagues:forfeit",
            args=[straight_league.league.pk, straight_league.season.pk, pk],
        ),
        {"side": "1"},
    )
    straight_league.forfeits[pk] = 1

    assert response.status_code == 302
    assert_table_matches(client, straight_league)
    rows = by_player(client.get(straight_league.url("season")))
    assert "(1 F)" in rows[match.players[1]]["forfeits_note"]


def test_a_finished_match_cannot_be_forfeited(
    client: Client, straight_league: StoredSeason
) -> None:
    pk = next(iter(straight_league.finished))

    response = client.post(
        reverse("leagues:forfeit", args=[straight_league.league.pk, straight_league.season.pk, pk]),
        {"side": "0"},
        follow=True,
    )

    assert "A finished match cannot be forfeited." in text(response)
    assert SeasonMatch.objects.get(match_id=pk).forfeited_by is None
    assert_table_matches(client, straight_league)


# -- correcting a hand ------------------------------------------------------------------------


@pytest.fixture
def ana_beats_bo(straight_league: StoredSeason) -> Match:
    """Ana 20 (Bo held 22), Bo 15 (Ana held 13), Ana 40 more (Bo held 38): Ana wins 60-15."""
    return straight_league.add(two_player(("Ana", "Bo"), [("Ana", 22), ("Bo", 13), ("Ana", 38)]))


def test_the_known_match_counts_as_worked_out(
    client: Client, straight_league: StoredSeason, ana_beats_bo: Match
) -> None:
    assert straight_league.matches[ana_beats_bo.pk].totals == (60, 15)
    assert_table_matches(client, straight_league)


def test_editing_an_earlier_hand_changes_the_points_in_the_standings(
    client: Client, straight_league: StoredSeason, ana_beats_bo: Match
) -> None:
    before = by_player(client.get(straight_league.url("season")))

    response = client.post(
        reverse("tables:edit_hand", args=[ana_beats_bo.pk, 1]),
        correction(ana_beats_bo, 1, {"out": "0", "pips_1": "33"}),
    )
    straight_league.matches[ana_beats_bo.pk] = two_player(
        ("Ana", "Bo"), [("Ana", 33), ("Bo", 13), ("Ana", 38)]
    )

    assert response.status_code == 302
    after = by_player(client.get(straight_league.url("season")))
    # Bo's 33 pips round to 35, not 20: Ana has 15 more for, Bo 15 more against
    assert int(after["Ana"]["For"]) == int(before["Ana"]["For"]) + 15
    assert int(after["Bo"]["Agst"]) == int(before["Bo"]["Agst"]) + 15
    assert_table_matches(client, straight_league)


def test_editing_an_earlier_hand_so_nobody_reaches_the_target_takes_the_match_out(
    client: Client, straight_league: StoredSeason, ana_beats_bo: Match
) -> None:
    client.post(
        reverse("tables:edit_hand", args=[ana_beats_bo.pk, 1]),
        correction(ana_beats_bo, 1, {"out": "0", "pips_1": "7"}),
    )
    straight_league.matches[ana_beats_bo.pk] = two_player(
        ("Ana", "Bo"), [("Ana", 7), ("Bo", 13), ("Ana", 38)]
    )

    # Ana 5 + 40 = 45 of 60: the match is being played again, and no longer counts
    assert not straight_league.matches[ana_beats_bo.pk].finished
    assert_table_matches(client, straight_league)
    in_progress = page(client, straight_league.url("season")).split("In progress")[1]
    assert reverse("tables:scoreboard", args=[ana_beats_bo.pk]) in in_progress.split("Played")[0]


def test_editing_an_earlier_hand_to_the_other_player_changes_who_won(
    client: Client, straight_league: StoredSeason
) -> None:
    # Bo 40 (Ana held 38), Ana 15, Bo 20 more: Bo wins 60-15 at the third hand
    match = straight_league.add(two_player(("Ana", "Bo"), [("Bo", 38), ("Ana", 13), ("Bo", 22)]))
    records_before = expected_records(straight_league.matches)

    # hand 1 was Ana's domino after all, with Bo holding 38: Ana 40 + 15, Bo 20: still going,
    # then Ana's domino in hand 3 (Ana held 22 ... now Bo held 22) puts Ana on 75
    client.post(
        reverse("tables:edit_hand", args=[match.pk, 1]),
        correction(match, 1, {"out": "0", "pips_1": "38"}),
    )
    client.post(
        reverse("tables:edit_hand", args=[match.pk, 3]),
        correction(match, 3, {"out": "0", "pips_1": "22"}),
    )
    straight_league.matches[match.pk] = two_player(
        ("Ana", "Bo"), [("Ana", 38), ("Ana", 13), ("Ana", 22)]
    )

    records = assert_table_matches(client, straight_league)
    assert records["Ana"].won == records_before["Ana"].won + 1
    assert records["Bo"].won == records_before["Bo"].won - 1


def test_deleting_the_hand_that_won_the_match_takes_it_out_of_the_standings(
    client: Client, straight_league: StoredSeason, ana_beats_bo: Match
) -> None:
    response = client.post(reverse("tables:delete_hand", args=[ana_beats_bo.pk, 3]))
    straight_league.matches[ana_beats_bo.pk] = two_player(("Ana", "Bo"), [("Ana", 22), ("Bo", 13)])

    assert response.status_code == 302
    assert_table_matches(client, straight_league)


# -- traceability -------------------------------------------------------------------------------


@pytest.mark.parametrize("what", ["played", "won", "lost"])
def test_each_standings_number_lists_exactly_the_matches_behind_it(
    client: Client, straight_league: StoredSeason, what: str
) -> None:
    records = expected_records(straight_league.matches)

    for player, record in records.items():
        response = client.get(
            straight_league.url("season_matches"), {"player": player, "what": what}
        )
        listed = listed_matches(response)
        assert sorted(listed) == sorted(record.matches[what]), (player, what)
        assert len(record.matches[what]) == getattr(record, what)


def test_forfeits_are_traced_to_the_forfeited_matches(
    client: Client, straight_league: StoredSeason
) -> None:
    pk, match = next(iter(straight_league.in_progress.items()))
    # saved as the forfeit form saves it: the kept standings count it
    entry = SeasonMatch.objects.get(match_id=pk)
    season_match_forfeit(entry=entry, side=0)

    response = client.get(
        straight_league.url("season_matches"), {"player": match.players[0], "what": "forfeits"}
    )

    assert listed_matches(response) == [pk]
    assert "forfeit" in text(response)


def test_the_standings_numbers_link_to_their_matches(
    client: Client, straight_league: StoredSeason
) -> None:
    shown = html.unescape(page(client, straight_league.url("season")))

    for player in expected_records(straight_league.matches):
        for what in ("played", "won", "lost"):
            assert f"{straight_league.url('season_matches')}?player={player}&what={what}" in shown


def test_the_season_lists_all_its_matches_without_a_player(
    client: Client, straight_league: StoredSeason
) -> None:
    listed = listed_matches(client.get(straight_league.url("season_matches")))

    assert sorted(listed) == sorted(straight_league.matches)


@pytest.mark.parametrize("player", ["", ROSTER[0]])
def test_a_long_match_list_is_shown_a_page_at_a_time_by_links_that_work_without_script(
    client: Client, straight_league: StoredSeason, monkeypatch: pytest.MonkeyPatch, player: str
) -> None:
    monkeypatch.setattr(seasons, "MATCHES_PER_PAGE", 2)
    query = f"?player={player}&what=played" if player else ""
    expected = (
        expected_records(straight_league.matches)[player].matches["played"]
        if player
        else list(straight_league.matches)
    )
    assert len(expected) > 2

    seen: list[int] = []
    url: str | None = straight_league.url("season_matches") + query
    while url is not None:
        response = client.get(url)
        listed = listed_matches(response)
        assert 1 <= len(listed) <= 2
        seen += listed
        older = re.search(r'<a href="([^"]*)" rel="next">', content(response))
        url = straight_league.url("season_matches") + html.unescape(older[1]) if older else None

    # every match once, newest first, through plain links
    assert sorted(seen) == sorted(expected)
    finished_at = dict(Match.objects.filter(pk__in=seen).values_list("pk", "finished_at"))
    shown_finished = [finished_at[pk] for pk in seen if finished_at[pk] is not None]
    assert shown_finished == sorted(shown_finished, reverse=True)


# -- the wall board -------------------------------------------------------------------------------


def test_the_wall_board_shows_the_standings_and_refreshes_itself(
    client: Client, straight_league: StoredSeason
) -> None:
    board = page(client, straight_league.url("wall"))

    assert "<html" in board
    assert 'id="wall-board"' in board
    assert 'hx-trigger="every ' in board
    assert f'hx-get="{straight_league.url("wall")}?v=' in board
    wall_rows = standings(client.get(straight_league.url("wall")))
    season_rows = standings(client.get(straight_league.url("season")))
    assert wall_rows == season_rows


def test_the_wall_board_asked_by_htmx_answers_with_the_board_alone(
    client: Client, straight_league: StoredSeason
) -> None:
    fragment = page(client, straight_league.url("wall"), **HTMX)

    assert "<html" not in fragment
    assert fragment.strip().startswith('<div id="wall-board"')
    assert 'hx-trigger="every ' in fragment
    assert fragment.count('id="wall-board"') == 1


def test_the_wall_board_shows_the_matches_in_progress_with_their_scores(
    client: Client, straight_league: StoredSeason
) -> None:
    (_, match) = next(iter(straight_league.in_progress.items()))

    fragment = text(client.get(straight_league.url("wall"), headers=HTMX))

    playing = fragment.split("Playing now")[1]
    score = " ".join(
        f"{' & '.join(side)} {total}" for side, total in zip(match.sides, match.totals, strict=True)
    )
    assert score in playing


# -- player pages -------------------------------------------------------------------------------


def player_url(name: str, **query: str) -> str:
    url = reverse("leagues:player", args=[Player.objects.get(name=name).pk])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def busiest_partner(league: StoredSeason) -> str:
    """The roster member with the most partnership matches."""
    counts = {
        player: sum(
            1
            for m in league.finished.values()
            if len(m.sides[0]) == 2 and m.side_of(player) is not None
        )
        for player in ROSTER
    }
    return max(counts, key=lambda player: (counts[player], player))


def test_a_player_page_shows_the_players_record(
    client: Client, straight_league: StoredSeason
) -> None:
    player = busiest_partner(straight_league)
    record = expected_records(straight_league.matches)[player]

    shown = text(client.get(player_url(player)))

    assert f"{record.played} played {record.won} won {record.lost} lost" in shown
    assert f"{percent(record.won, record.played)}%" in shown


def test_a_player_page_mentions_the_match_in_progress_as_not_counted(
    client: Client, straight_league: StoredSeason
) -> None:
    (_, match) = next(iter(straight_league.in_progress.items()))

    shown = text(client.get(player_url(match.players[0])))

    assert "1 match in progress, not counted." in shown


def test_a_player_page_draws_the_rating_over_time_as_svg(
    client: Client, straight_league: StoredSeason
) -> None:
    player = busiest_partner(straight_league)
    history = rated(db_results(straight_league))[player]

    shown = page(client, player_url(player))

    assert "<svg" in shown
    assert f"{player}&#x27;s Straight Dominoes rating over time" in shown
    points = shown.split("<polyline")[1].split('points="')[1].split('"')[0].split()
    assert len(points) == len(history) + 1
    assert f"rating <strong>{history[-1].after.shown}</strong>" in shown


def test_a_player_page_lists_partners_and_opponents_with_their_win_rates(
    client: Client, straight_league: StoredSeason
) -> None:
    player = busiest_partner(straight_league)
    with_partner: dict[str, list[int]] = {}
    against: dict[str, list[int]] = {}
    for match in straight_league.finished.values():
        mine = match.side_of(player)
        if mine is None:
            continue
        for index, side in enumerate(match.sides):
            for other in side:
                if other == player:
                    continue
                if index == mine:
                    record = with_partner.setdefault(other, [0, 0])
                    record[0] += mine in match.winners
                else:
                    record = against.setdefault(other, [0, 0])
                    record[0] += ahead(match, mine, index)
                record[1] += 1

    shown = text(client.get(player_url(player)))

    assert with_partner, "the busiest partner has no partnership match"
    best = shown.split("Best partners")[1].split("Toughest opponents")[0]
    for partner, (won, played) in with_partner.items():
        assert f"{partner}: {won} of {played} ({percent(won, played)}%)" in best
    toughest = shown.split("Toughest opponents")[1]
    for opponent, (won, played) in against.items():
        assert f"{opponent}: beat them {won} of {played} ({percent(won, played)}%)" in toughest


def test_a_player_page_charts_the_score_over_the_hands_of_a_chosen_match(
    client: Client, straight_league: StoredSeason, ana_beats_bo: Match
) -> None:
    shown = page(client, player_url("Ana", match=str(ana_beats_bo.pk)))

    chart = shown.split('id="match-chart"')[1]
    assert "<svg" in chart
    assert f"Score by hand, Straight Dominoes #{ana_beats_bo.pk}" in chart
    # a line per player: 0, then after each of the three hands
    lines = [
        part.split('points="')[1].split('"')[0].split() for part in chart.split("<polyline")[1:]
    ]
    assert [len(line) for line in lines] == [4, 4]


def test_a_player_page_refuses_the_chart_of_a_match_the_player_was_not_in(
    client: Client, straight_league: StoredSeason
) -> None:
    pk, match = next(
        (pk, m) for pk, m in straight_league.finished.items() if "Ana" not in m.players
    )

    response = client.get(player_url("Ana", match=str(pk)))

    assert response.status_code == 404


# -- ratings ------------------------------------------------------------------------------------


def db_results(league: StoredSeason) -> list[Result]:
    """The season's results in the order the matches were stored (and so finished)."""
    return [
        Result(pk, m.sides, m.totals, m.finished, m.winners, lowest_wins=m.lowest_wins)
        for pk, m in sorted(league.matches.items())
    ]


def rated(results: list[Result]) -> dict[str, list[Change]]:
    """Each player's rating changes, worked out by the model from the results in order."""
    games = [
        Game(r.match_id, r.sides, tuple(r.place(i) for i in range(len(r.sides))))
        for r in results
        if r.finished and r.forfeited_by is None
    ]
    history: dict[str, list[Change]] = {}
    for change in replay(games):
        history.setdefault(change.player, []).append(change)
    return history


def test_the_ratings_page_shows_each_players_rating_worked_out_by_the_model(
    client: Client, straight_league: StoredSeason
) -> None:
    history = rated(db_results(straight_league))

    response = client.get(reverse("leagues:ratings", args=["straight"]))

    table = content(response).split('<table class="ratings">')[1].split("</table>")[0]
    _, *rows = table_rows(table)
    shown = {player: (int(rating.split()[0]), int(count)) for _, player, rating, count, _ in rows}
    assert shown == {
        player: (changes[-1].after.shown, len(changes)) for player, changes in history.items()
    }
    ratings = [rating for rating, _ in (shown[row[1]] for row in rows)]
    assert ratings == sorted(ratings, reverse=True)


def test_the_ratings_page_of_an_unknown_game_is_not_found(client: Client) -> None:
    assert client.get(reverse("leagues:ratings", args=["poker"])).status_code == 404


# -- CSV exports --------------------------------------------------------------------------------


def test_the_standings_csv_has_a_row_per_player_with_the_worked_out_numbers(
    client: Client, straight_league: StoredSeason
) -> None:
    records = expected_records(straight_league.matches)
    ranks = expected_ranks(straight_league.matches, records)

    header, *rows = csv_rows(client.get(straight_league.url("standings_csv")))

    assert header[:10] == [
        "rank",
        "player",
        "played",
        "won",
        "lost",
        "forfeits",
        "win %",
        "points for",
        "points against",
        "difference",
    ]
    assert len(rows) == len(records)
    for rank, player, played, won, lost, forfeits, percent, pf, pa, diff, *_ in rows:
        record = records[player]
        assert int(rank) == ranks[player]
        assert [int(n) for n in (played, won, lost, forfeits, pf, pa, diff)] == [
            record.played,
            record.won,
            record.lost,
            record.forfeits,
            record.points_for,
            record.points_against,
            record.difference,
        ]
        assert float(percent) == pytest.approx(record.win_percent, abs=0.05)


ORDINALS = ("firsts", "seconds", "thirds", "fourths", "fifths", "sixths", "sevenths", "eighths")


def test_the_chickenfoot_standings_csv_gives_placings_not_points_for_and_against(
    client: Client, chickenfoot_league: StoredSeason
) -> None:
    """The lowest total wins: points "for" and "against" and their difference mean nothing
    there. Each player's placings, average place and total pips say how they did."""
    records = expected_records(chickenfoot_league.matches)
    most = max(place for record in records.values() for place in record.places)

    header, *rows = csv_rows(client.get(chickenfoot_league.url("standings_csv")))

    places = list(ORDINALS[:most])
    assert header == [
        "rank",
        "player",
        "played",
        "won",
        "lost",
        "forfeits",
        "win %",
        *places,
        "average place",
        "average total",
        "total pips",
    ]
    assert not {"points for", "points against", "difference"} & set(header)
    assert len(rows) == len(records)
    for row in rows:
        cells = dict(zip(header, row, strict=True))
        record = records[cells["player"]]
        assert [int(cells[name]) for name in places] == [
            record.places[place] for place in range(1, most + 1)
        ]
        assert int(cells["total pips"]) == sum(record.totals)
        assert float(cells["average total"]) == pytest.approx(
            sum(record.totals) / len(record.totals), abs=0.05
        )
        placed = sum(place * n for place, n in record.places.items()) / len(record.totals)
        assert float(cells["average place"]) == pytest.approx(placed, abs=0.005)


def test_the_standings_csv_is_in_the_same_order_as_the_page(
    client: Client, straight_league: StoredSeason
) -> None:
    _, *rows = csv_rows(client.get(straight_league.url("standings_csv")))

    on_page = [row["Player"] for row in standings(client.get(straight_league.url("season")))]
    assert [row[1] for row in rows] == on_page


def test_the_hands_csv_has_a_row_per_side_per_hand_of_every_match(
    client: Client, straight_league: StoredSeason
) -> None:
    header, *rows = csv_rows(client.get(straight_league.url("hands_csv")))

    assert header == ["match", "game", "hand", "side", "points", "running total"]
    expected_count = sum(
        len(match.value.hands) * len(match.sides) for match in straight_league.matches.values()
    )
    assert len(rows) == expected_count
    for pk, match in straight_league.matches.items():
        mine = [row for row in rows if int(row[0]) == pk]
        last_hand = str(len(match.value.hands))
        final = {row[3]: int(row[5]) for row in mine if row[2] == last_hand}
        assert final == {
            " & ".join(side): total for side, total in zip(match.sides, match.totals, strict=True)
        }
        for side in {row[3] for row in mine}:
            points = sum(int(row[4]) for row in mine if row[3] == side)
            assert points == final[side]


def test_the_csv_exports_are_downloads(client: Client, straight_league: StoredSeason) -> None:
    for name in ("standings_csv", "hands_csv"):
        response = client.get(straight_league.url(name))
        assert response["Content-Type"].startswith("text/csv")
        assert response["Content-Disposition"].startswith("attachment;")


def test_a_player_page_counts_a_forfeit_as_the_standings_do(
    client: Client, straight_league: StoredSeason
) -> None:
    pk, match = next(iter(straight_league.in_progress.items()))
    SeasonMatch.objects.filter(match_id=pk).update(forfeited_by=0)
    straight_league.forfeits[pk] = 0
    records = expected_records(straight_league.matches, straight_league.forfeits)

    for player in match.players:
        record = records[player]
        shown = text(client.get(player_url(player)))
        assert f"{record.played} played {record.won} won {record.lost} lost" in shown, player
        assert "in progress, not counted" not in shown, player
        assert f"forfeited by {match.players[0]}" in shown, player
