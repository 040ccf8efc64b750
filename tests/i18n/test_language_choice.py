"""How the language is chosen: the browser's Accept-Language until someone picks one with the
switcher in the footer, which is remembered (Django's language cookie). The switcher is a plain
form, so it works without JavaScript. Numbers and dates follow the language."""

from __future__ import annotations

import datetime
import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from scorekeeper import rules
from scorekeeper.leagues.models import League, Season
from scorekeeper.leagues.moves import season_match_add
from scorekeeper.tables.models import Match
from scorekeeper.tables.scoring import create_match
from tests.clubs import the_club
from tests.i18n.conftest import speaking
from tests.web.pages import content, text

HOME_HEADING = {"en": "Start a match", "es": "Empezar una partida", "pl": "Rozpocznij mecz"}


def home(client: Client, **headers: str) -> str:
    return content(client.get(reverse("tables:home"), headers=headers))


def language_of(page: str) -> str:
    found = re.search(r'<html lang="([^"]+)">', page)
    assert found is not None
    return found.group(1)


@pytest.mark.django_db
def test_a_browser_that_asks_for_nothing_gets_english(client: Client) -> None:
    page = home(client)

    assert language_of(page) == "en"
    assert HOME_HEADING["en"] in page


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("accepted", "language"),
    [
        ("es-MX,es;q=0.9,en;q=0.8", "es"),
        ("pl-PL,pl;q=0.9", "pl"),
        ("cs-CZ,cs;q=0.9,en;q=0.5", "cs"),
        ("de-DE,de;q=0.9", "en"),
        ("de-DE,es;q=0.5", "es"),
    ],
)
def test_accept_language_picks_the_language_when_none_was_chosen(
    client: Client, accepted: str, language: str
) -> None:
    assert language_of(home(client, accept_language=accepted)) == language


@pytest.mark.django_db
def test_the_footer_of_every_page_offers_the_four_languages_each_in_its_own_words(
    client: Client,
) -> None:
    page = home(client, accept_language="pl")
    switcher = page[page.index('<form class="language-switcher"') :]
    switcher = switcher[: switcher.index("</form>")]

    assert f'action="{reverse("set_language")}"' in switcher
    assert 'method="post"' in switcher
    assert 'name="next" value="/"' in switcher
    assert re.findall(r'<option value="(\w+)" lang="\w+"', switcher) == ["en", "es", "pl", "cs"]
    assert '<option value="pl" lang="pl" selected>Polski</option>' in switcher
    for name in ("English", "Español", "Čeština"):
        assert f">{name}</option>" in switcher
    assert '<button class="btn" type="submit">Zmień</button>' in switcher


@pytest.mark.django_db
def test_choosing_a_language_brings_the_player_back_to_the_page_in_that_language(
    client: Client, flagged_match: Match
) -> None:
    board_url = reverse("tables:scoreboard", args=[flagged_match.pk])

    chosen = client.post(reverse("set_language"), {"language": "cs", "next": board_url})

    assert chosen.status_code == 302
    assert chosen["Location"] == board_url
    assert chosen.cookies[settings.LANGUAGE_COOKIE_NAME].value == "cs"
    page = client.get(board_url)
    assert language_of(content(page)) == "cs"
    assert "Rozdání 2: vynáší Bo." in text(page)


@pytest.mark.django_db
def test_the_choice_is_remembered_over_the_browsers_language(client: Client) -> None:
    client.post(reverse("set_language"), {"language": "es", "next": "/"})

    assert language_of(home(client, accept_language="pl-PL,pl;q=0.9")) == "es"


@pytest.mark.django_db
def test_english_can_be_chosen_back(client: Client) -> None:
    client.post(reverse("set_language"), {"language": "pl", "next": "/"})
    client.post(reverse("set_language"), {"language": "en", "next": "/"})

    page = home(client, accept_language="es")

    assert language_of(page) == "en"
    assert HOME_HEADING["en"] in page


@pytest.mark.django_db
def test_a_language_the_app_does_not_speak_is_not_remembered(client: Client) -> None:
    client.post(reverse("set_language"), {"language": "de", "next": "/"})

    assert language_of(home(client)) == "en"


# -- numbers and dates -------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "written"),
    [
        ("en", "Nov. 5, 2026"),
        ("es", "5 de noviembre de 2026"),
        ("pl", "5 listopada 2026"),
        ("cs", "5. listopadu 2026"),
    ],
)
def test_the_score_sheet_dates_the_match_as_the_language_writes_dates(
    language: str, written: str, flagged_match: Match
) -> None:
    started = datetime.datetime(2026, 11, 5, 19, 30, tzinfo=datetime.UTC)
    Match.objects.filter(pk=flagged_match.pk).update(created_at=started)

    sheet = text(speaking(language).get(reverse("tables:sheet", args=[flagged_match.pk])))

    assert written in sheet


def _won_by(winner: str, loser: str) -> rules.Match:
    """A Straight match to 10 that ``winner`` takes with the first play."""
    return rules.Match(
        "straight",
        (winner, loser),
        rules={"target": 10},
        hands=(rules.Hand(leader=winner, plays=(rules.Play(winner, points=10),)),),
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "ana", "bo"),
    [
        ("en", "66.7", "33.3"),
        ("es", "66,7", "33,3"),
        ("pl", "66,7", "33,3"),
        ("cs", "66,7", "33,3"),
    ],
)
def test_the_standings_write_a_win_percentage_with_the_languages_decimal_mark(
    language: str, ana: str, bo: str
) -> None:
    league = League.objects.create(
        club=the_club(), name="Tuesday", game="straight", rules={"target": 10}
    )
    season = Season.objects.create(league=league, name="Fall", starts_on=datetime.date(2026, 9, 1))
    for value in (_won_by("Ana", "Bo"), _won_by("Ana", "Bo"), _won_by("Bo", "Ana")):
        season_match_add(season=season, match=create_match(value))

    page = content(speaking(language).get(reverse("leagues:season", args=[league.pk, season.pk])))
    rows = {
        name: cells
        for name, cells in re.findall(
            r'<th scope="row"><a href="[^"]*">(\w+)</a></th>(.*?)</tr>', page, re.S
        )
    }

    assert f'<td class="num">{ana}</td>' in rows["Ana"]
    assert f'<td class="num">{bo}</td>' in rows["Bo"]
