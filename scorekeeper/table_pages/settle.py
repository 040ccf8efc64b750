"""Settle it: score one hand without a match, for any table in the hall.

The inputs travel in the URL (a GET form), so an answer can be shared or shown to the next table.
"""

from __future__ import annotations

from typing import cast

from django import forms
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_safe

from scorekeeper import rules
from scorekeeper.rules.tiles import parse_tile
from scorekeeper.tables.board import said
from scorekeeper.tables.forms.entry import enter_pips
from scorekeeper.tables.forms.setup import seat_label

SEATS = 4
DEFAULT_NAMES = ("A", "B", "C", "D")


class StraightHandForm(forms.Form):
    """A Straight Dominoes hand's end: who went out or that it blocked, and the pips left."""

    players = forms.TypedChoiceField(
        coerce=int, choices=[(2, "2"), (3, "3"), (4, "4")], initial=4, label=_("Players")
    )
    partnerships = forms.BooleanField(required=False, label=_("Partnerships (1 & 3 against 2 & 4)"))
    how = forms.ChoiceField(
        choices=[
            ("domino", pgettext_lazy("how a hand ended", "Domino")),
            ("blocked", pgettext_lazy("how a hand ended", "Blocked")),
        ],
        initial="domino",
        widget=forms.RadioSelect,
        label=_("The hand ended"),
    )
    domino = forms.TypedChoiceField(
        coerce=int,
        required=False,
        empty_value=None,
        choices=[],
        label=_("Who dominoed"),
    )
    round_each_hand = forms.BooleanField(required=False, label=_("Round each hand"))
    subtract_own = forms.BooleanField(required=False, label=_("Subtract own pips"))

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["domino"]).choices = _seat_choices()
        for seat in range(SEATS):
            self.fields[f"name{seat + 1}"] = forms.CharField(
                max_length=20,
                required=False,
                label=seat_label(seat + 1),
                widget=forms.TextInput(attrs={"placeholder": DEFAULT_NAMES[seat]}),
            )
            self.fields[f"pips{seat + 1}"] = forms.IntegerField(
                min_value=0,
                max_value=168,
                required=False,
                label=gettext("pips"),
                error_messages={"min_value": gettext("Pips cannot be negative.")},
                # four boxes labelled "pips": the seat tells them apart for a screen reader
                widget=forms.NumberInput(
                    attrs={
                        "inputmode": "numeric",
                        "min": 0,
                        "aria-label": gettext("Seat %(seat)s pips") % {"seat": seat + 1},
                    }
                ),
            )

    def seat_rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [(self[f"name{seat}"], self[f"pips{seat}"]) for seat in range(1, SEATS + 1)]

    def clean(self) -> dict:
        data = super().clean()
        assert data is not None  # Form.clean gives the cleaned data
        count = data.get("players") or SEATS
        names = [
            (data.get(f"name{seat}") or "").strip() or DEFAULT_NAMES[seat - 1]
            for seat in range(1, count + 1)
        ]
        if len({name.lower() for name in names}) != len(names):
            raise ValidationError(gettext("Give each seat a different name."))
        if data.get("partnerships") and count != 4:
            raise ValidationError(gettext("Partnerships need 4 players."))
        how = data.get("how")
        went_out = None
        if how == "domino":
            seat = data.get("domino")
            if seat is None or seat >= count:
                self.add_error("domino", gettext("Pick who dominoed."))
                return data
            went_out = names[seat]
        pips = {}
        for seat, name in enumerate(names, 1):
            value = data.get(f"pips{seat}")
            if value is None and name != went_out:
                self.add_error(f"pips{seat}", enter_pips(name))
            elif value is not None:
                pips[name] = value
        if self.errors or not how:
            return data
        house_rules: dict[str, int | bool] = {
            name: True for name in ("round_each_hand", "subtract_own") if data.get(name)
        }
        partnerships = (
            ((names[0], names[2]), (names[1], names[3])) if data.get("partnerships") else ()
        )
        data["match"] = rules.Match(
            game="straight",
            players=tuple(names),
            partnerships=partnerships,
            rules=house_rules,
            hands=(rules.Hand(end=rules.HandEnd(how=how, player=went_out, pips=pips)),),
        )
        return data


class SedmaLineForm(forms.Form):
    """A Sedma line laid turn by turn from the opener; "-" or "pass" for a player who passed."""

    line = forms.CharField(
        # a whole hand is 28 tiles and a few passes: 500 characters is plenty, and bounds the page
        max_length=500,
        label=_("The line, in the order laid"),
        help_text=_(
            'Tiles like 1-1 1-2 2-4, one per turn starting with the opener; "-" for a pass.'
        ),
        widget=forms.Textarea(attrs={"rows": 3, "autocapitalize": "off", "spellcheck": "false"}),
    )
    opener = forms.TypedChoiceField(
        coerce=int,
        choices=[],
        initial=0,
        label=_("Who opened"),
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["opener"]).choices = _seat_choices()
        for seat in range(SEATS):
            self.fields[f"name{seat + 1}"] = forms.CharField(
                max_length=20,
                required=False,
                label=seat_label(seat + 1),
                widget=forms.TextInput(attrs={"placeholder": f"P{seat + 1}"}),
            )

    def clean(self) -> dict:
        data = super().clean()
        assert data is not None  # Form.clean gives the cleaned data
        names = [(data.get(f"name{seat}") or "").strip() or f"P{seat}" for seat in range(1, 5)]
        if len({name.lower() for name in names}) != len(names):
            raise ValidationError(gettext("Give each seat a different name."))
        turn = data.get("opener") or 0
        plays: list[rules.Play] = []
        # those who passed before the first double had the turn to open and no double
        passed_opening = []
        for word in (data.get("line") or "").replace(",", " ").split():
            passed = pgettext("typed in a Sedma line for a player who passed", "pass")
            if word.lower() in ("-", "pass", passed.lower()):
                if not plays:
                    passed_opening.append(names[turn])
            else:
                try:
                    tile = parse_tile(word)
                except ValueError:
                    self.add_error(
                        "line",
                        gettext('"%(word)s" is not a tile: write tiles like 4-4 or 1-2.')
                        % {"word": word},
                    )
                    return data
                if not all(0 <= half <= 6 for half in tile):
                    self.add_error(
                        "line",
                        gettext("%(word)s: a double-six set has halves from 0 to 6.")
                        % {"word": word},
                    )
                    return data
                plays.append(rules.Play(names[turn], tile=tile))
            turn = (turn + 1) % SEATS
        if not plays:
            self.add_error("line", gettext("Write at least the opening double."))
            return data
        data["match"] = rules.Match(
            game="sedma",
            players=tuple(names),
            hands=(
                rules.Hand(
                    opener=plays[0].player,
                    passed_opening=tuple(passed_opening),
                    plays=tuple(plays),
                ),
            ),
        )
        return data


def _seat_choices() -> list[tuple[int, str]]:
    return [(seat, seat_label(seat + 1)) for seat in range(SEATS)]


@require_safe
def settle(request: HttpRequest) -> HttpResponse:
    game = "sedma" if request.GET.get("game") == "sedma" else "straight"
    form_class = SedmaLineForm if game == "sedma" else StraightHandForm
    asked = any(key != "game" for key in request.GET)
    form = form_class(request.GET if asked else None)
    board = None
    if asked and form.is_valid():
        board = rules.score_match(form.cleaned_data["match"])
    context: dict[str, object] = {"form": form, "game": game, "board": board}
    if board is not None:
        hand = board.hands[0]
        context["result"] = [(side, hand.points[side]) for side in board.sides]
        # the players here are their seats' labels: said as they are
        names: dict[str, str] = {}
        context["names"] = names
        context["explanation"] = said(hand.explanation, names)
        # the answer's own address carries the hand: the link to hand on to the other table
        context["share_url"] = request.build_absolute_uri()
    status = 422 if asked and board is None else 200
    return render(request, "tables/settle.html", context, status=status)
