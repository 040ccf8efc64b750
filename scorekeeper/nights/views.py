"""A league night: the organizer's page (check-in, the draw, starting rounds), the table cards,
the night's board for the hall's TV, and its results as CSV and as a bundle."""

from __future__ import annotations

from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext
from django.views.decorators.http import (
    condition,
    require_http_methods,
    require_POST,
    require_safe,
)

from scorekeeper.access.clubs import require_club_role, runs_club
from scorekeeper.access.matches import author
from scorekeeper.access.throttle import count_export
from scorekeeper.access.views import qr_svg, too_many_exports
from scorekeeper.clubs.models import Role
from scorekeeper.http import HtmxHttpRequest
from scorekeeper.leagues.views.exports import standings_csv_response
from scorekeeper.leagues.views.seasons import get_season, standings_context
from scorekeeper.nights import round_draw, rounds, tournament
from scorekeeper.nights.desk import clock_shown, clock_version
from scorekeeper.nights.directors import (
    NIGHTS,
    may_direct,
    night_for_director,
    require_runs_night,
    runs_night,
)
from scorekeeper.nights.forms import (
    DirectorForm,
    DrawForm,
    LeaveForm,
    NightForm,
    PartnersForm,
    WhoCameForm,
)
from scorekeeper.nights.models import Night, NightRound
from scorekeeper.nights.partners import partners_last_night, partners_pair
from scorekeeper.nights.results import (
    NightNames,
    board_version,
    night_bundle,
    night_names,
    night_standings,
    rounds_of,
    rounds_with_matches,
    shown_player_names,
    shown_results,
    tables_drawn,
    tables_now,
)
from scorekeeper.nights.signing import night_provisional, open_disputes
from scorekeeper.table_pages.history import shown_version_asked
from scorekeeper.tables.i18n import game_name
from scorekeeper.tables.models import Player


def get_night(pk: int) -> Night:
    """The night with its season and league; 404 when there is none."""
    return get_object_or_404(NIGHTS, pk=pk)


@require_http_methods(["GET", "POST"])
def new_night(request: HttpRequest, league_id: int, pk: int) -> HttpResponse:
    """A night of the season, and who came: an organizer of the league's club ticks the
    members here."""
    season = get_season(league_id, pk)
    require_club_role(request, season.league.club_id, Role.ORGANIZER)
    # "Everyone came" (a GET of the page): every member ticked, for the absent to be unticked
    everyone = request.method == "GET" and request.GET.get("everyone") == "1"
    initial = {"players": list(season.league.members.values_list("pk", flat=True))}
    form = NightForm(season.league, request.POST or None, initial=initial if everyone else None)
    if request.method == "POST" and form.is_valid():
        night = form.night(season, request.user)
        rounds.open_night(night, *form.who_came())
        return redirect("nights:night", pk=night.pk)
    return render(
        request,
        "nights/new_night.html",
        {"form": form, "season": season, "league": season.league},
        status=422 if request.method == "POST" else 200,
    )


@require_safe
def night(request: HttpRequest, pk: int) -> HttpResponse:
    night = get_night(pk)
    return render(request, "nights/night.html", _night_context(request, night))


def _night_context(request: HttpRequest, night: Night, **forms) -> dict:
    """The night's page: its rounds (the one drawn and not started first), who is here, and
    the organizer's forms (``forms``: those sent back with their errors)."""
    all_rounds = rounds_of(night)
    number = rounds.next_number(night)
    checked_in = list(night.check_ins.select_related("player"))
    # the rounds, results and standings name players as public pages do (initials where
    # asked); the organizer's forms, and who is here for those who run the night, by the
    # whole name they pick players by
    named = night_names(night, [c.player for c in checked_in])
    names = named.shown
    here = [check_in for check_in in checked_in if check_in.plays_in(number)]
    started = [r for r in all_rounds if r.started_at is not None]
    drawn = next((r for r in all_rounds if r.started_at is None), None)
    playing = started[-1] if started else None
    seated = rounds.seated(playing) if playing else set()
    staying = [c.player_id for c in checked_in if c.left_after is None]
    free = Player.objects.filter(pk__in=[pk for pk in staying if pk not in seated])
    league = night.season.league
    runs = runs_night(request, night)
    organizes = runs and runs_club(request, league.club_id)
    here_names = named.names if runs else named.shown
    return {
        "night": night,
        "runs": runs,
        # its club's organizers name its directors
        "organizes": organizes,
        "directors": list(night.directors.order_by("username")) if organizes else [],
        "director_form": DirectorForm(may_direct(night)) if organizes else None,
        "season": night.season,
        "league": league,
        "game_name": game_name(league.game),
        "draw_said": night.draw_said(rounds.plays_partners(night)),
        "rounds": [_round_shown(r, names, night) for r in all_rounds],
        "drawn": drawn,
        "next_number": number,
        "why_not_draw": rounds.why_not_draw(night),
        "stale_draw": drawn is not None
        and rounds.drawn_players(drawn) != {c.player_id for c in here},
        "here": [here_names[c.player_id] for c in here],
        "checked_in": [(c, here_names[c.player_id]) for c in checked_in],
        "schedule": round_draw.schedule_said(night, [c.player.name for c in here]),
        "check_in_form": forms.get("check_in_form") or WhoCameForm(league, exclude=staying),
        "draw_form": forms.get("draw_form") or DrawForm(),
        # a Swiss round refused for want of a pairing without a rematch: pair with the fewest?
        "offer_rematches": forms.get("offer_rematches", False),
        "leave_form": forms.get("leave_form")
        or LeaveForm(Player.objects.filter(pk__in=staying), free),
        "results": _results(night, named) if started and not night.is_tournament else None,
        "fairness": round_draw.fairness_report(night, drawn, names)
        if drawn and not night.is_tournament
        else None,
        # results the other side disputed, for the organizer to settle (nights/signing.py)
        "disputes": open_disputes(night) if started else [],
        "standings": _tournament_standings(night, all_rounds, names),
        "partners_last_night": bool(
            night.is_tournament
            and tournament.in_partnerships(night)
            and partners_last_night(night, [c.player_id for c in here])
        ),
        "partners_form": forms.get("partners_form")
        or (
            PartnersForm(here)
            if night.is_tournament and tournament.in_partnerships(night)
            else None
        ),
    }


def _tournament_standings(night: Night, all_rounds: list[NightRound], names: dict) -> dict | None:
    """A Swiss or round robin night's standings by entry, once a round has started."""
    if not night.is_tournament or not any(r.started_at for r in all_rounds):
        return None
    return tournament.shown_standings(night, all_rounds, names)


def _results(night: Night, names: NightNames) -> dict:
    """The night's results as _results.html shows them: Chickenfoot by placings; players named
    as public pages name them."""
    rows = shown_results(night_standings(night), names)
    return {
        "rows": rows,
        # results counted before the other side signed them (nights/signing.py)
        "provisional": {} if night.signed_only else night_provisional(night),
        "lowest_wins": night.season.league.game == "chickenfoot",
        "places": sorted({place for row in rows for place in row.placings}),
    }


def _round_shown(night_round: NightRound, names: dict[int, str], night: Night) -> dict:
    sitting_out = [names.get(pk, "?") for pk in night_round.sitting_out_ids]
    return {
        "round": night_round,
        "tables": tables_now(night_round.tables.all(), names),
        "sitting_out": sitting_out,
        # a tournament's bye is one entry: a player, or a partnership
        "bye": " & ".join(sitting_out) if night.is_tournament else "",
    }


def _refused(request: HttpRequest, night: Night, message: str, **forms) -> HttpResponse:
    """The night's page again with what was refused and why: nothing was changed."""
    messages.error(request, message)
    context = _night_context(request, night, **forms)
    return render(request, "nights/night.html", context, status=422)


@require_POST
def check_in(request: HttpRequest, pk: int) -> HttpResponse:
    """Late arrivals and walk-ins: they play from the next round."""
    with transaction.atomic():
        night = night_for_director(request, pk)
        here = night.check_ins.filter(left_after=None).values_list("player_id", flat=True)
        form = WhoCameForm(night.season.league, request.POST, exclude=list(here))
        if not form.is_valid():
            return _refused(request, night, gettext("Nobody was checked in."), check_in_form=form)
        came = rounds.check_in(night, *form.who_came())
    if came:
        messages.success(
            request,
            gettext("Checked in: %(players)s. They play from round %(number)s.")
            % {
                "players": ", ".join(c.player.name for c in came),
                "number": rounds.next_number(night),
            },
        )
    return redirect("nights:night", pk=night.pk)


@require_POST
def draw(request: HttpRequest, pk: int) -> HttpResponse:
    with transaction.atomic():
        night = night_for_director(request, pk)
        form = DrawForm(request.POST)
        if not form.is_valid():
            return _refused(request, night, gettext("The seed is too long."), draw_form=form)
        try:
            drawn = round_draw.draw_round(
                night,
                seed=form.cleaned_data["seed"],
                allow_rematches=form.cleaned_data["allow_rematches"],
            )
        except rounds.NightError as refusal:
            offer = isinstance(refusal, rounds.RematchesNeeded)
            return _refused(request, night, str(refusal), draw_form=form, offer_rematches=offer)
    return redirect(reverse("nights:night", args=[night.pk]) + f"#round-{drawn.number}")


@require_POST
def start(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    with transaction.atomic():
        night = night_for_director(request, pk)
        # the round read under the night's lock: of two taps on Start, the second finds it
        # started
        night_round = get_object_or_404(NightRound, night=night, number=number)
        night_round.night = night
        try:
            rounds.start_round(night_round, by=author(request))
        except rounds.NightError as refusal:
            return _refused(request, night, str(refusal))
    messages.success(
        request,
        gettext("Round %(number)s started: print the table cards.") % {"number": number},
    )
    return redirect("nights:cards", pk=night.pk, number=number)


@require_safe
def cards(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A card for each table to print: the table, its players by seat, and a QR code of the
    scorekeeper's link that opens the table's board on a phone. For those who run the night
    only: the link keeps score."""
    require_runs_night(request, pk)
    night = get_night(pk)
    night_round = get_object_or_404(
        NightRound.objects.prefetch_related("tables__link", "tables__seats", "sitting_out"),
        night=night,
        number=number,
    )
    # printed and laid on the tables: players named as public pages name them
    names = shown_player_names(night)
    partnerships = rounds.plays_partners(night)
    shown = []
    for table in night_round.tables.all():
        url = ""
        if table.link is not None and table.link.active:
            url = request.build_absolute_uri(reverse("access:join", args=[table.link.token]))
        seats = [names.get(pk, "?") for pk in table.player_ids]
        shown.append(
            {
                "table": table,
                "seats": seats,
                # partners sit opposite: seats 1 & 3 against 2 & 4
                "sides": [" & ".join(seats[0::2]), " & ".join(seats[1::2])]
                if partnerships and len(seats) == 4
                else [],
                "url": url,
                "qr": mark_safe(qr_svg(url)) if url else "",
            }
        )
    return render(
        request,
        "nights/cards.html",
        {
            "night": night,
            "league": night.season.league,
            "round": night_round,
            "cards": shown,
            "sitting_out": [names.get(pk, "?") for pk in night_round.sitting_out_ids],
            # a tournament's partners and opponents are the pairing's, not a draw's luck
            "fairness": None
            if night.is_tournament
            else round_draw.fairness_report(night, night_round, names),
        },
    )


@require_POST
def partners(request: HttpRequest, pk: int) -> HttpResponse:
    """A tournament in partnerships: the organizer pairs the players here, once."""
    with transaction.atomic():
        night = night_for_director(request, pk)
        here = rounds.playing_in(night, rounds.next_number(night))
        if "last_night" in request.POST:
            return _partners_as_last_night(request, night, [c.player_id for c in here])
        form = PartnersForm(here, request.POST)
        if not form.is_valid():
            return _refused(
                request, night, gettext("The partnerships were not saved."), partners_form=form
            )
        try:
            partners_pair(night, form.cleaned_data["pairs"], form.cleaned_data["alone"])
        except tournament.TournamentError as refusal:
            return _refused(request, night, str(refusal), partners_form=form)
    messages.success(
        request,
        gettext("Partnerships saved: %(count)s.") % {"count": len(form.cleaned_data["pairs"])},
    )
    return redirect("nights:night", pk=night.pk)


def _partners_as_last_night(request: HttpRequest, night: Night, here: list[int]) -> HttpResponse:
    """ "Same partners as last night": the pairs of the league's latest night in partnerships
    whose two players are here, saved at once; the others are paired as usual."""
    pairs = partners_last_night(night, here)
    if not pairs:
        return _refused(
            request, night, gettext("No two players here were partners on an earlier night.")
        )
    try:
        partners_pair(night, pairs, [])
    except tournament.TournamentError as refusal:
        return _refused(request, night, str(refusal))
    messages.success(request, gettext("Partnerships saved: %(count)s.") % {"count": len(pairs)})
    return redirect("nights:night", pk=night.pk)


@require_POST
def leave(request: HttpRequest, pk: int) -> HttpResponse:
    """A player leaves; someone sitting out may take their seat (rounds.leave)."""
    with transaction.atomic():
        night = night_for_director(request, pk)
        here = Player.objects.filter(check_ins__night=night, check_ins__left_after=None)
        form = LeaveForm(here, here, request.POST)
        if not form.is_valid():
            return _refused(request, night, gettext("Pick who is leaving."), leave_form=form)
        try:
            said = rounds.leave(
                night,
                form.cleaned_data["player"],
                replacement=form.cleaned_data["replacement"],
                by=author(request),
            )
        except rounds.NightError as refusal:
            return _refused(request, night, str(refusal))
    messages.success(request, said)
    return redirect("nights:night", pk=night.pk)


def _board_version(request: HttpRequest, pk: int) -> str | None:
    if "_night_version" not in request.__dict__:
        request.__dict__["_night_version"] = f"{board_version(pk)}.{get_language()}"
    version: str = request.__dict__["_night_version"]
    return version


@require_safe
@shown_version_asked
@condition(etag_func=_board_version)
def board(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The night on the hall's TV: every table of the round being played, live (its poll asks
    every two seconds and is answered 304 while nothing moved), who sits out, and once the last
    round is done the night's results and the season's standings with the night in them."""
    version = _board_version(request, pk)
    night = get_night(pk)
    now = timezone.now()
    all_rounds = rounds_with_matches(night)
    # the hall's TV names players as public pages do: initials where asked
    named = night_names(night)
    names = named.shown
    started = [r for r in all_rounds if r.started_at is not None]
    current = None
    if started:
        sitting_out = [names.get(pk, "?") for pk in started[-1].sitting_out_ids]
        current = {
            "round": started[-1],
            "tables": tables_drawn(started[-1], names, season_version=night.season.version),
            "sitting_out": sitting_out,
            # a tournament's bye is one entry: a player, or a partnership
            "bye": " & ".join(sitting_out) if night.is_tournament else "",
        }
    finished = (
        len(started) == night.rounds and started and rounds.round_done(started[-1])
    ) or False
    context = {
        "night": night,
        "league": night.season.league,
        "season": night.season,
        "current": current,
        # the round's clock, polled on its own (desk_views.round_clock)
        "clock": clock_shown(started[-1], night, now) if started and not finished else None,
        "clock_version": clock_version(started[-1], now) if started else "",
        "finished": finished,
        "board_version": version,
        "results": _results(night, named) if finished and not night.is_tournament else None,
        # a tournament's standings fill the TV between rounds and at the end; while a round
        # is played its tables do
        "standings_now": _tournament_standings(night, all_rounds, names)
        if started and rounds.round_done(started[-1])
        else None,
    }
    if finished and not night.is_tournament:
        context.update(standings_context(get_season(night.season.league_id, night.season_id)))
    template = "nights/_board.html" if request.htmx else "nights/board.html"
    return render(request, template, context)


@require_safe
def results_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """The night's results as the season's standings CSV has them: a row per player."""
    night = get_night(pk)
    return standings_csv_response(
        night_standings(night),
        f"night-{night.pk}.csv",
        lowest_wins=night.season.league.game == "chickenfoot",
    )


@require_safe
def bundle(request: HttpRequest, pk: int) -> HttpResponseBase:
    """The night's matches as a league bundle: imported, its season's standings are the
    night's results."""
    night = get_night(pk)
    if refusal := count_export(request):
        return too_many_exports(request, refusal)
    response = StreamingHttpResponse(night_bundle(night), content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="night-{night.pk}.zip"'
    return response
