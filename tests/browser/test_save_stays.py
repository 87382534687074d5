"""Fewer taps a hand: Enter moves from box to box, and Save stays under the finger while the saved
bar shows (it comes and goes over the bar's top edge) and the lead changes hands."""

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _save_y(page) -> float:
    return page.locator("button.save").bounding_box()["y"]


@pytest.mark.parametrize(
    "viewport",
    [{"width": 390, "height": 844}, {"width": 360, "height": 640}],
    ids=["the bar in the page", "the bar stuck to the bottom"],
)
def test_save_does_not_move_while_the_saved_bar_shows(
    new_page, log_in, start_match, enter_hand, viewport
):
    page = new_page(viewport=viewport)
    log_in(page)
    start_match(page, ["Ana", "Ben"])
    for cards, spades, specials in ((27, 7, ("10D",)), (20, 4, ("AS", "2S"))):
        enter_hand(page, cards, spades, specials, save=False)
        page.wait_for_timeout(700)  # the preview is in
        before = _save_y(page)
        page.click("button.save")
        toast = page.locator("[data-hand-saved]")
        expect(toast).to_be_visible()
        expect(page.locator("#id_cards_0")).to_have_value("")
        assert _save_y(page) == before, "the saved bar came: Save moved"
        toast.evaluate("toast => { toast.hidden = true; }")  # what app.js does after 10 s
        assert _save_y(page) == before, "the saved bar went: Save moved"


def test_enter_moves_from_the_cards_to_the_spades_to_the_next_side(page, log_in, start_match):
    log_in(page)
    start_match(page, ["Ana", "Ben"])
    page.fill("#id_cards_0", "27")
    page.press("#id_cards_0", "Enter")
    expect(page.locator("#id_spades_0")).to_be_focused()
    page.keyboard.type("7")
    page.keyboard.press("Enter")
    expect(page.locator("#id_cards_1")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#id_spades_1")).to_be_focused()
    expect(page.locator(".errors")).to_have_count(0)  # nothing was sent
    assert page.locator("#hands > tr").count() == 0
    # The phone keyboard says Next until the last box, whose Enter saves.
    hints = page.locator("[data-source], [data-derived]").evaluate_all(
        "boxes => boxes.map(box => box.enterKeyHint)"
    )
    assert hints == ["next", "next", "next", ""]
    page.keyboard.press("Enter")
    expect(page.locator("#hands > tr")).to_have_count(1)
    expect(page.locator("[data-total]")).to_have_text(["4", "7"])


def test_typing_the_next_hand_takes_the_saved_bar_away(page, log_in, start_match, enter_hand):
    """The saved bar shows over the form's bottom edge: once the next hand is being typed it goes,
    so it covers nothing the hand needs (the last-capture or J♠ chips, the last side's cards)."""
    log_in(page)
    start_match(page, ["Ana", "Ben"])
    enter_hand(page, 27, 7, ("10D",))
    toast = page.locator("[data-hand-saved]")
    expect(toast).to_be_visible()
    page.fill("#id_cards_0", "30")
    expect(toast).to_be_hidden()
