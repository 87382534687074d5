"""Quick entry as people use it: without signal through the outbox, on a second phone, with a
double tap, a reload and Back."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect
from test_offline import _controlled, _until
from test_offline_evening import _online, _ready_for_the_evening
from test_offline_scoring import ENGINE_KEPT

from scoring.models import Hand, Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Ana most cards, the 10♦ and A♣; Ben most spades and the rest: 3 + 2 + 1 to Ana, 1 + 1 + 3 to Ben.
TAPS = ("label[for=id_most_cards_0]", "label[for=id_card_10D_0]", "label[for=id_card_AC_0]")


def _quick_board(page: Any, log_in: Any, start_match: Any) -> str:
    log_in(page)
    board = start_match(page, ["Ana", "Ben"])
    page.click("text=Not counting cards? Tap who took most")
    page.wait_for_url(f"{board}?mode=quick")
    return board


def _tap(page: Any) -> None:
    for tap in TAPS:
        page.click(tap)


def test_a_quick_hand_without_signal_waits_and_is_stored_quick(page, log_in, start_match):
    _quick_board(page, log_in, start_match)
    _controlled(page)
    _until(page, ENGINE_KEPT, timeout=10)
    page.context.set_offline(True)
    _tap(page)
    page.click("button.save")
    expect(page.locator("[data-outbox-list] > li")).to_have_count(1)
    expect(page.locator("[data-total]")).to_have_text(["6", "5"])  # scored on the phone
    # The next hand is asked the same way, blank.
    expect(page.locator("input[name=most_cards]")).to_have_count(3)
    expect(page.locator("input[name=most_cards]:checked")).to_have_count(0)
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator("[data-outbox-list] > li")).to_have_count(0)
    hand = Hand.objects.get()
    assert hand.quick
    assert list(hand.match.sides.order_by("position").values_list("total", flat=True)) == [6, 5]


def test_a_second_phone_a_double_tap_a_reload_and_back(new_page, log_in, start_match):
    page = new_page()
    board = _quick_board(page, log_in, start_match)
    other = new_page()  # the same account on a second phone, its board counting cards
    other.context.add_cookies(page.context.cookies())
    other.goto(board)
    expect(other.locator("#id_cards_0")).to_be_visible()

    _tap(page)
    page.dblclick("button.save")
    expect(page.locator("#hands > tr")).to_have_count(1)
    assert Hand.objects.count() == 1 and Hand.objects.get().quick
    page.reload()
    expect(page.locator("input[name=most_cards]")).to_have_count(3)  # still quick
    page.go_back()  # the board before quick entry was asked
    expect(page.locator("#id_cards_0")).to_be_visible()

    other.reload()
    expect(other.locator("[data-total]")).to_have_text(["6", "5"])
    other.goto(f"{board}hands/1/")
    cards = other.locator("table.breakdown tr", has_text="Cards")
    expect(cards).to_contain_text("most")
    expect(cards).not_to_contain_text("27")


def _quick_table_without_signal(
    page: Any, log_in: Any, start_match: Any, live_server: Any, target: str = ""
) -> None:
    """Ana and Cleo's match started on the phone without signal (to `target` if given), in
    quick entry."""
    _ready_for_the_evening(page, log_in, start_match)
    page.goto(f"{live_server.url}/matches/new/")  # the phone's copy
    page.fill("#id_seat_0", "Ana")
    page.fill("#id_seat_1", "Cleo")
    page.check("input[name=first_dealer][value='0']")
    if target:
        page.check("input[name=target][value='other']")
        page.click("details.options > summary")
        page.fill("#id_target_other", target)
    page.click("form.match-setup button[type=submit]")
    page.wait_for_url("**/matches/offline/#*")
    page.click("button[data-entry-mode=quick]")


def test_a_match_started_without_signal_takes_quick_hands(page, log_in, start_match, live_server):
    _quick_table_without_signal(page, log_in, start_match, live_server)
    expect(page.locator("#id_cards_0")).to_have_count(0)
    _tap(page)
    page.click("button.save")
    expect(page.locator("[data-outbox-list] > li")).to_have_count(2)  # the match and its hand
    expect(page.locator("[data-total]")).to_have_text(["6", "5"])
    page.reload()  # still without signal: built again, still quick
    expect(page.locator("input[name=most_cards]")).to_have_count(3)
    page.click("button[data-entry-mode='']")  # and back to counting
    expect(page.locator("#id_cards_0")).to_be_visible()
    _online(page)
    page.wait_for_url(f"{live_server.url}/matches/*/")
    hand = Hand.objects.get(match__client_id__gt="")
    assert hand.quick
    totals = hand.match.sides.order_by("position").values_list("total", flat=True)
    assert list(totals) == [6, 5]


def test_a_rematch_of_a_quick_table_won_without_signal_stays_quick(
    page: Any, log_in: Any, start_match: Any, live_server: Any
) -> None:
    """A table started and won on the phone in quick entry: its rematch, started on the phone
    too, asks who took most (after a reload too); once signal is back the phone lands on the
    server's board of the rematch in quick entry."""
    _quick_table_without_signal(page, log_in, start_match, live_server, target="5")
    _tap(page)
    page.click("button.save")  # Ana 6, Cleo 5: Ana wins
    page.click("[data-local-rematch]")
    expect(page.locator("[data-total]")).to_have_text(["0", "0"])
    expect(page.locator("input[name=most_cards]")).to_have_count(3)  # quick, as the table was
    expect(page.locator("#id_cards_0")).to_have_count(0)
    page.reload()  # built again from what the phone keeps: still quick
    expect(page.locator("input[name=most_cards]")).to_have_count(3)
    _online(page)
    page.wait_for_url(f"{live_server.url}/matches/*/?mode=quick", timeout=15_000)
    expect(page.locator("input[name=most_cards]")).to_have_count(3)
    rematch = Match.objects.get(rematch_of__isnull=False)
    assert page.url.endswith(f"{rematch.get_absolute_url()}?mode=quick")
    assert [hand.quick for hand in Hand.objects.filter(match=rematch.rematch_of)] == [True]
