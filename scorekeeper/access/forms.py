from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from scorekeeper.access.models import ROLE_CHOICES, VIEWER, ShareLink


class ShareLinkForm(forms.ModelForm[ShareLink]):
    # Watching comes first and is chosen already: most links go to people who only watch (a
    # phone at the next table, the wall), and a link that may edit is handed out on purpose.
    role = forms.ChoiceField(
        choices=sorted(ROLE_CHOICES, key=lambda choice: choice[0] != VIEWER),
        initial=VIEWER,
        widget=forms.RadioSelect,
        label=_("The link lets"),
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
