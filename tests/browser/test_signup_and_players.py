"""Signing up, then keeping a roster of players."""

import pytest
from helpers import main_menu
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_signup_logs_in_and_players_can_be_added(page, live_server, django_user_model):
    page.goto(live_server.url)
    page.get_by_role("link", name="Sign up").first.click()
    page.fill("#id_username", "ana")
    page.fill("#id_password1", "a-long-casino-pass")
    page.get_by_role("button", name="Create account").click()

    page.wait_for_url(f"{live_server.url}/matches/new/")
    expect(main_menu(page).get_by_role("button", name="Log out")).to_be_visible()
    assert django_user_model.objects.filter(username="ana").exists()

    main_menu(page).get_by_role("link", name="Players").click()
    expect(page.locator("#roster .empty")).to_be_visible()
    for name in ("Ben", "Cy"):
        page.fill("#id_name", name)
        page.get_by_role("button", name="Add player").click()
        expect(page.locator("ul.roster")).to_contain_text(name)
    expect(page.locator("ul.roster li")).to_have_text(["Ben", "Cy"])
    expect(page.locator("#id_name")).to_have_value("")

    page.fill("#id_name", "  ben ")
    page.get_by_role("button", name="Add player").click()
    error = page.locator("#id_name_error")
    expect(error).to_have_text("You already have a player called ben.")
    expect(page.locator("#id_name")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("ul.roster li")).to_have_text(["Ben", "Cy"])

    # The roster is kept: a fresh page load shows the same two players.
    page.reload()
    expect(page.locator("ul.roster li")).to_have_text(["Ben", "Cy"])


def test_the_password_is_typed_once_and_can_be_shown(page, live_server, django_user_model):
    page.goto(f"{live_server.url}/signup/")
    expect(page.locator("input[type=password]")).to_have_count(1)
    page.fill("#id_username", "ana")
    page.fill("#id_password1", "ana")  # too like the username
    page.get_by_label("Show password").check()
    expect(page.locator("#id_password1")).to_have_attribute("type", "text")
    assert page.get_by_label("Show password").bounding_box()["height"] >= 22
    assert page.locator("label[for=id_password1-show]").bounding_box()["height"] >= 44
    page.get_by_label("Show password").uncheck()
    expect(page.locator("#id_password1")).to_have_attribute("type", "password")
    page.get_by_role("button", name="Create account").click()

    expect(page.locator(".has-error .errors")).to_contain_text("too similar to the username")
    expect(page.locator("#id_username")).to_have_value("ana")
    assert not django_user_model.objects.filter(username="ana").exists()
    page.fill("#id_password1", "a-long-casino-pass")
    page.get_by_role("button", name="Create account").click()
    page.wait_for_url(f"{live_server.url}/matches/new/")
    expect(page.locator(".circle-now-name")).to_have_text("ana’s circle")


def test_without_javascript_the_password_stays_hidden(new_page, live_server):
    page = new_page(java_script_enabled=False)
    page.goto(f"{live_server.url}/accounts/login/")
    expect(page.locator("#id_password")).to_have_attribute("type", "password")
    expect(page.get_by_label("Show password")).to_be_hidden()
