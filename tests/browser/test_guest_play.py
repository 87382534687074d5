"""Play first, keep it all: from the landing page to a first saved hand with no account, then a
sign-up that keeps the match, as a new user on a phone would."""

import re

import pytest
from helpers import CountingUser, main_menu
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MOST_TAPS, MOST_KEYS = 8, 10


def test_a_new_user_saves_a_first_hand_in_few_taps_and_keeps_it(
    page, live_server, django_user_model, screenshot
):
    page.goto(live_server.url)
    screenshot(page, "landing-play-first.png")
    user = CountingUser(page)
    user.tap("form.play-first button")  # "Start a match": no account
    page.wait_for_url(f"{live_server.url}/matches/new/")
    expect(page.get_by_text("You are scoring as a guest.")).to_be_visible()
    user.tap("#id_seat_0")
    user.type("Ana")
    user.tap("#id_seat_1")
    user.type("Ben")
    user.tap("form.match-setup button[type=submit]")
    page.wait_for_url(re.compile(r".*/matches/\d+/$"))
    expect(page.locator("#id_cards_0")).to_be_focused()
    user.type("27")
    user.press("Enter")  # on to the spades
    user.type("7")
    user.tap("button.save")
    expect(page.locator("#hands > tr")).to_have_count(1)
    expect(page.locator("[data-total]")).to_have_text(["4", "7"])
    print(f"\nLanding page to a first saved hand: {user.taps} taps, {user.keys} keys")
    assert user.taps <= MOST_TAPS and user.keys <= MOST_KEYS, user.actions
    board = page.url

    # Keep it: the same account under a name of its own, the match where it was.
    page.get_by_role("link", name="Keep your matches").click()
    page.wait_for_url(f"{live_server.url}/account/keep/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.fill("#id_username", "zoe")
    page.fill("#id_password1", "a-long-casino-pass")
    page.get_by_label("Show password").check()
    expect(page.locator("#id_password1")).to_have_attribute("type", "text")
    screenshot(page, "keep-your-matches.png")
    page.get_by_role("button", name="Keep my matches").click()
    page.wait_for_url(f"{live_server.url}/")
    expect(page.get_by_text("Everything you scored is kept under zoe.")).to_be_visible()
    expect(page.get_by_text("You are scoring as a guest.")).to_have_count(0)
    expect(page.locator(".circle-now-name")).to_have_text("zoe’s circle")
    page.goto(board)
    expect(page.locator("[data-total]")).to_have_text(["4", "7"])
    assert django_user_model.objects.get(username="zoe").check_password("a-long-casino-pass")

    # On another phone, with the new password.
    other = page.context.browser.new_context(viewport={"width": 390, "height": 844})
    phone = other.new_page()
    phone.goto(f"{live_server.url}/accounts/login/")
    phone.fill("#id_login", "zoe")
    phone.fill("#id_password", "a-long-casino-pass")
    phone.click("form.stack button[type=submit]")
    phone.goto(board)
    expect(phone.locator("[data-total]")).to_have_text(["4", "7"])
    other.close()
    expect(main_menu(page).get_by_role("button", name="Log out")).to_be_attached()


def test_a_guest_logging_out_is_asked_first_and_can_stay(page, live_server):
    page.goto(live_server.url)
    page.click("form.play-first button")
    page.wait_for_url(f"{live_server.url}/matches/new/")
    asked = []

    def answer(dialog):
        asked.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", answer)
    menu = main_menu(page)
    menu.get_by_role("button", name="Log out").click()
    page.wait_for_timeout(500)
    assert asked and "A guest cannot log in again" in asked[0]
    page.goto(f"{live_server.url}/matches/")
    expect(page.get_by_text("You are scoring as a guest.")).to_be_visible()  # still signed in
