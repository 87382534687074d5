"""The account's own page (e-mail, password, passkeys, downloads), deleting the account, signing
up (django-allauth's page, as the app's creating forms behave) and choosing the language.

A refused sign-up comes back with 400, as every refused form of the app does. Two sign-ups for
one username at the same moment both pass the form's check before either writes: the one the
database's unique index turns away gets the form's own message, not a server error.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from allauth.account.adapter import get_adapter
from allauth.account.internal.flows.email_verification import (
    send_verification_email_to_address,
)
from allauth.account.internal.flows.reauthentication import did_recently_reauthenticate
from allauth.account.internal.userkit import filter_users_by_username
from allauth.account.models import EmailAddress
from allauth.account.views import SignupView as AllauthSignupView
from allauth.core import ratelimit
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout, update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.http import HttpResponse, HttpResponseRedirect, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scoring.access import scoped
from scoring.accounts import guests
from scoring.accounts import services as accounts
from scoring.accounts.forms import DeleteAccountForm, SignupForm
from scoring.accounts.middleware import AccountLanguageMiddleware
from scoring.sharing import exchange
from scoring.web.htmx import HtmxHttpRequest, ScopedRequest, SignedInRequest, download
from scoring.web.once import once_per_form

GOODBYE_KEY = "account_deleted"
GUEST_KEY = "guest"
PASSWORD_REAUTHENTICATION = "reauthenticate"  # allauth's id of reauthenticating by password


# --- the account page ----------------------------------------------------------------------------


@scoped
@require_safe
def account_page(request: ScopedRequest) -> HttpResponse:
    context = {"overview": accounts.overview(request.user)}
    return render(request, "scoring/accounts/account.html", context)


@scoped
@require_safe
def account_export(request: ScopedRequest, circle: int) -> HttpResponse | StreamingHttpResponse:
    """Every match of one of the account's circles (any of them, current or not), as JSON."""
    membership = request.scope.circle_membership(circle)
    chunks = exchange.export_chunks(exchange.iter_match_documents(membership.circle))
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
    return render(request, "scoring/accounts/delete.html", context, status=status)


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
    return render(request, "scoring/accounts/deleted.html", {"goodbye": goodbye})


# --- signing up, the language -------------------------------------------------------------------


class SignupView(AllauthSignupView):
    def form_valid(self, form) -> HttpResponse:
        try:
            with transaction.atomic():
                return super().form_valid(form)
        except IntegrityError:
            if not filter_users_by_username(form.cleaned_data.get("username") or "").exists():
                raise
            form.add_error("username", get_adapter(self.request).error_messages["username_taken"])
            return self.form_invalid(form)

    def form_invalid(self, form) -> HttpResponse:
        response = super().form_invalid(form)
        response.status_code = 400
        return response


signup = require_http_methods(["GET", "POST"])(once_per_form(SignupView.as_view()))


# --- playing first, as a guest ---------------------------------------------------------------


@require_POST
@once_per_form
def guest_start(request: HtmxHttpRequest) -> HttpResponse:
    """ "Start a match" without an account: a guest account, signed in, on the new match page.
    Counted like sign-ups, per client address (allauth's "signup" rate)."""
    if request.user.is_authenticated:
        return redirect("scoring:match-new")
    refused = ratelimit.consume_or_429(request, action="signup")
    if refused is not None:
        return refused
    user = guests.guest_create()
    login(request, user, backend="allauth.account.auth_backends.AuthenticationBackend")
    request.session.set_expiry(guests.guest_days() * 24 * 60 * 60)
    request.session[GUEST_KEY] = True  # the header's "keep your matches", without a query
    return redirect("scoring:match-new")


@require_http_methods(["GET", "POST"])
@login_required
def account_keep(request: SignedInRequest) -> HttpResponse:
    """A guest keeps everything it scored under a name and password of its own (the sign-up
    form's checks); an account that is no guest has nothing to keep."""
    if not guests.is_guest(request.user):
        return redirect("scoring:account")
    form = SignupForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            user = guests.guest_claim(
                user=request.user,
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"],
                email=form.cleaned_data.get("email") or "",
            )
        except IntegrityError:  # the name taken a moment ago by someone else
            form.add_error("username", get_adapter(request).error_messages["username_taken"])
        except ValidationError:  # kept meanwhile (another tab)
            return redirect("scoring:account")
        else:
            update_session_auth_hash(request, user)
            request.session.set_expiry(None)
            request.session.pop(GUEST_KEY, None)
            address = EmailAddress.objects.filter(user=user, email=user.email).first()
            if address is not None:  # its link, as a sign-up's (counted the same way)
                send_verification_email_to_address(request, address)
            messages.success(
                request,
                _("Everything you scored is kept under %(name)s.") % {"name": user.username},
            )
            return redirect("scoring:home")
    context = {"form": form, "days": guests.guest_days()}
    status = 400 if form.is_bound else 200
    return render(request, "scoring/accounts/keep.html", context, status=status)


@require_safe
def signup_moved(request: HtmxHttpRequest) -> HttpResponse:
    """The sign-up page's former address (links people kept): the accounts' own, same query."""
    url = reverse("account_signup")
    query = request.META.get("QUERY_STRING", "")
    return redirect(f"{url}?{query}" if query else url)


ONE_YEAR = 365 * 24 * 60 * 60


@require_POST
def language_set(request: HtmxHttpRequest) -> HttpResponse:
    """Switch the language: remembered in a cookie, and on the account when signed in."""
    language = request.POST.get("language", "")
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = reverse("scoring:home")
    response = HttpResponseRedirect(target)
    if language in dict(settings.LANGUAGES):
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            language,
            max_age=ONE_YEAR,
            samesite="Lax",
            secure=request.is_secure(),
        )
        if request.user.is_authenticated:
            accounts.profile_language_set(user=request.user, language=language)
            request.session[AccountLanguageMiddleware.SESSION_KEY] = language
    return response
