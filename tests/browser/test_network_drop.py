"""Saving a hand while the network is down keeps what was typed and offers a retry."""

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SAVE_URL = "**/hands/"  # the hand-create URL only; the live preview posts to .../hands/preview/


def test_failed_save_keeps_the_entries_and_try_again_saves(page, log_in, start_match, enter_hand):
    log_in(page)
    start_match(page, ["Ana", "Ben"])
    offline = page.locator("[data-offline]")
    expect(offline).to_be_hidden()

    enter_hand(page, 29, 8, ["10D", "AS", "AH"], save=False)
    # Let the live preview settle first: a preview that succeeds after the failed save would
    # hide the warning again (app.js hides it after any successful request in the form).
    expect(page.locator("#preview")).to_contain_text("+8 → 8")
    page.route(SAVE_URL, lambda route: route.abort())
    with page.expect_event("requestfailed"):
        page.click("button.save")

    expect(offline).to_be_visible()
    expect(offline).to_contain_text("Could not reach the server")
    expect(page.locator("#id_cards_0")).to_have_value("29")
    expect(page.locator("#id_spades_0")).to_have_value("8")
    for card in ("10D", "AS", "AH"):
        expect(page.locator(f"#id_card_{card}_0")).to_be_checked()
    expect(page.locator("#id_card_2S_0")).not_to_be_checked()
    expect(page.locator("[data-total]")).to_have_text(["0", "0"])
    expect(page.locator("button.save")).to_be_enabled()

    page.unroute(SAVE_URL)
    page.get_by_role("button", name="Try again").click()

    # Ana: cards 3, spades 1, big casino 2, two aces = 8; Ben: little casino 1, two aces = 3.
    expect(page.locator("[data-total]")).to_have_text(["8", "3"])
    expect(page.locator("#hands > tr")).to_have_count(1)
    expect(page.locator("[data-offline]")).to_be_hidden()
