"""A double tap on Save: the second tap lands on the next hand's fresh form a moment after the
save, and must neither send it (the board would show "required" under every box) nor, without
signal, queue an empty hand."""

from typing import Any

import pytest
from playwright.sync_api import expect

from scoring.models import Hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _typed(page: Any) -> None:
    page.fill("#id_cards_0", "30")
    page.fill("#id_spades_0", "9")
    page.click("label[for=id_card_10D_0]")


def test_a_second_tap_right_after_a_save_sends_nothing(page: Any, log_in: Any, start_match: Any):
    log_in(page)
    start_match(page, ["Ana", "Ben"])
    _typed(page)
    page.click("button.save")
    expect(page.locator("[data-hand-saved]")).to_be_visible()
    page.click("button.save")  # the second tap of a double tap, on hand 2's fresh form
    page.wait_for_timeout(400)
    expect(page.locator("#entry .errors")).to_have_count(0)
    expect(page.locator("#id_number")).to_have_value("2")
    assert Hand.objects.count() == 1
    # Later, Save on an empty form says what is missing, as before.
    page.wait_for_timeout(1500)
    page.click("button.save")
    expect(page.locator("#entry .errors").first).to_be_visible()


def test_a_double_tap_without_signal_queues_one_hand(page: Any, log_in: Any, start_match: Any):
    log_in(page)
    start_match(page, ["Ana", "Ben"])
    page.context.set_offline(True)
    page.evaluate("window.dispatchEvent(new Event('offline'))")
    _typed(page)
    page.dblclick("button.save")
    waiting = page.locator("[data-outbox-list] > li")
    expect(waiting).to_have_count(1)
    page.wait_for_timeout(400)
    expect(waiting).to_have_count(1)
