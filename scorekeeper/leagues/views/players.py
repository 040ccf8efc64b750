"""The players' pages: the list of players and search, and a player's page with its chart."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from scorekeeper import rules
from scorekeeper.access.clubs import runs_player
from scorekeeper.leagues.charts import Series, line_chart
from scorekeeper.leagues.rating_views import partnership_chances, player_ratings
from scorekeeper.leagues.results import (
    counted,
    forfeited_by,
    player_results,
    shown_sides_of,
    with_seats,
)
from scorekeeper.leagues.standings import opponents, partners, standings
from scorekeeper.rules.match import GAME_NAMES, Side
from scorekeeper.table_pages.phones import players_around
from scorekeeper.tables.i18n import game_name
from scorekeeper.tables.models import Match, Player
from scorekeeper.tables.players import players_found
from scorekeeper.tables.scoring import names_of, scoreboard_of, with_everything
from scorekeeper.tables.turns import matches_shared, shared_a_seat


@require_safe
def player_list(request: HttpRequest) -> HttpResponse:
    """The people this phone or account plays with and the leagues' members; ?q= finds
    anyone by a part of their name."""
    search = request.GET.get("q", "").strip()
    players = players_found(search) if search else players_around(request)
    return render(request, "leagues/player_list.html", {"players": players, "search": search})


@require_safe
def player(request: HttpRequest, pk: int) -> HttpResponse:
    """A player's record per game, rating history, partners, opponents and recent matches, from
    the matches that count (results.counted)."""
    # whether to look for shared seats, asked with the player: most players never shared one
    person = get_object_or_404(Player.objects.annotate(shared=shared_a_seat()), pk=pk)
    # the players met, named as public pages name them: initials where asked
    initials: dict[str, str] = {}
    found = player_results(person.pk, initials)
    games: list[dict[str, Any]] = []
    rated = player_ratings(person)
    for game in GAME_NAMES:
        name = game_name(game)
        # a forfeit counts here as it does in the season's standings
        results = [result for played, result in found if played == game]
        if not results:
            continue
        row = next((r for r in standings(results) if r.player == person.name), None)
        games.append(
            {
                "game": game,
                "name": name,
                "row": row,
                "rated": rated.get(game),
                "partners": partners(results, person.name)[:5],
                "opponents": opponents(results, person.name)[:5],
                "in_progress": sum(1 for r in results if not r.counts),
            }
        )
    chances = partnership_chances(
        person, {game["game"]: [p.name for p in game["partners"]] for game in games}
    )
    for shown in games:
        shown["partners"] = [
            (p, chances.get(shown["game"], {}).get(p.name), initials.get(p.name, p.name))
            for p in shown["partners"]
        ]
        shown["opponents"] = [(p, initials.get(p.name, p.name)) for p in shown["opponents"]]
    matches = with_seats(
        counted(Match.objects.filter(seats__player=person)).select_related("league_entry")
    ).order_by("-updated_at", "-pk")[:15]
    recent = [(m, [Side(s).label for s in shown_sides_of(m)], forfeited_by(m)) for m in matches]
    return render(
        request,
        "leagues/player.html",
        {
            "person": person,
            "games": games,
            "recent": recent,
            "shared": matches_shared(person) if person.shared else [],
            "match_chart": _match_chart(request, person),
            # its organizers see the whole name, and the record's claim, merge and forget
            "runs_player": runs_player(request, person),
        },
    )


def _match_chart(request: HttpRequest, person: Player) -> dict | None:
    """The score over the hands of one of the player's matches (?match=ID)."""
    match_id = request.GET.get("match", "")
    # isdigit() alone takes "²", which int() does not read
    if not (match_id.isascii() and match_id.isdigit()):
        return None
    match = with_everything(Match.objects.filter(pk=match_id, seats__player=person)).first()
    if match is None:
        raise Http404("No such match for this player.")
    board: rules.Scoreboard = scoreboard_of(match)
    names = names_of(match)
    series = [
        Series(side.said_with(names), [0] + [hand.running[side] for hand in board.hands])
        for side in board.sides
    ]
    if match.game == "chickenfoot":
        title = gettext("Score by round, %(match)s") % {"match": match}
        x_label = gettext("after round")
    else:
        title = gettext("Score by hand, %(match)s") % {"match": match}
        x_label = gettext("after hand")
    svg = line_chart(series, title=title, x_label=x_label, low=0)
    return {"match": match, "svg": mark_safe(svg)}
