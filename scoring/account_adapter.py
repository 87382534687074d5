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
"""

from __future__ import annotations

import logging
from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.forms import AddEmailForm as AllauthAddEmailForm
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
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext, gettext_lazy

from scoring import account_prompts

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
        self.users = [user for user in self.users if user.pk in owners]
        return email


class AddEmailForm(AllauthAddEmailForm):
    """The address to add, or to change to once it is verified (ACCOUNT_CHANGE_EMAIL)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        email = self.fields["email"]
        has_one = self.user is not None and EmailAddress.objects.filter(user=self.user).exists()
        email.label = gettext_lazy("Change to") if has_one else gettext_lazy("Email address")
        email.widget.attrs.pop("placeholder", None)


class ReauthenticateForm(AllauthReauthenticateForm):
    """The password asked again before the address changes; the page links to the password reset
    with a full-size button instead of the field's help text."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["password"].help_text = ""
        self.fields["password"].widget.attrs.pop("placeholder", None)
