"""Circles: the account's circles and switching between them, making one, and one circle's page
(members, roles, "this is me", renaming, leaving); invites: the admins' page that makes and
revokes them, and the page a link opens."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect

from scoring.access import SESSION_KEY, scoped
from scoring.circles import forms, invites, selectors
from scoring.circles import services as circles
from scoring.models import Circle, Invite, Membership
from scoring.web.htmx import HtmxHttpRequest, ScopedRequest, qr_code, render_region
from scoring.web.once import once_per_form

CIRCLE_TEMPLATE = "scoring/circles/circle_detail.html"


# --- the account's circles -----------------------------------------------------------------------


@scoped
@require_http_methods(["GET", "POST"])
@once_per_form
def circle_list(request: ScopedRequest) -> HttpResponse:
    """The account's circles, one tap from each other, and a form to start a new one."""
    form = forms.CircleForm(request.POST or None)
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
    context = {"form": form, "rows": selectors.circle_rows(request.scope)}
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
        "members": selectors.circle_members(circle),
        "players": selectors.linkable_players(me),
        "roles": Membership.Role.choices,
        "is_current": request.scope.circle.pk == circle.pk,
        "is_mine": circle.personal_for_id == request.user.pk,
        "rename": forms.CircleForm(initial={"name": circle.name}),
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
    form = forms.CircleForm(request.POST)
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


# --- invites -------------------------------------------------------------------------------------

INVITES_TEMPLATE = "scoring/circles/invites.html"
JOIN_TEMPLATE = "scoring/circles/invite_join.html"
GONE_TEMPLATE = "scoring/circles/invite_gone.html"


def _admin_circle(request: ScopedRequest, circle: int) -> Circle:
    """The circle named in the URL, now the current one: 404 for a non-member, 403 for a member
    who is not an admin of it."""
    found = request.scope.switch(circle)
    request.scope.require_admin()
    return found


def _invites_page(
    request: HtmxHttpRequest,
    circle: Circle,
    form: forms.InviteForm,
    *,
    new: Invite | None = None,
    notice: str = "",
    status: int = 200,
) -> HttpResponse:
    context = {
        "circle": circle,
        "form": form,
        "invites": invites.invites_active(circle),
        "new_invite": new,
        "notice": notice,
    }
    return render_region(request, INVITES_TEMPLATE, "invites", context, status=status)


@scoped
@require_http_methods(["GET", "POST"])
@once_per_form
def circle_invites(request: ScopedRequest, circle: int) -> HttpResponse:
    found = _admin_circle(request, circle)
    form = forms.InviteForm(request.POST if request.method == "POST" else None)
    if request.method == "POST":
        if not form.is_valid():
            return _invites_page(request, found, form, status=400)
        invite = invites.invite_create(
            circle=found,
            by=request.user,
            days=form.cleaned_data["days"],
            max_uses=form.max_uses,
        )
        if not request.htmx:
            return redirect(
                f"{reverse('scoring:circle-invites', args=[found.pk])}#invite-{invite.pk}"
            )
        return _invites_page(request, found, forms.InviteForm(), new=invite)
    return _invites_page(request, found, form)


@scoped
@require_POST
def invite_revoke(request: ScopedRequest, circle: int, invite: int) -> HttpResponse:
    found = _admin_circle(request, circle)
    invites.invite_revoke(invite=invites.invite_of(found, invite))
    notice = _("Invite revoked: its link no longer works.")
    if not request.htmx:
        messages.success(request, notice)
        return redirect("scoring:circle-invites", circle=found.pk)
    return _invites_page(request, found, forms.InviteForm(), notice=notice)


@scoped
@require_safe
def invite_qr(request: ScopedRequest, circle: int, invite: int) -> HttpResponse:
    found = _admin_circle(request, circle)
    active = invites.invite_of(found, invite, active=True)
    url = request.build_absolute_uri(reverse("scoring:invite-join", args=[active.token]))
    return qr_code(url)


# --- the page an invite link opens (public) ------------------------------------------------------


def _gone(request: HtmxHttpRequest, state: invites.State | None) -> HttpResponse:
    """An unknown code (404), or a known one that lets nobody in any more (410)."""
    status = 404 if state is None else 410
    response = render(request, GONE_TEMPLATE, {"state": state}, status=status)
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


@never_cache
@require_http_methods(["GET", "POST"])
@once_per_form
def invite_join(request: HtmxHttpRequest, code: str) -> HttpResponse:
    if request.method == "POST":
        return _join(request, code)
    invite = invites.invite_for_code(code)
    if invite is None:
        return _gone(request, None)
    member = invites.is_member(request.user, invite.circle)
    state = invites.state_for(invite, request.user)
    if not member and state is not invites.State.ACTIVE:
        return _gone(request, state)
    context = {"invite": invite, "circle": invite.circle, "member": member}
    response = render(request, JOIN_TEMPLATE, context)
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def _join(request: HtmxHttpRequest, code: str) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.path)
    try:
        joined = invites.invite_accept(code=code, user=request.user)
    except invites.InviteUnknown:
        return _gone(request, None)
    except invites.InviteGone as gone:
        return _gone(request, gone.state)
    request.session[SESSION_KEY] = joined.circle.pk
    if joined.new:
        message = _("Welcome to %(circle)s: its players, matches and statistics are yours too.")
    else:
        message = _("You are already in %(circle)s: it is now the circle you are looking at.")
    messages.success(request, message % {"circle": joined.circle.name})
    return redirect("scoring:match-list")
