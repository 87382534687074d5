"""Four players as two partnerships: partners sit opposite and score as one side."""

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_two_teams_of_two_record_a_hand(page, log_in, start_match, enter_hand):
    log_in(page)
    start_match(page, ["Ana", "Ben", "Cy", "Dee"], layout="teams")

    expect(page.locator(".total-card .side-name")).to_have_text(["Ana & Cy", "Ben & Dee"])
    expect(page.locator(".counts th.who")).to_have_text(["Ana & Cy", "Ben & Dee"])
    expect(page.locator(".turn")).to_contain_text("Deals: Ana · Plays first: Ben")
    expect(page.locator(".turn")).to_contain_text("3 deals of 4 cards each")

    # Ana & Cy: cards 3, spades 1, big casino 2, ace of spades 1 = 7;
    # Ben & Dee: little casino 1 and three aces = 4.
    enter_hand(page, 30, 9, ["10D", "AS"])

    expect(page.locator("[data-total]")).to_have_text(["7", "4"])
    expect(page.locator(".turn")).to_contain_text("Hand 2")
    expect(page.locator(".turn")).to_contain_text("Deals: Ben")
    page.locator("#hands").get_by_role("link", name="Hand 1").click()
    breakdown = page.locator("table.breakdown")
    expect(breakdown.locator("thead th")).to_have_text(["Category", "Ana & Cy", "Ben & Dee"])
    expect(breakdown.locator("tr", has_text="Points").locator("td")).to_have_text(["7", "4"])
