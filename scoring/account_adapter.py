"""How django-allauth's accounts fit the app (settings.ACCOUNT_ADAPTER and ACCOUNT_FORMS).

- After a login, an account without an e-mail address is invited once to add one
  (scoring/account_prompts.py).
- The link that verifies an address given at sign-up keeps where the sign-up was going (an invite's
  join page, say): it carries the same `next`.
- A password reset goes only to a verified address.
- A mail that cannot be sent (the SMTP server is down) does not lose the sign-up or the change that
  sent it: the page says that the mail did not go, and the error is logged.
- The login form names its field for what it takes, a username or an e-mail address; the sign-up
  form says what the optional address is for; no form repeats its labels as placeholders.
- Nobody learns whether an address has an account (ACCOUNT_PREVENT_ENUMERATION): a sign-up with an
  address another account has verified goes on as with a new one, and the link is replaced by a
  mail telling that address's owner; a login by address costs one password hash whether or not
  the address is known.
- Wrong current passwords on the password-change page count as failed logins (django-axes), as
  reauthentication's do.
- The client address that allauth's mail limits count is the login throttle's, behind the
  configured proxies (casino_site/proxies.py); a sign-up or an address added while its address has
  had too many mails is refused with the time to wait (scoring/rate_limits.py).
"""

from __future__ import annotations

import logging
from typing import Any

from allauth.account.adapter import DefaultAccountAdapter, get_adapter
from allauth.account.forms import AddEmailForm as AllauthAddEmailForm
from allauth.account.forms import ChangePasswordForm as AllauthChangePasswordForm
from allauth.account.forms import LoginForm as AllauthLoginForm
from allauth.account.forms import ReauthenticateForm as AllauthReauthenticateForm
from allauth.account.forms import ResetPasswordForm as AllauthResetPasswordForm
from allauth.account.forms import SignupForm as AllauthSignupForm
from allauth.account.models import EmailAddress
from allauth.account.utils import get_next_redirect_url
from allauth.core import context as allauth_context
from allauth.core.internal.httpkit import add_query_params
from django.contrib import messages
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext, gettext_lazy

from casino_site.proxies import client_ip
from scoring import account_prompts, accounts, rate_limits

logger = logging.getLogger(__name__)


class AccountAdapter(DefaultAccountAdapter):
    def get_login_stages(self) -> list[str]:
        """Without allauth's second step after the password: a passkey here is a way to log in
        instead of the password, so the password alone still logs in (and a lost passkey, or a
        reset password, never locks anyone out of their matches)."""
        second = {"allauth.mfa.stages.AuthenticateStage", "allauth.mfa.stages.TrustStage"}
        return [stage for stage in super().get_login_stages() if stage not in second]

    def post_login(self, request: HttpRequest, user: Any, **kwargs: Any) -> HttpResponse:
        response = super().post_login(request, user, **kwargs)
        account_prompts.after_login(request, user, signup=bool(kwargs.get("signup")))
        return response

    def get_email_confirmation_url(self, request: HttpRequest | None, emailconfirmation) -> str:
        url = super().get_email_confirmation_url(request, emailconfirmation)
        next_url = get_next_redirect_url(request, REDIRECT_FIELD_NAME) if request else None
        return add_query_params(url, {REDIRECT_FIELD_NAME: next_url}) if next_url else url

    def get_client_ip(self, request: HttpRequest) -> str:
        """The address the mail limits count: the login throttle's, read through the trusted
        proxies only (allauth's own would count every client as the proxy). A UNIX socket with
        no forwarded address counts as one client."""
        return client_ip(request) or "unix-socket"

    def authenticate(self, request: HttpRequest, **credentials: Any) -> User | None:
        """One password check per account. Given a username, allauth's backend already tries it
        as an address and as a username; the `email` beside it (the login form's copy of the same
        text, reauthentication's primary address) would check the same account's password a
        second time, so that a known address cost two hashes and an unknown one one."""
        if credentials.get("username"):
            credentials.pop("email", None)
        return super().authenticate(request, **credentials)

    def send_confirmation_mail(self, request: HttpRequest, emailconfirmation, signup: bool) -> None:
        """An address another account has verified gets no link (it could not be confirmed
        anyway): its owner is told instead that someone tried to use it, with the way to reset
        the password. The sign-up or the change goes on as with any new address, so its page
        does not tell that the address has an account."""
        address = emailconfirmation.email_address
        if accounts.address_verified_elsewhere(address.email, user_id=address.user_id):
            self.send_account_already_exists_mail(address.email)
            return
        super().send_confirmation_mail(request, emailconfirmation, signup)

    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        try:
            super().send_mail(template_prefix, email, context)
        except OSError:  # smtplib's errors, a refused or timed-out connection
            logger.exception("Could not send the mail %s", template_prefix)
            request = allauth_context.request
            if request is not None:
                messages.error(
                    request, gettext("The e-mail could not be sent. Try again in a few minutes.")
                )


class LoginForm(AllauthLoginForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        login = self.fields["login"]
        login.label = gettext_lazy("Username or email")
        login.widget.attrs.update(autocomplete="username", autocapitalize="none")
        login.widget.attrs.pop("placeholder", None)
        password = self.fields["password"]
        password.help_text = ""  # the page links to the password reset with a full-size button
        password.widget.attrs.pop("placeholder", None)


def refuse_while_mail_limited(email: str) -> None:
    """Refuse an address that has had too many verification mails lately (or this client has
    sent too many), saying when to try again: allauth would accept it and send nothing."""
    request = allauth_context.request
    if request is None:
        return
    wait = rate_limits.wait_seconds(request, rate_limits.VERIFICATION, key=email)
    if wait:
        raise ValidationError(
            "{} {}".format(
                gettext(
                    "Too many e-mails have gone to this address, or from your connection, in a "
                    "short while."
                ),
                rate_limits.try_again_text(wait),
            ),
            code="mail_rate_limited",
        )


class SignupForm(AllauthSignupForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("username", "email", "password1", "password2"):
            if name in self.fields:
                self.fields[name].widget.attrs.pop("placeholder", None)
        self.fields["username"].widget.attrs.update(autocapitalize="none")
        if "email" in self.fields:
            self.fields["email"].help_text = gettext_lazy(
                "With an e-mail address you can reset a forgotten password. We send a link to it "
                "to check that it is yours."
            )

    def clean_email(self) -> str:
        email = super().clean_email()
        if email:
            refuse_while_mail_limited(email)
        return email


class ResetPasswordForm(AllauthResetPasswordForm):
    """The reset link goes only to an address the account has verified: not to one it is still
    changing to, nor to one typed at sign-up and never confirmed (a typo would hand the account
    to whoever owns the address typed). The page looks the same either way."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # "Email address": Django's own "Email" (its auth app comes first) is not translated in
        # every language.
        self.fields["email"].label = gettext_lazy("Email address")
        self.fields["email"].widget.attrs.pop("placeholder", None)

    def clean_email(self) -> str:
        email = super().clean_email()
        verified = EmailAddress.objects.filter(email__iexact=email, verified=True)
        owners = set(verified.values_list("user_id", flat=True))
        self.users: list[Any] = [user for user in self.users if user.pk in owners]
        return email


class AddEmailForm(AllauthAddEmailForm):
    """The address to add, or to change to once it is verified (ACCOUNT_CHANGE_EMAIL)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        email = self.fields["email"]
        has_one = self.user is not None and EmailAddress.objects.filter(user=self.user).exists()
        email.label = gettext_lazy("Change to") if has_one else gettext_lazy("Email address")
        email.widget.attrs.pop("placeholder", None)

    def clean_email(self) -> str:
        email = super().clean_email()
        refuse_while_mail_limited(email)
        return email


class ChangePasswordForm(AllauthChangePasswordForm):
    """The current password is checked through the authentication backends, so wrong guesses
    count as failed logins (django-axes) and lock the page as they lock the login; allauth's own
    form compares it directly, as often as asked."""

    def clean_oldpassword(self) -> str:
        password = self.cleaned_data.get("oldpassword", "")
        adapter = get_adapter()
        if not adapter.reauthenticate(self.user, password):
            raise adapter.validation_error("enter_current_password")
        return password


class ReauthenticateForm(AllauthReauthenticateForm):
    """The password asked again before the address changes; the page links to the password reset
    with a full-size button instead of the field's help text."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["password"].help_text = ""
        self.fields["password"].widget.attrs.pop("placeholder", None)
