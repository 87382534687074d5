"""Without JavaScript every step is a plain form post: set up, sweeps, check points, save."""

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ALL_SPECIALS = ("10D", "2S", "AS", "AC", "AH", "AD")


def test_a_hand_is_recorded_with_plain_form_posts(
    new_page, live_server, log_in, start_match, enter_hand
):
    page = new_page(java_script_enabled=False)
    log_in(page)
    board_url = start_match(page, ["Ana", "Ben"])
    expect(page.locator("html")).not_to_have_class("js")
    expect(page.locator("[data-total]")).to_have_text(["0", "0"])

    # The sweep stepper posts the whole form: the server counts the sweep and shows the form
    # again with everything typed so far, saving nothing.
    enter_hand(page, 30, 9, ALL_SPECIALS, save=False)
    page.get_by_role("button", name="One more sweep for Ana").click()
    page.wait_for_url(f"{board_url}hands/")
    expect(page.locator("#id_sweeps_0")).to_have_value("1")
    expect(page.locator("#id_cards_0")).to_have_value("30")
    expect(page.locator("#id_card_10D_0")).to_be_checked()

    # "Check points" (shown only without JS) re-renders the form with the preview.
    page.get_by_role("button", name="Check points").click()
    expect(page.locator("#preview")).to_contain_text("+12 → 12")
    expect(page.locator("#id_cards_0")).to_have_value("30")
    expect(page.locator("#id_card_AD_0")).to_be_checked()
    expect(page.locator("[data-total]")).to_have_text(["0", "0"])

    page.click("button.save")
    page.wait_for_url(board_url)
    # Ana: 11 for cards, spades and the six special cards, plus the sweep.
    expect(page.locator("[data-total]")).to_have_text(["12", "0"])
    expect(page.locator(".turn")).to_contain_text("Hand 2")
    expect(page.locator("#id_sweeps_0")).to_have_value("0")

    # A hand that does not add up comes back with the message and the typed values.
    page.fill("#id_cards_0", "30")
    page.fill("#id_cards_1", "30")
    page.fill("#id_spades_0", "5")
    page.click("button.save")
    expect(page.locator("#id_cards_0_error")).to_contain_text("52")
    expect(page.locator("#id_cards_1")).to_have_value("30")
    expect(page.locator("[data-total]")).to_have_text(["12", "0"])
