"""The records' forms: a claim's code typed, and the record to merge picked."""

from __future__ import annotations

from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext, gettext_lazy

from scorekeeper.records.claims import ALPHABET, CODE_LENGTH, normal_code
from scorekeeper.tables.models import Player


class ClaimCodeForm(forms.Form):
    code = forms.CharField(
        label=gettext_lazy("Code"),
        max_length=32,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters"}),
    )

    def clean_code(self) -> str:
        code = normal_code(self.cleaned_data["code"])
        if len(code) != CODE_LENGTH or any(char not in ALPHABET for char in code):
            raise forms.ValidationError(
                gettext("Type the %(count)d characters of the code an organizer gave you.")
                % {"count": CODE_LENGTH}
            )
        return code


class PlayerChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: Player) -> str:
        return f"{obj.name} (#{obj.pk})"


class MergeForm(forms.Form):
    """The other record of the same person: it goes, its matches move to the one kept."""

    other = PlayerChoice(
        queryset=Player.objects.none(),
        label=gettext_lazy("The other record of this person"),
        error_messages={"invalid_choice": gettext_lazy("Pick one of the records listed.")},
    )

    def __init__(self, *args, candidates: QuerySet[Player], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["other"].queryset = candidates  # type: ignore[attr-defined]
