"""Forms turn what was tapped or typed into the engine's values; the engine judges them."""

from __future__ import annotations

import random

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from scorekeeper import rules
from scorekeeper.rules.match import HOUSE_RULES
from scorekeeper.rules.tiles import parse_tile, tile_name
from scorekeeper.tables.i18n import game_name as name_of_game
from scorekeeper.tables.names import BadName, name_key, normal_name
from scorekeeper.tables.players import look_alikes, stored_names

MOST_SEATS = 8
PLAY_POINTS = (5, 10, 15, 20, 25, 30, 35)

WHOLE_NUMBER_ERRORS = {
    "invalid": _("Enter a whole number."),
    "min_value": _("Enter a whole number of at least %(limit_value)s."),
    "max_value": _("Enter a whole number of at most %(limit_value)s."),
    "required": _("Enter the pips (0 if none)."),
}

#: a set named in a sentence, as in "with a double-six set" (the engine's words for it too)
SET_NAMES = {6: _("double-six"), 9: _("double-nine"), 12: _("double-twelve")}
SET_CHOICES = [(6, _("Double-six")), (9, _("Double-nine")), (12, _("Double-twelve"))]


def seat_label(seat: int) -> str:
    return gettext("Seat %(seat)s") % {"seat": seat}


def enter_pips(name: str) -> str:
    return gettext("Enter %(name)s's pips (0 if none).") % {"name": name}


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
        label=_("Play as partnerships (seats 1 & 3 against 2 & 4)"),
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
        super().__init__(*args, initial={**defaults, **initial}, **kwargs)
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
        self.fields["first"].choices = choices
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
        if data.get("partnerships"):
            if len(players) != 4:
                raise ValidationError(gettext("Partnerships need 4 players."))
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


class SeatedChoiceField(forms.ChoiceField):
    def __init__(self, players: list[str], *, blank: str | None = None, **kwargs) -> None:
        choices = [(name, name) for name in players]
        if blank is not None:
            choices.insert(0, ("", blank))
        super().__init__(choices=choices, **kwargs)


class EntryForm(forms.Form):
    """What every entry form has: the seated players, and the override of an error finding."""

    override = forms.BooleanField(
        required=False, label=_("Keep it anyway: the table agrees this is what happened")
    )

    def __init__(self, match: rules.Match, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.match = match
        self.players = list(match.players)


class PlayForm(EntryForm):
    """Straight Dominoes: who scored how much with a play."""

    points = forms.IntegerField(
        min_value=1,
        max_value=1000,
        label=_("Points"),
        error_messages={
            "min_value": _("A play scores at least 5 points; 0 or less is not a score."),
            "invalid": _("Points are a whole number (5, 10, 15 ...)."),
            "required": _("Tap the points scored."),
        },
    )

    def __init__(self, match: rules.Match, *args, **kwargs) -> None:
        super().__init__(match, *args, **kwargs)
        self.fields["player"] = SeatedChoiceField(
            self.players, label=gettext("Who scored"), widget=forms.RadioSelect
        )

    def clean(self) -> dict:
        data = super().clean()
        if "player" in data and "points" in data:
            data["play"] = rules.Play(data["player"], points=data["points"])
        return data


class TileForm(EntryForm):
    """Sedma: who laid which tile (a double from the buttons, or any tile of the line)."""

    tile = forms.CharField(
        max_length=5, label=_("Tile"), error_messages={"required": _("Pick a tile.")}
    )

    def __init__(self, match: rules.Match, *args, **kwargs) -> None:
        super().__init__(match, *args, **kwargs)
        self.fields["player"] = SeatedChoiceField(
            self.players, label=gettext("Who laid it"), widget=forms.RadioSelect
        )

    def clean_tile(self) -> str:
        text = self.cleaned_data["tile"].strip()
        try:
            tile = parse_tile(text) if "-" in text or "|" in text else (int(text), int(text))
        except ValueError:
            raise ValidationError(not_a_tile(text)) from None
        if not all(0 <= half <= 6 for half in tile):
            raise ValidationError(
                gettext("%(word)s: a double-six set has halves from 0 to 6.") % {"word": text}
            )
        return tile_name(tile)


def not_a_tile(text: str) -> str:
    return gettext('"%(text)s" is not a tile: write it like 4-4 or 1-2.') % {"text": text}


class PipsMixin:
    """One pips box per seated player, named by seat so that any name is safe in a form."""

    def add_pips_fields(self: forms.Form, players: list[str]) -> None:
        for seat, name in enumerate(players):
            self.fields[f"pips_{seat}"] = forms.IntegerField(
                min_value=0,
                max_value=1092,
                required=False,
                label=name,
                error_messages=WHOLE_NUMBER_ERRORS,
                widget=forms.NumberInput(
                    attrs={"inputmode": "numeric", "pattern": "[0-9]*", "min": 0}
                ),
            )

    @property
    def pips_fields(self: forms.Form) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith("pips_")]

    def pips_by_player(self: forms.Form, data: dict, went_out: str | None) -> dict[str, int]:
        pips = {}
        for seat, name in enumerate(self.players):
            value = data.get(f"pips_{seat}")
            if value is None and name != went_out:
                self.add_error(f"pips_{seat}", enter_pips(name))
            elif value is not None:
                pips[name] = value
        return pips


class HandEndForm(PipsMixin, EntryForm):
    """Straight Dominoes: how the hand ended and the pips left in each hand."""

    how = forms.ChoiceField(
        choices=[
            ("domino", pgettext_lazy("how a hand ended", "Domino")),
            ("blocked", pgettext_lazy("how a hand ended", "Blocked")),
        ],
        widget=forms.RadioSelect,
        label=_("How did the hand end"),
    )

    def __init__(self, match: rules.Match, *args, **kwargs) -> None:
        super().__init__(match, *args, **kwargs)
        self.fields["player"] = SeatedChoiceField(
            self.players, blank="—", required=False, label=gettext("Who dominoed")
        )
        self.add_pips_fields(self.players)

    def clean(self) -> dict:
        data = super().clean()
        how = data.get("how")
        player = data.get("player") or None
        if how == "domino" and not player:
            self.add_error("player", gettext("Who went out? Pick the player who dominoed."))
            return data
        pips = self.pips_by_player(data, player if how == "domino" else None)
        if how and not self.errors:
            data["end"] = rules.HandEnd(
                how=how, player=player if how == "domino" else None, pips=pips
            )
        return data


class SedmaEndForm(EntryForm):
    """Sedma: a hand that ended before all seven doubles were down."""

    how = forms.ChoiceField(
        choices=[
            ("blocked", _("Nobody can play")),
            ("domino", _("A player laid their last tile")),
            ("all-doubles", _("All seven doubles are down")),
            ("target", _("A player reached the target")),
        ],
        widget=forms.RadioSelect,
        label=_("How did the hand end"),
    )

    def __init__(self, match: rules.Match, *args, **kwargs) -> None:
        super().__init__(match, *args, **kwargs)
        self.fields["player"] = SeatedChoiceField(
            self.players, blank="—", required=False, label=gettext("Who went out")
        )

    def clean(self) -> dict:
        data = super().clean()
        if data.get("how"):
            player = data.get("player") if data["how"] == "domino" else None
            data["end"] = rules.HandEnd(how=data["how"], player=player or None)
        return data


class RoundForm(PipsMixin, EntryForm):
    """Chickenfoot: a whole round at once: who went out, each player's pips, who held 0-0."""

    def __init__(self, match: rules.Match, *args, **kwargs) -> None:
        super().__init__(match, *args, **kwargs)
        self.fields["went_out"] = SeatedChoiceField(
            self.players,
            blank=gettext("Nobody: the round was blocked"),
            required=False,
            label=gettext("Who went out"),
            widget=forms.RadioSelect,
        )
        self.fields["double_blank"] = SeatedChoiceField(
            self.players,
            blank=gettext("Nobody"),
            required=False,
            label=gettext("Left holding 0-0"),
            widget=forms.RadioSelect,
        )
        self.fields["starter"] = SeatedChoiceField(
            self.players, blank="—", required=False, label=gettext("Who set the round's double")
        )
        self.add_pips_fields(self.players)

    def clean(self) -> dict:
        data = super().clean()
        went_out = data.get("went_out") or None
        pips = self.pips_by_player(data, went_out)
        holder = data.get("double_blank")
        if not self.errors:
            data["end"] = rules.HandEnd(
                how="domino" if went_out else "blocked",
                player=went_out,
                pips=pips,
                double_blank=(holder,) if holder else (),
            )
        return data


class ImportForm(forms.Form):
    file = forms.FileField(label=_("Match file (.json)"))

    def clean_file(self) -> rules.Match:
        from scorekeeper.rules.matchfile import MatchFileError, read_match

        upload = self.cleaned_data["file"]
        if upload.size > 2_000_000:
            raise ValidationError(gettext("That file is too large to be a match file."))
        try:
            match = read_match(upload.read())
        except MatchFileError as error:
            raise ValidationError(_unreadable(str(error))) from None
        try:
            match = stored_names(match)
        except BadName as problem:
            raise ValidationError(_unreadable(str(problem))) from None
        return match


def _unreadable(problem: str) -> str:
    # the problem itself names a place in the file and stays in English, as the file format does
    return gettext("This is not a match file the app can read: %(problem)s") % {"problem": problem}


class PlayRowForm(forms.Form):
    """One play of a hand being corrected: Straight points, or a Sedma tile."""

    player = forms.ChoiceField(required=False)
    points = forms.IntegerField(
        min_value=1,
        max_value=1000,
        required=False,
        error_messages={
            "min_value": _("A play scores at least 5 points; 0 or less is not a score.")
        },
    )
    tile = forms.CharField(max_length=5, required=False)
    remove = forms.BooleanField(required=False, label=_("Remove"))

    def __init__(self, *args, players: list[str], game: str, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        self.fields["player"].choices = [("", "—"), *[(name, name) for name in players]]
        if game == "sedma":
            del self.fields["points"]
        else:
            del self.fields["tile"]

    def clean(self) -> dict:
        data = super().clean()
        if data.get("remove") or not data.get("player"):
            data["play"] = None
            return data
        if self.game == "sedma":
            text = (data.get("tile") or "").strip()
            try:
                tile = parse_tile(text)
            except ValueError:
                self.add_error("tile", not_a_tile(text))
                return data
            if not all(0 <= half <= 6 for half in tile):
                self.add_error("tile", gettext("A double-six set has halves from 0 to 6."))
                return data
            data["play"] = rules.Play(data["player"], tile=tile)
        elif data.get("points") is None:
            if "points" not in self.errors:
                self.add_error("points", gettext("Enter the points, or tick Remove."))
        else:
            data["play"] = rules.Play(data["player"], points=data["points"])
        return data


def play_rows(match: rules.Match, hand: rules.Hand, data=None, extra: int = 2) -> list[PlayRowForm]:
    """A row per play of ``hand`` and ``extra`` empty rows to add plays."""
    initial = [
        {
            "player": play.player,
            "points": play.points,
            "tile": tile_name(play.tile) if play.tile else "",
        }
        for play in hand.plays
    ]
    initial += [{} for _ in range(extra)]
    return [
        PlayRowForm(
            data, prefix=f"play-{i}", initial=row, players=list(match.players), game=match.game
        )
        for i, row in enumerate(initial)
    ]


def end_initial(hand: rules.Hand, players: list[str], game: str) -> dict:
    """What the end-of-hand form shows for a hand already ended."""
    end = hand.end
    if end is None:
        return {}
    initial: dict = {f"pips_{seat}": end.pips.get(name) for seat, name in enumerate(players)}
    if game == "chickenfoot":
        initial["went_out"] = end.player or ""
        initial["double_blank"] = end.double_blank[0] if end.double_blank else ""
        initial["starter"] = hand.starter or ""
    else:
        initial["how"] = end.how
        initial["player"] = end.player or ""
    return initial
