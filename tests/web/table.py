"""What the players do at the table, as requests: start a match, tap an entry, look at the board."""

from __future__ import annotations

from collections.abc import Mapping

from django.contrib.auth import get_user_model
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

from scorekeeper import rules
from scorekeeper.tables.models import Hand, Match, Play
from scorekeeper.tables.scoring import create_match
from tests.clubs import the_club
from tests.web.pages import HTMX

FOUR = ("Ana", "Bo", "Cy", "Di")

#: what the setup form sends when nothing is changed: its house-rule fields at their defaults
#: (a ticked checkbox is sent as "on", an unticked one not at all)
SETUP_DEFAULTS = {
    "straight": {"target": "250", "spinner": "on"},
    "chickenfoot": {"set": "6", "double_blank": "50"},
    "sedma": {"target": "61"},
}


def setup_data(game: str, *names: str, **fields: str) -> dict[str, str]:
    seats = {f"seat_{seat}": name for seat, name in enumerate(names, 1)}
    return {**SETUP_DEFAULTS[game], **seats, **fields}


def start(client: Client, game: str, *names: str, **fields: str) -> HttpResponse:
    return client.post(reverse("tables:new_match", args=[game]), setup_data(game, *names, **fields))


def scorekeeper_client() -> Client:
    """A browser signed in as the site's administrator, who may keep score of any match.

    Who else may change a match (its starter, share links, a club's organizers, a night's
    directors) is tested in tests/access/ and tests/club_pages/.
    """
    the_club()  # the hall's one club, where its leagues are made
    user, made = get_user_model().objects.get_or_create(username="organizer")
    if made:
        user.is_superuser = True
        user.save(update_fields=["is_superuser"])
    client = Client()
    client.force_login(user)
    return client


def stored(game: str, *players: str, **kwargs: object) -> Match:
    """A match put straight into the database, the way an import or the setup view stores it."""
    return create_match(rules.Match(game, players or FOUR, **kwargs))


def board(client: Client, match: Match) -> HttpResponse:
    response = client.get(reverse("tables:scoreboard", args=[match.pk]))
    assert response.status_code == 200
    return response


def post(
    client: Client, name: str, match: Match, data: dict, *, htmx: bool = False
) -> HttpResponse:
    return client.post(
        reverse(f"tables:{name}", args=[match.pk]), data, headers=HTMX if htmx else {}
    )


def play(
    client: Client,
    match: Match,
    player: str,
    points: int | str,
    *,
    htmx: bool = False,
    **fields: str,
) -> HttpResponse:
    """Straight: a scoring play, by the player's name (posted as their seat, as the board
    does; a name that is not seated is sent as it is, and refused)."""
    if "leader" in fields:
        fields["leader"] = seat_of(match, fields["leader"])
    data = {"player": seat_of(match, player), "points": points, **fields}
    return post(client, "record_play", match, data, htmx=htmx)


def lay(
    client: Client, match: Match, player: str, tile: str, *, htmx: bool = False, **fields: str
) -> HttpResponse:
    """Sedma: a tile laid, a double from the buttons or any tile of the line (the player by
    name, posted as their seat)."""
    data = {"player": seat_of(match, player), "tile": tile, **fields}
    return post(client, "record_play", match, data, htmx=htmx)


def seated_names(match: Match) -> list[str]:
    return list(match.seats.order_by("position").values_list("player__name", flat=True))


def pips_fields(match: Match, pips: dict[str, int]) -> dict[str, int]:
    seats = seated_names(match)
    return {f"pips_{seats.index(name)}": value for name, value in pips.items()}


def seat_of(match: Match, player: str) -> str:
    """The seat the board posts for a seated player's name; anything else as it is."""
    seats = seated_names(match)
    return str(seats.index(player)) if player in seats else player


def out_choice(match: Match, player: str) -> str:
    """The form's choice of who went out: their seat, or "blocked" for nobody (a name that is
    not seated is sent as it is, and refused)."""
    seats = seated_names(match)
    if not player:
        return "blocked"
    return str(seats.index(player)) if player in seats else player


def domino(
    client: Client,
    match: Match,
    player: str,
    *,
    htmx: bool = False,
    extra: dict | None = None,
    **pips: int,
) -> HttpResponse:
    """Straight: ``player`` went out; the others hold ``pips``."""
    data = {"out": out_choice(match, player), **pips_fields(match, pips), **(extra or {})}
    return post(client, "end_hand", match, data, htmx=htmx)


def blocked(
    client: Client, match: Match, *, htmx: bool = False, extra: dict | None = None, **pips: int
) -> HttpResponse:
    """Straight: nobody can play; everyone holds ``pips``."""
    data = {"out": "blocked", **pips_fields(match, pips), **(extra or {})}
    return post(client, "end_hand", match, data, htmx=htmx)


def chickenfoot_round(
    client: Client,
    match: Match,
    *,
    went_out: str = "",
    double_blank: str = "",
    htmx: bool = False,
    extra: dict | None = None,
    **pips: int,
) -> HttpResponse:
    """Chickenfoot: a whole round; everyone but the player who went out (nobody: blocked)
    holds ``pips``."""
    extra = dict(extra or {})
    if "starter" in extra:
        extra["starter"] = seat_of(match, extra["starter"])
    data = {
        "went_out": out_choice(match, went_out),
        "double_blank": seat_of(match, double_blank),
        **pips_fields(match, pips),
        **extra,
    }
    return post(client, "end_hand", match, data, htmx=htmx)


def rows(match: Match) -> tuple[int, int]:
    """How many hands and plays the match has stored."""
    return (
        Hand.objects.filter(match=match).count(),
        Play.objects.filter(hand__match=match).count(),
    )


def saved(response: HttpResponse, match: Match) -> bool:
    """A non-htmx entry was saved: it answers with a redirect to the scoreboard."""
    return response.status_code == 302 and response["Location"] == reverse(
        "tables:scoreboard", args=[match.pk]
    )


def fingerprint(match: Match, number: int) -> str:
    """The version of a stored hand that the correction form carries."""
    from scorekeeper.table_pages.entries import hand_fingerprint

    hand = _stored_hand(match, number)
    return "" if hand is None else hand_fingerprint(hand, match.game)


#: the fields of a correction that say who (a row's player, who set the double, who held 0-0)
WHO_FIELDS = ("-player", "double_blank", "starter")


def correction(match: Match, number: int, fields: Mapping[str, str]) -> dict[str, str]:
    """``fields`` posted as the correction page of hand ``number`` posts them: with the
    fingerprint of the hand it showed, and its rows of plays counted (the formset's management
    form: a row per play stored and the empty rows to add plays). A row's player given by name
    is posted by seat, as the page does."""
    from scorekeeper.tables.forms.corrections import EXTRA_ROWS

    hand = _stored_hand(match, number)
    plays = 0 if hand is None else len(hand.plays)
    by_seat = {
        name: seat_of(match, value) if name.endswith(WHO_FIELDS) else value
        for name, value in fields.items()
    }
    return {
        "fingerprint": fingerprint(match, number),
        "play-TOTAL_FORMS": str(plays + EXTRA_ROWS),
        "play-INITIAL_FORMS": str(plays),
        **by_seat,
    }


def _stored_hand(match: Match, number: int) -> rules.Hand | None:
    from scorekeeper.tables.scoring import match_value, with_everything

    value = match_value(with_everything(Match.objects.filter(pk=match.pk)).get())
    if not 1 <= number <= len(value.hands):
        return None
    return value.hands[number - 1]
