"""A hand corrected: its plays row by row, and how it ended."""

from __future__ import annotations

from typing import cast

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scorekeeper import rules
from scorekeeper.rules import limits
from scorekeeper.rules.tiles import parse_tile, tile_name
from scorekeeper.tables.forms.entry import BLOCKED, SeatedChoiceField, read_tile


class PlayRowForm(forms.Form):
    """One play of a hand being corrected: Straight points, or a Sedma tile."""

    points = forms.IntegerField(
        min_value=1,
        max_value=1000,
        required=False,
        error_messages={
            "min_value": _("A play scores at least 5 points; 0 or less is not a score.")
        },
    )
    tile = forms.CharField(max_length=5, required=False)
    lead = forms.BooleanField(required=False, label=_("Lead"))
    remove = forms.BooleanField(required=False, label=_("Remove"))

    def __init__(self, *args, names: list[str], game: str, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        self.fields = {
            "player": SeatedChoiceField(names, blank="—", required=False),
            **self.fields,
        }
        if game == "sedma":
            del self.fields["points"], self.fields["lead"]
        else:
            del self.fields["tile"]

    def clean(self) -> dict:
        data = super().clean()
        assert data is not None  # Form.clean gives the cleaned data
        if data.get("remove") or not data.get("player"):
            data["play"] = None
            return data
        if self.game == "sedma":
            try:
                tile = read_tile((data.get("tile") or "").strip())
            except ValidationError as error:
                self.add_error("tile", error)
                return data
            data["play"] = rules.Play(data["player"], tile=parse_tile(tile))
        elif data.get("points") is None:
            if "points" not in self.errors:
                self.add_error("points", gettext("Enter the points, or tick Remove."))
        else:
            data["play"] = rules.Play(
                data["player"], points=data["points"], lead=data.get("lead", False)
            )
        return data


#: the empty rows below a hand's plays, to add plays with
EXTRA_ROWS = 2

#: what the rows' count (the formset's management form) says when it did not come as the page
#: sends it: missing (a page loaded before the rows were counted, a request made by hand), not
#: a number, or more rows than a hand holds
ROWS_NOT_AS_SENT = _(
    "The rows of plays did not arrive as this page sends them: nothing was saved. Here is the "
    "hand as it is stored; make your correction again."
)


class PlayRows(forms.BaseFormSet):
    """The plays of a hand being corrected, a row each, in order ("play-0-points", ...)."""

    default_error_messages = {
        "missing_management_form": ROWS_NOT_AS_SENT,
        "too_many_forms": ROWS_NOT_AS_SENT,
    }

    @classmethod
    def get_default_prefix(cls) -> str:
        return "play"

    def plays(self) -> tuple[rules.Play, ...]:
        """The hand's plays as corrected: the rows removed or left empty drop out."""
        return tuple(row.cleaned_data["play"] for row in self if row.cleaned_data.get("play"))


def play_rows(match: rules.Match, names: list[str], hand: rules.Hand, data=None) -> PlayRows:
    """A row per play of ``hand`` and EXTRA_ROWS empty rows to add plays (``match`` by seat,
    ``names``: who sits in each). Rows sent past the plays a hand holds (as many as a match
    file, or as this one was kept with) and the empty rows are refused unread."""
    most = max(len(hand.plays), limits.MOST_PLAYS) + EXTRA_ROWS
    # a PlayRows of PlayRowForm (django-stubs types what formset_factory makes a BaseFormSet)
    formset = cast(
        "type[PlayRows]",
        forms.formset_factory(
            PlayRowForm, formset=PlayRows, extra=EXTRA_ROWS, max_num=most, absolute_max=most
        ),
    )
    initial = [
        {
            "player": play.player,
            "points": play.points,
            "tile": tile_name(play.tile) if play.tile else "",
            "lead": play.lead,
        }
        for play in hand.plays
    ]
    return formset(data, initial=initial, form_kwargs={"names": names, "game": match.game})


def end_initial(hand: rules.Hand, match: rules.Match) -> dict:
    """What the end-of-hand form shows for a hand already ended."""
    end = hand.end
    if end is None:
        return {}
    players, game = list(match.players), match.game
    initial: dict = {f"pips_{seat}": end.pips.get(name) for seat, name in enumerate(players)}
    out = end.player if end.player in players else BLOCKED
    if game == "chickenfoot":
        initial["went_out"] = out
        initial["double_blank"] = end.double_blank[0] if end.double_blank else ""
        initial["starter"] = hand.starter or ""
    elif game == "straight":
        initial["out"] = out if end.how == "domino" else BLOCKED
        # the form's boxes of partners counted together, in the order it shows them
        sides = match.sides if match.partnerships else []
        for index, side in enumerate(sides):
            initial[f"side_{index}"] = end.pips.get(side.label)
    else:
        initial["how"] = end.how
        initial["player"] = end.player or ""
    return initial
