"""What every entry form shares: the seated players posted by seat, tiles and pips as typed,
and the override of an error finding."""

from __future__ import annotations

from collections.abc import Sequence

from django import forms
from django.core.exceptions import ValidationError
from django.utils.html import conditional_escape, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scorekeeper import rules
from scorekeeper.rules.match import SIDE_JOIN
from scorekeeper.rules.tiles import parse_tile, tile_name
from scorekeeper.tables.seats import seat_keys

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


def enter_pips(name: str) -> str:
    return gettext("Enter %(name)s's pips (0 if none).") % {"name": name}


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
    """A seated player, shown by name and posted as their seat ("0", "1" ... in playing order),
    which is what it cleans to: the engine knows players by seat, so a player renamed, or a
    seat taken over, since the form was drawn never makes an entry fail."""

    default_error_messages = {
        "invalid_choice": _(
            "The player tapped does not sit at this table now: the board shows who does. Tap "
            "the player again."
        ),
    }

    def __init__(self, names: Sequence[str], *, blank: str | None = None, **kwargs) -> None:
        self.seats = seat_keys(len(names))
        choices = list(zip(self.seats, names, strict=True))
        if blank is not None:
            choices.insert(0, ("", blank))
        kwargs.setdefault("widget", SeatSelect)
        super().__init__(choices=choices, **kwargs)

    def valid_value(self, value: str) -> bool:
        return value in self.seats


class EntryForm(forms.Form):
    """What every entry form has: the seated players, and the override of an error finding."""

    override = forms.BooleanField(
        required=False, label=_("Keep it anyway: the table agrees this is what happened")
    )

    def __init__(self, match: rules.Match, *args, names: Sequence[str], **kwargs) -> None:
        """``match``: the engine's view, players by seat; ``names``: who sits in each seat."""
        super().__init__(*args, **kwargs)
        self.match = match
        #: the seats' keys, as the engine knows the players
        self.players = list(match.players)
        self.names = list(names)

    @property
    def player_name(self) -> str:
        """The name of the player the form was sent for (posted by seat), "" for none."""
        seat = getattr(self, "cleaned_data", {}).get("player") or ""
        return self.names[int(seat)] if seat.isdigit() and int(seat) < len(self.names) else ""


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


class PipsMixin(EntryForm):
    """One pips box per seated player, named by seat so that any name is safe in a form (an
    entry form: the end-of-hand forms take it with EntryForm)."""

    def add_pips_fields(self) -> None:
        for seat, name in enumerate(self.names):
            self.fields[f"pips_{seat}"] = pips_field(name)

    @property
    def pips_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith("pips_")]

    def pips_by_player(self, data: dict, went_out: str | None) -> dict[str, int]:
        pips = {}
        for seat, player in enumerate(self.players):
            value = data.get(f"pips_{seat}")
            if value is None and player != went_out:
                self.add_error(f"pips_{seat}", enter_pips(self.names[seat]))
            elif value is not None:
                pips[player] = value
        return pips


#: the choice of who went out that says nobody did
BLOCKED = "blocked"


def out_choices(names: list[str], blocked: str) -> list[tuple[str, str]]:
    """Who went out, by seat (any name is safe in a form), or nobody: the hand was blocked."""
    return [*((str(seat), name) for seat, name in enumerate(names)), (BLOCKED, blocked)]


def together(side: rules.Side, names: list[str]) -> str:
    """The label of partners' pips counted together, "Bo & Di together", each name marked with
    its seat for an open board's live poll to rename (tables/_live.html)."""
    said = format_html_join(
        SIDE_JOIN, '<span data-seat="{}">{}</span>', ((p, names[int(p)]) for p in side.players)
    )
    return mark_safe(conditional_escape(gettext("%(side)s together")) % {"side": said})
