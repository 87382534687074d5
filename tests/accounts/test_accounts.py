"""Accounts on django-allauth: signing up with or without an e-mail address, verifying it by a
link, logging in by username or address, changing the address (verified before it replaces the
old one), the one-time invitation to add an address, resetting a forgotten password, and allauth's
messages in another language. Nothing tells whether an address has an account (sign-up, the time
a login takes), and the password page counts wrong passwords with the login throttle."""

from __future__ import annotations

import re
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth.hashers import MD5PasswordHasher
from django.contrib.messages import get_messages
from django.core import mail
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured
from django.test import Client
from django.urls import reverse
from django.utils import translation
from test_security import _parse
from test_settings import PRODUCTION, load_settings

from scoring.accounts import prompts as account_prompts
from scoring.models import Profile

pytestmark = pytest.mark.django_db

PASSWORD = "a-Long-pass-42"
NEW_PASSWORD = "another-Long-pass-43"
INVITATION = "You currently do not have any email address set up."


def _signup(client: Client, username: str = "zoe", email: str = "", **extra: str) -> Any:
    data = {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD}
    return client.post(reverse("account_signup"), data | extra)


def _log_in(client: Client, login: str, password: str) -> Any:
    return client.post(reverse("login"), {"login": login, "password": password})


def _logged_in_as(client: Client) -> str | None:
    user = client.get(reverse("scoring:home")).wsgi_request.user
    return user.get_username() if user.is_authenticated else None


def _link(message: mail.EmailMessage, path: str) -> str:
    """The link to `path...` in a mail, without the scheme and host."""
    found = re.search(rf"https?://testserver({re.escape(path)}\S+)", message.body)
    assert found, message.body
    return found.group(1)


def _confirm_it_is_me(client: Client, password: str = "casino-pass-1") -> None:
    """allauth's reauthentication: changing the address asks for the password again."""
    response = client.post(reverse("account_reauthenticate"), {"password": password})
    assert response.status_code == 302, response.content.decode()


def _messages(response: Any) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


# --- signing up ----------------------------------------------------------------------------------


def test_the_signup_page_offers_the_address_and_says_what_it_is_for(client):
    body = client.get(reverse("account_signup")).content.decode()
    assert '<label for="id_email">Email (optional)</label>' in body
    field = re.search(r'<input type="email" name="email"[^>]*>', body).group(0)
    assert "required" not in field and 'aria-describedby="id_email_helptext"' in field
    assert "you can reset a forgotten password" in body


def test_signing_up_without_an_address(client, mailoutbox):
    response = _signup(client)
    assert response.status_code == 302 and response["Location"] == reverse("scoring:match-new")
    assert _logged_in_as(client) == "zoe"
    assert not EmailAddress.objects.exists()
    assert mailoutbox == []


def test_signing_up_with_an_address_sends_a_link_to_verify_it(client, mailoutbox):
    response = _signup(client, email="Zoe@Example.com")
    # Verification is optional: the new account is in at once, the address verified later.
    assert response.status_code == 302 and response["Location"] == reverse("scoring:match-new")
    assert _logged_in_as(client) == "zoe"
    address = EmailAddress.objects.get()
    assert (address.email, address.verified, address.primary) == ("zoe@example.com", False, True)
    (message,) = mailoutbox
    assert message.to == ["zoe@example.com"]
    assert "Please Confirm Your Email Address" in message.subject
    assert _link(message, "/accounts/confirm-email/")


def test_the_verification_link_confirms_the_address_only_when_the_button_is_pressed(
    client, mailoutbox
):
    _signup(client, email="zoe@example.com")
    link = _link(mailoutbox[0], "/accounts/confirm-email/")
    anonymous = Client()  # the mail may be opened on another device
    page = anonymous.get(link)
    body = page.content.decode()
    assert page.status_code == 200 and "zoe@example.com" in body
    assert not EmailAddress.objects.get().verified  # a link scanner's GET confirms nothing
    response = anonymous.post(link)
    assert response.status_code == 302
    assert EmailAddress.objects.get().verified
    assert "You have confirmed zoe@example.com." in _messages(response)


def test_a_wrong_verification_link_says_so(client):
    page = client.get(reverse("account_confirm_email", args=["not-a-key"]))
    assert page.status_code == 200
    assert "This email confirmation link expired or is invalid." in page.content.decode()
    assert client.post(reverse("account_confirm_email", args=["not-a-key"])).status_code == 404


def test_a_signup_with_a_taken_address_is_answered_as_any_other_and_the_owner_is_told(
    client, ana_with_email, mailoutbox
):
    """Nobody learns from the sign-up whether an address has an account: with ana's address it
    goes on exactly as with a new one ("we sent you a link"), and ana gets a mail saying that
    someone tried, with the way to reset her password, instead of a link."""
    fresh = _signup(Client(), username="yan", email="yan@example.com")
    taken = _signup(client, username="zoe", email="ANA@example.com")
    assert (taken.status_code, taken["Location"]) == (fresh.status_code, fresh["Location"])
    assert _messages(taken) == [
        text.replace("yan@example.com", "ana@example.com").replace("yan", "zoe")
        for text in _messages(fresh)
    ]
    assert "Confirmation email sent to ana@example.com." in _messages(taken)
    assert _logged_in_as(client) == "zoe"
    link_to_yan, owner_told = mailoutbox
    assert link_to_yan.to == ["yan@example.com"]
    assert owner_told.to == ["ana@example.com"] and "Account Already Exists" in owner_told.subject
    assert "/accounts/confirm-email/" not in owner_told.body
    assert "/accounts/password/reset/" in owner_told.body
    # The address stays ana's: it logs her in and resets her password; on zoe's account it waits
    # unverified, with no link to confirm it.
    zoe = type(ana_with_email).objects.get(username="zoe")
    assert not EmailAddress.objects.get(user=zoe).verified
    assert EmailAddress.objects.get(user=ana_with_email).verified
    assert _log_in(Client(), "ana@example.com", "casino-pass-1").status_code == 302
    assert _logged_in_as(client) == "zoe"
    Client().post(reverse("account_reset_password"), {"email": "ana@example.com"})
    assert mailoutbox[-1].to == ["ana@example.com"]
    assert "/accounts/password/reset/key/" in mailoutbox[-1].body


def test_a_new_address_on_the_email_page_taken_elsewhere_tells_the_owner_too(
    client, ana_with_email, other_user, mailoutbox
):
    """Changing to an address another account has verified: no link (it could not be confirmed),
    the owner hears of it, and the page looks as for any new address."""
    client.force_login(other_user)
    _confirm_it_is_me(client, "casino-pass-2")
    response = client.post(reverse("account_email"), {"email": "ana@example.com", "action_add": ""})
    assert response.status_code == 302
    assert "Confirmation email sent to ana@example.com." in _messages(response)
    (message,) = mailoutbox
    assert message.to == ["ana@example.com"] and "Account Already Exists" in message.subject
    assert "/accounts/confirm-email/" not in message.body


def test_a_refused_signup_is_answered_400_with_the_form(client):
    response = _signup(client, username="zoe", email="not-an-address")
    assert response.status_code == 400
    assert "Enter a valid email address." in response.content.decode()
    assert _logged_in_as(client) is None


# --- logging in ----------------------------------------------------------------------------------


def test_logging_in_by_username(client, user):
    response = _log_in(client, "ana", "casino-pass-1")
    assert response.status_code == 302 and response["Location"] == reverse("scoring:match-list")
    assert _logged_in_as(client) == "ana"


def test_logging_in_by_address_in_any_case(client, ana_with_email):
    response = _log_in(client, "Ana@Example.COM", "casino-pass-1")
    assert response.status_code == 302
    assert _logged_in_as(client) == "ana"


def test_a_wrong_password_is_refused_for_the_address_too(client, ana_with_email):
    response = _log_in(client, "ana@example.com", "wrong")
    assert response.status_code == 200
    assert "The email address and/or password you specified are not correct." in (
        response.content.decode()
    )
    assert _logged_in_as(client) is None


class CountingHasher(MD5PasswordHasher):
    """The tests' fast hasher, counting the hashes it computes (checking a password is one)."""

    hashes = 0

    def encode(self, password: str, salt: str) -> str:
        CountingHasher.hashes += 1
        return super().encode(password, salt)


@pytest.fixture
def counting_hasher(settings: Any) -> type[CountingHasher]:
    settings.PASSWORD_HASHERS = [f"{__name__}.CountingHasher"]
    CountingHasher.hashes = 0
    return CountingHasher


@pytest.mark.parametrize(
    "login", ["ana@example.com", "Nobody@example.com", "ana", "nobody"], ids=str.lower
)
def test_a_wrong_login_costs_one_hash_whether_or_not_the_account_exists(
    client, ana_with_email, counting_hasher, login
):
    """How long a refused login takes must not tell whether the address (or username) has an
    account: one password hash either way, never two for a known address."""
    counting_hasher.hashes = 0
    assert _log_in(client, login, "wrong").status_code == 200
    assert counting_hasher.hashes == 1


def test_giving_the_password_again_costs_one_hash_too(client, ana_with_email, counting_hasher):
    client.force_login(ana_with_email)
    counting_hasher.hashes = 0
    client.post(reverse("account_reauthenticate"), {"password": "wrong"})
    assert counting_hasher.hashes == 1


def test_guesses_by_address_count_for_the_account_that_verified_it(client, django_user_model):
    """An address can wait unverified on another account (typed there first): guessing by the
    address counts against the account it logs in to, so it buys no guesses beside the
    username's."""
    zoe = django_user_model.objects.create_user(username="zoe", password="casino-pass-2")
    EmailAddress.objects.create(user=zoe, email="ana@example.com", primary=True)
    ana = django_user_model.objects.create_user(username="ana", password="casino-pass-1")
    EmailAddress.objects.create(user=ana, email="ana@example.com", verified=True, primary=True)
    for _ in range(5):
        _log_in(client, "ana@example.com", "wrong")
    assert _log_in(client, "ana", "casino-pass-1").status_code == 429
    assert set(AccessAttempt.objects.values_list("username", flat=True)) == {"ana"}


def test_wrong_current_passwords_on_the_password_page_count_as_failed_logins(client, user):
    """The password page checks the current password: five wrong ones lock it (and the login,
    for that username at that address) as five wrong logins do, so it is no way round the
    throttle."""
    client.force_login(user)
    url = reverse("account_change_password")
    data = {"oldpassword": "wrong", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD}
    for _ in range(4):
        refused = client.post(url, data)
        assert refused.status_code == 200
        assert "Please type your current password." in refused.content.decode()
    assert client.post(url, data).status_code == 429
    assert client.post(url, data | {"oldpassword": "casino-pass-1"}).status_code == 429
    user.refresh_from_db()
    assert user.check_password("casino-pass-1")
    assert _log_in(Client(), "ana", "casino-pass-1").status_code == 429
    assert AccessAttempt.objects.get().username == "ana"


def test_the_right_current_password_still_changes_it(client, user, mailoutbox):
    client.force_login(user)
    data = {"oldpassword": "casino-pass-1", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD}
    assert client.post(reverse("account_change_password"), data).status_code == 302
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)


def test_the_login_page_labels_its_field_and_links_the_password_reset(client):
    body = client.get(reverse("login")).content.decode()
    assert '<label for="id_login">Username or email</label>' in body
    assert 'autocomplete="username"' in body
    assert f'<a class="button" href="{reverse("account_reset_password")}">' in body


# --- changing the address ------------------------------------------------------------------------


def test_a_new_address_replaces_the_old_one_only_once_verified(client, ana_with_email, mailoutbox):
    client.force_login(ana_with_email)
    _confirm_it_is_me(client)
    page = client.get(reverse("account_email")).content.decode()
    assert "ana@example.com" in page and "Verified" in page
    response = client.post(reverse("account_email"), {"email": "ana@new.example", "action_add": ""})
    assert response.status_code == 302
    ana_with_email.refresh_from_db()
    assert ana_with_email.email == "ana@example.com"  # not yet
    old = EmailAddress.objects.get(email="ana@example.com")
    assert old.verified and old.primary
    assert not EmailAddress.objects.get(email="ana@new.example").verified
    page = client.get(reverse("account_email")).content.decode()
    assert "Changing to" in page and "ana@new.example" in page and "Unverified" in page
    # Logging in or resetting the password still goes by the old address.
    client.logout()
    assert _log_in(client, "ana@example.com", "casino-pass-1").status_code == 302

    (message,) = mailoutbox
    assert message.to == ["ana@new.example"]
    link = _link(message, "/accounts/confirm-email/")
    assert client.post(link).status_code == 302
    ana_with_email.refresh_from_db()
    assert ana_with_email.email == "ana@new.example"
    assert list(EmailAddress.objects.values_list("email", "verified", "primary")) == [
        ("ana@new.example", True, True)
    ]
    # The old address is told that it is no longer the account's.
    assert any(m.to == ["ana@example.com"] for m in mailoutbox[1:])


def test_the_change_can_be_cancelled_and_the_link_resent(client, ana_with_email, mailoutbox):
    client.force_login(ana_with_email)
    _confirm_it_is_me(client)
    client.post(reverse("account_email"), {"email": "ana@new.example", "action_add": ""})
    # Right away, a second link is held back (tests/accounts/test_mail_limits.py); once the mail limits'
    # counts are gone, as three minutes later, it goes.
    client.post(reverse("account_email"), {"email": "ana@new.example", "action_send": ""})
    assert [m.to for m in mailoutbox] == [["ana@new.example"]]
    cache.clear()
    client.post(reverse("account_email"), {"email": "ana@new.example", "action_send": ""})
    assert [m.to for m in mailoutbox] == [["ana@new.example"], ["ana@new.example"]]
    client.post(reverse("account_email"), {"email": "ana@new.example", "action_remove": ""})
    assert list(EmailAddress.objects.values_list("email", flat=True)) == ["ana@example.com"]


def test_an_account_without_an_address_adds_one_after_giving_its_password_again(
    client, user, mailoutbox
):
    client.force_login(user)
    page = client.get(reverse("account_email")).content.decode()
    assert INVITATION in page and '<label for="id_email">Email address</label>' in page
    response = client.post(reverse("account_email"), {"email": "ana@example.com", "action_add": ""})
    # A session left open is not enough: the password first, then the address is added.
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_reauthenticate"))
    assert not EmailAddress.objects.exists() and mailoutbox == []
    page = client.get(response["Location"]).content.decode()
    assert 'name="password"' in page
    refused = client.post(response["Location"], {"password": "wrong"})
    assert refused.status_code == 200 and not EmailAddress.objects.exists()
    resumed = client.post(response["Location"], {"password": "casino-pass-1"})
    assert resumed.status_code == 302
    assert EmailAddress.objects.get(user=user).email == "ana@example.com"
    (message,) = mailoutbox
    client.post(_link(message, "/accounts/confirm-email/"))
    assert EmailAddress.objects.get(user=user).verified


# --- the one-time invitation ---------------------------------------------------------------------


def test_an_account_without_an_address_is_invited_once_after_logging_in(client, user):
    response = _log_in(client, "ana", "casino-pass-1")
    invitation = [text for text in _messages(response) if INVITATION in text]
    assert len(invitation) == 1
    assert (
        f'<a class="button" href="{reverse("account_email")}">Add Email Address</a>'
        in (invitation[0])
    )
    assert Profile.objects.get(user=user).email_invited_at is not None

    client.logout()
    again = _log_in(client, "ana", "casino-pass-1")
    assert not [text for text in _messages(again) if INVITATION in text]


def test_the_invitation_is_shown_in_the_page_after_the_login(client, user):
    response = client.post(
        reverse("login"), {"login": "ana", "password": "casino-pass-1"}, follow=True
    )
    body = response.content.decode()
    assert INVITATION in body
    assert f'href="{reverse("account_email")}">Add Email Address</a>' in body


def test_an_account_with_an_address_is_not_invited(client, ana_with_email):
    response = _log_in(client, "ana", "casino-pass-1")
    assert not [text for text in _messages(response) if INVITATION in text]
    assert not Profile.objects.filter(user=ana_with_email, email_invited_at__isnull=False)


def test_signing_up_without_an_address_counts_as_being_asked(client):
    response = _signup(client)
    assert not [text for text in _messages(response) if INVITATION in text]
    client.logout()
    again = _log_in(client, "zoe", PASSWORD)
    assert not [text for text in _messages(again) if INVITATION in text]


def test_the_invitation_is_claimed_once(user):
    assert account_prompts.claim_email_invitation(user) is True
    assert account_prompts.claim_email_invitation(user) is False


# --- resetting a forgotten password --------------------------------------------------------------


def test_a_forgotten_password_is_reset_by_a_link_in_a_mail(client, ana_with_email, mailoutbox):
    page = client.get(reverse("account_reset_password"))
    assert '<label for="id_email">Email address</label>' in page.content.decode()
    response = client.post(reverse("account_reset_password"), {"email": "ANA@example.com"})
    assert response.status_code == 302
    assert response["Location"] == reverse("account_reset_password_done")
    (message,) = mailoutbox
    assert message.to == ["ana@example.com"] and "Password Reset" in message.subject
    link = _link(message, "/accounts/password/reset/key/")

    # The key moves from the address into the session, so that no Referer carries it away.
    response = client.get(link)
    assert response.status_code == 302 and response["Location"].endswith("-set-password/")
    form = client.get(response["Location"])
    assert form.status_code == 200
    response = client.post(
        response["Location"], {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("account_reset_password_from_key_done")
    assert "Your password is now changed." in client.get(response["Location"]).content.decode()
    # The address hears of it too (a stranger who reset it would not go unnoticed).
    assert [m.to for m in mailoutbox] == [["ana@example.com"], ["ana@example.com"]]
    assert "Password Reset" in mailoutbox[1].subject and "reset" in mailoutbox[1].body

    assert _log_in(Client(), "ana", "casino-pass-1").status_code == 200  # refused
    assert _log_in(Client(), "ana", NEW_PASSWORD).status_code == 302
    # A reset link works once.
    used = client.get(link, follow=True).content.decode()
    assert "The password reset link was invalid" in used


def test_a_reset_for_an_unknown_address_looks_the_same_and_resets_nothing(client, user, mailoutbox):
    response = client.post(reverse("account_reset_password"), {"email": "who@example.com"})
    assert response.status_code == 302
    assert response["Location"] == reverse("account_reset_password_done")
    assert all("/accounts/password/reset/key/" not in m.body for m in mailoutbox)


def test_an_account_without_an_address_cannot_be_reset(client, user, mailoutbox):
    client.post(reverse("account_reset_password"), {"email": "ana@example.com"})
    assert all("/accounts/password/reset/key/" not in m.body for m in mailoutbox)


@pytest.mark.parametrize("which", ["typed at sign-up", "changing to"])
def test_no_reset_link_goes_to_an_address_that_was_never_verified(
    client, ana_with_email, mailoutbox, which
):
    """A typo in an address, never confirmed, must not hand the account to whoever owns the
    address typed."""
    if which == "typed at sign-up":
        EmailAddress.objects.all().delete()
        EmailAddress.objects.create(user=ana_with_email, email="ana@exampel.com", primary=True)
    else:
        EmailAddress.objects.create(user=ana_with_email, email="ana@exampel.com")
    response = client.post(reverse("account_reset_password"), {"email": "ana@exampel.com"})
    assert response["Location"] == reverse("account_reset_password_done")  # the same page
    assert all("/accounts/password/reset/key/" not in m.body for m in mailoutbox)
    if which == "changing to":  # the verified address still gets its link
        client.post(reverse("account_reset_password"), {"email": "ana@example.com"})
        assert mailoutbox[-1].to == ["ana@example.com"]
        assert "/accounts/password/reset/key/" in mailoutbox[-1].body


# --- the accounts' pages with a key in the address -----------------------------------------------


def test_the_pages_behind_a_link_carry_no_inline_code(client, ana_with_email, mailoutbox):
    """The security tests walk every page without kwargs; these two need a real key."""
    client.post(reverse("account_reset_password"), {"email": "ana@example.com"})
    reset = client.get(_link(mailoutbox[0], "/accounts/password/reset/key/"), follow=True)
    client.force_login(ana_with_email)
    _confirm_it_is_me(client)
    client.post(reverse("account_email"), {"email": "ana@new.example", "action_add": ""})
    confirm = Client().get(_link(mailoutbox[-1], "/accounts/confirm-email/"))
    for response in (reset, confirm):
        assert response.status_code == 200
        assert "Content-Security-Policy" in response
        page = _parse(response.content.decode())
        assert page.problems == [] and page.post_forms_without_token == 0


# --- mail that cannot be sent --------------------------------------------------------------------


class FailingBackend:
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass

    def send_messages(self, messages: Any) -> int:
        raise ConnectionRefusedError("no SMTP server")


def test_a_mail_that_cannot_be_sent_does_not_lose_the_signup(client, settings, caplog):
    settings.EMAIL_BACKEND = f"{__name__}.FailingBackend"
    response = _signup(client, email="zoe@example.com")
    assert response.status_code == 302
    assert _logged_in_as(client) == "zoe"
    assert not EmailAddress.objects.get().verified
    assert "The e-mail could not be sent. Try again in a few minutes." in _messages(response)
    assert "Could not send the mail" in caplog.text


# --- another language ----------------------------------------------------------------------------


def test_allauths_messages_come_in_the_visitors_language(client, mailoutbox):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    page = client.get(reverse("account_signup")).content.decode()
    assert "Correo electrónico (opcional)" in page
    _signup(client, email="zoe@example.com")
    assert mailoutbox[0].subject.endswith("Por favor, confirme su dirección de correo electrónico")
    confirmed = client.post(_link(mailoutbox[0], "/accounts/confirm-email/"))
    assert "Ha confirmado zoe@example.com." in _messages(confirmed)
    client.logout()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"  # logout() empties the cookie jar
    refused = _log_in(client, "zoe", "wrong").content.decode()
    assert "El usuario y/o la contraseña que ha indicado no son correctos." in refused
    response = client.post(reverse("account_reset_password"), {"email": "zoe@example.com"})
    assert response.status_code == 302
    assert mailoutbox[-1].subject.endswith("Correo electrónico para restablecer contraseña")


def test_the_invitation_comes_in_the_accounts_language(client, user):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    response = _log_in(client, "ana", "casino-pass-1")
    texts = _messages(response)
    with translation.override("es"):
        invitation = translation.gettext(
            "You currently do not have any email address set up. You should really add an email "
            "address so you can receive notifications, reset your password, etc."
        )
        add = translation.gettext("Add Email Address")
    assert invitation.startswith("Ahora mismo no tienes") and add == "Añadir correo electrónico"
    assert any(invitation in text and f"{add}</a>" in text for text in texts)
    assert "Ha iniciado sesión exitosamente como ana." in texts


# --- mail settings -------------------------------------------------------------------------------


def test_mail_goes_to_the_console_in_development_and_to_smtp_in_production(monkeypatch):
    assert load_settings(monkeypatch)["EMAIL_BACKEND"].endswith("console.EmailBackend")
    production = load_settings(
        monkeypatch,
        **PRODUCTION,
        DJANGO_EMAIL_HOST="smtp.example.com",
        DJANGO_EMAIL_HOST_USER="casino",
        DJANGO_EMAIL_HOST_PASSWORD="secret",
        DJANGO_DEFAULT_FROM_EMAIL="Casino <casino@example.com>",
    )
    assert production["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (production["EMAIL_HOST"], production["EMAIL_PORT"]) == ("smtp.example.com", 587)
    assert (production["EMAIL_USE_TLS"], production["EMAIL_USE_SSL"]) == (True, False)
    assert production["EMAIL_HOST_USER"] == "casino"
    assert production["EMAIL_HOST_PASSWORD"] == "secret"
    assert production["DEFAULT_FROM_EMAIL"] == "Casino <casino@example.com>"
    assert production["EMAIL_TIMEOUT"] == 10
    assert production["ACCOUNT_DEFAULT_HTTP_PROTOCOL"] == "https"  # the links in the mails


def test_tls_from_the_start_takes_port_465_and_not_both_kinds(monkeypatch):
    ssl = load_settings(monkeypatch, **PRODUCTION, DJANGO_EMAIL_USE_SSL="true")
    assert (ssl["EMAIL_USE_SSL"], ssl["EMAIL_USE_TLS"], ssl["EMAIL_PORT"]) == (True, False, 465)
    with pytest.raises(ImproperlyConfigured, match="not both"):
        load_settings(
            monkeypatch, **PRODUCTION, DJANGO_EMAIL_USE_SSL="true", DJANGO_EMAIL_USE_TLS="true"
        )


def test_tests_send_into_the_outbox():
    assert settings.EMAIL_BACKEND == "django.core.mail.backends.locmem.EmailBackend"
