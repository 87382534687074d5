"""How many taps and keys a typical two-player hand (no sweeps) takes on a phone."""

import pytest
from helpers import CountingUser
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MOST_TAPS_AND_KEYS = 10


def test_a_typical_hand_takes_at_most_ten_taps_and_keys(page, log_in, start_match):
    log_in(page)
    start_match(page, ["Ana", "Ben"])
    expect(page.locator("#id_cards_0")).to_be_focused()  # autofocus: no tap needed to start

    user = CountingUser(page)
    user.type("27")  # Ana's cards; Ben's 25 follow from the deck; the cursor moves on to spades
    user.type("7")  # Ana's spades; Ben's 6 follow
    for card in ("10D", "AS", "AH"):  # Ana's special cards; the rest go to Ben untapped
        user.tap(f"label[for=id_card_{card}_0]")
    user.tap("button.save")

    # Ana: cards 3, spades 1, big casino 2, two aces = 8; Ben: little casino 1, two aces = 3.
    expect(page.locator("[data-total]")).to_have_text(["8", "3"])
    expect(page.locator("#hands > tr")).to_have_count(1)
    expect(page.locator("#id_cards_0")).to_be_focused()  # ready for the next hand
    print(f"\nTaps and keys for a typical hand: {user.count} ({', '.join(user.actions)})")
    assert user.count <= MOST_TAPS_AND_KEYS, user.actions
