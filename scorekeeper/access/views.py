"""Share links (with their QR codes) and joining a match from one."""

from __future__ import annotations

import math
from typing import Any

import segno
from axes.helpers import get_client_username
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LoginView
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from scorekeeper.access.devices import device_of, known_device, remember_device
from scorekeeper.access.forms import JoinForm, ShareLinkForm
from scorekeeper.access.matches import match_for_links, match_to_share
from scorekeeper.access.models import VIEWER, ShareLink
from scorekeeper.access.permissions import (
    DISPLAY_NAME,
    can_edit,
    can_manage_links,
    grant,
    held_link,
)
from scorekeeper.access.throttle import (
    Refusal,
    count_device_failure,
    count_failed_signin,
    device_failures_spent,
    signins_refused,
)


def qr_svg(url: str) -> str:
    """The link as a QR code, drawn on the server as inline SVG."""
    code = segno.make(url, error="m")
    return code.svg_inline(scale=4, dark="#000", light="#fff", border=2, omitsize=True)


@require_http_methods(["GET", "POST"])
def share(request: HttpRequest, pk: int) -> HttpResponse:
    """The owner and organizers see every link handed out, and make more; anyone else who keeps
    score with a link sees only that link, to bring another phone in with it."""
    if request.method == "POST":
        match = match_for_links(request, pk)
    else:
        match = match_to_share(request, pk)
    manages = can_manage_links(request, match)
    form = ShareLinkForm(request.POST or None)
    own = held_link(request, match)
    if request.method == "POST" and form.is_valid():
        link = form.save(commit=False)
        link.match = match
        link.created_by = request.user if request.user.is_authenticated else None
        # revoking the owner's link takes the links made through it along
        link.made_through = own if own is not None and own.owner else None
        link.save()
        messages.success(request, gettext("Link created: scan the code or send the address."))
        return redirect("access:share", pk=match.pk)
    if manages:
        shown = list(match.share_links.filter(revoked_at=None))
    else:
        shown = [own] if own is not None else []
    links: list[dict[str, Any]] = [
        {
            "link": link,
            "url": request.build_absolute_uri(reverse("access:join", args=[link.token])),
        }
        for link in shown
        # a phone's own owner's link is no link to hand out: only an organizer sees it, to
        # take it away
        if not link.owner or (link != own and manages)
    ]
    for item in links:
        if not item["link"].owner:
            item["qr"] = mark_safe(qr_svg(item["url"]))
    return render(
        request,
        "access/share.html",
        {"match": match, "form": form, "links": links, "manages": manages},
        status=422 if request.method == "POST" else 200,
    )


@require_POST
def revoke(request: HttpRequest, pk: int, link_id: int) -> HttpResponse:
    match = match_for_links(request, pk)
    link = get_object_or_404(ShareLink, pk=link_id, match=match)
    link.revoke()
    messages.info(
        request, gettext("Link revoked: phones that joined with it can no longer use it.")
    )
    return redirect("access:share", pk=match.pk)


@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, token: str) -> HttpResponse:
    # the owner's link is a phone's own, not one to hand out: nobody joins with it
    link = (
        ShareLink.objects.select_related("match")
        .prefetch_related("match__seats__player")
        .filter(token=token, revoked_at=None, owner=False)
        .first()
    )
    if link is None:
        raise Http404("This link does not exist or was revoked.")
    if link.role == VIEWER:
        return start_watching(request, link)
    form = JoinForm(request.POST or None, initial={"name": request.session.get(DISPLAY_NAME, "")})
    if request.method == "POST" and form.is_valid():
        grant(request, link)
        if form.cleaned_data["name"]:
            request.session[DISPLAY_NAME] = form.cleaned_data["name"]
        return redirect("tables:scoreboard", pk=link.match_id)
    # the table and who sits there, read before Join: "Table 3: Ana & Bo against Cy & Di"
    sides = list(link.match.seating().sides)
    return render(request, "access/join.html", {"link": link, "form": form, "sides": sides})


def start_watching(request: HttpRequest, link: ShareLink) -> HttpResponse:
    """A watch link opens the scoreboard at once: no name to give (a watcher enters nothing
    that would be signed with it) and no tap, on a GET as much as a POST. It can do no harm:
    scoreboards are public in the hall, and a phone that already keeps score on the match is
    never turned into a watcher by opening one (it keeps the rights it has). A scorekeeper's
    link still asks for a tap on Join, sent with the CSRF token."""
    if not can_edit(request, link.match):
        grant(request, link)
    return redirect("tables:scoreboard", pk=link.match_id)


def too_many_starts(request: HttpRequest, refusal: Refusal) -> HttpResponse:
    """429: a phone without an account started as many matches as it may this hour."""
    return _too_many(request, refusal, "access/too_many_starts.html")


def too_many_exports(request: HttpRequest, refusal: Refusal) -> HttpResponse:
    """429: an address without an account read as many heavy exports as it may this hour."""
    return _too_many(request, refusal, "access/too_many_exports.html")


def too_many_signups(request: HttpRequest, refusal: Refusal) -> HttpResponse:
    """429: an address opened as many accounts as it may this hour."""
    return _too_many(request, refusal, "registration/too_many_signups.html")


def too_many_reset_emails(request: HttpRequest, refusal: Refusal) -> HttpResponse:
    """429: an address asked for as many password reset emails as it may this hour."""
    return _too_many(request, refusal, "registration/too_many_reset_emails.html")


def _too_many(request: HttpRequest, refusal: Refusal, template: str) -> HttpResponse:
    """429, the page saying how many an hour, and when to try again (throttle.py)."""
    minutes = -(-refusal.seconds_left // 60)
    context = {"per_hour": refusal.per_hour, "minutes": minutes, "whose": refusal.whose}
    response = render(request, template, context, status=429)
    response["Retry-After"] = str(refusal.seconds_left)
    return response


class SignInView(LoginView):
    """Django's sign-in, refused from an address that failed too often this hour
    (throttle.signins_refused); django-axes locks a user name at one address on its own. A
    browser that signed in as the user before (devices.py) is held by neither: its own
    failures are counted, and once they are spent it is refused itself."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        username = request.POST.get("username")
        device = device_of(request)
        if device is not None and device.user == username:
            if refusal := device_failures_spent(request, device.id):
                return signin_locked(request, refusal)
        elif refusal := signins_refused(request):
            return signin_locked(request, refusal)
        return super().post(request, *args, **kwargs)

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        # Django's reset by email, where the site sends mail (settings.EMAIL_HOST); elsewhere a
        # club's owner hands a member a one-time link
        context["reset_by_email"] = bool(settings.EMAIL_HOST)
        return context

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        response = super().form_valid(form)
        remember_device(self.request, response, form.get_user().get_username())
        return response

    def form_invalid(self, form: AuthenticationForm) -> HttpResponse:
        device = known_device(self.request, self.request.POST.get("username"))
        if device is None:
            count_failed_signin(self.request)
            return super().form_invalid(form)
        count_device_failure(self.request, device.id)
        if refusal := device_failures_spent(self.request, device.id):
            return signin_locked(self.request, refusal)
        return super().form_invalid(form)


def signin_locked(request: HttpRequest, refusal: Refusal) -> HttpResponse:
    """429: the sign-in page's lock, saying how long it lasts (and Retry-After)."""
    return _too_many(request, refusal, settings.AXES_LOCKOUT_TEMPLATE)


def axes_locked_out(
    request: HttpRequest, original_response: HttpResponse | None, credentials: dict[str, Any] | None
) -> HttpResponse:
    """django-axes' lockout answer (AXES_LOCKOUT_CALLABLE): the same page, saying how long the
    lock of this user name at this address lasts, from the failure that set it (failures while
    it holds do not stretch it)."""
    cool_off = settings.AXES_COOLOFF_TIME
    last = (
        AccessAttempt.objects.filter(
            username=get_client_username(request, credentials),
            ip_address=getattr(request, "axes_ip_address", None),
        )
        .order_by("-attempt_time")
        .values_list("attempt_time", flat=True)
        .first()
    )
    ends = (last or timezone.now()) + cool_off
    seconds_left = math.ceil((ends - timezone.now()).total_seconds())
    per_hour = settings.AXES_FAILURE_LIMIT
    return signin_locked(request, Refusal(per_hour, max(seconds_left, 1)))
