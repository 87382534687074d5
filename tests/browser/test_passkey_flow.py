"""Passkeys on a phone, with Chromium's virtual authenticator (DevTools protocol): add one, log in
with it without a password, remove it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from allauth.mfa.models import Authenticator
from django.test import Client
from helpers import main_menu
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "casino-pass-1"
SMALL_PHONE = {"width": 360, "height": 740}


def _add_virtual_authenticator(page: Any) -> None:
    """A platform authenticator (a phone's screen lock) that keeps passkeys and always says yes."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
                "automaticPresenceSimulation": True,
            }
        },
    )


def _sign_in_without_the_form(page: Any, live_server: Any, user: Any) -> None:
    """A session made by the test client, handed to the browser as its cookie."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies["sessionid"]
    page.context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": live_server.url}])


def _log_out(page: Any, live_server: Any) -> None:
    page.goto(f"{live_server.url}/accounts/logout/")
    page.get_by_role("main").get_by_role("button", name="Log out", exact=True).click()
    page.wait_for_url(re.compile(r"^(?!.*/accounts/logout/)"))


def _fits_the_phone(page: Any) -> None:
    """Nothing wider than the screen, and every button and link in the page's main part is big
    enough to tap."""
    assert page.evaluate("document.documentElement.scrollWidth") <= SMALL_PHONE["width"]
    small = page.evaluate(
        """() => [...document.querySelectorAll('main button, main a')]
            .filter(element => element.offsetParent !== null)
            .map(element => [element.textContent.trim(), element.getBoundingClientRect()])
            .filter(([, box]) => box.height < 44 || box.width < 44)
            .map(([text]) => text)"""
    )
    assert small == []


def test_a_passkey_is_added_logs_in_without_a_password_and_is_removed(
    new_page, live_server, django_user_model
):
    # WebAuthn needs a secure context, which http://localhost is; the passkey belongs to the host
    # name (the relying party), which fido2 checks against the browser's origin. No exception
    # for insecure origins is needed: the check runs as in production.
    assert live_server.url.startswith("http://localhost:")
    from django.conf import settings

    assert settings.MFA_WEBAUTHN_ALLOW_INSECURE_ORIGIN is False

    page = new_page(viewport=SMALL_PHONE)
    problems: list[str] = []
    page.on("console", lambda message: message.type == "error" and problems.append(message.text))
    page.on("pageerror", lambda error: problems.append(str(error)))
    _add_virtual_authenticator(page)
    user = django_user_model.objects.create_user(username="ana", password=PASSWORD)
    _sign_in_without_the_form(page, live_server, user)

    # No passkey yet: the passkeys page offers to add one.
    page.goto(f"{live_server.url}/accounts/2fa/")
    expect(page.locator("h1")).to_have_text("Passkeys")
    expect(page.get_by_text("No passkeys yet.")).to_be_visible()
    _fits_the_phone(page)
    page.get_by_role("link", name="Add a passkey").click()

    # allauth asks for the password again before a passkey is added.
    page.wait_for_url(re.compile(r"/accounts/reauthenticate/"))
    expect(page.get_by_label("Password", exact=True)).to_be_visible()
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Confirm").click()

    page.wait_for_url(f"{live_server.url}/accounts/2fa/webauthn/add/")
    _fits_the_phone(page)
    page.get_by_label("Name").fill("Ana’s phone")
    page.get_by_role("button", name="Add", exact=True).click()
    page.wait_for_url(f"{live_server.url}/accounts/2fa/")
    expect(page.locator(".messages")).to_contain_text("Passkey added.")
    expect(page.get_by_text("You have 1 passkey.")).to_be_visible()
    passkey = Authenticator.objects.get(user=user, type=Authenticator.Type.WEBAUTHN)
    assert passkey.wrap().is_passwordless is True

    page.get_by_role("link", name="Manage").click()
    page.wait_for_url(f"{live_server.url}/accounts/2fa/webauthn/")
    expect(page.locator(".passkey-name")).to_have_text(["Ana’s phone"])
    _fits_the_phone(page)

    # Logged out, the passkey logs Ana in again: no name, no password typed.
    _log_out(page, live_server)
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_role("button", name="Log in with a passkey").click()
    page.wait_for_url(f"{live_server.url}/matches/")
    expect(main_menu(page).get_by_role("button", name="Log out")).to_be_visible()
    page.goto(f"{live_server.url}/accounts/2fa/webauthn/")
    expect(page.locator(".passkey-facts")).to_contain_text("Last used")

    # Removing it asks again who she is (allauth's reauthentication): the passkey answers.
    page.get_by_role("link", name="Remove Ana’s phone").click()
    page.wait_for_url(re.compile(r"/accounts/reauthenticate/"))
    page.get_by_role("link", name="Use a security key").click()
    page.wait_for_url(re.compile(r"/accounts/2fa/webauthn/reauthenticate/"))
    _fits_the_phone(page)
    page.get_by_role("button", name="Use your passkey").click()
    page.wait_for_url(f"{live_server.url}/accounts/2fa/webauthn/keys/{passkey.pk}/remove/")
    expect(page.locator("main")).to_contain_text("Remove the passkey “Ana’s phone”?")
    _fits_the_phone(page)
    page.locator("main form").get_by_role("button", name="Remove").click()
    page.wait_for_url(f"{live_server.url}/accounts/2fa/webauthn/")
    expect(page.locator(".messages")).to_contain_text("Passkey removed.")
    expect(page.locator(".passkey")).to_have_count(0)
    expect(page.get_by_text("No passkeys yet.")).to_be_visible()
    assert not Authenticator.objects.filter(user=user).exists()

    # The phone still holds the passkey, but the site no longer knows it: no login.
    _log_out(page, live_server)
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_role("button", name="Log in with a passkey").click()
    page.wait_for_url(f"{live_server.url}/accounts/login/")
    expect(page.locator(".message.error")).to_be_visible()
    expect(page.get_by_role("button", name="Log out")).to_have_count(0)
    page.goto(f"{live_server.url}/accounts/2fa/")
    page.wait_for_url(re.compile(r"/accounts/login/\?next="))

    # No script was blocked by the Content-Security-Policy, and none failed.
    assert problems == []


def test_a_cancelled_passkey_dialog_says_so_next_to_the_button(new_page, live_server):
    """A phone without a passkey for the site: the browser's dialog fails, the page says so, and
    the console stays clean (allauth's script logs the failure only when no page listens)."""
    page = new_page(viewport=SMALL_PHONE)
    problems: list[str] = []
    page.on("console", lambda message: message.type == "error" and problems.append(message.text))
    page.on("pageerror", lambda error: problems.append(str(error)))
    _add_virtual_authenticator(page)
    page.goto(f"{live_server.url}/accounts/login/")
    error = page.locator("#passkey-error")
    expect(error).to_be_hidden()
    page.get_by_role("button", name="Log in with a passkey").click()
    expect(error).to_be_visible()
    expect(error).to_have_text("The passkey did not work, or it was cancelled. Try again.")
    # Shown in the page, right after the button, not below the footer.
    assert page.locator("main #passkey-error").count() == 1
    assert problems == []


def test_without_javascript_the_pages_say_so_and_a_passkey_is_still_removed(
    new_page, live_server, django_user_model
):
    page = new_page(viewport=SMALL_PHONE, java_script_enabled=False)
    user = django_user_model.objects.create_user(username="ana", password=PASSWORD)
    _sign_in_without_the_form(page, live_server, user)

    page.goto(f"{live_server.url}/accounts/2fa/webauthn/add/")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Confirm").click()
    page.wait_for_url(f"{live_server.url}/accounts/2fa/webauthn/add/")
    # The page says that passkeys need JavaScript, and hides the button that would need it.
    message = page.locator("main noscript .help")
    expect(message).to_be_visible()
    expect(message).to_have_text("This functionality requires JavaScript.")
    expect(page.get_by_role("button", name="Add", exact=True)).to_be_hidden()

    # A passkey added elsewhere (only its name and kind matter to these pages).
    credential = {"clientExtensionResults": {"credProps": {"rk": True}}}
    passkey = Authenticator.objects.create(
        user=user,
        type=Authenticator.Type.WEBAUTHN,
        data={"name": "Ana’s phone", "credential": credential},
    )
    page.goto(f"{live_server.url}/accounts/2fa/webauthn/")
    page.get_by_role("link", name="Remove Ana’s phone").click()
    page.locator("main form").get_by_role("button", name="Remove").click()
    page.wait_for_url(f"{live_server.url}/accounts/2fa/webauthn/")
    expect(page.get_by_text("No passkeys yet.")).to_be_visible()
    assert not Authenticator.objects.filter(pk=passkey.pk).exists()
