"""A typical two-player hand on a phone, touch by touch: five taps in quick entry (who took most,
no typing), seven touches with exact counts."""

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


def test_a_typical_hand_with_counts_is_seven_touches(page, log_in, start_match) -> None:
    log_in(page)
    start_match(page, ["Ana", "Ben"])
    # The cards box has the focus: 2, 7 (no third digit fits 52: on to spades by itself, as the
    # form says), 6; Ben's counts the deck's.
    expect(page.locator("#id_cards_0")).to_be_focused()
    # Said before it happens: an arrow from Cards to Spades, and in words to a screen reader.
    expect(page.locator(".cards-head .count-hint")).to_be_visible()
    expect(page.locator("#id_cards_0")).to_have_accessible_description(
        "Once the cards are typed, the cursor moves on to spades."
    )
    keys = ["2", "7", "6"]
    for key in keys:
        page.keyboard.press(key)
    expect(page.locator("#id_spades_0")).to_have_value("6")
    taps = ["label[for=id_card_10D_0]", "label[for=id_card_AC_0]", "label[for=id_card_AH_0]"]
    for tap in taps:
        page.click(tap)
    page.click("button.save")
    assert len(keys) + len(taps) + 1 == 7

    expect(page.locator("#hands > tr")).to_have_count(1)
    assert stored(0) == (27, 6, False)
    # The next hand's form (drawn by htmx) says it too, and does the same.
    expect(page.locator("#id_cards_0")).to_have_accessible_description(
        "Once the cards are typed, the cursor moves on to spades."
    )
    page.keyboard.press("3")
    page.keyboard.press("0")
    expect(page.locator("#id_spades_0")).to_be_focused()


@pytest.mark.parametrize(
    ("keys", "cards", "spades"),
    [
        (["2", "7", "Enter", "6"], "27", "6"),  # Next from habit after a full count: let go
        (["5", "Enter", "7"], "5", "7"),  # 5 may become 50: it waits for Next
        (["5", "2", "6"], "52", "6"),  # the whole pack
        (["8", "6"], "8", "6"),  # no second digit fits
        (["0", "Enter", "4"], "0", "4"),  # 0 is not typed in full: 0 of 52 waits too
    ],
)
def test_the_cursor_moves_on_only_after_a_full_count(
    page, log_in, start_match, keys, cards, spades
) -> None:
    log_in(page)
    start_match(page, ["Ana", "Ben"])
    expect(page.locator("#id_cards_0")).to_be_focused()
    for key in keys:
        page.keyboard.press(key)
    expect(page.locator("#id_cards_0")).to_have_value(cards)
    expect(page.locator("#id_spades_0")).to_have_value(spades)
    expect(page.locator("#id_spades_0")).to_be_focused()
    # Next from spades still goes on to Ben's cards, and Next there to his spades.
    page.keyboard.press("Enter")
    expect(page.locator("#id_cards_1")).to_be_focused()


@pytest.mark.parametrize(
    "options",
    [{"java_script_enabled": False}, {"has_touch": False, "is_mobile": False}],
    ids=["without JavaScript", "with a mouse and a keyboard"],
)
def test_without_javascript_or_a_touch_screen_the_cursor_stays(
    new_page, log_in, start_match, options
) -> None:
    page = new_page(**options)
    log_in(page)
    start_match(page, ["Ana", "Ben"])
    expect(page.locator("#id_cards_0")).to_be_visible()
    expect(page.locator(".cards-head .count-hint")).to_be_hidden()
    expect(page.locator("#id_cards_0")).to_have_accessible_description("")
    expect(page.locator("table.counts")).to_have_accessible_name(
        "Cards, spades and sweeps of each side"
    )
    if options.get("java_script_enabled") is False:
        return
    # 27, Tab, 7 as a keyboard types it: the cursor did not move on its own, so Tab reaches spades.
    expect(page.locator("#id_cards_0")).to_be_focused()
    page.keyboard.type("27")
    page.keyboard.press("Tab")
    page.keyboard.type("7")
    expect(page.locator("#id_spades_0")).to_have_value("7")


def test_a_match_started_without_signal_moves_the_cursor_too(
    page, log_in, start_match, live_server
) -> None:
    """The phone's own board (local.js draws its form) says it and does it, as the server's."""
    from test_offline_evening import _ready_for_the_evening

    _ready_for_the_evening(page, log_in, start_match)
    page.goto(f"{live_server.url}/matches/new/")  # the phone's copy
    page.fill("#id_seat_0", "Ana")
    page.fill("#id_seat_1", "Cleo")
    page.check("input[name=first_dealer][value='0']")
    page.click("form.match-setup button[type=submit]")
    page.wait_for_url("**/matches/offline/#*")
    expect(page.locator("#id_cards_0")).to_have_accessible_description(
        "Once the cards are typed, the cursor moves on to spades."
    )
    page.fill("#id_cards_0", "27")
    expect(page.locator("#id_spades_0")).to_be_focused()
