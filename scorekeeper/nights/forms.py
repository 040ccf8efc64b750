"""The organizer's forms for a night: the night itself with who came, check-in, the draw and
someone leaving early. Each hands the views players, not names."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scorekeeper.events.standings import DEFAULT_TIEBREAKS
from scorekeeper.leagues.forms import names_written
from scorekeeper.leagues.models import League
from scorekeeper.nights import tournament
from scorekeeper.nights.models import DRAWS_WITHOUT_PARTNERS, MOST_ROUNDS, Night
from scorekeeper.tables.models import Player


class CameField(forms.ModelMultipleChoiceField):
    """Tick who came: a box a player, big enough to tap."""

    widget = forms.CheckboxSelectMultiple

    def label_from_instance(self, obj: Player) -> str:
        return obj.name


class WhoCameForm(forms.Form):
    """Members who came, by a tap each, and walk-ins by name (they join the league)."""

    players = CameField(queryset=Player.objects.none(), required=False, label=_("Who came"))
    walk_ins = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2, "autocapitalize": "words"}),
        required=False,
        label=_("Walk-ins"),
        help_text=_("One name a line: they join the league."),
    )

    def __init__(self, league: League, *args, exclude=(), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.league = league
        cast(forms.ModelChoiceField, self.fields["players"]).queryset = league.members.exclude(
            pk__in=exclude
        ).order_by("name")

    def clean(self) -> dict:
        data = super().clean()
        assert data is not None  # Form.clean gives the cleaned data
        data["walk_in_names"] = names_written(self, "walk_ins", data.get("walk_ins") or "")
        return data

    def who_came(self) -> tuple[list[Player], list[str]]:
        """The members ticked, and the walk-ins' names as they are stored."""
        return list(self.cleaned_data["players"]), self.cleaned_data["walk_in_names"]


class NightForm(WhoCameForm):
    played_on = forms.DateField(
        label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}), initial=timezone.localdate
    )
    draw = forms.ChoiceField(choices=Night.Draw.choices, label=_("The draw"))
    rounds = forms.IntegerField(min_value=1, max_value=MOST_ROUNDS, initial=3, label=_("Rounds"))
    partnerships = forms.BooleanField(
        required=False,
        initial=True,
        label=_("Tables of four play as partnerships (seats 1 & 3 against 2 & 4)"),
    )
    most_at_a_table = forms.TypedChoiceField(
        coerce=int, choices=[], label=_("Most players at a table")
    )
    tiebreaks = forms.MultipleChoiceField(
        choices=tournament.TIEBREAK_CHOICES,
        widget=forms.CheckboxSelectMultiple,
        required=False,
        initial=[key for key in DEFAULT_TIEBREAKS if key != "match_points"],
        label=_("Tie-breaks (Swiss and round robin)"),
        help_text=_("The standings rank by match points, then by those ticked, in this order."),
    )
    signed_only = forms.BooleanField(
        required=False,
        label=_("Count a result in the standings only once the other side signed it"),
    )
    round_minutes = forms.IntegerField(
        min_value=1,
        max_value=600,
        required=False,
        label=_("Round length, in minutes (empty: no round clock)"),
        help_text=_("The director starts each round's clock from the desk; 55 is common."),
    )
    at_time = forms.ChoiceField(
        choices=Night.AtTime.choices,
        initial=Night.AtTime.FINISH_HAND,
        required=False,
        label=_("When the time is up"),
    )

    field_order = [
        "played_on",
        "draw",
        "rounds",
        "partnerships",
        "most_at_a_table",
        "round_minutes",
        "at_time",
        "tiebreaks",
        "signed_only",
    ]

    def __init__(self, league: League, *args, **kwargs) -> None:
        super().__init__(league, *args, **kwargs)
        game = league.game
        most = 4 if game != "chickenfoot" or league.rules.get("set", 6) == 6 else 8
        low = 2 if game == "straight" else 3 if game == "chickenfoot" else 4
        cast(forms.ChoiceField, self.fields["most_at_a_table"]).choices = [
            (n, str(n)) for n in range(most, low - 1, -1)
        ]
        self.fields["most_at_a_table"].initial = most
        if game != "straight":
            del self.fields["partnerships"]
            # every player for themself: the draws seat tables, no partners
            cast(forms.ChoiceField, self.fields["draw"]).choices = [
                (value, DRAWS_WITHOUT_PARTNERS.get(value, label))
                for value, label in Night.Draw.choices
                if value != Night.Draw.ROTATING
            ]
        if game == "sedma":
            del self.fields["most_at_a_table"]
        if game == "chickenfoot":
            # the lowest total wins Chickenfoot
            cast(forms.ChoiceField, self.fields["at_time"]).choices = [
                (
                    Night.AtTime.FINISH_HAND,
                    _("Finish the round being played, then the lowest total wins"),
                ),
                (Night.AtTime.PLAY_ON, Night.AtTime.PLAY_ON.label),
            ]

    def clean(self) -> dict:
        data = super().clean()
        assert data is not None  # Form.clean gives the cleaned data
        partnerships = data.get("partnerships", False)
        if data.get("draw") == Night.Draw.ROTATING and not partnerships:
            self.add_error(
                "draw", gettext("Rotating partners is for Straight Dominoes in partnerships.")
            )
        if data.get("draw") in (Night.Draw.SWISS, Night.Draw.ROUND_ROBIN):
            refused = tournament.refusal(self.league.game)
            if refused:
                self.add_error("draw", refused)
        return data

    def night(self, season, user) -> Night:
        data = self.cleaned_data
        return Night(
            season=season,
            played_on=data["played_on"],
            draw=data["draw"],
            rounds=data["rounds"],
            partnerships=data.get("partnerships", False),
            most_at_a_table=data.get("most_at_a_table") or 4,
            tiebreaks=["match_points", *data.get("tiebreaks", [])],
            round_minutes=data.get("round_minutes"),
            at_time=data.get("at_time") or Night.AtTime.FINISH_HAND,
            signed_only=data.get("signed_only", False),
            created_by=user if user.is_authenticated else None,
        )


class DrawForm(forms.Form):
    seed = forms.CharField(
        max_length=64,
        required=False,
        label=_("Seed"),
        help_text=_(
            "Leave it empty for the night's own, or a new one to draw again. The same seed "
            "always draws the same."
        ),
    )
    allow_rematches = forms.BooleanField(
        required=False,
        label=_("Pair with fewest rematches"),
        help_text=_("When every Swiss pairing of the round has a rematch."),
    )


class PartnersForm(forms.Form):
    """The night's fixed partnerships: a partner picked for each player here (picking one of
    the two is enough)."""

    def __init__(self, check_ins, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.players = {c.player_id: c.player.name for c in check_ins}
        for check_in in check_ins:
            others = [(pk, name) for pk, name in self.players.items() if pk != check_in.player_id]
            self.fields[f"partner_{check_in.player_id}"] = forms.TypedChoiceField(
                coerce=int,
                choices=[("", _("No partner yet")), *others],
                required=False,
                empty_value=None,
                initial=check_in.partner_id,
                label=check_in.player.name,
            )

    def clean(self) -> dict:
        data = super().clean()
        assert data is not None  # Form.clean gives the cleaned data
        picked = {pk: data.get(f"partner_{pk}") for pk in self.players}
        pairs: set[tuple[int, int]] = set()
        for pk, other in picked.items():
            if other is None:
                continue
            if picked.get(other) not in (None, pk):
                self.add_error(
                    f"partner_{pk}",
                    gettext("%(other)s is partnered with someone else.")
                    % {"other": self.players[other]},
                )
                continue
            pairs.add((min(pk, other), max(pk, other)))
        paired = [pk for pair in pairs for pk in pair]
        if len(paired) != len(set(paired)):
            raise forms.ValidationError(gettext("A player can have only one partner."))
        data["pairs"] = sorted(pairs)
        data["alone"] = [pk for pk in self.players if pk not in paired]
        return data


class LeaveForm(forms.Form):
    """Someone leaves early: who takes their seat, if anyone; else their side forfeits."""

    player = forms.ModelChoiceField(queryset=Player.objects.none(), label=_("Who is leaving"))
    replacement = forms.ModelChoiceField(
        queryset=Player.objects.none(),
        required=False,
        label=_("Who takes their seat"),
        empty_label=_("Nobody: their side forfeits"),
    )

    def __init__(self, here, free, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField, self.fields["player"]).queryset = here
        cast(forms.ModelChoiceField, self.fields["replacement"]).queryset = free


class MemberChoiceField(forms.ModelChoiceField):
    """An account among the club's members, shown by its user name."""

    def label_from_instance(self, obj: Any) -> str:
        return str(obj.get_username())


class DirectorForm(forms.Form):
    """A member of the club named the night's director, or removed (``remove``)."""

    user = MemberChoiceField(queryset=None, label=_("Member"))
    remove = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, members: QuerySet, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField, self.fields["user"]).queryset = members
