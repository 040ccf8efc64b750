"""The pages of a player's record: "My record" and its download for the record's owner, the
claim by a link or a code, and an organizer's claim, merge and forget."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scorekeeper.access.clubs import player_for_organizer
from scorekeeper.access.records import (
    merge_candidates,
    record_for_organizer,
    record_for_owner,
    records_for_merge,
)
from scorekeeper.access.throttle import claims_refused, count_failed_claim
from scorekeeper.http import AuthenticatedHttpRequest
from scorekeeper.records.claims import (
    Refused,
    claim_by_code,
    claim_make,
    claim_of_token,
    claim_redeem,
    claim_revoke,
)
from scorekeeper.records.forget import record_forget
from scorekeeper.records.forms import ClaimCodeForm, MergeForm
from scorekeeper.records.merge import merge_refusal, record_merge
from scorekeeper.records.reading import record_data, record_read
from scorekeeper.tables.models import Player
from scorekeeper.tables.players import player_renamed

# -- the record's owner ---------------------------------------------------------------------------


@login_required
@require_safe
def my_record(request: HttpRequest) -> HttpResponse:
    """The claimed player's matches, standings and ratings across every club; without a
    claimed record, how to claim one."""
    player = record_for_owner(request)
    record = record_read(player) if player is not None else None
    return render(request, "records/my_record.html", {"player": player, "record": record})


@login_required
@require_safe
def my_data(request: HttpRequest) -> HttpResponse:
    """The owner's own data, as a JSON file."""
    player = record_for_owner(request)
    if player is None:
        messages.error(request, gettext("Your account owns no player's record yet."))
        return redirect("records:my_record")
    response = HttpResponse(
        json.dumps(record_data(player), indent=2, ensure_ascii=False),
        content_type="application/json; charset=utf-8",
    )
    response["Content-Disposition"] = 'attachment; filename="my-record.json"'
    return response


@login_required
@require_POST
def my_initials(request: HttpRequest) -> HttpResponse:
    """The owner asks that public pages show the name as its initials, or the whole name."""
    wanted = request.POST.get("initials_only") == "1"
    with transaction.atomic():
        # the owner's row, locked: the flag and the boards drawn again move together
        player = Player.objects.select_for_update().filter(account_id=request.user.pk).first()
        if player is None:
            messages.error(request, gettext("Your account owns no player's record yet."))
            return redirect("records:my_record")
        if player.initials_only != wanted:
            player.initials_only = wanted
            player.save(update_fields=["initials_only"])
            # every board and table that shows the name is drawn again
            player_renamed(player)
    if wanted:
        messages.success(request, gettext("Public pages now show your initials only."))
    else:
        messages.success(request, gettext("Public pages now show your whole name."))
    return redirect("records:my_record")


# -- a claim --------------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def claim_code(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The code an organizer gave, typed: the account becomes the record's owner."""
    form = ClaimCodeForm(request.POST or None)
    if request.method == "POST":
        if refusal := claims_refused(request):
            minutes = max(1, refusal.seconds_left // 60)
            form.add_error(
                None,
                gettext("Too many wrong codes. Try again in %(minutes)d minutes.")
                % {"minutes": minutes},
            )
            return render(request, "records/claim_code.html", {"form": form}, status=429)
        if form.is_valid():
            claim = claim_by_code(form.cleaned_data["code"])
            if claim is None:
                count_failed_claim(request)
                form.add_error("code", gettext("No claim has this code. Check it and try again."))
            else:
                try:
                    claim_redeem(claim_pk=claim.pk, user=request.user)
                except Refused as refused:
                    count_failed_claim(request)
                    form.add_error("code", str(refused))
                else:
                    messages.success(request, gettext("This record is yours now."))
                    return redirect("records:my_record")
        return render(request, "records/claim_code.html", {"form": form}, status=400)
    return render(request, "records/claim_code.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def claim_link(request: AuthenticatedHttpRequest, token: str) -> HttpResponse:
    """The claim's link: the page says whose record it is; its button makes it the account's."""
    claim = claim_of_token(token)
    if claim is None:
        return render(
            request,
            "records/claim_link.html",
            {"refusal": gettext("This link is not a claim, or it has expired.")},
            status=404,
        )
    if request.method == "POST":
        try:
            claim_redeem(claim_pk=claim.pk, user=request.user)
        except Refused as refused:
            return render(
                request,
                "records/claim_link.html",
                {"claim": claim, "refusal": str(refused)},
                status=409,
            )
        messages.success(request, gettext("This record is yours now."))
        return redirect("records:my_record")
    return render(request, "records/claim_link.html", {"claim": claim})


@login_required
@require_http_methods(["GET", "POST"])
def claim_for_player(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """An organizer of a club the player plays in makes the claim of their record (its link
    and code, shown this once) or revokes the open ones."""
    player = player_for_organizer(request, pk)
    made = None
    if request.method == "POST":
        if request.POST.get("action") == "revoke":
            count = claim_revoke(player=player)
            messages.success(request, gettext("Open claims revoked: %(count)d.") % {"count": count})
            return redirect("records:claim_for_player", pk=player.pk)
        if player.account_id is not None:
            messages.error(request, gettext("This record already belongs to an account."))
            return redirect("records:claim_for_player", pk=player.pk)
        made = claim_make(player=player, by=request.user)
    link = (
        request.build_absolute_uri(reverse("records:claim_link", kwargs={"token": made.token}))
        if made is not None
        else ""
    )
    return render(
        request, "records/claim_for_player.html", {"player": player, "made": made, "link": link}
    )


# -- merge and forget -----------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def merge(request: HttpRequest, pk: int) -> HttpResponse:
    """Pick the other record of the same person, see what moves, confirm: its matches and
    rows move here, the other goes."""
    player = player_for_organizer(request, pk)
    form = MergeForm(request.POST or None, candidates=merge_candidates(request, player))
    context: dict = {"player": player, "form": form}
    if request.method != "POST":
        return render(request, "records/merge.html", context)
    if not form.is_valid():
        return render(request, "records/merge.html", context, status=400)
    other = form.cleaned_data["other"]
    if request.POST.get("confirm") != "1":
        # the question asked, nothing changed: why not, or whether to
        if refusal := merge_refusal(kept=player, other=other):
            form.add_error("other", refusal)
            return render(request, "records/merge.html", context, status=409)
        context["other"] = other
        return render(request, "records/merge.html", context)
    # confirmed: the merge asks again why not, of the two rows it locks
    try:
        with transaction.atomic():
            kept, gone = records_for_merge(request, player.pk, other.pk)
            record_merge(kept=kept, other=gone)
    except Refused as refused:
        form.add_error("other", str(refused))
        return render(request, "records/merge.html", context, status=409)
    messages.success(
        request,
        gettext("%(other)s was merged into %(player)s.") % {"other": other, "player": kept},
    )
    return redirect("leagues:player", pk=kept.pk)


@login_required
@require_http_methods(["GET", "POST"])
def forget(request: HttpRequest, pk: int) -> HttpResponse:
    """Forget the player's name on their request: matches and totals stay."""
    if request.method == "POST":
        with transaction.atomic():
            player = record_for_organizer(request, pk)
            record_forget(player=player)
        messages.success(
            request,
            gettext("The name is forgotten: the record is %(name)s now.") % {"name": player},
        )
        return redirect("leagues:player", pk=player.pk)
    player = player_for_organizer(request, pk)
    return render(request, "records/forget.html", {"player": player})
