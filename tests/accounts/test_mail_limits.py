"""Mail floods: every account action that sends mail is limited per e-mail address and per client
address (settings.ACCOUNT_RATE_LIMITS), counted in the database's cache table that every app
server shares, and the answer over a limit says when to try again."""

from __future__ import annotations

import time
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from allauth.core.internal import ratelimit as allauth_ratelimit
from django.conf import settings
from django.core import mail
from django.db import connection
from django.test import Client
from django.urls import reverse

from scoring.accounts import rate_limits

pytestmark = pytest.mark.django_db

RESET = "/accounts/password/reset/"
PASSWORD = "casino-pass-1"


@pytest.fixture
def later(monkeypatch: pytest.MonkeyPatch) -> Callable[[float], None]:
    """Moves the clock the limits read (allauth's counts, and the waits told) on by some seconds."""
    offset = [0.0]
    clock = SimpleNamespace(
        time=lambda: time.time() + offset[0], monotonic=time.monotonic, sleep=time.sleep
    )
    monkeypatch.setattr(allauth_ratelimit, "time", clock)
    monkeypatch.setattr(rate_limits, "time", clock)

    def advance(seconds: float) -> None:
        offset[0] += seconds

    return advance


@pytest.fixture
def ana_verified(ana_with_email: Any) -> Any:
    return ana_with_email


def _reset(client: Client, email: str) -> Any:
    return client.post(RESET, {"email": email})


def _mails_to(outbox: list[mail.EmailMessage], address: str) -> list[mail.EmailMessage]:
    return [message for message in outbox if message.to == [address]]


# --- resetting a password ------------------------------------------------------------------------


def test_thirty_resets_in_a_row_send_three_mails_and_then_say_when(
    client: Client, ana_verified: Any, mailoutbox: list
) -> None:
    statuses = [_reset(client, "ana@example.com").status_code for _ in range(30)]
    assert statuses == [302] * 3 + [429] * 27
    assert len(_mails_to(mailoutbox, "ana@example.com")) == 3
    refused = _reset(client, "Ana@Example.com")  # the same address in other letters
    assert refused.status_code == 429
    body = refused.content.decode()
    assert "<h1>Too many requests</h1>" in body
    assert "Try again in 60 minutes." in body  # the first of the three leaves the hour first
    assert '<main id="main">' in body and 'class="errors" role="alert"' in body  # the app's page


def test_the_limit_is_lifted_as_the_first_mails_age(
    client: Client, ana_verified: Any, mailoutbox: list, later: Callable[[float], None]
) -> None:
    for _ in range(3):
        _reset(client, "ana@example.com")
        later(600)
    # The first mail went 30 minutes ago: one more fits in 30 minutes.
    refused = _reset(client, "ana@example.com")
    assert refused.status_code == 429
    assert "Try again in 30 minutes." in refused.content.decode()
    assert 29 * 60 < int(refused["Retry-After"]) <= 30 * 60  # the same wait, for scripts
    later(30 * 60)
    assert _reset(client, "ana@example.com").status_code == 302
    assert len(_mails_to(mailoutbox, "ana@example.com")) == 4


def test_unknown_account_mails_are_limited_per_address_and_per_client(
    client: Client, mailoutbox: list
) -> None:
    """A reset for an address without an account still sends a mail ("no account here"), so a
    stranger could flood any mailbox: three an hour to one address, ten an hour from one
    client."""
    statuses = [_reset(client, "who@example.com").status_code for _ in range(5)]
    assert statuses == [302] * 3 + [429] * 2
    assert len(mailoutbox) == 3 and all("Unknown Account" in m.subject for m in mailoutbox)
    # The refused ones count for the client: ten requests in all, whatever the addresses.
    others = [_reset(client, f"who{n}@example.com").status_code for n in range(6)]
    assert others == [302] * 5 + [429]
    assert _reset(Client(REMOTE_ADDR="192.0.2.7"), "who9@example.com").status_code == 302


def test_the_counts_are_in_the_database_every_app_server_shares(
    client: Client, ana_verified: Any
) -> None:
    assert settings.CACHES["default"]["BACKEND"] == "django.core.cache.backends.db.DatabaseCache"
    _reset(client, "ana@example.com")
    table = connection.ops.quote_name(settings.CACHES["default"]["LOCATION"])
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT cache_key FROM {table}")
        keys = [row[0] for row in cursor.fetchall()]
    assert any(":reset_password:" in key and ":ip:127.0.0.1" in key for key in keys), keys
    assert sum(":reset_password:" in key for key in keys) == 2  # per client, per address


# --- the client address behind a proxy -----------------------------------------------------------


@pytest.fixture
def behind_one_proxy(settings: Any) -> None:
    settings.TRUSTED_PROXY_COUNT = 1
    settings.TRUSTED_PROXIES = ["127.0.0.1", "::1"]


def test_behind_a_proxy_each_client_is_counted_by_its_own_address(
    behind_one_proxy: None, mailoutbox: list
) -> None:
    """allauth alone would count every client as the proxy (one limit for the whole site), or
    believe any X-Forwarded-For: the limits count the address the login throttle counts."""
    first = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert [_reset(first, f"a{n}@example.com").status_code for n in range(11)][-1] == 429
    second = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.4")
    assert _reset(second, "b@example.com").status_code == 302


def test_a_client_that_writes_its_own_forwarded_address_gains_nothing(
    behind_one_proxy: None, mailoutbox: list
) -> None:
    statuses = []
    for n in range(12):
        direct = Client(REMOTE_ADDR="198.51.100.66", HTTP_X_FORWARDED_FOR=f"10.9.8.{n}")
        statuses.append(_reset(direct, f"c{n}@example.com").status_code)
    assert statuses == [302] * 10 + [429] * 2


# --- verification links --------------------------------------------------------------------------


def _add(client: Client, email: str) -> Any:
    return client.post(reverse("account_email"), {"email": email, "action_add": ""})


def _resend(client: Client, email: str) -> Any:
    return client.post(reverse("account_email"), {"email": email, "action_send": ""})


@pytest.fixture
def ana_confirmed(client: Client, user: Any) -> Client:
    """ana, logged in, who has just given her password again (adding an address asks for it)."""
    client.force_login(user)
    assert client.post(reverse("account_reauthenticate"), {"password": PASSWORD}).status_code == 302
    return client


def test_a_resend_right_after_the_link_sends_nothing_and_the_page_says_when(
    ana_confirmed: Client, mailoutbox: list, later: Callable[[float], None]
) -> None:
    _add(ana_confirmed, "ana@example.com")
    _resend(ana_confirmed, "ana@example.com")
    assert len(mailoutbox) == 1
    page = ana_confirmed.get(reverse("account_email")).content.decode()
    assert "You can ask for another link in 3 minutes." in page
    later(181)
    assert (
        "You can ask for another link"
        not in ana_confirmed.get(reverse("account_email")).content.decode()
    )
    _resend(ana_confirmed, "ana@example.com")
    assert len(mailoutbox) == 2


def test_one_address_gets_five_links_a_day_at_most(
    ana_confirmed: Client, mailoutbox: list, later: Callable[[float], None]
) -> None:
    _add(ana_confirmed, "ana@example.com")
    for _ in range(6):
        later(181)
        _resend(ana_confirmed, "ana@example.com")
    assert len(mailoutbox) == 5
    page = ana_confirmed.get(reverse("account_email")).content.decode()
    assert "You can ask for another link in 24 hours." in page  # the first, 15 minutes old


def test_a_signup_with_an_address_just_sent_a_link_is_refused_with_the_wait(
    ana_confirmed: Client, mailoutbox: list
) -> None:
    """Sign-ups, each under a new name, would otherwise send a mail to one address as fast as
    they are sent; the form says when, and the sign-up works without the address."""
    _add(ana_confirmed, "ana@example.com")
    data = {"username": "zoe", "email": "ana@example.com"}
    data |= {"password1": "a-Long-pass-42", "password2": "a-Long-pass-42"}
    refused = Client().post(reverse("account_signup"), data)
    assert refused.status_code == 400
    body = refused.content.decode()
    assert "Too many e-mails have gone to this address, or from your connection" in body
    assert "Try again in 3 minutes." in body
    assert len(mailoutbox) == 1
    assert Client().post(reverse("account_signup"), data | {"email": ""}).status_code == 302


def test_adding_an_address_just_sent_a_link_is_refused_with_the_wait(
    ana_confirmed: Client, other_user: Any, mailoutbox: list
) -> None:
    _add(ana_confirmed, "shared@example.com")
    mallory = Client()
    mallory.force_login(other_user)
    mallory.post(reverse("account_reauthenticate"), {"password": "casino-pass-2"})
    refused = _add(mallory, "shared@example.com")
    body = refused.content.decode()
    assert (
        "Too many e-mails have gone to this address" in body and "Try again in 3 minutes." in body
    )
    assert not EmailAddress.objects.filter(user=other_user).exists()
    assert len(mailoutbox) == 1


def test_verification_links_from_one_client_are_limited_too(
    django_user_model: Any, mailoutbox: list
) -> None:
    """Twenty links an hour from one client address, whatever the accounts and addresses."""
    statuses = []
    for account in range(3):
        user = django_user_model.objects.create_user(username=f"p{account}", password=PASSWORD)
        client = Client()
        client.force_login(user)
        client.post(reverse("account_reauthenticate"), {"password": PASSWORD})
        statuses += [_add(client, f"p{account}.{n}@example.com").status_code for n in range(7)]
    assert len(mailoutbox) == 20
    assert statuses == [302] * 20 + [200]  # the form again, with the wait
    assert not EmailAddress.objects.filter(email="p2.6@example.com").exists()


# --- the e-mail page ------------------------------------------------------------------------------


def test_the_email_page_takes_ten_changes_an_hour_from_one_account(
    ana_confirmed: Client, mailoutbox: list
) -> None:
    statuses = [_add(ana_confirmed, f"ana{n}@example.com").status_code for n in range(11)]
    assert statuses == [302] * 10 + [429]
    body = _add(ana_confirmed, "ana-again@example.com").content.decode()
    assert "Too many requests" in body and "Try again in 60 minutes." in body


# --- the answer ---------------------------------------------------------------------------------


def test_the_answer_comes_in_the_visitors_language(client: Client, mailoutbox: list) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    for _ in range(3):
        _reset(client, "who@example.com")
    refused = _reset(client, "who@example.com")
    assert refused.status_code == 429
    assert '<html lang="es"' in refused.content.decode()


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (1, "Try again in 1 minute."),
        (61, "Try again in 2 minutes."),
        (119 * 60, "Try again in 119 minutes."),
        (120 * 60, "Try again in 2 hours."),
        (22 * 3600 + 1, "Try again in 23 hours."),
    ],
)
def test_the_wait_is_said_in_minutes_then_hours(seconds: int, text: str) -> None:
    from django.utils import translation

    with translation.override("en"):  # whatever an earlier test's request left active
        assert rate_limits.try_again_text(seconds) == text
