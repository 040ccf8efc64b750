"""Each language renders the scoreboard: headings, buttons, the engine's explanation of a hand
and its finding, in the words written for the table."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.tables.models import Match
from tests.i18n.conftest import speaking
from tests.web.pages import HTMX, content, is_board_only, next_up, text
from tests.web.table import board, play

#: what a player reads on the flagged match's scoreboard, by language
SAID = {
    "es": {
        "headings": ["Manos", "Se juega a 250."],
        "buttons": ["Revancha", "Hoja de puntos", "Guardar la mano", "Ver la cuenta"],
        "explanation": [
            "Puntos durante el juego: Ana 12, Bo 10.",
            "Bo hizo dominó.",
            "Di juega en pareja con Bo, así que sus 4 puntos no cuentan.",
            "Puntos de los rivales: Ana 12 + Cy 9 = 21.",
            "21 se redondea a 20 (21 está más cerca de 20 que de 25).",
            "Bo & Di anotan 20.",
        ],
        "finding": "Error Mano 1, jugada 1: Ana anotó 12, pero las puntas solo cuentan cuando "
        "suman un múltiplo de cinco (5, 10, 15...).",
        "next": "Mano 2: sale Bo.",
    },
    "pl": {
        "headings": ["Rozdania", "Gra do 250."],
        "buttons": ["Rewanż", "Arkusz wyników", "Zapisz rozdanie", "Pokaż wynik"],
        "explanation": [
            "Punkty w trakcie gry: Ana 12, Bo 10.",
            "Bo: domino!",
            "Di gra w parze z graczem Bo, więc te oczka (4) się nie liczą.",
            "Oczka przeciwników: Ana 12 + Cy 9 = 21.",
            "21 zaokrągla się do 20 (21 jest bliżej 20 niż 25).",
            "Bo & Di dostają 20 pkt.",
        ],
        "finding": "Błąd Rozdanie 1, zagranie 1: Ana: 12 pkt, ale wolne końce punktują tylko "
        "wtedy, gdy ich suma jest wielokrotnością pięciu (5, 10, 15...).",
        "next": "Rozdanie 2: wychodzi Bo.",
    },
    "cs": {
        "headings": ["Rozdání", "Hraje se do 250."],
        "buttons": ["Odveta", "Zápis skóre", "Uložit rozdání", "Ukázat skóre"],
        "explanation": [
            "Body během hry: Ana 12, Bo 10.",
            "Bo: domino!",
            "Di hraje ve dvojici s hráčem Bo, takže tato oka (4) se nepočítají.",
            "Oka soupeřů: Ana 12 + Cy 9 = 21.",
            "21 se zaokrouhlí na 20 (21 má blíž k 20 než k 25).",
            "Bo & Di získávají 20 b.",
        ],
        "finding": "Chyba Rozdání 1, tah 1: Ana: 12 b., ale volné konce bodují, jen když jejich "
        "součet je násobkem pěti (5, 10, 15...).",
        "next": "Rozdání 2: vynáší Bo.",
    },
}


@pytest.mark.parametrize("language", SAID)
def test_the_scoreboard_speaks_the_chosen_language(language: str, flagged_match: Match) -> None:
    said = SAID[language]

    response = board(speaking(language), flagged_match)
    shown = text(response)

    assert f'<html lang="{language}">' in content(response)
    for phrase in said["headings"] + said["buttons"]:
        assert phrase in shown, phrase
    assert "<h2>" + said["headings"][0] + "</h2>" in content(response)


@pytest.mark.parametrize("language", SAID)
def test_the_explanation_of_a_hand_is_in_the_chosen_language(
    language: str, flagged_match: Match
) -> None:
    shown = text(board(speaking(language), flagged_match))

    assert " ".join(SAID[language]["explanation"]) in shown


@pytest.mark.parametrize("language", SAID)
def test_a_finding_is_said_in_the_chosen_language(language: str, flagged_match: Match) -> None:
    shown = text(board(speaking(language), flagged_match))

    assert SAID[language]["finding"] in shown


@pytest.mark.parametrize("language", SAID)
def test_what_comes_next_is_said_in_the_chosen_language(
    language: str, flagged_match: Match
) -> None:
    assert next_up(board(speaking(language), flagged_match)) == SAID[language]["next"]


def test_english_stays_the_language_of_a_browser_that_asks_for_none(
    client: Client, flagged_match: Match
) -> None:
    response = board(client, flagged_match)
    shown = text(response)

    assert '<html lang="en">' in content(response)
    assert "Bo dominoed. Di's 4 pips are Bo's partner's and do not count." in shown
    assert (
        "Hand 1, play 1: Ana scored 12, but the open ends only score when they add up to a "
        "multiple of five (5, 10, 15 ...)."
    ) in shown
    assert next_up(board(client, flagged_match)) == "Hand 2: Bo leads."


REFUSED = {
    "es": (
        "Sin guardar: mano 2",
        "Mano 2, jugada 1: Bo anotó 7, pero las puntas solo cuentan cuando suman un múltiplo "
        "de cinco (5, 10, 15...).",
        "Guardar igualmente 7 para Bo",
    ),
    "pl": (
        "Nie zapisano: rozdanie 2",
        "Rozdanie 2, zagranie 1: Bo: 7 pkt, ale wolne końce punktują tylko wtedy, gdy ich suma "
        "jest wielokrotnością pięciu (5, 10, 15...).",
        "Zapisz mimo to 7 pkt dla: Bo",
    ),
    "cs": (
        "Neuloženo: rozdání 2",
        "Rozdání 2, tah 1: Bo: 7 b., ale volné konce bodují, jen když jejich součet je "
        "násobkem pěti (5, 10, 15...).",
        "Přesto uložit 7 b. pro: Bo",
    ),
}


@pytest.mark.parametrize("language", REFUSED)
def test_an_entry_refused_over_htmx_answers_with_the_board_in_the_chosen_language(
    language: str, flagged_match: Match
) -> None:
    client = speaking(language)
    refused = play(client, flagged_match, "Bo", 7, htmx=True)

    assert refused.status_code == 422
    assert is_board_only(refused)
    for phrase in REFUSED[language]:
        assert phrase in text(refused), phrase


def test_a_finding_flashed_after_a_saved_entry_is_in_the_chosen_language(
    flagged_match: Match,
) -> None:
    client = speaking("es")
    play(client, flagged_match, "Bo", 7, override="on")

    page = content(client.get(reverse("tables:scoreboard", args=[flagged_match.pk])))

    assert (
        '<li class="message message-warning">Mano 2, jugada 1: Bo anotó 7, pero las puntas '
        "solo cuentan"
    ) in page


def test_the_live_refresh_of_a_scoreboard_is_in_the_chosen_language(flagged_match: Match) -> None:
    url = reverse("tables:live", args=[flagged_match.pk])

    refreshed = speaking("cs").get(url, {"v": "0"}, headers=HTMX)

    assert refreshed.status_code == 200
    assert "Rozdání 2: vynáší Bo." in text(refreshed)
