"""League forms: create a league with its members and house rules, open a season."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from scorekeeper.clubs.models import Club
from scorekeeper.leagues.models import League, Season
from scorekeeper.rules.limits import MOST_NAME_LENGTH
from scorekeeper.rules.match import HOUSE_RULES
from scorekeeper.tables.forms.setup import SET_CHOICES
from scorekeeper.tables.models import GAME_CHOICES
from scorekeeper.tables.names import BadName, name_key, normal_name
from scorekeeper.tables.players import alike_among, alike_message, look_alikes


def names_written(form: forms.Form, field: str, raw: str) -> list[str]:
    """The players written in ``raw``, one a line or separated by commas, each once, as names
    are stored; a name that looks like a known player's another way is the field's error."""
    names: dict[str, str] = {}
    for line in raw.replace(",", "\n").splitlines():
        if len(line.strip()) > MOST_NAME_LENGTH:
            raise ValidationError(
                gettext("%(name)s...: a name has at most 40 characters.")
                % {"name": line.strip()[:MOST_NAME_LENGTH]}
            )
        try:
            name = normal_name(line)
        except BadName:
            raise ValidationError(
                gettext("%(name)s: a name cannot hold control characters.") % {"name": line.strip()}
            ) from None
        # a player written twice, in any case or spacing, is one player
        if name:
            names.setdefault(name_key(name), name)
    alike = alike_among(names.values())
    if alike is not None:
        form.add_error(field, alike_message(*alike))
    for name, known in look_alikes(names.values()).items():
        form.add_error(
            field,
            gettext(
                "%(name)s looks like the known player %(known)s: write %(known)s for them, "
                "or a name that tells a new player apart."
            )
            % {"name": name, "known": known},
        )
    return list(names.values())


class ClubChoiceField(forms.ModelChoiceField):
    """One of the clubs the organizer runs. An organizer of one club is not asked: the field
    is hidden and left empty means that club (``offer_clubs``)."""

    only: Club | None = None

    def __init__(self, **kwargs: object) -> None:
        super().__init__(queryset=Club.objects.none(), label=_("Club"), **kwargs)  # type: ignore[arg-type]

    def clean(self, value: Any) -> Any:
        if value in self.empty_values and self.only is not None:
            return self.only
        return super().clean(value)


def offer_clubs(field: forms.Field, clubs: QuerySet[Club]) -> None:
    """The clubs ``field`` (a ClubChoiceField) offers: the organizer's."""
    field = cast(ClubChoiceField, field)
    field.queryset = clubs
    listed = list(clubs[:2])
    if len(listed) == 1:
        field.only = listed[0]
        field.initial = listed[0].pk
        field.widget = forms.HiddenInput()


class ImportForm(forms.Form):
    """A league bundle, imported into one of the clubs the organizer runs."""

    club = ClubChoiceField()
    file = forms.FileField(
        label=_("League bundle"),
        # an empty file is not a league bundle: the import says so (bundle.py)
        allow_empty_file=True,
        widget=forms.FileInput(attrs={"accept": ".zip,application/zip"}),
        error_messages={"required": _("Choose a league bundle (.zip) to import.")},
    )

    def __init__(self, clubs: QuerySet[Club], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        offer_clubs(self.fields["club"], clubs)


class LeagueForm(forms.Form):
    club = ClubChoiceField()
    name = forms.CharField(max_length=80, label=_("League name"))
    game = forms.ChoiceField(choices=GAME_CHOICES, label=_("Game"))
    members = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4}),
        required=False,
        label=_("Members"),
        help_text=_(
            "One name per line (or separated by commas). Known players are matched by name."
        ),
    )
    target = forms.IntegerField(
        min_value=1,
        max_value=10_000,
        required=False,
        label=_("Play to (Straight, Sedma)"),
        help_text=_("Leave empty for the game's default: 250 for Straight Dominoes, 61 for Sedma."),
    )
    chickenfoot_set = forms.TypedChoiceField(
        coerce=int,
        choices=SET_CHOICES,
        required=False,
        empty_value=6,  # type: ignore[arg-type]  # coerced to int: an int when left empty
        label=_("Chickenfoot set"),
    )
    double_blank = forms.TypedChoiceField(
        coerce=int,
        choices=[(50, "50"), (25, "25"), (0, "0")],
        required=False,
        empty_value=50,  # type: ignore[arg-type]  # coerced to int: an int when left empty
        label=_("0-0 left in a hand counts (Chickenfoot)"),
    )
    ranking = forms.TypedChoiceField(
        choices=League._meta.get_field("ranking").choices,  # type: ignore[arg-type]  # a list
        initial="wins",
        required=False,
        empty_value="wins",
        label=_("Standings ranked by"),
        help_text=_("Players level on it are separated by the tie-breaks the standings state."),
    )
    ranking_minimum = forms.IntegerField(
        min_value=0,
        max_value=1000,
        required=False,
        label=_("Matches played to be ranked by win %"),
        help_text=_("With Best win %: players who played fewer come after the others."),
    )

    def __init__(self, clubs: QuerySet[Club], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        offer_clubs(self.fields["club"], clubs)

    def clean(self) -> dict:
        data = super().clean()
        assert data is not None  # Form.clean gives the cleaned data
        name = (data.get("name") or "").strip()
        club = data.get("club")
        if name and club and League.objects.filter(club=club, name__iexact=name).exists():
            self.add_error(
                "name", gettext("There is already a league called %(name)s.") % {"name": name}
            )
        data["name"] = name
        names = names_written(self, "members", data.get("members") or "")
        data["member_names"] = names
        game = data.get("game")
        house_rules: dict = {}
        if game in ("straight", "sedma") and data.get("target"):
            if data["target"] != HOUSE_RULES[game]["target"]:
                house_rules["target"] = data["target"]
        if game == "chickenfoot" and data.get("chickenfoot_set", 6) != 6:
            house_rules["set"] = data["chickenfoot_set"]
        if game == "chickenfoot" and data.get("double_blank", 50) != 50:
            house_rules["double_blank"] = data["double_blank"]
        data["house_rules"] = house_rules
        return data


class SeasonForm(forms.ModelForm):
    class Meta:
        model = Season
        fields = ["name", "starts_on", "ends_on"]
        labels = {
            "name": pgettext_lazy("a season's", "Name"),
            "starts_on": _("Starts on"),
            "ends_on": _("Ends on"),
        }
        widgets = {
            "starts_on": forms.DateInput(attrs={"type": "date"}),
            "ends_on": forms.DateInput(attrs={"type": "date"}),
        }

    def __init__(self, league: League, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.league = league
        # a season is mostly opened on the day it starts
        self.fields["starts_on"].initial = timezone.localdate

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        if self.league.seasons.filter(name__iexact=name).exists():
            raise ValidationError(
                gettext("%(league)s already has a season called %(name)s.")
                % {"league": self.league, "name": name}
            )
        return name

    def clean(self) -> dict:
        data = super().clean()
        assert data is not None  # Form.clean gives the cleaned data
        if data.get("starts_on") and data.get("ends_on") and data["ends_on"] < data["starts_on"]:
            raise ValidationError(gettext("A season cannot end before it starts."))
        return data


class ForfeitForm(forms.Form):
    side = forms.TypedChoiceField(coerce=int, choices=[], label=_("Forfeited by"))

    def __init__(self, sides: list[str], *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["side"]).choices = list(enumerate(sides))
