"""Straight Dominoes' entries: a play's points, and the end of a hand."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext, pgettext
from django.utils.translation import gettext_lazy as _

from scorekeeper import rules
from scorekeeper.tables.forms.entry import (
    BLOCKED,
    POINTS_ERRORS,
    EntryForm,
    PipsMixin,
    SeatedChoiceField,
    enter_pips,
    out_choices,
    pips_field,
    together,
)
from scorekeeper.tables.seats import seat_names

PLAY_POINTS = (5, 10, 15, 20, 25, 30, 35)


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
            self.names,
            label=gettext("Who scored"),
            widget=forms.RadioSelect,
            error_messages={"required": gettext("Tap who scored, then the points.")},
        )

    def clean(self) -> dict:
        data = super().clean()
        assert data is not None  # Form.clean gives the cleaned data
        points = data.get("points") or data.get("other_points")
        if points is None:
            if "points" not in self.errors and "other_points" not in self.errors:
                self.add_error("points", gettext("Tap the points scored."))
            return data
        data["points"] = points
        # posted by seat, as the player is
        leader = data.get("leader") or ""
        data["lead"] = data.get("lead", False) and (not leader or data.get("player") == leader)
        if "player" in data:
            data["play"] = rules.Play(data["player"], points=points, lead=data["lead"])
        return data


class HandEndForm(PipsMixin, EntryForm):
    """Straight Dominoes: who dominoed (or blocked) and the pips left in hand.

    After a domino only the pips that count are needed: the opponents', each or, in a
    partnership match, the other side's counted together; the partner's too under the house
    rule that subtracts the winners' own pips. After a blocked hand every player's pips decide
    who won and who leads next."""

    def __init__(self, match: rules.Match, *args, **kwargs) -> None:
        super().__init__(match, *args, **kwargs)
        self.fields["out"] = forms.ChoiceField(
            choices=out_choices(self.names, pgettext("how a hand ended", "Blocked")),
            widget=forms.RadioSelect,
            label=gettext("Who dominoed?"),
            error_messages={"required": gettext("Tap who dominoed, or Blocked.")},
        )
        self.add_pips_fields()
        #: the winners' own pips count too (house rule): the partner's box is needed
        self.counts_own = bool(match.rule("subtract_own"))
        self.sides = match.sides if match.partnerships else []
        for index, side in enumerate(self.sides):
            self.fields[f"side_{index}"] = pips_field(together(side, self.names))

    @property
    def side_fields(self) -> list[forms.BoundField]:
        return [self[f"side_{index}"] for index in range(len(self.sides))]

    def clean(self) -> dict:
        data = super().clean()
        assert data is not None  # Form.clean gives the cleaned data
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
                assert side is not None  # a side's box is read only in a partnership match
                if any(name in pips for name in members):
                    self.add_error(
                        f"side_{index}",
                        gettext("Give %(side)s's pips together or one by one, not both.")
                        % {"side": side.said_with(seat_names(self.names))},
                    )
                pips[str(side)] = together
                continue
            for name in needed:
                if name not in pips:
                    seat = self.players.index(name)
                    self.add_error(f"pips_{seat}", enter_pips(self.names[seat]))
        return pips
