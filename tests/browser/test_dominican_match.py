"""Dominican Royal Casino: a side at 18 wins the moment it takes most cards."""

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_side_at_18_wins_automatically_by_taking_most_cards(page, log_in, start_match, enter_hand):
    log_in(page)
    start_match(page, ["Ana", "Ben"], variant="dominican", start_totals=(18, 10))

    expect(page.locator("h1.match-title")).to_contain_text("Dominican Royal Casino")
    expect(page.locator("[data-total]")).to_have_text(["18", "10"])
    conditions = page.locator(".total-card .condition")
    expect(conditions).to_have_count(1)
    expect(page.locator(".total-card").first).to_contain_text(
        "At 18: wins only by taking most cards."
    )
    expect(page.locator(".turn")).to_contain_text("counter-clockwise")

    # Ana takes most cards (3 points) and nothing else; Ben gets spades and every special card.
    enter_hand(page, 28, 0)

    result = page.locator("section.result")
    expect(result.get_by_role("heading")).to_have_text("Ana wins!")
    expect(result).to_contain_text("Ana took most cards at 18 and wins automatically.")
    # The rest of the hand is still scored: Ben 1 (spades) + 2 + 1 + 4 aces = 8.
    expect(page.locator("[data-total]")).to_have_text(["21", "18"])
    expect(page.locator(".total-card.winner")).to_contain_text("Ana")
    expect(conditions).to_have_count(0)
    expect(page.get_by_role("button", name="Rematch")).to_be_visible()
