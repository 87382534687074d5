"""Circles: the account's circles and switching between them, making one, and one circle's page
(members, roles, "this is me", renaming, leaving)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect

from scoring import circles
from scoring.access import scoped
from scoring.forms import readable_text
from scoring.models import Membership
from scoring.once import once_per_form
from scoring.views.common import ScopedRequest, render_region

CIRCLE_TEMPLATE = "scoring/circles/circle_detail.html"


class CircleForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Circle name"),
        max_length=circles.NAME_MAX,
        strip=True,
        validators=[readable_text],
    )


# --- the account's circles -----------------------------------------------------------------------


@scoped
@require_http_methods(["GET", "POST"])
@once_per_form
def circle_list(request: ScopedRequest) -> HttpResponse:
    """The account's circles, one tap from each other, and a form to start a new one."""
    form = CircleForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            circle = circles.circle_create(name=form.cleaned_data["name"], by=request.user)
        except ValidationError as error:
            form.add_error("name", error)
        else:
            request.scope.switch(circle.pk)
            messages.success(
                request,
                _("Circle %(name)s started; it is your current circle now.") % {"name": circle},
            )
            return redirect("scoring:circle", pk=circle.pk)
    context = {"form": form, "rows": circles.circle_rows(request.scope)}
    status = 400 if form.errors else 200
    return render(request, "scoring/circles/circle_list.html", context, status=status)


@scoped
@require_POST
def circle_switch(request: ScopedRequest, pk: int) -> HttpResponse:
    """Make another of the account's circles the current one; back to `next` (a page of this
    site) or to the circle's matches."""
    circle = request.scope.switch(pk)
    messages.success(request, _("You are in %(name)s now.") % {"name": circle})
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = reverse("scoring:match-list")
    return HttpResponseRedirect(target)  # not redirect(): "next=12" is an address, not a view name


# --- one circle ----------------------------------------------------------------------------------


@scoped
@require_safe
def circle_detail(request: ScopedRequest, pk: int) -> HttpResponse:
    membership = request.scope.circle_membership(pk)
    return render_region(request, CIRCLE_TEMPLATE, "members", _context(request, membership))


def _context(request: ScopedRequest, me: Membership, **extra: Any) -> dict[str, Any]:
    circle = me.circle
    return {
        "circle": circle,
        "me": me,
        "members": circles.circle_members(circle),
        "players": circles.linkable_players(me),
        "roles": Membership.Role.choices,
        "is_current": request.scope.circle.pk == circle.pk,
        "is_mine": circle.personal_for_id == request.user.pk,
        "rename": CircleForm(initial={"name": circle.name}),
        **extra,
    }


def _page(
    request: ScopedRequest, pk: int, *, error: ValidationError | None = None, **extra: Any
) -> HttpResponse:
    """The circle's page after a change was refused (400, the error shown where it was asked),
    or the members (htmx) after one was made."""
    me = request.scope.circle_membership(pk)
    if error is not None:
        extra["error"] = " ".join(error.messages)
    status = 400 if error is not None else 200
    return render_region(
        request, CIRCLE_TEMPLATE, "members", _context(request, me, **extra), status=status
    )


def _done(request: ScopedRequest, pk: int, note: str) -> HttpResponse:
    """A change to the members was made: the members again (htmx) or the page (PRG)."""
    if request.htmx:
        return _page(request, pk, done=note)
    messages.success(request, note)
    return redirect("scoring:circle", pk=pk)


def _member_id(request: HttpRequest) -> int | None:
    try:
        return int(request.POST.get("member", ""))
    except ValueError:
        return None


@scoped
@require_POST
def circle_rename(request: ScopedRequest, pk: int) -> HttpResponse:
    me = request.scope.circle_membership(pk, admin=True)
    form = CircleForm(request.POST)
    if form.is_valid():
        try:
            circle = circles.circle_rename(circle=me.circle, name=form.cleaned_data["name"])
        except ValidationError as error:
            form.add_error("name", error)
        else:
            messages.success(request, _("Renamed to %(name)s.") % {"name": circle})
            return redirect("scoring:circle", pk=pk)
    context = _context(request, me, rename=form)
    return render(request, CIRCLE_TEMPLATE, context, status=400)


@scoped
@require_POST
def member_role(request: ScopedRequest, pk: int) -> HttpResponse:
    me = request.scope.circle_membership(pk, admin=True)
    try:
        member = circles.member_set_role(
            circle=me.circle, member_id=_member_id(request), role=request.POST.get("role", "")
        )
    except ValidationError as error:
        return _page(request, pk, error=error)
    note = _("%(name)s is %(role)s now.") % {
        "name": member.user.get_username(),
        "role": member.get_role_display(),
    }
    if member.pk == me.pk and not member.is_admin:
        # No longer an admin here: the whole page changes (no more admin controls).
        messages.success(request, note)
        url = reverse("scoring:circle", kwargs={"pk": pk})
        return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
    return _done(request, pk, note)


@scoped
@require_POST
def member_remove(request: ScopedRequest, pk: int) -> HttpResponse:
    me = request.scope.circle_membership(pk, admin=True)
    try:
        removed = circles.member_remove(
            circle=me.circle, member_id=_member_id(request), by=request.user
        )
    except ValidationError as error:
        return _page(request, pk, error=error)
    if removed is None:
        note = _("That account is no longer a member of this circle.")
    else:
        note = _(
            "%(name)s was removed from the circle. Invite links made before now no longer let "
            "them in; to have them back, make a new invite."
        ) % {"name": removed.user.get_username()}
    return _done(request, pk, note)


@scoped
@require_POST
def member_me(request: ScopedRequest, pk: int) -> HttpResponse:
    """ "This is me": the member says which of the circle's players they are (or none)."""
    me = request.scope.circle_membership(pk)
    chosen = request.POST.get("player", "")
    try:
        player_id = int(chosen) if chosen else None
    except ValueError:
        return _page(request, pk, error=ValidationError(_("Choose one of this circle's players.")))
    try:
        me = circles.member_link_player(membership=me, player_id=player_id)
    except ValidationError as error:
        return _page(request, pk, error=error)
    if me.player is None:
        note = _("No player is linked to you in this circle.")
    else:
        note = _("You are %(name)s in this circle.") % {"name": me.player.name}
    return _done(request, pk, note)


@scoped
@require_POST
def circle_leave(request: ScopedRequest, pk: int) -> HttpResponse:
    try:
        me = request.scope.circle_membership(pk)
    except Http404:  # left already (the same tap sent again), or never a member: nothing to do
        return redirect("scoring:circles")
    try:
        circles.member_leave(circle=me.circle, user=request.user)
    except ValidationError as error:
        context = _context(request, me, leave_error=" ".join(error.messages))
        return render(request, CIRCLE_TEMPLATE, context, status=400)
    messages.success(request, _("You left %(name)s.") % {"name": me.circle})
    return redirect("scoring:circles")
