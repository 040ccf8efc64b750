"""The wall board for a TV: the board alone, full screen, each table's hand and who starts it,
and a poll every two seconds answered 304 until something on the board changes."""

from __future__ import annotations

import datetime
import re

import pytest
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

_POLL = re.compile(r'id="wall-board"[^>]*hx-get="([^"]+)"[^>]*hx-trigger="every 2s, live:changed"')
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
    found = _POLL.search(content(response))
    assert found is not None, "the board does not poll every two seconds"
    return found.group(1).replace("&amp;", "&")


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

    unchanged = client.get(poll, headers=HTMX)
    entries.play_record(
        match=match, player=seat_key(match, "Ann"), points=20, by=Author(name="Bea")
    )
    changed = client.get(poll, headers=HTMX)
    after = client.get(poll_address(changed), headers=HTMX)

    assert unchanged.status_code == 304
    assert unchanged.content == b""
    assert changed.status_code == 200
    assert "Ann 40 Bob 5" in text(changed).split("Playing now")[1]
    assert "<html" not in content(changed)
    assert poll_address(changed) != poll
    assert after.status_code == 304


def test_a_match_that_ends_or_a_new_one_moves_the_wall(client: Client) -> None:
    season, (match,) = season_of("straight", STRAIGHT_PLAYING)
    poll = poll_address(client.get(wall_of(season)))

    season_match_add(season=season, match=create_match(rules.Match("straight", ("Cy", "Dee"))))
    moved = client.get(poll, headers=HTMX)

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

    assert client.get(poll, headers=HTMX).status_code == 404


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

    changed = client.get(poll_address(first), headers=HTMX)

    assert changed.status_code == 200
    assert scored == [match.pk]
    playing = text(changed).split("Playing now")[1]
    assert "Ann 40 Bob 5" in playing
    # the other tables are shown as they were drawn
    assert all(f"P{n}a 0 P{n}b 0" in playing for n in range(3))


def test_a_play_tapped_at_a_table_is_on_the_wall_without_its_hands_read_again(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    season, (match,) = season_of("straight", STRAIGHT_PLAYING)
    first = client.get(wall_of(season))
    scored = counted_scoring(monkeypatch)

    assert play(scorekeeper_client(), match, "Ann", 20, htmx=True).status_code == 200
    changed = client.get(poll_address(first), headers=HTMX)

    assert changed.status_code == 200
    # the tap kept the score it worked out: the wall reads no hands
    assert scored == []
    assert "Ann 40 Bob 5" in text(changed).split("Playing now")[1]
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
    changed = client.get(poll_address(first), headers=HTMX)

    # the score kept at the tap names Ann: the match is scored again under the new name
    assert scored == [match.pk]
    playing = text(changed).split("Playing now")[1]
    assert "Annabel 40 Bob 5" in playing
    assert not re.search(r"\bAnn\b", playing)
