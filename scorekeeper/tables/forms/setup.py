"""Starting a match: the seats in playing order, the house rules, who leads or opens first."""

from __future__ import annotations

import random
from typing import cast

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from scorekeeper import rules
from scorekeeper.rules.match import HOUSE_RULES
from scorekeeper.tables.i18n import game_name as name_of_game
from scorekeeper.tables.names import BadName, name_key, normal_name
from scorekeeper.tables.players import alike_among, alike_message, look_alikes

MOST_SEATS = 8

#: a set named in a sentence, as in "with a double-six set" (the engine's words for it too)
SET_NAMES = {6: _("double-six"), 9: _("double-nine"), 12: _("double-twelve")}
SET_CHOICES = [(6, _("Double-six")), (9, _("Double-nine")), (12, _("Double-twelve"))]


def seat_label(seat: int) -> str:
    return gettext("Seat %(seat)s") % {"seat": seat}


def player_count_range(game: str, highest: int = 6) -> tuple[int, int]:
    if game == "sedma":
        return 4, 4
    if game == "chickenfoot" and highest != 6:
        return 2, 8
    return 2, 4


class SetupForm(forms.Form):
    """Start a match: seats in playing order, house rules, who leads or opens first."""

    partnerships = forms.BooleanField(
        required=False,
        initial=True,
        label=_("Four players play as partnerships (seats 1 & 3 against 2 & 4)"),
    )
    target = forms.IntegerField(min_value=1, max_value=10_000, label=_("Play to"))
    spinner = forms.BooleanField(required=False, label=_("First double is a spinner"))
    round_each_hand = forms.BooleanField(
        required=False, label=_("Round each opponent's hand, not the total")
    )
    subtract_own = forms.BooleanField(
        required=False, label=_("Winner scores opponents' pips minus their own")
    )
    set = forms.TypedChoiceField(
        coerce=int,
        choices=SET_CHOICES,
        label=pgettext_lazy("a set of dominoes", "Set"),
    )
    double_blank = forms.TypedChoiceField(
        coerce=int,
        choices=[(50, "50"), (25, "25"), (0, "0")],
        label=_("0-0 left in a hand counts"),
    )
    first = forms.ChoiceField(required=False, label="")

    RULE_FIELDS = ("target", "spinner", "round_each_hand", "subtract_own", "set", "double_blank")

    def __init__(self, game: str, *args, known_players: list[str] | None = None, **kwargs):
        initial = kwargs.pop("initial", {}) or {}
        defaults = dict(HOUSE_RULES[game])
        super().__init__(  # type: ignore[misc]  # "initial" is popped from kwargs above
            *args, initial={**defaults, **initial}, **kwargs
        )
        self.game = game
        self.known_players = known_players or []
        for name in self.RULE_FIELDS:
            if name not in defaults:
                del self.fields[name]
        if game != "straight":
            del self.fields["partnerships"]
        seats = 4 if game != "chickenfoot" else MOST_SEATS
        for seat in range(1, seats + 1):
            self.fields[f"seat_{seat}"] = forms.CharField(
                max_length=40,
                required=False,
                label=seat_label(seat),
                widget=forms.TextInput(
                    attrs={
                        "list": "known-players",
                        "autocomplete": "off",
                        "autocapitalize": "words",
                    }
                ),
            )
        choices = [("", gettext("Decide at the table"))]
        if game == "sedma":
            choices.append(("lot", gettext("Draw lots for me")))
        choices += [(str(seat), seat_label(seat)) for seat in range(1, seats + 1)]
        cast(forms.ChoiceField, self.fields["first"]).choices = choices
        self.fields["first"].label = {
            "straight": gettext("Who leads the first hand"),
            "sedma": gettext("Who opens the first hand"),
            "chickenfoot": "",
        }[game]
        if game == "chickenfoot":
            del self.fields["first"]

    @property
    def seat_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith("seat_")]

    @property
    def rule_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.RULE_FIELDS if name in self.fields]

    def clean(self) -> dict:
        data = super().clean()
        assert data is not None  # Form.clean gives the cleaned data
        players = self._seated_names(data)
        if players is None:
            return data
        low, high = player_count_range(self.game, data.get("set", 6))
        # a name sent for a seat beyond the form's is a player too: refuse, never drop them
        beyond = [
            key
            for key, value in self.data.items()
            if key.startswith("seat_") and key not in self.fields and str(value).strip()
        ]
        count = len(players) + len(beyond)
        if not low <= count <= high:
            raise ValidationError(self._wrong_count(low, high, count, data.get("set", 6)))
        partnerships: tuple[tuple[str, ...], ...] = ()
        if data.get("partnerships") and len(players) == 4:
            # the hall standard for four, ticked from the start; two or three play each alone
            partnerships = ((players[0], players[2]), (players[1], players[3]))
        defaults = HOUSE_RULES[self.game]
        house_rules = {
            name: data[name]
            for name in defaults
            if name in data and data[name] is not None and data[name] != defaults[name]
        }
        first = data.get("first") or ""
        first_player = None
        if first == "lot":
            first_player = random.choice(players)
        elif first:
            if int(first) > len(players):
                self.add_error("first", gettext("Seat %(seat)s is empty.") % {"seat": first})
            else:
                first_player = players[int(first) - 1]
        data["match"] = rules.Match(
            game=self.game,
            players=tuple(players),
            partnerships=partnerships,
            rules=house_rules,
            hands=self._first_hand(first_player),
        )
        return data

    def _seated_names(self, data: dict) -> list[str] | None:
        """The names in the seats, as they are stored (tables/names.py); None, with the seat's
        error, when one cannot be a name, is seated twice or is a known player written another
        way."""
        seats: dict[str, str] = {}
        for field in self.fields:
            if not field.startswith("seat_"):
                continue
            try:
                name = normal_name(data.get(field) or "")
            except BadName:
                self.add_error(
                    field,
                    gettext(
                        "A name cannot hold control characters (such as a tab or a line "
                        "break), characters that turn text right to left, or only invisible "
                        "characters."
                    ),
                )
                return None
            if name:
                seats[field] = name
        seen: dict[str, str] = {}
        for field, name in seats.items():
            same = seen.get(name_key(name))
            if same == name:
                self.add_error(
                    field,
                    gettext("%(name)s is seated twice: every player needs their own name.")
                    % {"name": name},
                )
                return None
            if same is not None:
                self.add_error(
                    field,
                    gettext(
                        "%(name)s and %(other)s are the same player (names differing only in "
                        "capitals and spaces are one player): give each player their own name."
                    )
                    % {"name": name, "other": same},
                )
                return None
            seen[name_key(name)] = name
            if " & " in name:
                self.add_error(
                    field,
                    gettext('%(name)s: a name cannot contain " & " (it joins partners).')
                    % {"name": name},
                )
                return None
        alike = alike_among(seats.values())
        if alike is not None:
            later, earlier = alike
            field = next(field for field, name in seats.items() if name == later)
            self.add_error(field, alike_message(later, earlier))
            return None
        known = look_alikes(seats.values())
        for field, name in seats.items():
            if name in known:
                self.add_error(
                    field,
                    gettext(
                        "%(name)s looks like the known player %(known)s: write %(known)s to "
                        "seat them, or a name that tells a new player apart."
                    )
                    % {"name": name, "known": known[name]},
                )
        if known:
            return None
        return list(seats.values())

    def _wrong_count(self, low: int, high: int, count: int, highest: int) -> str:
        values = {"game": name_of_game(self.game), "low": low, "high": high, "count": count}
        if self.game == "chickenfoot":
            values["set"] = SET_NAMES[highest]
            return (
                ngettext(
                    "%(game)s needs %(low)s to %(high)s players with a %(set)s set; "
                    "%(count)s is seated.",
                    "%(game)s needs %(low)s to %(high)s players with a %(set)s set; "
                    "%(count)s are seated.",
                    count,
                )
                % values
            )
        if low == high:
            return (
                ngettext(
                    "%(game)s needs exactly %(low)s players; %(count)s is seated.",
                    "%(game)s needs exactly %(low)s players; %(count)s are seated.",
                    count,
                )
                % values
            )
        return (
            ngettext(
                "%(game)s needs %(low)s to %(high)s players; %(count)s is seated.",
                "%(game)s needs %(low)s to %(high)s players; %(count)s are seated.",
                count,
            )
            % values
        )

    def _first_hand(self, first_player: str | None) -> tuple[rules.Hand, ...]:
        if first_player is None:
            return ()
        if self.game == "straight":
            return (rules.Hand(leader=first_player),)
        return (rules.Hand(opener=first_player),)
