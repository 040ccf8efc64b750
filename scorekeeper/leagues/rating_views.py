"""The ratings pages: a game's ratings (sorted and filtered by plain GET parameters) and the
rating changes of one match, explained. Both read the kept rows (kept_ratings.py), in a fixed
number of queries whatever the number of matches."""

from __future__ import annotations

from collections import defaultdict
from typing import Any, cast

from django import forms
from django.db.models import Avg, Exists, OuterRef, Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.http import urlencode
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_safe

from scorekeeper.leagues.charts import Series, line_chart
from scorekeeper.leagues.kept_ratings import change_of, matches_explained
from scorekeeper.leagues.models import League, Rating, RatingChange, Season
from scorekeeper.leagues.ratings import (
    PROVISIONAL_SIGMA,
    Skill,
    partnership_chance,
    shown_rating,
)
from scorekeeper.rules.match import GAME_NAMES
from scorekeeper.tables.i18n import game_name
from scorekeeper.tables.models import Match, Player

#: the orders the page offers, by their GET value
SORTS = {
    "rating": ("-shown", "player__name"),
    "name": ("player__name",),
    "played": ("-played", "-shown", "player__name"),
    "moved": ("-last_delta", "-shown", "player__name"),
}
#: players drawn on the trend chart (the first of the list) and the matches drawn of each
TREND_PLAYERS = 5
TREND_MATCHES = 30


class RatingFilter(forms.Form):
    q = forms.CharField(label=_("Name"), required=False, max_length=40)
    league = forms.ModelChoiceField(
        label=_("League"), queryset=League.objects.none(), required=False, empty_label=_("All")
    )
    season = forms.ModelChoiceField(
        label=_("Played in season"),
        queryset=Season.objects.none(),
        required=False,
        empty_label=_("Any"),
    )
    show = forms.ChoiceField(
        label=_("Show"),
        required=False,
        choices=[
            ("", _("Everyone")),
            ("established", _("Established ratings")),
            ("provisional", _("Provisional ratings")),
        ],
    )
    sort = forms.ChoiceField(
        label=_("Sort by"),
        required=False,
        choices=[
            ("rating", _("Rating")),
            ("name", _("Name")),
            ("played", _("Matches")),
            ("moved", _("Last change")),
        ],
    )

    def __init__(self, game: str, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField, self.fields["league"]).queryset = League.objects.filter(
            game=game
        )
        cast(forms.ModelChoiceField, self.fields["season"]).queryset = Season.objects.filter(
            league__game=game
        ).select_related("league")


def filtered(rows: QuerySet[Rating], data: dict) -> QuerySet[Rating]:
    if data.get("q"):
        rows = rows.filter(player__name__icontains=data["q"])
    if data.get("league"):
        rows = rows.filter(player__leagues=data["league"])
    if data.get("season"):
        played = RatingChange.objects.filter(player_id=OuterRef("player_id"), season=data["season"])
        rows = rows.filter(Exists(played))
    if data.get("show") == "established":
        rows = rows.filter(sigma__lte=PROVISIONAL_SIGMA)
    elif data.get("show") == "provisional":
        rows = rows.filter(sigma__gt=PROVISIONAL_SIGMA)
    return rows.order_by(*SORTS[data.get("sort") or "rating"])


@require_safe
def rating_list(request: HttpRequest, game: str) -> HttpResponse:
    if game not in GAME_NAMES:
        raise Http404("No such game.")
    form = RatingFilter(game, request.GET)
    # a parameter the page does not know (an old link, a league of another game) is dropped,
    # not refused: the page shows what it can and the form says what it dropped
    data = form.cleaned_data if form.is_valid() else _valid_part(form)
    rows = list(filtered(Rating.objects.filter(game=game).select_related("player"), data))
    # the sort links keep the filters chosen
    chosen = {key: request.GET[key] for key in ("q", "league", "season", "show") if data.get(key)}
    # the field's (value, label) pairs, as Django keeps a ChoiceField's choices
    sorts = cast(list[tuple[str, str]], cast(forms.ChoiceField, form.fields["sort"]).choices)
    sort_links = [
        (value, label, "?" + urlencode({**chosen, "sort": value})) for value, label in sorts
    ]
    return render(
        request,
        "leagues/ratings.html",
        {
            "game": game,
            "game_name": game_name(game),
            "rows": rows,
            "form": form,
            "sort": data.get("sort") or "rating",
            "sort_links": sort_links,
            "trend": mark_safe(_trend(game, rows[:TREND_PLAYERS])),
            "provisional_sigma": PROVISIONAL_SIGMA,
        },
    )


def _valid_part(form: RatingFilter) -> dict:
    """The valid part of a filter with errors."""
    return {name: value for name, value in form.cleaned_data.items() if name not in form.errors}


def _trend(game: str, rows: list[Rating]) -> str:
    """The first players' shown rating over their last matches, as a chart (one query)."""
    if not rows:
        return ""
    recent = Q(pk__in=[])
    for row in rows:
        recent |= Q(player_id=row.player_id, number__gt=row.played - TREND_MATCHES)
    values: dict[int, list[float]] = {row.player_id: [] for row in rows}
    for player_id, mu, sigma, mu_after, sigma_after in (
        RatingChange.objects.filter(recent, game=game)
        .order_by("player_id", "number")
        .values_list("player_id", "mu_before", "sigma_before", "mu_after", "sigma_after")
    ):
        if not values[player_id]:
            values[player_id].append(round(shown_rating(mu, sigma)))
        values[player_id].append(round(shown_rating(mu_after, sigma_after)))
    series = [Series(row.player.name, values[row.player_id]) for row in rows]
    return line_chart(
        series,
        title=gettext("Rating over each player's last %(count)s matches")
        % {"count": TREND_MATCHES},
        x_label=gettext("matches, oldest first"),
    )


@require_safe
def match_ratings(request: HttpRequest, pk: int) -> HttpResponse:
    """How one match moved its players' ratings, each change explained."""
    match = get_object_or_404(Match, pk=pk)
    explained = matches_explained([match.pk]).get(match.pk)
    return render(
        request,
        "leagues/match_ratings.html",
        {"match": match, "explained": explained, "game_name": game_name(match.game)},
    )


#: the changes explained on a player's page, per game
EXPLAINED_ON_PLAYER_PAGE = 10


def player_ratings(person: Player) -> dict[str, dict]:
    """A player's rating in each game they are rated in: the rating now, its chart and their
    last changes explained (three queries)."""
    kept = {row.game: row for row in Rating.objects.filter(player=person)}
    history: dict[str, list[RatingChange]] = defaultdict(list)
    for row in RatingChange.objects.filter(player=person).order_by("finished_at", "match_id"):
        history[row.game].append(row)
    recent = {
        game: [change_of(row) for row in reversed(rows[-EXPLAINED_ON_PLAYER_PAGE:])]
        for game, rows in history.items()
    }
    explained = matches_explained(c.match_id for changes in recent.values() for c in changes)
    found = {}
    for game, rating in kept.items():
        rows = history[game]
        values = [shown_rating(rows[0].mu_before, rows[0].sigma_before)] if rows else []
        values += [shown_rating(row.mu_after, row.sigma_after) for row in rows]
        chart = line_chart(
            [Series(person.shown_name, [round(value) for value in values])],
            title=gettext("%(player)s's %(game)s rating over time")
            % {"player": person.shown_name, "game": game_name(game)},
            x_label=gettext("matches rated"),
        )
        found[game] = {
            "skill": Skill(rating.mu, rating.sigma),
            "played": rating.played,
            "chart": mark_safe(chart),
            "changes": [
                (change, explained[change.match_id])
                for change in recent.get(game, [])
                if change.match_id in explained
            ],
        }
    return found


def partnership_chances(person: Player, partners_by_game: dict[str, list[str]]) -> dict:
    """For each game and partner (by name): the chance the ratings give the player and that
    partner together against a pair of average players of the game (two queries)."""
    names = {name for names in partners_by_game.values() for name in names} | {person.name}
    games = list(partners_by_game)
    skills = {
        (game, name): Skill(mu, sigma)
        for game, name, mu, sigma in Rating.objects.filter(
            game__in=games, player__name__in=names
        ).values_list("game", "player__name", "mu", "sigma")
    }
    averages = {
        game: Skill(mu, sigma)
        for game, mu, sigma in Rating.objects.filter(game__in=games)
        .values("game")
        .annotate(mu=Avg("mu"), sigma=Avg("sigma"))
        .values_list("game", "mu", "sigma")
    }
    found: dict[str, dict[str, int]] = {}
    for game, partners in partners_by_game.items():
        me = skills.get((game, person.name))
        if me is None or game not in averages:
            continue
        found[game] = {
            name: round(100 * partnership_chance([me, skills[(game, name)]], averages[game]))
            for name in partners
            if (game, name) in skills
        }
    return found
