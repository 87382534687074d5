"""The hand that decides a match has its saved bar with Undo, on a phone: online (the server's
board of the finished match) and without signal (the outbox's waiting hand, taken back); Undo
opens the match again with the hand's counts back in the form."""

from typing import Any

import pytest
from playwright.sync_api import expect
from test_offline_scoring import _hand, _offline_from_the_first_hand

from scoring.models import Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TOUCH = 44  # px: the smallest target a finger is given


def test_undo_after_the_deciding_hand_opens_the_match_again(
    page: Any, log_in: Any, start_match: Any, enter_hand: Any
) -> None:
    log_in(page)
    start_match(page, ["Ana", "Ben"], start_totals=(18, 5))
    # Ana: most cards, a spade more, 10♦ and A♠: 7 points, 25 in all: she wins.
    enter_hand(page, 27, 7, ["10D", "AS"])
    expect(page.locator("section.result h2")).to_have_text("Ana wins!")
    bar = page.locator("[data-hand-saved]")
    expect(bar).to_be_visible()
    expect(bar).to_contain_text("Hand 1 saved: Ana +7 · Ben +4")
    undo = bar.get_by_role("button", name="Undo")
    expect(undo).to_be_in_viewport()
    box = undo.bounding_box()
    assert box is not None and box["height"] >= TOUCH and box["x"] + box["width"] <= 390
    undo.click()

    expect(page.locator("section.result")).to_have_count(0)
    expect(page.locator(".undone")).to_have_text(
        "Hand 1 was undone: its counts are back in the form."
    )
    expect(page.locator("[data-total]")).to_have_text(["18", "5"])
    expect(page.locator("#id_cards_0")).to_have_value("27")
    match = Match.objects.get()
    assert match.is_open and match.hand_count == 0

    # Saved again, it decides the match again.
    page.click("button.save")
    expect(page.locator("section.result h2")).to_have_text("Ana wins!")
    match.refresh_from_db()
    assert match.status == Match.Status.WON and match.hand_count == 1


def test_without_signal_the_deciding_hand_can_be_taken_back(
    page: Any, log_in: Any, start_match: Any
) -> None:
    _offline_from_the_first_hand(page, log_in, start_match, start_totals=(18, 5))
    _hand(page, 27, 7, ("10D", "AS"))
    expect(page.locator("#board-status .result h2")).to_have_text("Ana wins!")
    expect(page.locator("#entry")).to_be_hidden()
    waiting = page.locator("[data-outbox-list] > li")
    expect(waiting).to_contain_text("Ana 7 · Ben 4")
    undo = waiting.get_by_role("button", name="Undo")
    expect(undo).to_be_visible()
    undo.click()

    expect(waiting).to_have_count(0)
    expect(page.locator("#board-status .result")).to_have_count(0)
    expect(page.locator("#entry")).to_be_visible()
    expect(page.locator("[data-total]")).to_have_text(["18", "5"])
    expect(page.locator("#id_cards_0")).to_have_value("27")
