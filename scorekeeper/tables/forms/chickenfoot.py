"""Chickenfoot's entry: a whole round, who went out and everyone's pips."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext

from scorekeeper import rules
from scorekeeper.tables.forms.entry import (
    BLOCKED,
    EntryForm,
    PipsMixin,
    SeatedChoiceField,
    out_choices,
)


class RoundForm(PipsMixin, EntryForm):
    """Chickenfoot: a whole round at once: who went out (or blocked: a choice the table makes,
    never a default), each player's pips, who held 0-0."""

    def __init__(self, match: rules.Match, *args, **kwargs) -> None:
        super().__init__(match, *args, **kwargs)
        self.fields["went_out"] = forms.ChoiceField(
            choices=out_choices(self.names, gettext("Blocked")),
            widget=forms.RadioSelect,
            label=gettext("Who went out?"),
            error_messages={"required": gettext("Tap who went out, or Blocked.")},
        )
        self.fields["double_blank"] = SeatedChoiceField(
            self.names,
            blank=gettext("Nobody"),
            required=False,
            label=gettext("Left holding 0-0"),
            widget=forms.RadioSelect,
        )
        self.fields["starter"] = SeatedChoiceField(
            self.names, blank="—", required=False, label=gettext("Who set the round's double")
        )
        self.add_pips_fields()

    def clean(self) -> dict:
        data = super().clean()
        assert data is not None  # Form.clean gives the cleaned data
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
