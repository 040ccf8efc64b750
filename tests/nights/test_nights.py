"""A league night through its pages: who came, the draw, the round started with its table cards,
late arrivals, walk-ins, someone leaving early, the night's board and its exports.

The matches are played to 25, so one play of 25 wins one (docs/rules.md: the target wins at
once)."""

from __future__ import annotations

import csv
import datetime
import io
import re
import zipfile
from collections import Counter
from itertools import combinations

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from scorekeeper import rules
from scorekeeper.access.models import SCOREKEEPER
from scorekeeper.leagues import bundle
from scorekeeper.leagues.models import League, Season, SeasonMatch
from scorekeeper.leagues.moves import season_match_add
from scorekeeper.leagues.standings import standings
from scorekeeper.nights.models import CheckIn, Night, NightRound
from scorekeeper.tables import entries
from scorekeeper.tables.models import Match, Player
from scorekeeper.tables.recording import Author
from scorekeeper.tables.scoring import create_match, player_named
from tests.clubs import the_club
from tests.leagues.from_scratch import season_results
from tests.leagues.pages import table_rows
from tests.web.pages import HTMX, content, text, text_of
from tests.web.table import chickenfoot_round, play, scorekeeper_client, seated_names

pytestmark = pytest.mark.django_db

MEMBERS = ("Ana", "Bo", "Cy", "Di", "Eve", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kai", "Lu")
NINE = MEMBERS[:9]


def season_of(game: str, rules: dict, members=MEMBERS, name: str = "Friday Fives") -> Season:
    league = League.objects.create(club=the_club(), name=name, game=game, rules=rules)
    league.members.set([player_named(member) for member in members])
    return Season.objects.create(league=league, name="Winter", starts_on=datetime.date(2026, 12, 1))


@pytest.fixture
def season() -> Season:
    return season_of("straight", {"target": 25})


@pytest.fixture
def organizer() -> Client:
    return scorekeeper_client()


def member_ids(*names: str) -> list[int]:
    return [Player.objects.get(name=name).pk for name in names]


def new_night(client: Client, season: Season, players=NINE, **fields) -> Night:
    data = {
        "played_on": "2026-12-04",
        "draw": "blind",
        "rounds": 3,
        "partnerships": "on",
        "most_at_a_table": 4,
        "players": member_ids(*players),
        **fields,
    }
    url = reverse("nights:new_night", args=[season.league_id, season.pk])
    response = client.post(url, data)
    assert response.status_code == 302, content(response)
    return Night.objects.latest("pk")


def draw(client: Client, night: Night, seed: str = "") -> NightRound:
    response = client.post(reverse("nights:draw", args=[night.pk]), {"seed": seed})
    assert response.status_code == 302, content(response)
    return NightRound.objects.filter(night=night).latest("number")


def start(client: Client, night: Night, number: int):
    return client.post(reverse("nights:start", args=[night.pk, number]))


def seated(night_round: NightRound) -> list[list[str]]:
    names = dict(Player.objects.values_list("pk", "name"))
    return [
        [names[pk] for pk in table.player_ids] for table in night_round.tables.order_by("number")
    ]


def sitting_out(night_round: NightRound) -> list[str]:
    names = dict(Player.objects.values_list("pk", "name"))
    return sorted(names[pk] for pk in night_round.sitting_out_ids)


def matches_of(night_round: NightRound) -> list[Match]:
    return [table.match for table in night_round.tables.order_by("number")]


def win_every_table(client: Client, night_round: NightRound) -> None:
    """Seat 1 plays 25 at each table: their side reaches the target and wins."""
    for match in matches_of(night_round):
        response = play(client, match, seated_names(match)[0], 25)
        assert response.status_code in (200, 302)
        match.refresh_from_db()
        assert match.finished


def play_the_night(client: Client, night: Night) -> None:
    """Every round drawn, started and won at every table by seat 1's side."""
    for number in range(1, night.rounds + 1):
        drawn = draw(client, night)
        assert start(client, night, number).status_code == 302
        win_every_table(client, drawn)


def test_nine_players_draw_two_tables_and_one_sits_out(organizer, season):
    night = new_night(organizer, season)
    assert night.check_ins.count() == 9
    first = draw(organizer, night)
    tables = seated(first)
    assert [len(seats) for seats in tables] == [4, 4]
    out = sitting_out(first)
    assert len(out) == 1
    assert sorted(sum(tables, []) + out) == sorted(NINE)
    page = text(organizer.get(reverse("nights:night", args=[night.pk])))
    assert first.seed in page
    assert "Start round 1" in page
    assert f"Sitting out: {out[0]}" in page


def test_the_same_seed_draws_the_same_tables(organizer, season):
    night = new_night(organizer, season)
    # the first draw's seed is the night's own when none is given, and shown
    default = draw(organizer, night)
    assert default.seed == f"{night.seed}-1"
    once = seated(draw(organizer, night, seed="hall-42"))
    other = seated(draw(organizer, night, seed="another"))
    again = seated(draw(organizer, night, seed="hall-42"))
    assert once == again
    assert NightRound.objects.filter(night=night).count() == 1
    assert once != other or once == seated(draw(organizer, night, seed="a third"))


def test_drawing_a_round_again_without_a_seed_draws_from_a_new_one_shown(organizer, season):
    night = new_night(organizer, season)
    first = draw(organizer, night)
    seeds = [first.seed]
    for _ in range(3):
        seeds.append(draw(organizer, night).seed)
        page = text(organizer.get(reverse("nights:night", args=[night.pk])))
        assert f"Drawn from the seed {seeds[-1]}" in page
    assert len(set(seeds)) == 4
    # the seed shown draws the same tables when typed: the draw can be checked
    last = NightRound.objects.get(night=night)
    assert seated(last) == seated(draw(organizer, night, seed=last.seed))


def test_starting_a_round_makes_every_table_a_season_match_with_a_card(organizer, season):
    night = new_night(organizer, season)
    first = draw(organizer, night)
    response = start(organizer, night, 1)
    assert response.status_code == 302
    assert response["Location"] == reverse("nights:cards", args=[night.pk, 1])
    matches = matches_of(first)
    assert all(match is not None for match in matches)
    assert SeasonMatch.objects.filter(season=season, match__in=matches).count() == 2
    for match, seats in zip(matches, seated(first), strict=True):
        assert seated_names(match) == seats
        # partners sit opposite: seats 1 & 3 against 2 & 4
        assert list(match.seats.order_by("position").values_list("team", flat=True)) == [
            0,
            1,
            0,
            1,
        ]
        assert match.rules == {"target": 25}
    cards = organizer.get(reverse("nights:cards", args=[night.pk, 1]))
    page = content(cards)
    for number, seats in enumerate(seated(first), start=1):
        assert f"Table {number}" in text(cards)
        for name in seats:
            assert name in page
    links = [table.link for table in first.tables.order_by("number")]
    assert all(link.role == SCOREKEEPER and link.active for link in links)
    assert page.count("<svg") == 2
    # a phone at table 1 joins through its card's link and keeps score there
    phone = Client()
    join = reverse("access:join", args=[links[0].token])
    assert join in page
    assert phone.post(join, {"name": "Table 1"}).status_code == 302
    match = matches[0]
    response = play(phone, match, seated_names(match)[1], 10)
    assert response.status_code in (200, 302)
    match.refresh_from_db()
    assert match.totals == [0, 10]
    # and cannot keep score at table 2
    assert play(phone, matches[1], seated_names(matches[1])[0], 10).status_code == 403


def test_a_table_card_names_the_partnerships_and_prints_its_link_under_the_code(organizer, season):
    night = new_night(organizer, season)
    first = draw(organizer, night)
    start(organizer, night, 1)

    cards = organizer.get(reverse("nights:cards", args=[night.pk, 1]))

    page = text(cards)
    for table, (a, b, c, d) in zip(first.tables.order_by("number"), seated(first), strict=True):
        assert f"{a} & {c} against {b} & {d}" in page
        url = "http://testserver" + reverse("access:join", args=[table.link.token])
        # in text, for a phone that cannot scan the code: a printed link cannot be tapped
        assert f'<p class="card-url" data-testid="card-url">{url}</p>' in content(cards)
    assert "Seats 1 &amp; 3 against 2 &amp; 4" not in content(cards)


def test_only_the_organizer_runs_a_night(organizer, season):
    night = new_night(organizer, season)
    draw(organizer, night)
    member = get_user_model().objects.create_user("member", password="x")
    signed_in = Client()
    signed_in.force_login(member)
    for client in (Client(), signed_in):
        posts = [
            reverse("nights:new_night", args=[season.league_id, season.pk]),
            reverse("nights:check_in", args=[night.pk]),
            reverse("nights:draw", args=[night.pk]),
            reverse("nights:start", args=[night.pk, 1]),
            reverse("nights:leave", args=[night.pk]),
        ]
        for url in posts:
            assert client.post(url, {"players": member_ids("Jo")}).status_code == 403, url
        assert client.get(reverse("nights:cards", args=[night.pk, 1])).status_code == 403
        # watching is for everyone
        assert client.get(reverse("nights:board", args=[night.pk])).status_code == 200
        assert client.get(reverse("nights:night", args=[night.pk])).status_code == 200
    assert Night.objects.count() == 1
    assert night.check_ins.count() == 9
    assert not NightRound.objects.filter(started_at__isnull=False).exists()


def test_the_next_round_waits_for_every_table(organizer, season):
    night = new_night(organizer, season)
    first = draw(organizer, night)
    start(organizer, night, 1)
    response = organizer.post(reverse("nights:draw", args=[night.pk]), {})
    assert response.status_code == 422
    assert "Round 1 is still being played." in text(response)
    win_every_table(organizer, first)
    second = draw(organizer, night)
    assert second.number == 2


def test_byes_go_round_nobody_sits_out_twice_before_everyone_once(organizer, season):
    night = new_night(organizer, season, players=MEMBERS[:6], rounds=5)
    out = []
    for number in range(1, 6):
        drawn = draw(organizer, night)
        assert start(organizer, night, number).status_code == 302
        out.append(sitting_out(drawn))
        win_every_table(organizer, drawn)
    # six players, tables of four: two sit out each round, and all six have sat out once
    # before anyone sits out a second time
    assert all(len(names) == 2 for names in out)
    assert sorted(sum(out[:3], [])) == sorted(MEMBERS[:6])
    counts = Counter(sum(out, []))
    assert max(counts.values()) - min(counts[name] for name in MEMBERS[:6]) <= 1


def test_a_late_arrival_plays_from_the_next_round(organizer, season):
    night = new_night(organizer, season, players=MEMBERS[:8])
    first = draw(organizer, night)
    start(organizer, night, 1)
    response = organizer.post(
        reverse("nights:check_in", args=[night.pk]), {"players": member_ids("Ivy")}
    )
    assert response.status_code == 302
    assert CheckIn.objects.get(night=night, player__name="Ivy").from_round == 2
    assert "Ivy" not in sum(seated(first), []) + sitting_out(first)
    win_every_table(organizer, first)
    second = draw(organizer, night)
    # one of the nine sits out, and not Ivy: missing round 1 was her turn
    assert "Ivy" in sum(seated(second), [])
    assert len(sitting_out(second)) == 1


def test_a_draw_made_before_someone_came_is_drawn_again(organizer, season):
    night = new_night(organizer, season, players=MEMBERS[:8])
    draw(organizer, night)
    organizer.post(reverse("nights:check_in", args=[night.pk]), {"players": member_ids("Ivy")})
    response = start(organizer, night, 1)
    assert response.status_code == 422
    assert "draw round 1 again" in text(response)
    assert not Match.objects.exists()
    again = draw(organizer, night)
    assert "Ivy" in sum(seated(again), []) + sitting_out(again)
    assert start(organizer, night, 1).status_code == 302


def test_a_walk_in_joins_the_league(organizer, season):
    night = new_night(organizer, season, players=MEMBERS[:8], walk_ins="Zed Walker\nAna")
    assert set(night.check_ins.values_list("player__name", flat=True)) == set(
        MEMBERS[:8] + ("Zed Walker",)
    )
    assert season.league.members.filter(name="Zed Walker").exists()
    assert CheckIn.objects.get(night=night, player__name="Zed Walker").walk_in


def test_someone_leaving_hands_their_seat_over_or_their_side_forfeits(organizer, season):
    night = new_night(organizer, season)
    first = draw(organizer, night)
    start(organizer, night, 1)
    first.refresh_from_db()
    (spare,) = sitting_out(first)
    tables = seated(first)
    leaving = tables[0][1]
    response = organizer.post(
        reverse("nights:leave", args=[night.pk]),
        {"player": member_ids(leaving)[0], "replacement": member_ids(spare)[0]},
    )
    assert response.status_code == 302
    match = matches_of(first)[0]
    assert seated_names(match)[1] == spare
    # the match's history says who left and who plays on in the seat
    history = text(organizer.get(reverse("tables:history", args=[match.pk])))
    assert f"{leaving} left; {spare} plays on in that seat" in history
    first.refresh_from_db()
    assert first.sitting_out_ids == []
    assert CheckIn.objects.get(night=night, player__name=leaving).left_after == 1
    # at the other table nobody is left to take the seat: that side forfeits
    other = tables[1][3]
    organizer.post(reverse("nights:leave", args=[night.pk]), {"player": member_ids(other)[0]})
    entry = SeasonMatch.objects.get(match=matches_of(first)[1])
    assert entry.forfeited_by == 1
    # neither is drawn again
    match = matches_of(first)[0]
    play(organizer, match, seated_names(match)[0], 25)
    second = draw(organizer, night)
    assert leaving not in sum(seated(second), []) + sitting_out(second)
    assert other not in sum(seated(second), []) + sitting_out(second)


def test_the_night_board_shows_every_table_and_asks_cheaply(organizer, season):
    night = new_night(organizer, season)
    first = draw(organizer, night)
    url = reverse("nights:board", args=[night.pk])
    assert "The first round has not started yet." in text(Client().get(url))
    start(organizer, night, 1)
    tv = Client()
    response = tv.get(url)
    shown = text(response)
    assert "Round 1 of 3" in shown
    for seats in seated(first):
        assert all(name in shown for name in seats)
    assert f"Sitting out: {sitting_out(first)[0]}" in shown
    etag = response["ETag"]
    assert tv.get(url, headers={"If-None-Match": etag, **HTMX}).status_code == 304
    match = matches_of(first)[0]
    play(organizer, match, seated_names(match)[0], 15)
    changed = tv.get(url, headers={"If-None-Match": etag, **HTMX})
    assert changed.status_code == 200
    assert "15" in text(changed)


def poll_after_a_play(
    client: Client, organizer: Client, season, page: str, *, worker: str, tapped: bool = False
):
    """A round of two tables started and ``page`` (a view name) opened by ``client``; then a
    play at the first table, and ``client``'s poll answered by the same ``worker`` or by
    another, whose own cache never saw the night. Its text, the hands it read and the
    tables' matches. ``tapped``: the play tapped on the table's phone, which caches the score it
    worked out (tables/board_scores.py); else recorded by the service alone, as a change from
    anywhere else would be."""
    night = new_night(organizer, season)
    first = draw(organizer, night)
    start(organizer, night, 1)
    url = reverse(page, args=[night.pk])
    client.get(url)
    match, other = matches_of(first)
    if tapped:
        play(organizer, match, seated_names(match)[0], 15)
    else:
        # the first seat's player
        entries.play_record(match=match, player="0", points=15, by=Author(name="Bo"))
    if worker == "another":
        caches["local"].clear()
    with CaptureQueriesContext(connection) as read:
        shown = text(client.get(url, headers=HTMX))
    hands_read = [query["sql"] for query in read if 'FROM "tables_hand"' in query["sql"]]
    return shown, hands_read, match, other


@pytest.mark.parametrize("worker", ["same", "another"])
def test_after_a_play_at_one_table_the_night_board_scores_that_table_alone(
    organizer, season, worker
):
    """The TV's poll after a play redraws the table that moved; the others are kept drawn, so
    a hall of a hundred tables is not scored afresh at every tap. The polls are answered by
    whichever worker is free: what one drew, another is given from the shared cache."""
    shown, hands_read, match, other = poll_after_a_play(
        Client(), organizer, season, "nights:board", worker=worker
    )

    assert "15" in shown
    assert all(name in shown for name in seated_names(match) + seated_names(other))
    assert len(hands_read) == 1
    assert f"IN ({match.pk})" in hands_read[0]


def test_the_desk_after_a_play_scores_only_the_table_that_moved(organizer, season):
    shown, hands_read, match, _ = poll_after_a_play(
        organizer, organizer, season, "nights:desk", worker="another"
    )

    assert "Playing hand 1" in shown
    assert len(hands_read) == 1
    assert f"IN ({match.pk})" in hands_read[0]


@pytest.mark.parametrize("page", ["nights:board", "nights:desk"])
def test_a_play_tapped_at_a_table_is_on_the_boards_without_its_hands_read_again(
    organizer, season, page
):
    """The tap scored the match: the night's board and the desk are given its score from the
    shared cache, whichever worker answers."""
    client = Client() if page == "nights:board" else organizer
    shown, hands_read, match, other = poll_after_a_play(
        client, organizer, season, page, worker="another", tapped=True
    )

    assert re.search(r"\b15\b", shown)
    assert all(name in shown for name in seated_names(match) + seated_names(other))
    assert hands_read == []


def test_the_night_ends_with_its_results_and_the_season_standings(organizer, season):
    night = new_night(organizer, season, rounds=2)
    play_the_night(organizer, night)
    board = text(Client().get(reverse("nights:board", args=[night.pk])))
    assert "Tonight's results" in board
    assert "Standings, Winter" in board
    rows = list(
        csv.reader(
            io.StringIO(content(organizer.get(reverse("nights:results_csv", args=[night.pk]))))
        )
    )
    assert rows[0][:5] == ["rank", "player", "played", "won", "lost"]
    by_player = {row[1]: row for row in rows[1:]}
    played = Counter()
    won = Counter()
    for night_round in night.night_rounds.all():
        for match in matches_of(night_round):
            seats = seated_names(match)
            for position, name in enumerate(seats):
                played[name] += 1
                won[name] += position % 2 == 0
    assert {name: int(row[2]) for name, row in by_player.items()} == dict(played)
    assert {name: int(row[3]) for name, row in by_player.items()} == {n: won[n] for n in played}
    # the winners scored 25 a match, the losers nothing
    assert all(int(row[7]) == 25 * won[name] for name, row in by_player.items())


def test_the_nights_bundle_imports_back_to_the_same_standings(organizer, season):
    night = new_night(organizer, season, rounds=2)
    play_the_night(organizer, night)
    data = organizer.get(reverse("nights:bundle", args=[night.pk])).getvalue()
    assert len(zipfile.ZipFile(io.BytesIO(data)).namelist()) == 1 + 4
    imported = bundle.import_league(data, club=the_club())
    assert imported.name == "Friday Fives · 2026-12-04"
    (copy,) = imported.seasons.all()

    def table(season_id):
        return [
            (row.player, row.played, row.won, row.lost, row.points_for, row.points_against)
            for row in standings(season_results(season_id))
        ]

    assert table(copy.pk) == table(season.pk)


def test_rotating_partners_for_eight_players_partners_everyone_once(organizer, season):
    night = new_night(organizer, season, players=MEMBERS[:8], draw="rotating", rounds=7)
    page = text(organizer.get(reverse("nights:night", args=[night.pk])))
    assert "8 players: a whist schedule of 7 rounds" in page
    partners = Counter()
    opponents = Counter()
    for number in range(1, 8):
        drawn = draw(organizer, night)
        assert drawn.seed == ""
        start(organizer, night, number)
        for match in matches_of(drawn):
            a, b, c, d = seated_names(match)
            partners.update([frozenset((a, c)), frozenset((b, d))])
            opponents.update(frozenset(pair) for pair in [(a, b), (a, d), (c, b), (c, d)])
        win_every_table(organizer, drawn)
    pairs = [frozenset(pair) for pair in combinations(MEMBERS[:8], 2)]
    assert all(partners[pair] == 1 for pair in pairs)
    assert all(opponents[pair] == 2 for pair in pairs)
    response = organizer.post(reverse("nights:draw", args=[night.pk]), {})
    assert "All 7 rounds have been played." in text(response)


def test_rotating_partners_after_a_walk_in_gives_nobody_a_second_bye(organizer, season):
    # the hall's trial: nine players, round 1 with one sitting out, a walk-in, round 2
    night = new_night(organizer, season, draw="rotating", rounds=3)
    first = draw(organizer, night)
    (dale,) = sitting_out(first)
    assert start(organizer, night, 1).status_code == 302
    win_every_table(organizer, first)
    response = organizer.post(reverse("nights:check_in", args=[night.pk]), {"walk_ins": "Yul"})
    assert response.status_code == 302

    second = draw(organizer, night)

    # Dale sat round 1 out and Yul was not here: two of the eight who played it sit out now
    out = sitting_out(second)
    assert len(out) == 2
    assert dale not in out and "Yul" not in out
    page = text(organizer.get(reverse("nights:night", args=[night.pk])))
    assert f"Sitting out: {out[0]}, {out[1]}" in page


def test_rotating_partners_is_for_partnerships_only(organizer, season):
    url = reverse("nights:new_night", args=[season.league_id, season.pk])
    response = organizer.post(
        url,
        {
            "played_on": "2026-12-04",
            "draw": "rotating",
            "rounds": 3,
            "most_at_a_table": 4,
            "players": member_ids(*NINE),
        },
    )
    assert response.status_code == 422
    assert "Rotating partners is for Straight Dominoes in partnerships." in text(response)
    assert not Night.objects.exists()


def test_a_chickenfoot_night_seats_tables_the_set_allows(organizer):
    season = season_of("chickenfoot", {"set": 9}, MEMBERS[:11], name="Coop")
    night = new_night(organizer, season, players=MEMBERS[:11], partnerships="", most_at_a_table=6)
    drawn = draw(organizer, night)
    sizes = sorted(len(seats) for seats in seated(drawn))
    assert sum(sizes) == 11 and max(sizes) <= 6 and min(sizes) >= 3
    assert start(organizer, night, 1).status_code == 302
    assert all(match.game == "chickenfoot" for match in matches_of(drawn))


def test_starting_a_round_twice_makes_its_matches_once(organizer, season):
    night = new_night(organizer, season)
    draw(organizer, night)
    assert start(organizer, night, 1).status_code == 302
    again = start(organizer, night, 1)
    assert again.status_code == 422
    assert "Round 1 has started." in text(again)
    assert Match.objects.count() == 2


def test_a_balanced_draw_never_partners_the_two_strongest(organizer, season):
    # Ana & Cy beat Bo & Di twice in the season: theirs are the two best ratings
    for _ in range(2):
        match = create_match(
            rules.Match(
                "straight",
                ("Ana", "Bo", "Cy", "Di"),
                partnerships=(("Ana", "Cy"), ("Bo", "Di")),
                rules={"target": 25},
                hands=(rules.Hand(leader="Ana", plays=(rules.Play("Ana", points=25),)),),
            )
        )
        assert match.finished
        season_match_add(season=season, match=match)
    night = new_night(organizer, season, players=("Ana", "Bo", "Cy", "Di"), draw="balanced")
    for seed in ("one", "two", "three"):
        (seats,) = seated(draw(organizer, night, seed=seed))
        partners = {frozenset((seats[0], seats[2])), frozenset((seats[1], seats[3]))}
        assert frozenset(("Ana", "Cy")) not in partners


def test_a_chickenfoot_night_places_its_players_lowest_first(organizer):
    season = season_of("chickenfoot", {}, MEMBERS[:8], name="Coop")
    night = new_night(organizer, season, players=MEMBERS[:8], partnerships="", rounds=1)
    drawn = draw(organizer, night)
    start(organizer, night, 1)
    totals = {}
    for match in matches_of(drawn):
        first, *others = seated_names(match)
        # a double-six set plays 7 rounds: the first player goes out of each, the others keep
        # 1, 2 and 3 pips
        for _ in range(7):
            held = {name: pips for pips, name in enumerate(others, start=1)}
            response = chickenfoot_round(organizer, match, went_out=first, **held)
            assert response.status_code in (200, 302)
        match.refresh_from_db()
        assert match.finished
        totals.update({first: 0, **{name: 7 * p for p, name in enumerate(others, start=1)}})
    board = content(Client().get(reverse("nights:board", args=[night.pk])))
    results = board[board.index('class="standings night-results"') : board.index("</table>")]
    header, *rows = table_rows(results)
    assert header == ["#", "Player", "Played", "Won", "Lost", "1st", "2nd", "3rd", "4th", "Avg"]
    by_player = {row[1]: row for row in rows}
    assert set(by_player) == set(MEMBERS[:8])
    for name, total in totals.items():
        place = 1 + total // 7
        placings = ["1" if p == place else "0" for p in range(1, 5)]
        won = "1" if place == 1 else "0"
        assert by_player[name][2:] == [
            "1",
            won,
            "0" if won == "1" else "1",
            *placings,
            f"{total}.0",
        ]


def test_opening_a_season_starts_it_today_unless_told_otherwise(organizer):
    league = League.objects.create(club=the_club(), name="Thursday Fives", game="straight")

    page = content(organizer.get(reverse("leagues:league", args=[league.pk])))

    today = timezone.localdate().isoformat()
    assert re.search(rf'<input type="date" name="starts_on" value="{today}"', page), page
    assert not re.search(r'<input type="date" name="ends_on" value=', page)


def test_two_nights_on_the_same_date_are_told_apart_on_the_season_page(organizer, season):
    first = new_night(organizer, season)
    second = new_night(organizer, season)
    other_day = new_night(organizer, season, played_on="2026-12-11")

    page = organizer.get(reverse("leagues:season", args=[season.league_id, season.pk]))

    rows = {
        int(pk): text_of(row)
        for pk, row in re.findall(r'<li><a href="/nights/(\d+)/">(.*?)</li>', content(page))
    }
    assert set(rows) == {first.pk, second.pk, other_day.pk}
    assert rows[first.pk] != rows[second.pk]
    assert rows[first.pk].startswith(
        "League night, Dec. 4, 2026 · night 1 of 2 that day, opened at"
    )
    assert rows[second.pk].startswith(
        "League night, Dec. 4, 2026 · night 2 of 2 that day, opened at"
    )
    # a night alone on its date needs nothing more
    assert rows[other_day.pk] == "League night, Dec. 11, 2026"


def byes_summary(client: Client, night: Night) -> str:
    """What the drawn round's fairness says of the rounds sat out so far."""
    page = content(client.get(reverse("nights:night", args=[night.pk])))
    said = re.search(r"(Sat out so far: .*?|Nobody has sat out yet\.)</p>", page)
    assert said is not None
    return text_of(said.group(1))


def test_the_byes_summary_counts_the_rounds_the_draw_counts_as_sat_out(organizer, season):
    # eight play round 1 at two tables; Jo comes for round 2, whose draw has one sit out
    night = new_night(organizer, season, players=MEMBERS[:8])
    first = draw(organizer, night)
    assert start(organizer, night, 1).status_code == 302
    organizer.post(reverse("nights:check_in", args=[night.pk]), {"players": member_ids("Jo")})
    win_every_table(organizer, first)
    second = draw(organizer, night)
    (spare,) = sitting_out(second)
    # missing round 1 by coming late is a round sat out (docs/nights.md): Jo is not the bye
    assert spare != "Jo"
    assert byes_summary(organizer, night) == "Sat out so far: " + ", ".join(
        f"{name} 1" for name in sorted(["Jo", spare])
    )
    assert start(organizer, night, 2).status_code == 302
    # someone leaves mid-match and the one sitting out takes the seat: their bye still counts
    # (not Jo, who stays for round 3 with the round he missed)
    leaving = next(name for name in seated(second)[0] if name != "Jo")
    response = organizer.post(
        reverse("nights:leave", args=[night.pk]),
        {"player": member_ids(leaving)[0], "replacement": member_ids(spare)[0]},
    )
    assert response.status_code == 302
    win_every_table(organizer, second)
    third = draw(organizer, night)
    assert sitting_out(third) == []
    assert byes_summary(organizer, night) == "Sat out so far: " + ", ".join(
        f"{name} 1" for name in sorted(["Jo", spare])
    )
