"""The wall board for a TV: the board alone, full screen, each table's hand and who starts it,
and a poll every two seconds answered 304 until something on the board changes."""

from __future__ import annotations

import datetime
import re

import pytest
from django.core.cache import cache, caches
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

from scorekeeper import rules
from scorekeeper.leagues.models import League, Season
from scorekeeper.leagues.moves import season_match_add
from scorekeeper.tables import board_scores, entries
from scorekeeper.tables.models import Match, Player
from scorekeeper.tables.players import player_renamed
from scorekeeper.tables.recording import Author
from scorekeeper.tables.scoring import create_match
from tests.clubs import the_club
from tests.seated import seat_key
from tests.web.pages import HTMX, content, text, text_of
from tests.web.table import play, scorekeeper_client

pytestmark = pytest.mark.django_db

#: what a TV's poll sends: htmx's headers, naming the element that asks
POLL = {**HTMX, "HX-Trigger": "wall-poll"}
_POLL = re.compile(r'id="wall-poll"[^>]*hx-get="([^"]+)"[^>]*hx-trigger="every 2s, live:changed"')
_POLL_ELEMENT = re.compile(r'<div id="wall-poll"[^>]*></div>')
_SLOT = re.compile(
    r'<div id="wall-match-(\d+)" class="wall-slot"[^>]*>\s*(<article.*?</article>)\s*</div>', re.S
)
_NEXT = re.compile(r'data-testid="wall-next">(.*?)</p>', re.S)


def season_of(game: str, *matches: rules.Match) -> tuple[Season, list[Match]]:
    """A league of ``game`` with one season holding ``matches``."""
    league = League.objects.create(club=the_club(), name="Thursday Club", game=game, rules={})
    season = Season.objects.create(
        league=league, name="Autumn", starts_on=datetime.date(2026, 9, 1)
    )
    stored = [create_match(value) for value in matches]
    for match in stored:
        season_match_add(season=season, match=match)
    return season, stored


def wall_of(season: Season) -> str:
    return reverse("leagues:wall", args=[season.league_id, season.pk])


def poll_address(response: HttpResponse) -> str:
    """Where the board's poll asks next: the wall's address naming the version it shows."""
    return poll_address_in(content(response))


def poll_address_in(board: str) -> str:
    found = _POLL.search(board)
    assert found is not None, "the board does not poll every two seconds"
    return found.group(1).replace("&amp;", "&")


def on_the_tv(board: str, answer: HttpResponse) -> str:
    """The board a TV shows once its poll's answer is put in place, as htmx does: a 304 leaves
    it, the whole board replaces it, the tables that moved alone (the answer retargeted to the
    poll) replace the poll and, by id, each of those tables."""
    if answer.status_code == 304:
        return board
    said = content(answer)
    if answer.headers.get("HX-Retarget") != "#wall-poll":
        return said
    moved = dict(_SLOT.findall(said))
    poll = _POLL_ELEMENT.search(said)
    assert poll is not None, "the answer holds no new poll"
    board = _POLL_ELEMENT.sub(lambda _: poll.group(0), board)
    return _SLOT.sub(
        lambda slot: (
            f'<div id="wall-match-{slot[1]}" class="wall-slot">{moved.get(slot[1], slot[2])}</div>'
        ),
        board,
    )


def shown(board: str) -> str:
    """What a board shows, in words, as ``text`` reads an answer."""
    return text_of(board)


def said_next(response: HttpResponse) -> list[str]:
    return [text_of(line) for line in _NEXT.findall(content(response))]


STRAIGHT_PLAYING = rules.Match(
    "straight",
    ("Ann", "Bob"),
    rules={"target": 250},
    hands=(
        rules.Hand(
            leader="Ann",
            plays=(rules.Play("Ann", points=10),),
            end=rules.HandEnd("domino", player="Ann", pips={"Bob": 12}),
        ),
        rules.Hand(leader="Bob", plays=(rules.Play("Bob", points=5),)),
    ),
)


def test_the_wall_shows_the_board_alone_with_a_full_screen_button(client: Client) -> None:
    season, _ = season_of("straight", STRAIGHT_PLAYING)

    page = content(client.get(wall_of(season)))

    assert 'class="site-header"' not in page
    assert 'class="site-footer"' not in page
    assert "js/wall.js" in page
    assert re.search(r"<button[^>]*data-fullscreen[^>]*hidden", page)
    # under the strict policy: no inline script or style
    assert "<script>" not in page
    assert "style=" not in page


def test_the_wall_answers_its_poll_304_until_a_play_and_then_shows_the_new_score(
    client: Client,
) -> None:
    season, (match,) = season_of("straight", STRAIGHT_PLAYING)
    first = client.get(wall_of(season))
    poll = poll_address(first)
    assert "Ann 20 Bob 5" in text(first).split("Playing now")[1]

    unchanged = client.get(poll, headers=POLL)
    entries.play_record(
        match=match, player=seat_key(match, "Ann"), points=20, by=Author(name="Bea")
    )
    changed = client.get(poll, headers=POLL)
    after = client.get(poll_address(changed), headers=POLL)

    assert unchanged.status_code == 304
    assert unchanged.content == b""
    assert changed.status_code == 200
    # only the table moved: the answer is that table alone, and the poll that asks from there
    assert "Ann 40 Bob 5" in text(changed)
    assert "Standings" not in text(changed)
    assert "<html" not in content(changed)
    assert poll_address(changed) != poll
    assert after.status_code == 304


def test_a_match_that_ends_or_a_new_one_moves_the_wall(client: Client) -> None:
    season, (match,) = season_of("straight", STRAIGHT_PLAYING)
    poll = poll_address(client.get(wall_of(season)))

    season_match_add(season=season, match=create_match(rules.Match("straight", ("Cy", "Dee"))))
    moved = client.get(poll, headers=POLL)

    assert moved.status_code == 200
    assert "Cy 0 Dee 0" in text(moved)


def test_each_table_shows_its_hand_and_who_leads_it(client: Client) -> None:
    season, _ = season_of(
        "straight",
        STRAIGHT_PLAYING,
        rules.Match("straight", ("Cy", "Dee"), hands=(rules.Hand(leader="Dee"),)),
    )

    shown = said_next(client.get(wall_of(season)))

    assert shown == ["Hand 2 · Bob leads", "Hand 1 · Dee leads"]


def test_a_sedma_table_shows_who_opens(client: Client) -> None:
    season, _ = season_of(
        "sedma",
        rules.Match(
            "sedma",
            ("Jirka", "Bára", "Ota", "Lída"),
            hands=(rules.Hand(opener="Bára", plays=(rules.Play("Bára", tile=(3, 3)),)),),
        ),
    )

    assert said_next(client.get(wall_of(season))) == ["Hand 1 · Bára opens"]


def test_a_chickenfoot_table_shows_the_double_that_starts_the_round(client: Client) -> None:
    season, _ = season_of(
        "chickenfoot",
        rules.Match(
            "chickenfoot",
            ("Ann", "Bob", "Cy"),
            hands=(
                rules.Hand(
                    double=6,
                    starter="Cy",
                    end=rules.HandEnd("domino", player="Bob", pips={"Ann": 14, "Cy": 22}),
                ),
            ),
        ),
    )

    assert said_next(client.get(wall_of(season))) == ["Round 2 · starts with 5-5"]


def test_a_poll_for_a_season_that_is_gone_is_not_found(client: Client) -> None:
    season, _ = season_of("straight", STRAIGHT_PLAYING)
    poll = poll_address(client.get(wall_of(season)))
    season.league.delete()

    assert client.get(poll, headers=POLL).status_code == 404


def counted_scoring(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The ids of the matches the boards score from their hands, from now on."""
    scored: list[int] = []
    real = board_scores.scoreboard_of

    def counted(played: Match) -> rules.Scoreboard:
        scored.append(played.pk)
        return real(played)

    monkeypatch.setattr(board_scores, "scoreboard_of", counted)
    return scored


def test_after_a_play_at_one_table_the_wall_scores_that_table_alone(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    others = [
        rules.Match("straight", (f"P{n}a", f"P{n}b"), rules={"target": 250}) for n in range(3)
    ]
    season, (match, *_) = season_of("straight", STRAIGHT_PLAYING, *others)
    first = client.get(wall_of(season))
    scored = counted_scoring(monkeypatch)
    entries.play_record(
        match=match, player=seat_key(match, "Ann"), points=20, by=Author(name="Bea")
    )

    changed = client.get(poll_address(first), headers=POLL)

    assert changed.status_code == 200
    assert scored == [match.pk]
    assert "Ann 40 Bob 5" in text(changed)
    # the other tables are not sent again: the TV keeps them as they were drawn
    assert not any(f"P{n}a" in text(changed) for n in range(3))
    playing = shown(on_the_tv(content(first), changed)).split("Playing now")[1]
    assert "Ann 40 Bob 5" in playing
    assert all(f"P{n}a 0 P{n}b 0" in playing for n in range(3))


def test_a_play_tapped_at_a_table_is_on_the_wall_without_its_hands_read_again(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    season, (match,) = season_of("straight", STRAIGHT_PLAYING)
    first = client.get(wall_of(season))
    scored = counted_scoring(monkeypatch)

    assert play(scorekeeper_client(), match, "Ann", 20, htmx=True).status_code == 200
    changed = client.get(poll_address(first), headers=POLL)

    assert changed.status_code == 200
    # the tap kept the score it worked out: the wall reads no hands
    assert scored == []
    assert "Ann 40 Bob 5" in text(changed)
    assert said_next(changed) == ["Hand 2 · Bob leads"]


def test_a_player_renamed_after_a_play_is_on_the_wall_under_the_new_name(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    season, (match,) = season_of("straight", STRAIGHT_PLAYING)
    play(scorekeeper_client(), match, "Ann", 20, htmx=True)
    first = client.get(wall_of(season))
    scored = counted_scoring(monkeypatch)

    ann = Player.objects.get(name="Ann")
    ann.name = "Annabel"
    ann.save()
    # as the admin renames a player
    player_renamed(ann)
    changed = client.get(poll_address(first), headers=POLL)

    # the score kept at the tap names Ann: the match is scored again under the new name
    assert scored == [match.pk]
    playing = text(changed).split("Playing now")[1]
    assert "Annabel 40 Bob 5" in playing
    assert not re.search(r"\bAnn\b", playing)


def _tables(count: int) -> list[rules.Match]:
    return [
        rules.Match("straight", (f"P{n}a", f"P{n}b"), rules={"target": 250}) for n in range(count)
    ]


def test_a_tv_that_puts_the_moved_tables_in_place_shows_what_a_fresh_board_shows(
    client: Client,
) -> None:
    season, matches = season_of("straight", STRAIGHT_PLAYING, *_tables(3))
    tv = content(client.get(wall_of(season), headers=HTMX))
    for match, points in ((matches[0], 20), (matches[2], 15), (matches[0], 5)):
        player = match.seats.first().player.name
        entries.play_record(
            match=match, player=seat_key(match, player), points=points, by=Author(name="Bea")
        )
        answer = client.get(poll_address_in(tv), headers=POLL)
        assert answer.headers.get("HX-Retarget") == "#wall-poll"
        tv = on_the_tv(tv, answer)

    fresh = content(client.get(wall_of(season), headers=HTMX))
    assert re.sub(r"\s+", "", tv) == re.sub(r"\s+", "", fresh)
    playing = shown(tv).split("Playing now")[1]
    assert "Ann 45 Bob 5" in playing and "P1a 15 P1b 0" in playing


def test_the_tables_that_moved_alone_are_sent_not_the_whole_board(client: Client) -> None:
    season, matches = season_of("straight", STRAIGHT_PLAYING, *_tables(8))
    tv = content(client.get(wall_of(season), headers=HTMX))
    entries.play_record(
        match=matches[2], player=seat_key(matches[2], "P1a"), points=10, by=Author(name="Bea")
    )

    answer = client.get(poll_address_in(tv), headers=POLL)

    said = content(answer)
    assert [match_id for match_id, _ in _SLOT.findall(said)] == [str(matches[2].pk)]
    assert "P1a 10 P1b 0" in text(answer)
    assert "Standings" not in text(answer)
    # one table of nine, and no standings
    assert len(said) * 5 < len(tv)


@pytest.mark.parametrize(
    "change", ["a new match", "its versions forgotten", "language", "a page of a release before"]
)
def test_a_board_is_sent_whole_when_more_than_the_tables_moved(client: Client, change: str) -> None:
    season, (_, other) = season_of("straight", STRAIGHT_PLAYING, *_tables(1))
    tv = content(client.get(wall_of(season), headers=HTMX))
    entries.play_record(
        match=other, player=seat_key(other, "P0a"), points=10, by=Author(name="Bea")
    )
    if change == "a new match":
        season_match_add(season=season, match=create_match(rules.Match("straight", ("Cy", "Dee"))))
    elif change == "its versions forgotten":
        caches["local"].clear()
        cache.clear()
    elif change == "language":
        client.cookies["django_language"] = "es"

    # a page served before the tables were put in place by id: its poll is the board itself
    asked_by = "wall-board" if change == "a page of a release before" else "wall-poll"
    answer = client.get(poll_address_in(tv), headers={**HTMX, "HX-Trigger": asked_by})

    assert answer.status_code == 200
    assert answer.headers.get("HX-Retarget") is None
    assert content(answer).strip().startswith('<div id="wall-board"')
    assert len(_SLOT.findall(content(answer))) == (3 if change == "a new match" else 2)
    assert "P0a 10 P0b 0" in text(answer)
