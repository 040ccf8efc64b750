"""A tournament night through its pages: Swiss and round robin rounds of fixed partnerships or
players alone, the bye, the night's standings by entry and the tie-break that decided each tie.

The matches are played to 25, so one play of 25 wins one (as in test_nights.py)."""

from __future__ import annotations

import re
from collections import Counter
from itertools import combinations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorekeeper.nights.models import Night, NightRound
from scorekeeper.tables.models import Player
from tests.leagues.pages import table_rows
from tests.nights.test_nights import draw, matches_of, member_ids, new_night, season_of, start
from tests.web.pages import content, text
from tests.web.table import play, scorekeeper_client, seated_names

pytestmark = pytest.mark.django_db

PLAYERS = (
    "Ana", "Bo", "Cy", "Di", "Eve", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kai", "Lu",
    "Max", "Ned", "Oli", "Pia", "Quin", "Rae", "Sam", "Tia", "Uma", "Vic", "Wes", "Xen",
)  # fmt: skip
TIEBREAKS = ["points_difference", "buchholz", "head_to_head"]


@pytest.fixture
def organizer() -> Client:
    return scorekeeper_client()


@pytest.fixture
def season():
    return season_of("straight", {"target": 25}, PLAYERS, name="Hall Monthly")


def tournament(client: Client, season, players, **fields) -> Night:
    fields.setdefault("tiebreaks", TIEBREAKS)
    return new_night(client, season, players=players, **fields)


def pair_partners(client: Client, night: Night, players) -> list[tuple[str, str]]:
    """Each two players in the order given are partners: picked on the first of the two."""
    pairs = list(zip(players[0::2], players[1::2], strict=True))
    data = {}
    for first, second in pairs:
        one, other = member_ids(first, second)
        data[f"partner_{one}"] = other
    response = client.post(reverse("nights:partners", args=[night.pk]), data)
    assert response.status_code == 302, text(response)
    return pairs


def names() -> dict[int, str]:
    return dict(Player.objects.values_list("pk", "name"))


def sides(night_round: NightRound) -> list[tuple[frozenset[str], frozenset[str]]]:
    """Each table's two entries: partners in seats 1 & 3 and 2 & 4, or two players alone."""
    named = names()
    found = []
    for table in night_round.tables.order_by("number"):
        seats = [named[pk] for pk in table.player_ids]
        if len(seats) == 4:
            found.append((frozenset(seats[0::2]), frozenset(seats[1::2])))
        else:
            found.append((frozenset(seats[:1]), frozenset(seats[1:])))
    return found


def bye(night_round: NightRound) -> frozenset[str]:
    named = names()
    return frozenset(named[pk] for pk in night_round.sitting_out_ids)


def play_round(client: Client, night_round: NightRound, winners_seat) -> None:
    """Each table's match won by the side of the player in seat ``winners_seat(table)``."""
    for number, match in enumerate(matches_of(night_round), start=1):
        player = seated_names(match)[winners_seat(number)]
        assert play(client, match, player, 25).status_code in (200, 302)
        match.refresh_from_db()
        assert match.finished


def standings_rows(response) -> list[list[str]]:
    found = re.search(
        r'<table class="standings night-standings"[^>]*>(.*?)</table>', content(response), re.S
    )
    assert found is not None, "the page shows no tournament standings"
    return table_rows(found.group(1))


def test_a_swiss_night_of_twelve_partnerships_pairs_by_standings_without_rematches(
    organizer, season
):
    night = tournament(organizer, season, PLAYERS, draw="swiss", rounds=4)
    partnerships = {frozenset(pair) for pair in pair_partners(organizer, night, PLAYERS)}
    met: set[frozenset[frozenset[str]]] = set()
    wins: Counter = Counter()
    for number in range(1, 5):
        drawn = draw(organizer, night)
        tables = sides(drawn)
        # six tables of two fixed partnerships, everyone seated, nobody sits out
        assert len(tables) == 6
        assert {entry for table in tables for entry in table} == partnerships
        assert not drawn.sitting_out_ids
        for one, other in tables:
            assert frozenset((one, other)) not in met, f"rematch in round {number}"
            met.add(frozenset((one, other)))
            # pairs by standings: entries on equal wins meet while they can
            if number == 2:
                assert wins[one] == wins[other]
        assert start(organizer, night, number).status_code == 302
        # the top table's seat-1 side wins, the others alternate
        play_round(organizer, drawn, lambda table: (table + 1) % 2)
        for table, (one, other) in enumerate(tables, start=1):
            wins[one if table % 2 else other] += 1
    page = organizer.get(reverse("nights:night", args=[night.pk]))
    header, *rows = standings_rows(page)
    assert header[:5] == ["#", "Entry", "Played", "Won", "Lost"]
    assert len(rows) == 12
    by_entry = {frozenset(row[1].split(" & ")): row for row in rows}
    assert set(by_entry) == partnerships
    for entry, row in by_entry.items():
        assert (row[2], row[3]) == ("4", str(wins[entry]))
    # best first, by wins (match points)
    assert [int(row[3]) for row in rows] == sorted((int(row[3]) for row in rows), reverse=True)


def test_an_odd_field_gives_the_bye_to_the_lowest_ranked_without_one(organizer, season):
    players = PLAYERS[:10]
    night = tournament(organizer, season, players, draw="swiss", rounds=3)
    pair_partners(organizer, night, players)
    first = draw(organizer, night)
    assert len(sides(first)) == 2
    had_bye = [bye(first)]
    assert len(had_bye[0]) == 2
    first_names = " & ".join(sorted(had_bye[0], key=players.index))
    assert f"Bye: {first_names}" in text(organizer.get(reverse("nights:night", args=[night.pk])))
    start(organizer, night, 1)
    play_round(organizer, first, lambda table: 0)
    losers = {other for _, other in sides(first)}
    second = draw(organizer, night)
    # a loser of round 1 (no match point), and not the one who had the first bye
    assert bye(second) in losers
    assert bye(second) != had_bye[0]
    start(organizer, night, 2)
    # the TV shows the round's tables and the bye while it is played, the standings after it
    board = organizer.get(reverse("nights:board", args=[night.pk]))
    assert "Bye:" in text(board)
    assert "tournament-standings" not in content(board)
    play_round(organizer, second, lambda table: 0)
    board = organizer.get(reverse("nights:board", args=[night.pk]))
    assert "Standings after round 2 of 3" in text(board)
    rows = {row[1]: row for row in standings_rows(board)[1:]}
    assert len(rows) == 5
    # the bye counts as a round played and won, and adds no points either way: the 25 are
    # round 2's win
    assert rows[first_names][2:7] == ["2", "2", "0", "2", "25"]


def test_a_round_robin_of_five_players_meets_everyone_once_with_one_bye_each(organizer, season):
    players = PLAYERS[:5]
    night = tournament(organizer, season, players, draw="round_robin", rounds=5, partnerships="")
    met: Counter = Counter()
    byes: Counter = Counter()
    for number in range(1, 6):
        drawn = draw(organizer, night)
        tables = sides(drawn)
        assert len(tables) == 2 and all(len(table[0]) == 1 for table in tables)
        for one, other in tables:
            met[frozenset(one | other)] += 1
        byes[bye(drawn)] += 1
        assert start(organizer, night, number).status_code == 302
        play_round(organizer, drawn, lambda table: 0)
    assert met == {frozenset(pair): 1 for pair in combinations(players, 2)}
    assert byes == {frozenset([player]): 1 for player in players}
    refused = organizer.post(reverse("nights:draw", args=[night.pk]), {})
    assert refused.status_code == 422
    assert "All 5 rounds have been played." in text(refused)


def test_the_standings_say_which_tie_break_decided_a_tie(organizer, season):
    players = PLAYERS[:4]
    night = tournament(organizer, season, players, draw="swiss", rounds=2, partnerships="")
    drawn = draw(organizer, night)
    start(organizer, night, 1)
    close, wide = matches_of(drawn)
    # the first table is won 25 to 10, the second 25 to nothing: both winners on one win
    play(organizer, close, seated_names(close)[1], 10)
    play(organizer, close, seated_names(close)[0], 25)
    play(organizer, wide, seated_names(wide)[0], 25)
    close_winner, wide_winner = seated_names(close)[0], seated_names(wide)[0]
    header, *rows = standings_rows(organizer.get(reverse("nights:night", args=[night.pk])))
    assert header[5:] == [
        "Match points",
        "Point difference",
        "Buchholz",
        "Head-to-head",
        "Tie decided by",
    ]
    assert rows[0][:2] == ["1", wide_winner]
    assert rows[0][5:7] == ["1", "25"]
    assert rows[1][:2] == ["2", close_winner]
    assert rows[1][5:7] == ["1", "15"]
    assert rows[1][-1] == "Point difference"
    # on the TV board too
    board = standings_rows(organizer.get(reverse("nights:board", args=[night.pk])))
    assert board[2][1] == close_winner and board[2][-1] == "Point difference"
    # and on the pairings page the players look at, without signing in
    public = standings_rows(Client().get(reverse("nights:pairings", args=[night.pk])))
    assert public[2][1] == close_winner and public[2][-1] == "Point difference"


def test_a_swiss_round_with_only_rematches_left_is_refused_then_paired_with_fewest(
    organizer, season
):
    players = PLAYERS[:4]
    night = tournament(organizer, season, players, draw="swiss", rounds=4, partnerships="")
    for number in range(1, 4):
        drawn = draw(organizer, night)
        start(organizer, night, number)
        play_round(organizer, drawn, lambda table: 0)
    # the box is offered when it is needed, not before
    assert "Pair with fewest rematches" not in text(
        organizer.get(reverse("nights:night", args=[night.pk]))
    )
    refused = organizer.post(reverse("nights:draw", args=[night.pk]), {})
    assert refused.status_code == 422
    assert "Every pairing of this round has a rematch." in text(refused)
    assert "Pair with fewest rematches" in text(refused)
    assert not NightRound.objects.filter(night=night, number=4).exists()
    response = organizer.post(reverse("nights:draw", args=[night.pk]), {"allow_rematches": "on"})
    assert response.status_code == 302
    assert len(sides(NightRound.objects.get(night=night, number=4))) == 2


def test_chickenfoot_refuses_swiss_with_a_message(organizer):
    season = season_of("chickenfoot", {"set": 6}, PLAYERS[:8], name="Coop")
    url = reverse("nights:new_night", args=[season.league_id, season.pk])
    data = {"played_on": "2026-12-04", "rounds": 3, "most_at_a_table": 4}
    response = organizer.post(url, {**data, "draw": "swiss", "players": member_ids(*PLAYERS[:8])})
    assert response.status_code == 422
    assert "Swiss and round robin rounds pair two entries at a table" in text(response)
    assert not Night.objects.exists()


def test_a_late_pair_checks_in_is_partnered_and_drawn_with_the_rest(organizer, season):
    """The forms as an organizer uses them: the night, partners, a late pair, draw, start."""
    night = tournament(organizer, season, PLAYERS[:8], draw="swiss", rounds=3)
    page = text(organizer.get(reverse("nights:night", args=[night.pk])))
    assert "Tournament, Dec. 4, 2026" in page
    assert "Partnerships" in page
    pair_partners(organizer, night, PLAYERS[:8])
    response = organizer.post(
        reverse("nights:check_in", args=[night.pk]), {"players": member_ids("Ivy", "Jo")}
    )
    assert response.status_code == 302
    # Ivy has no partner yet: the draw says so and draws nothing
    refused = organizer.post(reverse("nights:draw", args=[night.pk]), {})
    assert refused.status_code == 422
    assert "Pair every player here with a partner first: Ivy, Jo." in text(refused)
    pairs = pair_partners(organizer, night, PLAYERS[:10])
    drawn = draw(organizer, night)
    assert len(sides(drawn)) == 2 and len(bye(drawn)) == 2
    assert start(organizer, night, 1).status_code == 302
    # partners sit opposite, as the board and the cards show them
    cards = text(organizer.get(reverse("nights:cards", args=[night.pk, 1])))
    named = names()
    for table in drawn.tables.order_by("number"):
        a, b, c, d = (named[pk] for pk in table.player_ids)
        assert f"{a} & {c} against {b} & {d}" in cards
        assert {frozenset((a, c)), frozenset((b, d))} <= set(map(frozenset, pairs))


def test_a_partner_picked_by_two_players_is_refused(organizer, season):
    night = tournament(organizer, season, PLAYERS[:4], draw="swiss", rounds=3)
    ana, bo, cy = member_ids("Ana", "Bo", "Cy")
    response = organizer.post(
        reverse("nights:partners", args=[night.pk]), {f"partner_{ana}": bo, f"partner_{cy}": bo}
    )
    assert response.status_code == 422
    assert "The partnerships were not saved." in text(response)
    assert not night.check_ins.exclude(partner=None).exists()


def test_a_partnership_plays_together_all_night_or_not_at_all(organizer, season):
    night = tournament(organizer, season, PLAYERS[:8], draw="swiss", rounds=3)
    pair_partners(organizer, night, PLAYERS[:8])
    drawn = draw(organizer, night)
    start(organizer, night, 1)
    play_round(organizer, drawn, lambda table: 0)
    # Ana and Bo played together: Ana cannot change partners
    ana, bo, cy, di = member_ids("Ana", "Bo", "Cy", "Di")
    refused = organizer.post(
        reverse("nights:partners", args=[night.pk]),
        {f"partner_{ana}": cy, f"partner_{bo}": di},
    )
    assert refused.status_code == 422
    assert "Ana has played with their partner: that partnership stays." in text(refused)
    # Bo leaves after round 1: the draw says Ana leaves too
    left = organizer.post(reverse("nights:leave", args=[night.pk]), {"player": bo})
    assert left.status_code == 302
    alone = organizer.post(reverse("nights:draw", args=[night.pk]), {})
    assert alone.status_code == 422
    assert "The partner of Ana has left" in text(alone)
    organizer.post(reverse("nights:leave", args=[night.pk]), {"player": ana})
    second = draw(organizer, night)
    entries = {entry for table in sides(second) for entry in table} | {bye(second)}
    assert frozenset(("Ana", "Bo")) not in entries and len(entries) == 3
    # Ana & Bo's round still counts in the standings, for them and for whom they met
    assert start(organizer, night, 2).status_code == 302
    rows = standings_rows(organizer.get(reverse("nights:night", args=[night.pk])))[1:]
    assert {row[1] for row in rows} >= {"Ana & Bo"}
    assert len(rows) == 4


def test_a_round_robin_of_four_partnerships_plays_three_rounds_without_a_bye(organizer, season):
    players = PLAYERS[:8]
    night = tournament(organizer, season, players, draw="round_robin", rounds=3)
    partnerships = {frozenset(pair) for pair in pair_partners(organizer, night, players)}
    met: Counter = Counter()
    for number in range(1, 4):
        drawn = draw(organizer, night)
        assert not drawn.sitting_out_ids
        for one, other in sides(drawn):
            assert {one, other} <= partnerships
            met[frozenset((one, other))] += 1
        start(organizer, night, number)
        play_round(organizer, drawn, lambda table: 0)
    assert met == {frozenset(pair): 1 for pair in combinations(partnerships, 2)}


def test_a_side_that_forfeits_loses_and_the_standings_count_it(organizer, season):
    players = PLAYERS[:4]
    night = tournament(organizer, season, players, draw="swiss", rounds=2, partnerships="")
    drawn = draw(organizer, night)
    start(organizer, night, 1)
    first, second = matches_of(drawn)
    # table 1: seat 1 leads 20 to nothing, then leaves; nobody takes the seat
    leaving, staying = seated_names(first)
    play(organizer, first, leaving, 20)
    (leaver,) = member_ids(leaving)
    response = organizer.post(reverse("nights:leave", args=[night.pk]), {"player": leaver})
    assert response.status_code == 302
    play(organizer, second, seated_names(second)[0], 25)
    rows = {
        row[1]: row
        for row in standings_rows(organizer.get(reverse("nights:night", args=[night.pk])))[1:]
    }
    # the side that stayed wins, one point ahead of the 20 it was behind
    assert rows[staying][3:7] == ["1", "0", "1", "1"]
    assert rows[leaving][3:7] == ["0", "1", "0", "-1"]


def test_the_standings_do_not_ask_the_database_more_as_rounds_are_played(organizer, season):
    players = PLAYERS[:8]
    night = tournament(organizer, season, players, draw="swiss", rounds=3)
    pair_partners(organizer, night, players)
    asked = []
    for number in range(1, 4):
        drawn = draw(organizer, night)
        start(organizer, night, number)
        play_round(organizer, drawn, lambda table: 0)
        for page in ("nights:night", "nights:board"):
            with CaptureQueriesContext(connection) as queries:
                assert organizer.get(reverse(page, args=[night.pk])).status_code == 200
            asked.append((page, len(queries)))
    assert asked[0::2] == [("nights:night", asked[0][1])] * 3
    assert asked[1::2] == [("nights:board", asked[1][1])] * 3


def test_someone_who_takes_a_seat_plays_for_the_partnership_whose_seat_it_was(organizer, season):
    night = tournament(organizer, season, PLAYERS[:8], draw="swiss", rounds=2)
    pair_partners(organizer, night, PLAYERS[:8])
    drawn = draw(organizer, night)
    start(organizer, night, 1)
    organizer.post(reverse("nights:check_in", args=[night.pk]), {"players": member_ids("Ivy")})
    match = matches_of(drawn)[0]
    seats = seated_names(match)
    leaving, ivy = member_ids(seats[0], "Ivy")
    response = organizer.post(
        reverse("nights:leave", args=[night.pk]), {"player": leaving, "replacement": ivy}
    )
    assert response.status_code == 302
    play(organizer, match, "Ivy", 25)
    play_round(organizer, drawn, lambda table: 0)
    rows = {
        row[1]: row
        for row in standings_rows(organizer.get(reverse("nights:night", args=[night.pk])))[1:]
    }
    # Ivy's win is the partnership's whose seat she took; she is no entry of her own
    assert "Ivy" not in rows and len(rows) == 4
    partnership = " & ".join(sorted((seats[0], seats[2]), key=PLAYERS.index))
    assert rows[partnership][3] == "1"
