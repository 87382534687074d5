"""On a small phone: from the header to the account page, download the matches, delete the
account with the password, and find that it can no longer log in."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from helpers import FIRST_8, main_menu
from playwright.sync_api import expect

from scoring.circles import services as circles
from scoring.engine.rules import Rules
from scoring.matches import services
from scoring.models import Circle, Match, Membership

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SMALL_PHONE = {"width": 360, "height": 740}
PASSWORD = "casino-pass-1"
TOUCH = 44


def _signed_in(page: Any, live_server: Any, user: Any) -> None:
    """The browser holds a session of `user` (as after logging in)."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
    )


def _fits(page: Any) -> None:
    width = page.evaluate("document.documentElement.clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def _tall_enough(locator: Any) -> None:
    for index in range(locator.count()):
        box = locator.nth(index).bounding_box()
        assert box is not None and box["height"] >= TOUCH, locator.nth(index).inner_text()


@pytest.fixture
def ana(django_user_model: Any) -> Any:
    """ana, with a match in her personal circle, and a member of mallory's circle."""
    ana = django_user_model.objects.create_user(username="ana", password=PASSWORD)
    mallory = django_user_model.objects.create_user(username="mallory", password="casino-pass-2")
    own = ana.personal_circle
    one, two = (services.player_create(circle=own, name=name) for name in ("Ana", "Ben"))
    match = services.match_start(
        circle=own, by=ana, rules=Rules.make("casino"), sides=[[one], [two]]
    )
    services.hand_record(match=match, number=1, tallies=FIRST_8, by=ana)
    friday = circles.circle_create(name="Friday", by=mallory)
    Membership.objects.create(circle=friday, user=ana)
    mo, zed = (services.player_create(circle=friday, name=name) for name in ("Mo", "Zed"))
    services.match_start(circle=friday, by=ana, rules=Rules.make("royal"), sides=[[mo], [zed]])
    return ana


def test_export_then_delete_the_account_and_it_cannot_log_in(
    new_page: Any, live_server: Any, ana: Any, screenshot: Any
) -> None:
    own = ana.personal_circle
    friday = Circle.objects.get(name="Friday")
    page = new_page(viewport=SMALL_PHONE, accept_downloads=True)
    _signed_in(page, live_server, ana)
    page.goto(f"{live_server.url}/matches/")

    # The header is one line; Account is in its menu.
    header = page.locator("header.top").bounding_box()
    assert header is not None and header["height"] <= TOUCH + 12
    account = main_menu(page).get_by_role("link", name="Account")
    expect(account).to_be_visible()
    _fits(page)
    account.click()
    page.wait_for_url(f"{live_server.url}/account/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Your account")
    expect(page.locator(".account-facts dd").first).to_have_text("ana")
    _fits(page)
    _tall_enough(page.locator("main :is(a, button, input):visible"))
    screenshot(page, "account-page-phone.png")

    page.get_by_role("link", name="Delete my account…").click()
    page.wait_for_url(f"{live_server.url}/account/delete/")
    _fits(page)
    _tall_enough(page.locator("main :is(a, button, input):visible"))
    expect(page.locator("main")).to_contain_text("Deleted with your account")
    expect(page.locator("main")).to_contain_text("Circles you leave")

    # The downloads first: the personal circle's match, as JSON.
    with page.expect_download() as download:
        page.get_by_role("link", name=f"Download {own.name} (JSON)").click()
    documents = json.loads(Path(download.value.path()).read_text())
    assert [[side["players"] for side in doc["sides"]] for doc in documents] == [[["Ana"], ["Ben"]]]

    # A wrong password: refused, and said where it was typed.
    password = page.get_by_label("Your password")
    password.fill("not-my-password")
    page.get_by_role("button", name="Delete my account for good").click()
    expect(page.locator("#id_password_error")).to_contain_text("That is not your password.")
    assert get_user_model().objects.filter(username="ana").exists()
    screenshot(page, "account-delete-phone.png")

    password.fill(PASSWORD)
    page.get_by_role("button", name="Delete my account for good").click()
    page.wait_for_url(f"{live_server.url}/account/deleted/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Your account is deleted")
    expect(page.get_by_role("link", name="Log in")).to_be_visible()
    assert not get_user_model().objects.filter(username="ana").exists()
    assert not Circle.objects.filter(pk=own.pk).exists()
    assert Match.objects.filter(circle=friday).count() == 1  # the shared circle keeps it

    # The old session is over, and the password no longer logs in (the same steps log mallory
    # in, who stays).
    page.goto(f"{live_server.url}/account/")
    assert "/accounts/login/" in page.url
    _log_in(page, live_server, "ana", PASSWORD)
    assert "/accounts/login/" in page.url
    expect(page.get_by_role("button", name="Log out")).to_have_count(0)
    _log_in(page, live_server, "mallory", "casino-pass-2")
    expect(main_menu(page).get_by_role("button", name="Log out")).to_be_visible()


def _log_in(page: Any, live_server: Any, login: str, password: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_login", login)
    page.fill("#id_password", password)
    page.locator("main form button[type=submit]").first.click()
    page.wait_for_load_state()


def test_without_javascript_the_account_is_deleted_with_a_plain_form(
    new_page: Any, live_server: Any, ana: Any
) -> None:
    page = new_page(viewport=SMALL_PHONE, java_script_enabled=False)
    _signed_in(page, live_server, ana)
    page.goto(f"{live_server.url}/account/delete/")
    page.get_by_label("Your password").fill(PASSWORD)
    page.get_by_role("button", name="Delete my account for good").click()
    page.wait_for_url(f"{live_server.url}/account/deleted/")
    expect(page.locator("main")).to_contain_text("Goodbye, ana.")
    assert not get_user_model().objects.filter(username="ana").exists()
