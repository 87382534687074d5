"""The account's own page (e-mail, password, passkeys, downloads) and deleting the account."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from allauth.account.adapter import get_adapter
from allauth.account.internal.flows.reauthentication import did_recently_reauthenticate
from django import forms
from django.contrib.auth import logout
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.http import HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_safe

from scoring import accounts, transfer
from scoring.access import scoped
from scoring.views.common import HtmxHttpRequest, ScopedRequest, SignedInRequest, download

GOODBYE_KEY = "account_deleted"
PASSWORD_REAUTHENTICATION = "reauthenticate"  # allauth's id of reauthenticating by password


class DeleteAccountForm(forms.Form):
    """The account holder confirms it is them: with the password, unless they did so a moment
    ago through allauth (a passkey, a code), or the account has no password."""

    password = forms.CharField(
        label=gettext_lazy("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, *args: Any, user: User, confirmed: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        self.confirmed = confirmed
        if confirmed or not user.has_usable_password():
            del self.fields["password"]

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        # Through the authentication backends: wrong guesses count as failed logins (django-axes).
        if not get_adapter().reauthenticate(self.user, password):
            raise ValidationError(_("That is not your password."), code="incorrect_password")
        return password

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        if not self.confirmed and "password" not in self.fields:
            raise ValidationError(
                _("First confirm that it is you, with one of the ways below."),
                code="not_confirmed",
            )
        return cleaned


# --- the account page ----------------------------------------------------------------------------


@scoped
@require_safe
def account_page(request: ScopedRequest) -> HttpResponse:
    context = {"overview": accounts.overview(request.user)}
    return render(request, "scoring/account/account.html", context)


@scoped
@require_safe
def account_export(request: ScopedRequest, circle: int) -> HttpResponse | StreamingHttpResponse:
    """Every match of one of the account's circles (any of them, current or not), as JSON."""
    membership = request.scope.circle_membership(circle)
    chunks = transfer.export_chunks(transfer.iter_match_documents(membership.circle))
    name = slugify(membership.circle.name)[:40].strip("-")
    parts = ["casino-matches", str(membership.circle.pk), name, f"{timezone.localdate():%Y-%m-%d}"]
    filename = "-".join(part for part in parts if part) + ".json"
    return download(chunks, "application/json", filename)


# --- deleting the account ------------------------------------------------------------------------


def _alternatives(request: SignedInRequest) -> list[dict[str, str]]:
    """allauth's other ways to confirm it is the account holder (a passkey, a code by e-mail),
    each coming back to this page."""
    back = urlencode({"next": reverse("scoring:account-delete")})
    return [
        {"url": f"{method['url']}?{back}", "description": method["description"]}
        for method in get_adapter().get_reauthentication_methods(request.user)
        if method["id"] != PASSWORD_REAUTHENTICATION or not request.user.has_usable_password()
    ]


def _delete_page(
    request: SignedInRequest,
    form: DeleteAccountForm,
    *,
    error: ValidationError | None = None,
    status: int = 200,
) -> HttpResponse:
    context = {
        "plan": accounts.deletion_plan(request.user),
        "form": form,
        "alternatives": _alternatives(request),
        "error": " ".join(error.messages) if error is not None else "",
    }
    return render(request, "scoring/account/delete.html", context, status=status)


@scoped
@never_cache
@require_http_methods(["GET", "POST"])
def account_delete(request: ScopedRequest) -> HttpResponse:
    """What deleting the account does, the downloads to keep first, and the confirmation."""
    user = request.user
    confirmed = did_recently_reauthenticate(request)
    if request.method != "POST":
        return _delete_page(request, DeleteAccountForm(user=user, confirmed=confirmed))
    if not accounts.account_exists(user):  # deleted meanwhile (a resend racing the first)
        return _goodbye(request, {"username": user.get_username()})
    form = DeleteAccountForm(request.POST, user=user, confirmed=confirmed)
    if not form.is_valid():
        return _delete_page(request, form, status=400)
    try:
        deleted = accounts.account_delete(user=user)
    except ValidationError as error:
        return _delete_page(request, form, error=error, status=400)
    if deleted is None:
        return _goodbye(request, {"username": user.get_username()})
    return _goodbye(
        request, {"username": deleted.username, "deleted": deleted.deleted, "left": deleted.left}
    )


def _goodbye(request: HtmxHttpRequest, goodbye: dict[str, Any]) -> HttpResponse:
    """Log out (the session ends) and say goodbye on a page of its own (a reload sends no
    form again)."""
    logout(request)
    request.session[GOODBYE_KEY] = goodbye
    return redirect("scoring:account-deleted")


@require_safe
def account_deleted(request: HtmxHttpRequest) -> HttpResponse:
    """Goodbye, in the browser that deleted the account (anyone else is sent home)."""
    goodbye = request.session.get(GOODBYE_KEY)
    if not goodbye or request.user.is_authenticated:
        return redirect("scoring:home")
    return render(request, "scoring/account/deleted.html", {"goodbye": goodbye})
