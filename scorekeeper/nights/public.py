"""The league nights' pages for everyone in the hall, without signing in: a table's card that
never changes (its QR opens whatever the table is playing now), the sheet of those cards to
print, and the round's pairings by table and by name with the night's results."""

from __future__ import annotations

import datetime
import hashlib
from urllib.parse import urlencode

from django import forms
from django.core import signing
from django.db.models import Max, Prefetch
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import condition, require_safe
from django_htmx.http import HttpResponseClientRedirect

from scorekeeper.access.addresses import client_address
from scorekeeper.access.clubs import require_club_role
from scorekeeper.access.throttle import remember_table_card, table_card_today
from scorekeeper.access.views import qr_svg
from scorekeeper.clubs.models import Role
from scorekeeper.http import HtmxHttpRequest
from scorekeeper.leagues.models import League
from scorekeeper.live.streams import stream
from scorekeeper.nights import rounds, tournament
from scorekeeper.nights.desk import clock_shown, clock_version
from scorekeeper.nights.models import Night, NightRound, NightTable
from scorekeeper.nights.pairings import by_name, by_table, name_matches
from scorekeeper.nights.results import (
    night_names,
    night_standings,
    pairings_version,
    rounds_of,
    shown_player_names,
    shown_results,
)
from scorekeeper.table_pages.history import shown_version_asked
from scorekeeper.tables.models import Match, Seat

#: the most cards one sheet prints: a hall of sixty tables is a big tournament already
MOST_CARDS = 60

#: signs a table card's key: what only the printed card's code carries
_CARD_SIGNER = signing.Signer(salt="scorekeeper.nights.table-card")


def card_id(league_id: int, number: int) -> str:
    return f"{league_id}.{number}"


def card_key(league_id: int, number: int) -> str:
    """The key in a table card's code: a phone that scanned it is at the hall (its starts are
    counted on the card, not on its address: access/throttle.py). Made from the site's secret
    key, it never changes, as the card does not."""
    return _CARD_SIGNER.signature(card_id(league_id, number))


def running_night(league: League) -> Night | None:
    """The league's night on now: the newest played today, or yesterday for a night that went
    on past midnight. A night put in for a later day is not on yet."""
    today = timezone.localdate()
    return (
        Night.objects.filter(
            season__league=league,
            played_on__lte=today,
            played_on__gte=today - datetime.timedelta(days=1),
        )
        .select_related("season__league")
        .order_by("-played_on", "-pk")
        .first()
    )


def _night_rounds(night: Night) -> list[NightRound]:
    """The night's rounds with their tables and each table's match (and its season entry,
    which says whether a side forfeited), in two queries."""
    tables = NightTable.objects.order_by("number").select_related("match__league_entry")
    return list(
        NightRound.objects.filter(night=night)
        .order_by("number")
        .prefetch_related(Prefetch("tables", tables))
    )


@require_safe
@never_cache
def table_now(request: HtmxHttpRequest, league_id: int, number: int) -> HttpResponse:
    """What the QR of a table's card opens: the match the table plays now (its watcher's
    scoreboard: keeping score stays with the round's own card), or a page saying that the
    table is not playing and what comes next. Never kept: the answer changes with the round."""
    league = get_object_or_404(League, pk=league_id)
    key = request.GET.get("card")
    if key is not None and constant_time_compare(key, card_key(league.pk, number)):
        remember_table_card(request, card_id(league.pk, number))
    night = running_night(league)
    context = {
        "league": league,
        "number": number,
        "night": night,
        # a phone that scanned the card's code starts a match here whenever the table is free
        "at_the_table": table_card_today(request) == card_id(league.pk, number),
    }
    if night is None:
        return render(request, "nights/public_table.html", context)
    night_rounds = _night_rounds(night)
    started = [r for r in night_rounds if r.started_at is not None]
    drawn = next((r for r in night_rounds if r.started_at is None), None)
    context.update(playing=started[-1] if started else None, drawn=drawn)
    if started:
        table = next((t for t in started[-1].tables.all() if t.number == number), None)
        over = len(started) >= night.rounds and rounds.round_done(started[-1])
        if table is not None and table.match_id is not None and not over:
            if request.htmx:
                # the page's poll: the whole phone goes to the match, not this part of the page
                return HttpResponseClientRedirect(
                    reverse("tables:scoreboard", args=[table.match_id])
                )
            return redirect("tables:scoreboard", pk=table.match_id)
        context["over"] = over
    if drawn is not None:
        context["next_here"] = any(t.number == number for t in drawn.tables.all())
    return render(request, "nights/public_table.html", context)


class TableCardsForm(forms.Form):
    count = forms.IntegerField(label=_("Tables"), min_value=1, max_value=MOST_CARDS)


@require_safe
def table_cards(request: HttpRequest, league_id: int) -> HttpResponse:
    """A card for each table of the hall, to print once and laminate: the table's number and a
    QR code of its address, which opens whatever the table plays now, with the card's key,
    which lets the phone start a match at the table while it plays none. ``?count=`` tables; by
    default as many as the league's busiest round had (eight before its first night)."""
    league = get_object_or_404(League, pk=league_id)
    require_club_role(request, league.club_id, Role.ORGANIZER)
    # nothing asked: the form shows the count the cards are made for
    form = TableCardsForm({"count": request.GET.get("count") or busiest_round(league)})
    if not form.is_valid():
        context = {"league": league, "form": form, "cards": []}
        return render(request, "nights/table_cards.html", context, status=422)
    cards = []
    for number in range(1, form.cleaned_data["count"] + 1):
        url = request.build_absolute_uri(reverse("nights:table_now", args=[league.pk, number]))
        # the code carries the card's key; the address printed under it opens the table to watch
        code = f"{url}?{urlencode({'card': card_key(league.pk, number)})}"
        cards.append({"number": number, "url": url, "code": code, "qr": mark_safe(qr_svg(code))})
    context = {"league": league, "form": form, "cards": cards}
    return render(request, "nights/table_cards.html", context)


def busiest_round(league: League) -> int:
    """The most tables a round of the league's nights had, or eight before its first night."""
    most = NightTable.objects.filter(night_round__night__season__league=league).aggregate(
        most=Max("number")
    )["most"]
    return min(most or 8, MOST_CARDS)


def _pairings_version(request: HttpRequest, pk: int) -> str | None:
    """The pairings' version (a draw, a start, a result, a seat handed over: not a play in a
    match being played), the language and the name looked for: the page's poll is answered
    304 while none of them moved."""
    if "_pairings_version" not in request.__dict__:
        looked_for = hashlib.sha256(request.GET.get("name", "").encode()).hexdigest()[:8]
        request.__dict__["_pairings_version"] = (
            f"{pairings_version(pk)}.{get_language()}.{looked_for}"
        )
    version: str = request.__dict__["_pairings_version"]
    return version


@require_safe
@shown_version_asked
@condition(etag_func=_pairings_version)
def pairings(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The round's pairings for the hall's wall and the players' phones, without signing in:
    by table, and by name with a box to find one's own (``?name=``, filtered here, and as one
    types where JavaScript runs), and the night's results so far. Its poll asks every five
    seconds and is answered 304 while nothing moved."""
    version = _pairings_version(request, pk)
    night = get_object_or_404(Night.objects.select_related("season__league"), pk=pk)
    league = night.season.league
    looked_for = request.GET.get("name", "")[:80]
    shown = _round_shown(night)
    context = {
        "night": night,
        "league": league,
        "version": version,
        "looked_for": looked_for,
        **round_clock(night, shown["round"]),
        **_standings(night),
        **shown,
    }
    # every name is sent, those not looked for hidden: typing another name shows them at once
    context["by_name"] = [(row, name_matches(row.name, looked_for)) for row in shown["by_name"]]
    context["found"] = sum(1 for _row, matches in context["by_name"] if matches)
    if request.htmx:
        return render(request, "nights/_public_pairings.html", context)
    url = request.build_absolute_uri(reverse("nights:pairings", args=[night.pk]))
    context.update(url=url, qr=mark_safe(qr_svg(url)))
    return render(request, "nights/public_pairings.html", context)


def round_clock(night: Night, night_round: NightRound | None) -> dict:
    """The clock of the round being played, as the tables' boards show it (it asks on its own
    whether it was paused, resumed or ended: desk_views.round_clock)."""
    if night_round is None or night_round.started_at is None:
        return {"clock": None}
    now = timezone.now()
    return {
        "clock": clock_shown(night_round, night, now),
        "clock_round": night_round,
        "clock_version": clock_version(night_round, now),
    }


def _standings(night: Night) -> dict:
    """A tournament's standings by entry; a league night's results by player. Players named
    as public pages name them: initials where asked."""
    if night.is_tournament:
        all_rounds = rounds_of(night)
        if any(r.started_at for r in all_rounds):
            names = shown_player_names(night)
            return {"standings": tournament.shown_standings(night, all_rounds, names)}
        return {}
    rows = shown_results(night_standings(night), night_names(night))
    return {
        "results": {
            "rows": rows,
            "lowest_wins": night.season.league.game == "chickenfoot",
            "places": sorted({place for row in rows for place in row.placings}),
        }
    }


def _round_shown(night: Night) -> dict:
    """The newest round drawn (the one being played, or the next one to start) by table and by
    name. Once started, its players are those seated at its matches: a seat may have been
    handed over since the draw."""
    in_order = Seat.objects.select_related("player").order_by("position")
    seats = Prefetch("match", Match.objects.prefetch_related(Prefetch("seats", in_order)))
    tables = NightTable.objects.order_by("number").prefetch_related(seats, "seats")
    newest = (
        NightRound.objects.filter(night=night)
        .order_by("-number")
        .prefetch_related(Prefetch("tables", tables), "sitting_out")
        .first()
    )
    if newest is None:
        return {"round": None, "by_table": [], "by_name": [], "sitting_out": []}
    names = shown_player_names(night)
    seated = []
    for table in newest.tables.all():
        if table.match is not None:
            players = [seat.player.shown_name for seat in table.match.seats.all()]
        else:
            players = [names.get(pk, "?") for pk in table.player_ids]
        seated.append((table.number, players))
    tables_shown = by_table(seated, partnerships=rounds.plays_partners(night))
    sitting_out = [names.get(pk, "?") for pk in newest.sitting_out_ids]
    return {
        "round": newest,
        "by_table": tables_shown,
        "by_name": by_name(tables_shown, sitting_out),
        "sitting_out": sitting_out,
        "partnerships": any(table.sides for table in tables_shown),
    }


@require_safe
def night_stream(request: HttpRequest, pk: int) -> HttpResponseBase:
    """The stream of the night's pages (its board, desk and pairings, a table's card;
    scorekeeper/live): told when anything they show moves, after which each asks its own
    address as its poll would."""
    get_object_or_404(Night.objects.only("pk"), pk=pk)
    return stream(request, [f"night:{pk}"], client_address(request))
