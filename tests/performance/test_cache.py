"""Pages never show an old state: a scoreboard shows a play as soon as it is recorded, to a
watcher (whose page is kept under the match's version) as to a scorekeeper; an open board's poll
is answered 304 while the match is as the board shows it and with the fresh totals once it is
not; the standings follow their season, and every change moves the version it touches."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.http import HttpResponse
from django.test import Client
from django.test.signals import template_rendered
from django.urls import reverse

from scorekeeper.leagues.models import Season
from scorekeeper.tables.models import Match
from tests.performance.hall import SMALL, Hall, build, season_match_to_ten
from tests.web.pages import HTMX, content, next_up, text, text_of, totals
from tests.web.table import play, scorekeeper_client

pytestmark = pytest.mark.django_db


def season_url(hall: Hall) -> str:
    return reverse("leagues:season", args=[hall.league.pk, hall.season.pk])


def in_standings(client: Client, hall: Hall, player: str) -> bool:
    """Whether the season's table has a row for ``player``."""
    page = client.get(season_url(hall)).content.decode()
    # the name, as a link to the player's page
    return re.search(rf'<th scope="row"><a href="[^"]*">{re.escape(player)}</a>', page) is not None


def scoreboard(client: Client, match: Match) -> str:
    response = client.get(reverse("tables:scoreboard", args=[match.pk]))
    assert response.status_code == 200
    return response.content.decode()


def first_player(match: Match) -> str:
    return match.seats.order_by("position").first().player.name


def test_a_watchers_scoreboard_shows_a_play_recorded_right_after_it_was_seen() -> None:
    hall = build(SMALL)
    spectator, scorekeeper = Client(), scorekeeper_client()
    before = totals(spectator.get(reverse("tables:scoreboard", args=[hall.match.pk])))

    play(scorekeeper, hall.match, first_player(hall.match), 10)

    after = totals(spectator.get(reverse("tables:scoreboard", args=[hall.match.pk])))
    assert after == [before[0] + 10, *before[1:]]


def test_a_scorekeepers_scoreboard_shows_the_new_total_right_after_an_entry() -> None:
    hall = build(SMALL)
    scorekeeper = scorekeeper_client()
    before = totals(scorekeeper.get(reverse("tables:scoreboard", args=[hall.match.pk])))

    play(scorekeeper, hall.match, first_player(hall.match), 10)

    after = totals(scorekeeper.get(reverse("tables:scoreboard", args=[hall.match.pk])))
    assert after == [before[0] + 10, *before[1:]]


def test_every_visit_to_a_scorekeepers_board_gets_its_own_keys() -> None:
    hall = build(SMALL)
    client = scorekeeper_client()

    pages = [scoreboard(client, hall.match) for _ in range(2)]

    keys = [re.findall(r'name="entry_key" value="([0-9a-f]{32})"', page) for page in pages]
    assert keys[0] and keys[1] and set(keys[0]).isdisjoint(keys[1])
    for page in pages:
        assert re.search(r'name="csrfmiddlewaretoken" value="\w{64}"', page)


def poll_address(page: str) -> str:
    """The address the page's poll asks, every two seconds, whether the match has changed."""
    found = re.search(r'id="live-poll"[^>]* hx-get="([^"]+)"', page)
    assert found is not None, "the page does not poll for changes"
    return found.group(1).replace("&amp;", "&")


def test_a_poll_is_answered_304_while_the_match_is_as_the_page_shows_it() -> None:
    hall = build(SMALL)
    watcher = Client()
    address = poll_address(scoreboard(watcher, hall.match))

    answers = [watcher.get(address, headers=HTMX) for _ in range(2)]

    assert [answer.status_code for answer in answers] == [304, 304]
    assert all(answer.content == b"" for answer in answers)


def test_a_poll_after_a_change_brings_the_fresh_totals_and_the_next_poll_is_304() -> None:
    hall = build(SMALL)
    watcher, scorekeeper = Client(), scorekeeper_client()
    page = scoreboard(watcher, hall.match)
    before = totals(HttpResponse(page))

    play(scorekeeper, hall.match, first_player(hall.match), 10)
    answer = watcher.get(poll_address(page), headers=HTMX)

    assert answer.status_code == 200
    assert totals(answer) == [before[0] + 10, *before[1:]]
    assert "HX-Refresh" not in answer
    # the answer brings the poll of the board as it now is
    assert watcher.get(poll_address(answer.content.decode()), headers=HTMX).status_code == 304


def test_a_poll_that_names_the_version_in_if_none_match_is_answered_the_same_way() -> None:
    hall = build(SMALL)
    watcher, scorekeeper = Client(), scorekeeper_client()
    url = reverse("tables:live", args=[hall.match.pk])
    version = Match.objects.values_list("version", flat=True).get(pk=hall.match.pk)
    shown = {**HTMX, "If-None-Match": f'"{version}"'}

    assert watcher.get(url, headers=shown).status_code == 304
    play(scorekeeper, hall.match, first_player(hall.match), 10)
    answer = watcher.get(url, headers=shown)

    assert answer.status_code == 200
    assert answer["ETag"].strip("W/") == f'"{version + 1}"'


def test_a_tables_watchers_are_given_the_drawing_the_tap_made_of_its_change(
    django_assert_max_num_queries,
) -> None:
    hall = build(SMALL)
    scorekeeper = scorekeeper_client()
    watchers = [Client() for _ in range(3)]
    pages = [scoreboard(watcher, hall.match) for watcher in watchers]
    before = totals(HttpResponse(pages[0]))

    play(scorekeeper, hall.match, first_player(hall.match), 10)
    answers = []
    for watcher, page in zip(watchers, pages, strict=True):
        # the version, the match's row, and the drawing the tap kept for them: no hands read
        with django_assert_max_num_queries(3):
            answers.append(watcher.get(poll_address(page), headers=HTMX))
    cache.clear()
    drawn_by_a_watcher = Client().get(poll_address(pages[0]), headers=HTMX)

    assert totals(answers[0]) == [before[0] + 10, *before[1:]]
    assert all(answer.content == drawn_by_a_watcher.content for answer in answers)
    assert all(answer["ETag"] == drawn_by_a_watcher["ETag"] for answer in answers)


def hand_shown(response: HttpResponse, number: int) -> str:
    """The text of hand ``number`` as the answer shows it."""
    found = re.search(rf'<details[^>]* id="hand-{number}".*?</details>', content(response), re.S)
    assert found is not None, f"hand {number} is not in the answer"
    return text_of(found.group(0))


def test_the_watchers_of_a_hand_being_played_are_given_that_hand_and_the_totals(
    django_assert_max_num_queries,
) -> None:
    """A play added to the hand being played: the table's phones, which show the version just
    before it, are given the totals and that hand as the whole board shows them, drawn by the
    tap; a page further behind is given the whole board."""
    hall = build(SMALL)
    scorekeeper, near, behind = scorekeeper_client(), Client(), Client()
    player = first_player(hall.match)
    play(scorekeeper, hall.match, player, 10)
    page_behind = scoreboard(behind, hall.match)
    play(scorekeeper, hall.match, player, 5)
    page = scoreboard(near, hall.match)

    play(scorekeeper, hall.match, player, 10)
    with django_assert_max_num_queries(3):
        step = near.get(poll_address(page), headers=HTMX)
    whole = behind.get(poll_address(page_behind), headers=HTMX)

    number = Match.objects.get(pk=hall.match.pk).hand_count
    assert 'id="live-history"' in content(whole)
    assert 'id="live-history"' not in content(step)
    assert len(step.content) < len(whole.content)
    assert totals(step) == totals(whole)
    assert next_up(step) == next_up(whole)
    assert hand_shown(step, number) == hand_shown(whole, number)
    assert totals(step) != totals(HttpResponse(page))
    # the answer brings the poll of the board as it now is
    assert near.get(poll_address(content(step)), headers=HTMX).status_code == 304


def totals_and_hand(response: HttpResponse) -> str:
    """The answer's totals and the hand after them, as sent (oob, the answer's last parts)."""
    answer = content(response)
    return answer[answer.index('<div id="live-top"') :]


def test_a_tap_and_its_tables_watchers_are_answered_with_one_drawing_of_totals_and_hand() -> None:
    """A play added to the hand being played: the scorekeeper's phone and the watchers' show
    the same totals and hand, to the byte, drawn once by the tap for all of them."""
    hall = build(SMALL)
    scorekeeper, watcher = scorekeeper_client(), Client()
    player = first_player(hall.match)
    play(scorekeeper, hall.match, player, 10)
    page = scoreboard(watcher, hall.match)
    drawn = []
    template_rendered.connect(collect := lambda sender, template, **kw: drawn.append(template.name))
    try:
        hall.match.refresh_from_db()
        tap = play(scorekeeper, hall.match, player, 5, htmx=True, drawn=str(hall.match.version))
    finally:
        template_rendered.disconnect(collect)
    seen = watcher.get(poll_address(page), headers=HTMX)

    number = Match.objects.get(pk=hall.match.pk).hand_count
    assert tap["HX-Retarget"] == "#play-entry"
    assert drawn.count("tables/_live_top.html") == 1
    assert drawn.count("tables/_hand_row.html") == 1
    assert totals_and_hand(tap) == totals_and_hand(seen)
    assert f'id="hand-{number}"' in totals_and_hand(tap)
    assert totals(tap) == totals(seen) != totals(HttpResponse(page))


def test_a_watchers_poll_in_another_language_is_drawn_in_that_language() -> None:
    hall = build(SMALL)
    scorekeeper, english, spanish = scorekeeper_client(), Client(), Client()
    spanish.cookies["django_language"] = "es"
    pages = [scoreboard(english, hall.match), scoreboard(spanish, hall.match)]

    play(scorekeeper, hall.match, first_player(hall.match), 10)
    answers = [english.get(poll_address(pages[0]), headers=HTMX)]
    answers.append(spanish.get(poll_address(pages[1]), headers=HTMX))

    assert answers[0]["Content-Language"] == "en" and answers[1]["Content-Language"] == "es"
    assert answers[0].content != answers[1].content
    assert totals(answers[0]) == totals(answers[1])


def test_a_scorekeepers_poll_after_another_phones_entry_keeps_its_own_forms() -> None:
    hall = build(SMALL)
    watcher, scorekeeper, other_phone = Client(), scorekeeper_client(), scorekeeper_client()
    page = scoreboard(scorekeeper, hall.match)
    scoreboard(watcher, hall.match)

    play(other_phone, hall.match, first_player(hall.match), 10)
    watched = watcher.get(poll_address(page), headers=HTMX).content.decode()
    kept = scorekeeper.get(poll_address(page), headers=HTMX).content.decode()

    assert "csrfmiddlewaretoken" not in watched
    assert re.search(r'name="csrfmiddlewaretoken" value="\w{64}"', kept)
    assert kept.replace(" ", "") != watched.replace(" ", "")


def test_the_standings_count_a_match_finished_after_they_were_cached() -> None:
    hall = build(SMALL)
    client = scorekeeper_client()
    match = season_match_to_ten(hall)
    assert not in_standings(client, hall, "Quinn")

    play(client, match, "Quinn", 10)

    assert in_standings(client, hall, "Quinn")


def test_the_standings_count_a_forfeit_recorded_after_they_were_cached() -> None:
    hall = build(SMALL)
    client = scorekeeper_client()
    match = season_match_to_ten(hall)
    assert "(1 F)" not in text(client.get(season_url(hall)))

    client.post(
        reverse("leagues:forfeit", args=[hall.league.pk, hall.season.pk, match.pk]), {"side": 1}
    )

    assert "(1 F)" in text(client.get(season_url(hall)))


def wall_scores(client: Client, hall: Hall) -> list[str]:
    """The wall board's "Playing now" lines, as a TV shows them."""
    board = client.get(reverse("leagues:wall", args=[hall.league.pk, hall.season.pk]))
    tables = re.findall(r'<article class="wall-match"(.*?)</article>', board.content.decode(), re.S)
    return [
        " · ".join(
            text_of(side)
            for side in re.findall(r'<li class="wall-side[ "][^>]*>(.*?)</li>', table, re.S)
        )
        for table in tables
    ]


def season_version(hall: Hall) -> int:
    return Season.objects.values_list("version", flat=True).get(pk=hall.season.pk)


def test_a_play_in_a_league_match_shows_on_the_wall_without_working_out_the_standings() -> None:
    """League night: every tap shows on the TV at once, and the season's standings, which
    count only finished matches, are not worked out again for it."""
    hall = build(SMALL)
    scorekeeper, tv = scorekeeper_client(), Client()
    match = season_match_to_ten(hall)
    assert wall_scores(tv, hall) == ["Quinn 0 · Rory 0"]
    version = season_version(hall)

    play(scorekeeper, match, "Quinn", 5)

    assert wall_scores(tv, hall) == ["Quinn 5 · Rory 0"]
    assert season_version(hall) == version
    assert not in_standings(tv, hall, "Quinn")


def test_the_play_that_finishes_a_league_match_moves_it_into_the_standings() -> None:
    hall = build(SMALL)
    scorekeeper, tv = scorekeeper_client(), Client()
    match = season_match_to_ten(hall)
    play(scorekeeper, match, "Quinn", 5)
    assert not in_standings(tv, hall, "Quinn")

    play(scorekeeper, match, "Quinn", 5)

    assert in_standings(tv, hall, "Quinn")
    assert wall_scores(tv, hall) == []
