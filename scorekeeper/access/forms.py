from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from scorekeeper.access.models import ROLE_CHOICES, ShareLink


class ShareLinkForm(forms.ModelForm):
    role = forms.ChoiceField(
        choices=ROLE_CHOICES, widget=forms.RadioSelect, label=_("The link lets")
    )

    class Meta:
        model = ShareLink
        fields = ["role", "label"]
        labels = {"label": _("Label (optional, e.g. “Table 3”)")}


class JoinForm(forms.Form):
    name = forms.CharField(
        max_length=40,
        required=False,
        label=_("Your name (shown beside what you enter)"),
        widget=forms.TextInput(attrs={"autocomplete": "nickname", "autocapitalize": "words"}),
    )
