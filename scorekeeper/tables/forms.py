"""Forms turn what was tapped or typed into the engine's values; the engine judges them."""

from __future__ import annotations

import json
import random

from django import forms
from django.core.exceptions import ValidationError
from django.utils.html import conditional_escape, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, ngettext, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from scorekeeper import rules
from scorekeeper.rules.match import HOUSE_RULES, SIDE_JOIN
from scorekeeper.rules.tiles import parse_tile, tile_name
from scorekeeper.tables.i18n import game_name as name_of_game
from scorekeeper.tables.names import BadName, name_key, normal_name
from scorekeeper.tables.players import alike_among, alike_message, look_alikes, stored_names

MOST_SEATS = 8
PLAY_POINTS = (5, 10, 15, 20, 25, 30, 35)

WHOLE_NUMBER_ERRORS = {
    "invalid": _("Enter a whole number."),
    "min_value": _("Enter a whole number of at least %(limit_value)s."),
    "max_value": _("Enter a whole number of at most %(limit_value)s."),
    "required": _("Enter the pips (0 if none)."),
}

#: the points of a play: a button's, or another number typed
POINTS_ERRORS = {
    "min_value": _("A play scores at least 5 points; 0 or less is not a score."),
    "invalid": _("Points are a whole number (5, 10, 15 ...)."),
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


class SeatSelect(forms.Select):
    """A list of the seated players whose options are marked with their seat (``data-seat``),
    so that an open board's live poll renames them when a seat is taken over
    (tables/_live.html)."""

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        if str(value).isdigit():
            option["attrs"] = {**option["attrs"], "data-seat": str(value)}
        return option


class SeatedChoiceField(forms.ChoiceField):
    """A seated player, posted as their seat ("0", "1" ... in playing order) and cleaned to their
    name as the match seats them now: a player renamed, or a seat taken over, since the form was
    drawn never makes an entry fail. A name, as boards drawn before seats were posted send it,
    is taken while that player is seated."""

    default_error_messages = {
        "invalid_choice": _(
            "The player tapped does not sit at this table now: the board shows who does. Tap "
            "the player again."
        ),
    }

    def __init__(self, players: list[str], *, blank: str | None = None, **kwargs) -> None:
        self.players = list(players)
        choices = [(str(seat), name) for seat, name in enumerate(self.players)]
        if blank is not None:
            choices.insert(0, ("", blank))
        kwargs.setdefault("widget", SeatSelect)
        super().__init__(choices=choices, **kwargs)

    def to_python(self, value: object) -> str:
        text = super().to_python(value)
        if text.isdigit() and int(text) < len(self.players):
            return self.players[int(text)]
        return text

    def valid_value(self, value: str) -> bool:
        return value in self.players


def seat_key(players: list[str] | tuple[str, ...], name: str | None) -> str | None:
    """The seat a seated player's name is posted as (SeatedChoiceField); None for nobody."""
    return str(players.index(name)) if name in players else None


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
    """Straight Dominoes: who scored how much with a play: a points button, or another number
    typed. The lead (the leader's first tile of a hand) is marked, and the same play just
    entered by another phone is added again only when the table says so (``again``)."""

    points = forms.IntegerField(
        min_value=1,
        max_value=1000,
        required=False,
        label=_("Points"),
        error_messages=POINTS_ERRORS,
    )
    other_points = forms.IntegerField(
        min_value=1,
        max_value=1000,
        required=False,
        label=_("Another number"),
        error_messages=POINTS_ERRORS,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "pattern": "[0-9]*", "min": 1}),
    )
    lead = forms.BooleanField(required=False, label=_("Lead: the first tile of the hand"))
    #: who leads the hand, as the board said: only their play can be the lead
    leader = forms.CharField(required=False, max_length=100)
    again = forms.BooleanField(required=False)

    def __init__(self, match: rules.Match, *args, **kwargs) -> None:
        super().__init__(match, *args, **kwargs)
        self.fields["player"] = SeatedChoiceField(
            self.players,
            label=gettext("Who scored"),
            widget=forms.RadioSelect,
            error_messages={"required": gettext("Tap who scored, then the points.")},
        )

    def clean(self) -> dict:
        data = super().clean()
        points = data.get("points") or data.get("other_points")
        if points is None:
            if "points" not in self.errors and "other_points" not in self.errors:
                self.add_error("points", gettext("Tap the points scored."))
            return data
        data["points"] = points
        leader = data.get("leader") or ""
        if leader.isdigit() and int(leader) < len(self.players):
            # posted by seat, as the player is
            leader = self.players[int(leader)]
        data["lead"] = data.get("lead", False) and (not leader or data.get("player") == leader)
        if "player" in data:
            data["play"] = rules.Play(data["player"], points=points, lead=data["lead"])
        return data


class TileForm(EntryForm):
    """Sedma: who laid which tile: a double from the buttons, or any tile of the line typed
    ("4-4", "1|2", or two digits such as "66")."""

    tile = forms.CharField(max_length=5, required=False, label=_("Tile"))
    other_tile = forms.CharField(
        max_length=5,
        required=False,
        label=_("Tile"),
        widget=forms.TextInput(
            attrs={"placeholder": "1-2", "autocomplete": "off", "autocapitalize": "off", "size": 4}
        ),
    )

    def __init__(self, match: rules.Match, *args, **kwargs) -> None:
        super().__init__(match, *args, **kwargs)
        self.fields["player"] = SeatedChoiceField(
            self.players,
            label=gettext("Who laid it"),
            widget=forms.RadioSelect,
            error_messages={"required": gettext("Tap who laid it, then the tile.")},
        )

    def clean(self) -> dict:
        data = super().clean()
        text = (data.get("tile") or data.get("other_tile") or "").strip()
        if not text:
            self.add_error("tile", gettext("Pick a tile."))
            return data
        try:
            data["tile"] = read_tile(text)
        except ValidationError as error:
            self.add_error("tile", error)
        return data


def read_tile(text: str) -> str:
    """A tile as typed at the table: "4-4", "4|4", "44", or "4" for the double."""
    try:
        if "-" in text or "|" in text:
            tile = parse_tile(text)
        elif text.isdigit() and len(text) == 2:
            tile = (int(text[0]), int(text[1]))
        else:
            tile = (int(text), int(text))
    except ValueError:
        raise ValidationError(not_a_tile(text)) from None
    if not all(0 <= half <= 6 for half in tile):
        raise ValidationError(
            gettext("%(word)s: a double-six set has halves from 0 to 6.") % {"word": text}
        )
    return tile_name(tile)


def not_a_tile(text: str) -> str:
    return gettext('"%(text)s" is not a tile: write it like 4-4 or 1-2.') % {"text": text}


def pips_field(label: str) -> forms.IntegerField:
    """A box for pips left in hand: a player's, or partners' counted together. Its placeholder
    tells an empty box from one typed in (the end-of-hand form hides boxes left empty that do
    not count)."""
    return forms.IntegerField(
        min_value=0,
        max_value=1092,
        required=False,
        label=label,
        error_messages=WHOLE_NUMBER_ERRORS,
        widget=forms.NumberInput(
            attrs={"inputmode": "numeric", "pattern": "[0-9]*", "min": 0, "placeholder": "–"}
        ),
    )


class PipsMixin:
    """One pips box per seated player, named by seat so that any name is safe in a form."""

    def add_pips_fields(self: forms.Form, players: list[str]) -> None:
        for seat, name in enumerate(players):
            self.fields[f"pips_{seat}"] = pips_field(name)

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


#: the choice of who went out that says nobody did
BLOCKED = "blocked"


def out_choices(players: list[str], blocked: str) -> list[tuple[str, str]]:
    """Who went out, by seat (any name is safe in a form), or nobody: the hand was blocked."""
    return [*((str(seat), name) for seat, name in enumerate(players)), (BLOCKED, blocked)]


def together(side: rules.Side, players: list[str]) -> str:
    """The label of partners' pips counted together, "Bo & Di together", each name marked with
    its seat for an open board's live poll to rename (tables/_live.html)."""
    names = format_html_join(
        SIDE_JOIN, '<span data-seat="{}">{}</span>', ((players.index(p), p) for p in side.players)
    )
    return mark_safe(conditional_escape(gettext("%(side)s together")) % {"side": names})


class HandEndForm(PipsMixin, EntryForm):
    """Straight Dominoes: who dominoed (or blocked) and the pips left in hand.

    After a domino only the pips that count are needed: the opponents', each or, in a
    partnership match, the other side's counted together; the partner's too under the house
    rule that subtracts the winners' own pips. After a blocked hand every player's pips decide
    who won and who leads next."""

    def __init__(self, match: rules.Match, *args, **kwargs) -> None:
        super().__init__(match, *args, **kwargs)
        self.fields["out"] = forms.ChoiceField(
            choices=out_choices(self.players, pgettext("how a hand ended", "Blocked")),
            widget=forms.RadioSelect,
            label=gettext("Who dominoed?"),
            error_messages={"required": gettext("Tap who dominoed, or Blocked.")},
        )
        self.add_pips_fields(self.players)
        #: the winners' own pips count too (house rule): the partner's box is needed
        self.counts_own = bool(match.rule("subtract_own"))
        self.sides = match.sides if match.partnerships else []
        for index, side in enumerate(self.sides):
            self.fields[f"side_{index}"] = pips_field(together(side, self.players))

    @property
    def side_fields(self) -> list[forms.BoundField]:
        return [self[f"side_{index}"] for index in range(len(self.sides))]

    def seat_of_side(self, seat: int) -> int:
        """The index of the side the player in ``seat`` plays on."""
        name = self.players[seat]
        return next(i for i, side in enumerate(self.sides) if name in side.players)

    def clean(self) -> dict:
        data = super().clean()
        out = data.get("out")
        if not out:
            return data
        if out == BLOCKED:
            pips = self.pips_by_player(data, None)
            if not self.errors:
                data["end"] = rules.HandEnd(how="blocked", pips=pips)
            return data
        player = self.players[int(out)]
        pips = self._counted_pips(data, player)
        if not self.errors:
            data["end"] = rules.HandEnd(how="domino", player=player, pips=pips)
        return data

    def _counted_pips(self, data: dict, player: str) -> dict[str, int]:
        """The pips after ``player`` dominoed, keyed by player or by side: the opponents' are
        needed (each, or a side's together), the partner's under the house rule that
        subtracts the winners' own; any other typed is passed on for the rules to judge."""
        subtract_own = self.counts_own
        pips = {
            name: data[f"pips_{seat}"]
            for seat, name in enumerate(self.players)
            if data.get(f"pips_{seat}") is not None
        }
        for index, side in enumerate(self.sides or [None]):
            members = list(side.players) if side is not None else self.players
            if side is not None and player in members:
                needed = [name for name in members if name != player and subtract_own]
            else:
                needed = [name for name in members if name != player]
            together = data.get(f"side_{index}") if side is not None else None
            if together is not None and player not in members:
                if any(name in pips for name in members):
                    self.add_error(
                        f"side_{index}",
                        gettext("Give %(side)s's pips together or one by one, not both.")
                        % {"side": side},
                    )
                pips[str(side)] = together
                continue
            for name in needed:
                if name not in pips:
                    self.add_error(f"pips_{self.players.index(name)}", enter_pips(name))
        return pips


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
    """Chickenfoot: a whole round at once: who went out (or blocked: a choice the table makes,
    never a default), each player's pips, who held 0-0."""

    def __init__(self, match: rules.Match, *args, **kwargs) -> None:
        super().__init__(match, *args, **kwargs)
        self.fields["went_out"] = forms.ChoiceField(
            choices=out_choices(self.players, gettext("Blocked")),
            widget=forms.RadioSelect,
            label=gettext("Who went out?"),
            error_messages={"required": gettext("Tap who went out, or Blocked.")},
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
        out = data.get("went_out")
        if not out:
            return data
        went_out = None if out == BLOCKED else self.players[int(out)]
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


#: the form that ends a hand, by game: Chickenfoot's records a whole round
END_FORMS = {"straight": HandEndForm, "chickenfoot": RoundForm, "sedma": SedmaEndForm}


def play_form(match: rules.Match, data=None) -> PlayForm | TileForm:
    """The form for a play: Straight points, a Sedma tile (Chickenfoot has none: it is entered
    a round at a time)."""
    return TileForm(match, data) if match.game == "sedma" else PlayForm(match, data)


def hand_end_form(match: rules.Match, data=None, **kwargs) -> EntryForm:
    """The form that ends a hand: Straight, Sedma; a whole round of Chickenfoot."""
    return END_FORMS[match.game](match, data, **kwargs)


#: the most entries a phone sends at once: far more taps than a whole match takes
MOST_OUTBOX_ENTRIES = 500
OUTBOX_KINDS = ("play", "end", "undo")


class OutboxForm(forms.Form):
    """A phone's entries not yet sent, in the order they were tapped: a JSON list of
    ``{"kind": "play" | "end" | "undo", "fields": {name: value or [values]}}``, the fields
    being those the entry's form would have posted."""

    entries = forms.CharField(strip=False)

    def clean_entries(self) -> list[dict]:
        try:
            entries = json.loads(self.cleaned_data["entries"])
        except (ValueError, RecursionError):
            raise ValidationError(gettext("The entries sent are not JSON.")) from None
        if not isinstance(entries, list):
            raise ValidationError(gettext("The entries sent must be a JSON list."))
        if len(entries) > MOST_OUTBOX_ENTRIES:
            raise ValidationError(
                gettext("At most %(most)s entries can be sent at once; %(count)s were sent.")
                % {"most": MOST_OUTBOX_ENTRIES, "count": len(entries)}
            )
        return [_outbox_entry(number, entry) for number, entry in enumerate(entries, 1)]


def _outbox_entry(number: int, entry: object) -> dict:
    """One entry with its fields as a browser posts them: each a list of texts. What the phone
    sent is never quoted back: it may hold anything."""
    if not isinstance(entry, dict) or entry.get("kind") not in OUTBOX_KINDS:
        raise ValidationError(
            gettext("Entry %(number)s is not a play, an end or an undo.") % {"number": number}
        )
    fields = entry.get("fields", {})
    if not isinstance(fields, dict):
        raise ValidationError(
            gettext("Entry %(number)s: its fields must be a JSON object.") % {"number": number}
        )
    posted = {}
    for name, value in fields.items():
        items = value if isinstance(value, list) else [value]
        if not all(item is None or isinstance(item, str | int | float) for item in items):
            raise ValidationError(
                gettext("Entry %(number)s: a field holds something other than text or numbers.")
                % {"number": number}
            )
        posted[name] = [text for item in items if (text := _posted(item)) is not None]
    return {"kind": entry["kind"], "fields": posted}


def _posted(value: str | int | float | None) -> str | None:
    """A value as a browser posts it: text; a ticked box "on", an unticked one not at all."""
    if value is None or value is False:
        return None
    if value is True:
        return "on"
    return value if isinstance(value, str) else str(value)


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

    def __init__(self, *args, players: list[str], game: str, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        self.fields = {
            "player": SeatedChoiceField(players, blank="—", required=False),
            **self.fields,
        }
        if game == "sedma":
            del self.fields["points"], self.fields["lead"]
        else:
            del self.fields["tile"]

    def clean(self) -> dict:
        data = super().clean()
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


def play_rows(match: rules.Match, hand: rules.Hand, data=None, extra: int = 2) -> list[PlayRowForm]:
    """A row per play of ``hand`` and ``extra`` empty rows to add plays."""
    initial = [
        {
            "player": seat_key(match.players, play.player),
            "points": play.points,
            "tile": tile_name(play.tile) if play.tile else "",
            "lead": play.lead,
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


def end_initial(hand: rules.Hand, match: rules.Match) -> dict:
    """What the end-of-hand form shows for a hand already ended."""
    end = hand.end
    if end is None:
        return {}
    players, game = list(match.players), match.game
    initial: dict = {f"pips_{seat}": end.pips.get(name) for seat, name in enumerate(players)}
    out = str(players.index(end.player)) if end.player in players else BLOCKED
    if game == "chickenfoot":
        initial["went_out"] = out
        initial["double_blank"] = seat_key(players, end.double_blank[0]) if end.double_blank else ""
        initial["starter"] = seat_key(players, hand.starter) or ""
    elif game == "straight":
        initial["out"] = out if end.how == "domino" else BLOCKED
        # the form's boxes of partners counted together, in the order it shows them
        sides = match.sides if match.partnerships else []
        for index, side in enumerate(sides):
            initial[f"side_{index}"] = end.pips.get(side.label)
    else:
        initial["how"] = end.how
        initial["player"] = seat_key(players, end.player) or ""
    return initial
