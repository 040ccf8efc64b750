"""Opening an account, and Django's own password reset by email where the site sends mail."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth.views import PasswordResetView
from django.db import IntegrityError, transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from scorekeeper.access.throttle import count_reset_email, count_signup
from scorekeeper.access.views import too_many_reset_emails, too_many_signups
from scorekeeper.club_pages.forms import SignUpForm

#: the backend a new account is signed in with (django-axes' own backend only counts failures)
BACKEND = "django.contrib.auth.backends.ModelBackend"


def safe_next(request: HttpRequest, url: str) -> str | None:
    """``url`` when it leads back into this site, else None: a sign-up link never sends a new
    account elsewhere."""
    if url and url_has_allowed_host_and_scheme(
        url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return url
    return None


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Anyone opens an account with a user name and a password, is signed in, and goes back
    where they came from (an invitation) or to their clubs. So many an hour from one address
    (DJANGO_SIGNUPS_PER_ADDRESS)."""
    next_url = request.POST.get("next") or request.GET.get("next", "")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if refusal := count_signup(request):
            return too_many_signups(request, refusal)
        try:
            with transaction.atomic():
                user = form.save()
        except IntegrityError:
            # the same name taken by another sign-up at the same moment
            form.add_error("username", gettext("A user with that username already exists."))
        else:
            login(request, user, backend=BACKEND)
            return redirect(safe_next(request, next_url) or reverse("club_pages:club_list"))
    return render(
        request,
        "registration/signup.html",
        {"form": form, "next": safe_next(request, next_url) or ""},
        status=422 if request.method == "POST" else 200,
    )


_reset_by_email = PasswordResetView.as_view()


def password_reset_by_email(request: HttpRequest) -> HttpResponseBase:
    """Django's password reset by email, where the site sends mail (settings.EMAIL_HOST);
    without it there is no such page: a club's owner hands a member a one-time link instead
    (club_pages/views/clubs.py). So many an hour from one address
    (DJANGO_PASSWORD_RESETS_PER_ADDRESS)."""
    if not settings.EMAIL_HOST:
        raise Http404(gettext("This site sends no email: ask your club's owner for a new link."))
    if request.method == "POST" and (refusal := count_reset_email(request)):
        return too_many_reset_emails(request, refusal)
    return _reset_by_email(request)
