"""The account pages (django-allauth, under accounts/): each is either one that anyone may open
(log in, sign up, forgotten password) or one that needs a login; signed in, each shows only the
account's own address and passkeys; another account's passkey is not anyone else's to change."""

from __future__ import annotations

from typing import Any

import pytest
from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from django.test import Client
from django.urls import reverse
from test_authorization_matrix import ROUTES, _as, login_redirect

ACCOUNT_ROUTES = [r for r in ROUTES if r.route.startswith("accounts/") and r.name]
# Anyone may open these (what someone without an account, or without their password, needs).
OPEN = {
    "login",
    "account_login",
    "account_signup",
    "account_reset_password",
    "account_reset_password_done",
    "account_reset_password_from_key_done",
    "account_email_verification_sent",
    "account_inactive",
    "account_logout",
    "logout",
    "mfa_login_webauthn",
}
# Steps of a login or a confirmation under way: without one they send the visitor back (to
# log in, or to the page the step belongs to).
STEPS = {"mfa_authenticate", "account_confirm_login_code", "account_confirm_reauthentication_code"}
WITH_KWARGS = {"account_confirm_email", "account_reset_password_from_key"}


def test_every_account_page_is_placed() -> None:
    names = {route.name for route in ACCOUNT_ROUTES}
    private = names - OPEN - STEPS - WITH_KWARGS
    assert private >= {"account_email", "account_change_password", "mfa_index"}
    unknown = {name for name in private if not name.startswith(("account_", "mfa_"))}
    assert not unknown, unknown


@pytest.mark.django_db
@pytest.mark.parametrize(
    "route",
    [r for r in ACCOUNT_ROUTES if r.name not in OPEN | STEPS and not r.kwargs],
    ids=lambda r: r.name,
)
def test_private_account_pages_need_a_login_and_show_only_ones_own(
    route: Any, user: Any, other_user: Any
) -> None:
    url = reverse(route.name)
    for method in ("GET", "POST"):
        response = getattr(Client(), method.lower())(url)
        assert login_redirect(response) or response.status_code in (403, 405), (
            f"anonymous {method} {url}: {response.status_code}"
        )
    EmailAddress.objects.create(user=user, email="ana@example.com", verified=True, primary=True)
    EmailAddress.objects.create(
        user=other_user, email="mallory@example.com", verified=True, primary=True
    )
    response = _as(user).get(url)
    assert "mallory@example.com" not in response.content.decode()


@pytest.mark.django_db
def test_another_accounts_passkey_cannot_be_renamed_or_removed(user: Any, other_user: Any) -> None:
    passkey = Authenticator.objects.create(
        user=other_user, type=Authenticator.Type.WEBAUTHN, data={"name": "Mallory's phone"}
    )
    client = _as(user)
    for name in ("mfa_edit_webauthn", "mfa_remove_webauthn"):
        url = reverse(name, kwargs={"pk": passkey.pk})
        for method in ("get", "post"):
            response = getattr(client, method)(url)
            assert response.status_code in (302, 404), f"{name} {method}: {response.status_code}"
            if response.status_code == 302:
                assert not response["Location"].endswith(url)
    assert Authenticator.objects.filter(pk=passkey.pk).exists()
