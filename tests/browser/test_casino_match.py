"""A two-player Casino match, set up through the form and played to a win on a phone."""

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ALL_SPECIALS = ("10D", "2S", "AS", "AC", "AH", "AD")


def test_casino_match_is_played_to_a_win(page, log_in, start_match, enter_hand, screenshot):
    log_in(page)
    start_match(page, ["Ana", "Ben"])

    expect(page.locator("h1.match-title")).to_contain_text("Casino")
    expect(page.locator("[data-total]")).to_have_text(["0", "0"])
    expect(page.locator(".turn")).to_contain_text("Hand 1")
    expect(page.locator("#id_cards_0")).to_be_focused()
    screenshot(page, "scoreboard.png")

    # Side 1 takes everything: most cards 3, most spades 1, big casino 2, little casino 1, aces 4.
    enter_hand(page, 30, 9, ALL_SPECIALS)
    expect(page.locator("[data-total]")).to_have_text(["11", "0"])
    expect(page.locator(".turn")).to_contain_text("Hand 2")
    expect(page.locator("#hands > tr")).to_have_count(1)

    # The second hand typed in, with its points previewed, before it is saved.
    enter_hand(page, 30, 9, ALL_SPECIALS, save=False)
    expect(page.locator("#preview")).to_contain_text("+11 → 22")
    screenshot(page, "hand-entry.png")
    page.click("button.save")

    expect(page.locator("[data-total]")).to_have_text(["22", "0"])
    result = page.locator("section.result")
    expect(result.get_by_role("heading")).to_have_text("Ana wins!")
    expect(result).to_contain_text("Ana reached 21, with 22.")
    expect(result).to_contain_text("Final score: Ana 22 \N{EN DASH} Ben 0")
    expect(page.locator(".total-card.winner")).to_contain_text("Ana")
    expect(page.get_by_role("button", name="Rematch")).to_be_visible()
    expect(page.locator("form.hand-form")).to_have_count(0)
    screenshot(page, "match-won.png")

    page.get_by_role("button", name="Rematch").click()
    expect(page.locator("[data-total]")).to_have_text(["0", "0"])
    expect(page.locator("#id_cards_0")).to_be_visible()
