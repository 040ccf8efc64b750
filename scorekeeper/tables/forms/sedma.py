"""Sedma's entries: a tile laid, and the end of a hand."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scorekeeper import rules
from scorekeeper.tables.forms.entry import EntryForm, SeatedChoiceField, read_tile


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
            self.names,
            label=gettext("Who laid it"),
            widget=forms.RadioSelect,
            error_messages={"required": gettext("Tap who laid it, then the tile.")},
        )

    def clean(self) -> dict:
        data = super().clean()
        assert data is not None  # Form.clean gives the cleaned data
        text = (data.get("tile") or data.get("other_tile") or "").strip()
        if not text:
            self.add_error("tile", gettext("Pick a tile."))
            return data
        try:
            data["tile"] = read_tile(text)
        except ValidationError as error:
            self.add_error("tile", error)
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
            self.names, blank="—", required=False, label=gettext("Who went out")
        )

    def clean(self) -> dict:
        data = super().clean()
        assert data is not None  # Form.clean gives the cleaned data
        if data.get("how"):
            player = data.get("player") if data["how"] == "domino" else None
            data["end"] = rules.HandEnd(how=data["how"], player=player or None)
        return data
