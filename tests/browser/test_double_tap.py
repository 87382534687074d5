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


# The deciding hand: Ana from 18 takes 30 cards, 9 spades and the big casino (6 points): 24 of 21.
def _deciding(page: Any, log_in: Any, start_match: Any) -> None:
    log_in(page)
    start_match(page, ["Ana", "Ben"], start_totals=(18, 0))
    _typed(page)


def test_a_second_tap_on_the_deciding_hand_starts_no_rematch(
    page: Any, log_in: Any, start_match: Any
):
    """The board of the won match puts Rematch where the finger is: the second tap of a double
    tap on Save lands on it, and must not start the next match."""
    from scoring.models import Match

    _deciding(page, log_in, start_match)
    board = page.url
    page.click("button.save")
    rematch = page.get_by_role("button", name="Rematch", exact=True)
    expect(rematch).to_be_disabled()  # for a moment after the save, and it shows
    rematch.click(force=True)  # a moment after the save
    page.wait_for_timeout(400)
    assert page.url == board and Match.objects.count() == 1
    expect(rematch).to_be_enabled()
    rematch.click()  # asked for on purpose, later
    page.wait_for_url(lambda url: url != board)
    assert Match.objects.count() == 2


def test_without_signal_a_second_tap_on_the_deciding_hand_starts_no_rematch(
    page: Any, log_in: Any, start_match: Any
):
    """The same without signal: the phone scores the waiting hand, shows the match won and its
    own Rematch button (local.js), which a tap right after Save does not press."""
    from test_offline import _controlled

    _deciding(page, log_in, start_match)
    board = page.url
    _controlled(page)
    page.context.set_offline(True)
    page.evaluate("window.dispatchEvent(new Event('offline'))")
    _typed(page)
    page.click("button.save")
    rematch = page.locator("[data-local-rematch]")
    expect(rematch).to_be_disabled()
    rematch.click(force=True)
    page.wait_for_timeout(400)
    assert page.url == board
    expect(page.locator("[data-outbox-list] > li")).to_have_count(1)  # the hand, no match
    expect(rematch).to_be_enabled()
    rematch.click()
    page.wait_for_url(lambda url: url != board)


def test_without_signal_the_next_hands_form_is_blank_after_an_undo(
    page: Any, log_in: Any, start_match: Any
):
    """After Undo the form holds the undone hand's counts, as the server wrote it: a hand saved
    without signal then leaves a blank form for the next one, not those counts again (a second
    tap would have queued them as a hand of their own)."""
    log_in(page)
    start_match(page, ["Ana", "Ben"])
    _typed(page)
    page.click("button.save")
    page.locator("[data-hand-saved] button.undo").click()
    expect(page.locator("#id_cards_0")).to_have_value("30")  # the undone hand's counts, back
    page.context.set_offline(True)
    page.evaluate("window.dispatchEvent(new Event('offline'))")
    page.fill("#id_cards_0", "27")
    page.fill("#id_spades_0", "7")
    page.dblclick("button.save")
    waiting = page.locator("[data-outbox-list] > li")
    expect(waiting).to_have_count(1)
    expect(page.locator("#id_cards_0")).to_have_value("")
    expect(page.locator("#id_spades_0")).to_have_value("")
    expect(page.locator("input[name=card_10D]:checked")).to_have_count(0)
    page.wait_for_timeout(400)
    expect(waiting).to_have_count(1)
    assert Hand.objects.count() == 0
