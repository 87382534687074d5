"""A forgotten password, on a small phone: ask for a reset, follow the link in the mail, set a new
password, log in with it. With and without JavaScript."""

from __future__ import annotations

import re
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from helpers import main_menu
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OLD_PASSWORD = "casino-pass-1"
NEW_PASSWORD = "a-new-casino-pass-7"
SMALL_PHONE = {"width": 360, "height": 740}


def _fits_the_phone(page: Any) -> None:
    """Nothing wider than the screen, and every button and link in the page's main part is big
    enough to tap (a link inside a sentence aside)."""
    assert page.evaluate("document.documentElement.scrollWidth") <= SMALL_PHONE["width"], page.url
    small = page.evaluate(
        """() => [...document.querySelectorAll('main button, main a')]
            .filter(element => element.closest('p, li') === null
                || element.closest('.actions, form') !== null)
            .map(element => [element.textContent.trim(), element.getBoundingClientRect()])
            .filter(([, box]) => box.height < 44 || box.width < 44)
            .map(([text]) => text)"""
    )
    assert small == [], page.url


def _log_in(page: Any, live_server: Any, login: str, password: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username or email").fill(login)
    page.get_by_label("Password", exact=True).fill(password)
    page.locator("main form").get_by_role("button", name="Log in").click()


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_a_forgotten_password_is_reset_through_the_mail(
    new_page, live_server, django_user_model, mailoutbox, javascript
):
    user = django_user_model.objects.create_user(
        username="ana", email="ana@example.com", password=OLD_PASSWORD
    )
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    page = new_page(viewport=SMALL_PHONE, java_script_enabled=javascript)
    problems: list[str] = []
    page.on("console", lambda message: message.type == "error" and problems.append(message.text))
    page.on("pageerror", lambda error: problems.append(str(error)))

    page.goto(f"{live_server.url}/accounts/login/")
    _fits_the_phone(page)
    page.get_by_role("link", name="Forgot your password?").click()
    page.wait_for_url(f"{live_server.url}/accounts/password/reset/")
    expect(page.locator("h1")).to_have_text("Password Reset")
    _fits_the_phone(page)
    page.get_by_label("Email address").fill("ana@example.com")
    page.get_by_role("button", name="Reset My Password").click()
    page.wait_for_url(f"{live_server.url}/accounts/password/reset/done/")
    expect(page.locator("main")).to_contain_text("We have sent you an email.")
    _fits_the_phone(page)

    (message,) = mailoutbox
    assert message.to == ["ana@example.com"]
    link = re.search(r"https?://\S+/accounts/password/reset/key/\S+", message.body).group(0)
    assert link.startswith(live_server.url)  # the host the request came to

    page.goto(link)
    page.wait_for_url(re.compile(r"/accounts/password/reset/key/[^/]+-set-password/$"))
    expect(page.locator("h1")).to_have_text("Change Password")
    _fits_the_phone(page)
    page.get_by_label("New Password", exact=True).fill(NEW_PASSWORD)
    page.get_by_label("New Password (again)").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Change Password").click()
    page.wait_for_url(f"{live_server.url}/accounts/password/reset/key/done/")
    expect(page.locator("main")).to_contain_text("Your password is now changed.")
    _fits_the_phone(page)

    # The old password no longer opens the account; the new one does.
    _log_in(page, live_server, "ana", OLD_PASSWORD)
    expect(page.locator("main .errors")).to_contain_text(
        "The username and/or password you specified are not correct."
    )
    assert page.url.startswith(f"{live_server.url}/accounts/login/")
    _log_in(page, live_server, "ana@example.com", NEW_PASSWORD)
    page.wait_for_url(f"{live_server.url}/matches/")
    expect(main_menu(page).get_by_role("button", name="Log out")).to_be_visible()

    # The link worked once.
    page.goto(link)
    expect(page.locator("h1")).to_have_text("Bad Token")
    assert problems == []


def test_an_account_without_an_address_is_invited_to_add_one_and_can_then_reset(
    new_page, live_server, django_user_model, mailoutbox
):
    django_user_model.objects.create_user(username="ana", password=OLD_PASSWORD)
    page = new_page(viewport=SMALL_PHONE, java_script_enabled=False)
    _log_in(page, live_server, "ana", OLD_PASSWORD)
    page.wait_for_url(f"{live_server.url}/matches/")
    invitation = page.locator(".messages .email-invitation")
    expect(invitation).to_contain_text("You currently do not have any email address set up.")
    invitation.get_by_role("link", name="Add Email Address").click()

    page.wait_for_url(f"{live_server.url}/accounts/email/")
    _fits_the_phone(page)
    page.get_by_label("Email address").fill("ana@example.com")
    page.get_by_role("button", name="Add Email Address").click()
    # The address opens the password reset: the password is asked again before it is added.
    page.wait_for_url(re.compile(r"/accounts/reauthenticate/"))
    _fits_the_phone(page)
    page.get_by_label("Password", exact=True).fill(OLD_PASSWORD)
    page.get_by_role("button", name="Confirm").click()
    page.wait_for_url(f"{live_server.url}/accounts/email/")
    expect(page.locator(".email-pending")).to_contain_text("ana@example.com")
    expect(page.locator(".email-pending .tag")).to_have_text("Unverified")

    (message,) = mailoutbox
    link = re.search(r"https?://\S+/accounts/confirm-email/\S+", message.body).group(0)
    page.goto(link)
    _fits_the_phone(page)
    page.get_by_role("button", name="Confirm").click()
    expect(page.locator(".messages")).to_contain_text("You have confirmed ana@example.com.")
    page.goto(f"{live_server.url}/accounts/email/")
    expect(page.locator(".email-now")).to_contain_text("ana@example.com")
    expect(page.locator(".email-now .tag")).to_have_text("Verified")

    # Next time the invitation is not shown again.
    main_menu(page).get_by_role("button", name="Log out").click()
    _log_in(page, live_server, "ana", OLD_PASSWORD)
    page.wait_for_url(f"{live_server.url}/matches/")
    expect(page.locator(".messages")).not_to_contain_text("email address set up")


def test_asking_too_often_says_when_to_try_again(new_page, live_server, mailoutbox):
    """Three reset mails an hour to one address; the fourth ask is answered in the app's page,
    fitting the phone, with the wait."""
    page = new_page(viewport=SMALL_PHONE, java_script_enabled=False)
    for _ in range(4):
        page.goto(f"{live_server.url}/accounts/password/reset/")
        page.get_by_label("Email address").fill("who@example.com")
        page.get_by_role("button", name="Reset My Password").click()
    expect(page.locator("h1")).to_have_text("Too many requests")
    expect(page.locator("main [role=alert]")).to_contain_text("Try again in 60 minutes.")
    _fits_the_phone(page)
    page.get_by_role("link", name="Home").click()
    page.wait_for_url(f"{live_server.url}/")
    assert len(mailoutbox) == 3
