"""One match of each new variant on a phone: Swedish Kasino's last capture, Finnish Kasino's carried
tie, Spade Casino's J♠."""

from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_swedish_match_to_16_with_the_last_capture(
    page: Any, log_in: Any, start_match: Any, enter_hand: Any, screenshot: Any
) -> None:
    log_in(page)
    start_match(page, ["Ana", "Ben"], variant="swedish", target="usual")
    expect(page.locator(".match-title")).to_contain_text("Swedish Kasino to 16")
    for hand, totals in ((1, ["7", "4"]), (2, ["14", "8"])):
        # Ana: most cards 1, most spades 2, 10♦ 2, A♠ 1, last capture 1 = 7; Ben: 2♠ and 3 aces.
        enter_hand(page, 27, 7, ("10D", "AS"), save=False)
        page.click("label[for=id_last_capture_0]")
        page.click("button.save")
        expect(page.locator("[data-total]")).to_have_text(totals)
        expect(page.locator(".turn")).to_contain_text(f"Hand {hand + 1}")
    screenshot(page, "variant-swedish.png", full_page=False)
    # Forgetting the last capture is said, and nothing is lost.
    enter_hand(page, 27, 7, ("10D", "AS"))
    expect(page.locator("#id_last_capture_error")).to_contain_text("Who made the last capture?")
    expect(page.locator("#id_cards_0")).to_have_value("27")
    page.click("label[for=id_last_capture_1]")
    page.click("button.save")
    # Ana 14 + 6 = 20 reaches 16 first.
    expect(page.locator(".result")).to_contain_text("Ana wins!")
    page.locator("#hands").get_by_role("link", name="Hand 3").click()
    expect(page.locator("table.breakdown")).to_contain_text("Last capture")


def test_a_finnish_match_carries_a_tied_most_cards(
    page: Any, log_in: Any, start_match: Any, enter_hand: Any
) -> None:
    log_in(page)
    start_match(page, ["Ana", "Ben", "Cy"], layout="3", variant="finnish", target="usual")
    expect(page.locator(".finnish-note")).to_contain_text("before the last deal")
    # Ana and Ben 20 cards each: the cards point goes into the pot. Ana most spades 2 + 10♦ 2;
    # Ben A♠ 1; Cy 2♠ and three aces = 4.
    page.fill("#id_cards_1", "20")
    page.fill("#id_spades_1", "4")
    page.click("label[for=id_card_AS_1]")
    enter_hand(page, 20, 5, ("10D",))
    expect(page.locator("[data-total]")).to_have_text(["4", "1", "4"])
    expect(page.locator(".pots")).to_contain_text("Most cards is worth 2 this hand")
    # Ana takes most cards (1 + the pot 1) and most spades 2 and 10♦ 2 = 6.
    page.fill("#id_cards_1", "15")
    page.fill("#id_spades_1", "4")
    page.click("label[for=id_card_AS_1]")
    enter_hand(page, 25, 5, ("10D",))
    expect(page.locator("[data-total]")).to_have_text(["10", "2", "8"])
    expect(page.locator(".pots")).to_have_count(0)


def test_a_spade_casino_hand_scores_every_spade_and_the_jack(
    page: Any, log_in: Any, start_match: Any, enter_hand: Any
) -> None:
    log_in(page)
    start_match(page, ["Ana", "Ben"], variant="spade", target="usual")
    expect(page.locator(".match-title")).to_contain_text("Spade Casino to 61")
    # Ana: most cards 3, 9 spades, J♠ 1, A♠ 1 = 14; Ben: 4 spades, 2♠ 1, 10♦ 2, 3 aces = 10.
    enter_hand(page, 30, 9, ("AS",), save=False)
    page.click("label[for=id_card_JS_0]")
    page.click("button.save")
    expect(page.locator("[data-total]")).to_have_text(["14", "10"])
    expect(page.locator("[data-toast]")).to_contain_text("Ana +14 · Ben +10")
    # Given to no one, the J♠ goes to the last side: Ben 4 + 1 + 1 + 2 + 3 = 11, Ana 13.
    enter_hand(page, 30, 9, ("AS",))
    expect(page.locator("[data-total]")).to_have_text(["27", "21"])
