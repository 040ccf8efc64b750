from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scorekeeper.clubs.models import Club, Role


class SignUpForm(UserCreationForm):
    """Django's own: a user name and a password twice, judged by AUTH_PASSWORD_VALIDATORS."""


class ClubForm(forms.Form):
    name = forms.CharField(max_length=80, label=_("Club name"))

    def __init__(self, *args: Any, club: Club | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: the club renamed, whose own name is not taken from it
        self.club = club

    def clean_name(self) -> str:
        name: str = self.cleaned_data["name"].strip()
        others = Club.objects.exclude(pk=self.club.pk) if self.club else Club.objects.all()
        if others.filter(name__iexact=name).exists():
            raise forms.ValidationError(
                gettext("There is already a club called %(name)s. Choose another name."),
                params={"name": name},
            )
        return name


class RoleForm(forms.Form):
    role = forms.ChoiceField(choices=Role.choices, label=_("Role"))

    def clean_role(self) -> Role:
        return Role(self.cleaned_data["role"])


class InvitationForm(forms.Form):
    """The role the link brings someone in as, among those the one making it may give."""

    role = forms.ChoiceField(
        choices=Role.choices, label=_("Join as"), initial=Role.MEMBER, widget=forms.RadioSelect
    )

    def __init__(self, may_invite: tuple[Role, ...], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.may_invite = may_invite
        # offered: the roles it may give; any role is read, so a forged one is told why
        self.fields["role"].widget.choices = [
            (role.value, role.label) for role in Role if role in may_invite
        ]

    def clean_role(self) -> Role:
        role = Role(self.cleaned_data["role"])
        if role not in self.may_invite:
            raise forms.ValidationError(gettext("Only the club's owner can invite an owner."))
        return role
