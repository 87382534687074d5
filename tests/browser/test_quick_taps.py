"""A typical two-player hand on a phone, touch by touch: five taps in quick entry (who took most,
no typing), eight touches with exact counts."""

from __future__ import annotations

import pytest
from django.apps import apps
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def stored(position: int) -> tuple[int, int, bool]:
    tally = apps.get_model("scoring", "Tally").objects.get(side__position=position)
    return tally.cards, tally.spades, tally.hand.quick


def test_a_typical_hand_in_quick_entry_is_five_taps(page, log_in, start_match, screenshot) -> None:
    log_in(page)
    board = start_match(page, ["Ana", "Ben"])
    page.click("text=Not counting cards? Tap who took most")  # once an evening, not a hand
    page.wait_for_url(f"{board}?mode=quick")
    expect(page.locator("#id_cards_0")).to_have_count(0)

    # Ana took most cards, the 10♦, the A♣ and the A♥; Ben most spades, the rest (no tap).
    taps = [
        "label[for=id_most_cards_0]",
        "label[for=id_card_10D_0]",
        "label[for=id_card_AC_0]",
        "label[for=id_card_AH_0]",
    ]
    for tap in taps:
        page.click(tap)
    # The points before Save, worked out on the phone: 3 + 2 + 1 + 1 to Ana, 1 + 1 + 2 to Ben.
    expect(page.locator("#preview")).to_contain_text("7")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], "no sideways scrolling on a phone"
    screenshot(page, "quick-entry.png")
    page.click("button.save")
    assert len(taps) + 1 == 5

    expect(page.locator("#hands > tr")).to_have_count(1)
    expect(page.locator("[data-total='0']")).to_have_text("7")
    assert stored(0) == (27, 6, True) and stored(1) == (25, 7, True)
    # The next hand is asked the same way, nothing chosen yet.
    expect(page.locator("input[name=most_cards]:checked")).to_have_count(0)
    expect(page.locator("input[name=most_cards]")).to_have_count(3)


def test_a_typical_hand_with_counts_is_eight_touches(page, log_in, start_match) -> None:
    log_in(page)
    start_match(page, ["Ana", "Ben"])
    # The cards box has the focus: 2, 7, Next (Enter) to spades, 6; Ben's counts the deck's.
    expect(page.locator("#id_cards_0")).to_be_focused()
    keys = ["2", "7", "Enter", "6"]
    for key in keys:
        page.keyboard.press(key)
    expect(page.locator("#id_spades_0")).to_have_value("6")
    taps = ["label[for=id_card_10D_0]", "label[for=id_card_AC_0]", "label[for=id_card_AH_0]"]
    for tap in taps:
        page.click(tap)
    page.click("button.save")
    assert len(keys) + len(taps) + 1 == 8

    expect(page.locator("#hands > tr")).to_have_count(1)
    assert stored(0) == (27, 6, False)
