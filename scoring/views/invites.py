"""Invites to a circle: the admins' page that makes and revokes them, and the page a link opens."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scoring import invites
from scoring.access import SESSION_KEY, scoped
from scoring.models import Circle, Invite
from scoring.once import once_per_form
from scoring.views.common import HtmxHttpRequest, ScopedRequest, qr_code, render_region

INVITES_TEMPLATE = "scoring/invites/invites.html"
JOIN_TEMPLATE = "scoring/invites/join.html"
GONE_TEMPLATE = "scoring/invites/gone.html"
MANY, ONCE = "many", "once"


class InviteForm(forms.Form):
    days = forms.TypedChoiceField(
        label=gettext_lazy("The link works for"),
        coerce=int,
        initial=invites.DEFAULT_DAYS,
        widget=forms.RadioSelect,
    )
    uses = forms.ChoiceField(
        label=gettext_lazy("Who can use it"),
        initial=MANY,
        widget=forms.RadioSelect,
        choices=[
            (MANY, gettext_lazy("Anyone who gets the link (for a group chat)")),
            (ONCE, gettext_lazy("One person only")),
        ],
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        days_field = cast(forms.TypedChoiceField, self.fields["days"])
        days_field.choices = [
            (days, ngettext("%(count)d day", "%(count)d days", days) % {"count": days})
            for days in invites.DAYS_CHOICES
        ]

    @property
    def max_uses(self) -> int | None:
        return 1 if self.cleaned_data["uses"] == ONCE else None


def _admin_circle(request: ScopedRequest, circle: int) -> Circle:
    """The circle named in the URL, now the current one: 404 for a non-member, 403 for a member
    who is not an admin of it."""
    found = request.scope.switch(circle)
    request.scope.require_admin()
    return found


def _invites_page(
    request: HtmxHttpRequest,
    circle: Circle,
    form: InviteForm,
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
    form = InviteForm(request.POST if request.method == "POST" else None)
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
        return _invites_page(request, found, InviteForm(), new=invite)
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
    return _invites_page(request, found, InviteForm(), notice=notice)


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
