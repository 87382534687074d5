"""Fixing an earlier hand re-scores the match; the last hand can be deleted."""

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ALL_SPECIALS = ("10D", "2S", "AS", "AC", "AH", "AD")


def test_an_earlier_hand_is_fixed_and_the_last_one_deleted(page, log_in, start_match, enter_hand):
    log_in(page)
    board_url = start_match(page, ["Ana", "Ben"])
    totals = page.locator("[data-total]")

    enter_hand(page, 30, 9, ALL_SPECIALS)  # Ana 11, Ben 0
    expect(totals).to_have_text(["11", "0"])
    enter_hand(page, 27, 7, ["10D"])  # Ana 3 + 1 + 2 = 6; Ben little casino and 4 aces = 5
    expect(totals).to_have_text(["17", "5"])

    # A hand's number on the sheet leads to its page: points by category, edit, delete.
    page.locator("#hands").get_by_role("link", name="Hand 1").click()
    page.get_by_role("link", name="Edit hand 1").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Edit hand 1")
    expect(page.locator("#id_cards_0")).to_have_value("30")
    # With two sides the second side's counts stay blank: they follow from the first side's.
    expect(page.locator("#id_cards_1")).to_have_value("")
    expect(page.locator("#id_card_AH_0")).to_be_checked()

    # A count that cannot be is refused, and what was typed stays.
    page.fill("#id_cards_0", "60")
    page.fill("#id_spades_0", "4")
    page.click("button.save")
    expect(page.locator("#id_cards_0_error")).to_be_visible()
    expect(page.locator("#id_cards_0")).to_have_value("60")

    # Side 2 gets what the deck leaves: 32 cards, 9 spades (Ana 2 + 1 + 4 aces = 7,
    # Ben most cards 3 + most spades 1 = 4).
    page.fill("#id_cards_0", "20")
    page.click("button.save")

    page.wait_for_url(board_url)
    expect(page.locator(".messages")).to_contain_text("Hand 1 saved.")
    expect(totals).to_have_text(["13", "9"])
    expect(page.locator("#hands .run-total")).to_have_text(["7", "4", "13", "9"])

    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#hands").get_by_role("link", name="Hand 2").click()
    page.get_by_role("button", name="Delete hand 2").click()

    expect(page.locator(".messages")).to_contain_text("The last hand was deleted.")
    expect(totals).to_have_text(["7", "4"])
    expect(page.locator("#hands > tr")).to_have_count(1)
    expect(page.locator(".turn")).to_contain_text("Hand 2")


def test_the_edit_page_counts_sweeps_with_the_steppers(page, log_in, start_match, enter_hand):
    log_in(page)
    start_match(page, ["Ana", "Ben"])
    enter_hand(page, 27, 7, ("10D",))
    expect(page.locator("#hands > tr")).to_have_count(1)
    page.goto(page.url + "hands/1/edit/")
    page.click("[data-step-for=id_sweeps_0][data-step='1']")
    page.click("[data-step-for=id_sweeps_0][data-step='1']")
    expect(page.locator("#id_sweeps_0")).to_have_value("2")  # counted in the page
    expect(page.locator("#preview")).to_contain_text("Ana +8 → 8")  # the hand in its place
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("[data-total]")).to_have_text(["8", "5"])  # two sweeps more for Ana
