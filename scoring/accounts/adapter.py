"""How django-allauth's accounts fit the app (settings.ACCOUNT_ADAPTER; the forms are in
scoring/accounts/forms.py).

- After a login, an account without an e-mail address is invited once to add one
  (scoring/accounts/prompts.py).
- The link that verifies an address given at sign-up keeps where the sign-up was going (an invite's
  join page, say): it carries the same `next`.
- A mail that cannot be sent (the SMTP server is down) does not lose the sign-up or the change that
  sent it: the page says that the mail did not go, and the error is logged.
- Nobody learns whether an address has an account (ACCOUNT_PREVENT_ENUMERATION): a sign-up with an
  address another account has verified goes on as with a new one, and the link is replaced by a
  mail telling that address's owner; a login by address costs one password hash whether or not
  the address is known.
- The client address that allauth's mail limits count is the login throttle's, behind the
  configured proxies (casino_site/proxies.py); a sign-up or an address added while its address has
  had too many mails is refused with the time to wait (scoring/accounts/rate_limits.py).
"""

from __future__ import annotations

import logging
from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.utils import get_next_redirect_url
from allauth.core import context as allauth_context
from allauth.core.internal.httpkit import add_query_params
from django.contrib import messages
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext

from casino_site.proxies import client_ip
from scoring.accounts import prompts, services

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
        prompts.after_login(request, user, signup=bool(kwargs.get("signup")))
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
        if services.address_verified_elsewhere(address.email, user_id=address.user_id):
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
