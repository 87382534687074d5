"""What phones and people do at a real table: Back, reload, taps on the steppers, a second phone."""

import re

import pytest
from playwright.sync_api import expect

from scoring.models import Hand, Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "casino-pass-1"


def _log_in_existing(page, live_server, username="ana"):
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_login", username)
    page.fill("#id_password", PASSWORD)
    page.click("form.stack button[type=submit]")
    page.wait_for_url(f"{live_server.url}/matches/")


def _two_phones(new_page, log_in, live_server, start_match):
    """One account on two phones, both on the scoreboard of a new match of Ana and Ben."""
    first = new_page(clock=True)
    log_in(first)
    url = start_match(first, ["Ana", "Ben"])
    second = new_page(clock=True)
    _log_in_existing(second, live_server)
    second.goto(url)
    return first, second


def test_back_from_the_rules_page_shows_the_current_board_and_save_goes_on(
    page, log_in, start_match, enter_hand
):
    log_in(page)
    start_match(page, ["Ana", "Ben"])
    enter_hand(page, 27, 7, ("10D", "AS"))
    expect(page.locator("[data-total]")).to_have_text(["7", "4"])

    page.get_by_role("link", name="How is this scored?").click()
    page.wait_for_url(re.compile(r"/rules/"))
    page.go_back()

    expect(page.locator("[data-total]")).to_have_text(["7", "4"])
    expect(page.locator(".turn")).to_contain_text("Hand 2")
    expect(page.locator("#hands > tr")).to_have_count(1)

    enter_hand(page, 27, 7, ("10D", "AS"))
    expect(page.locator("[data-total]")).to_have_text(["14", "8"])
    expect(page.locator(".turn")).to_contain_text("Hand 3")
    assert Hand.objects.count() == 2


def test_preview_follows_a_sweep_tap_and_the_stepper_counts_from_what_was_typed(
    page, log_in, start_match, enter_hand
):
    log_in(page)
    start_match(page, ["Ana", "Ben"], start_totals=(16, 16))
    # Ana: most cards 3 and most spades 1 = 4 points, 16 → 20; Ben takes the special cards.
    enter_hand(page, 30, 8, save=False)
    expect(page.locator("#preview")).to_contain_text("Ana +4 → 20")

    page.get_by_role("button", name="One more sweep for Ana").click()
    expect(page.locator("#id_sweeps_0")).to_have_value("1")
    expect(page.locator("#preview")).to_contain_text("Ana +5 → 21")

    page.fill("#id_sweeps_0", "2")
    page.get_by_role("button", name="One more sweep for Ana").click()
    expect(page.locator("#id_sweeps_0")).to_have_value("3")
    expect(page.locator("#preview")).to_contain_text("Ana +7 → 23")
    page.get_by_role("button", name="One sweep fewer for Ana").click()
    expect(page.locator("#id_sweeps_0")).to_have_value("2")
    expect(page.locator("#preview")).to_contain_text("Ana +6 → 22")

    page.click("button.save")
    expect(page.locator("[data-total]")).to_have_text(["22", "23"])
    hand = Hand.objects.get()
    assert [t.sweeps for t in hand.tallies.order_by("side__position")] == [2, 0]


def test_a_reload_keeps_the_whole_hand_being_typed(page, log_in, start_match, enter_hand):
    log_in(page)
    start_match(page, ["Ana", "Ben"])
    enter_hand(page, 27, 7, ("10D",), save=False)
    page.get_by_role("button", name="One more sweep for Ben").click()
    expect(page.locator("#id_sweeps_1")).to_have_value("1")

    page.reload()
    expect(page.locator("#id_cards_0")).to_have_value("27")
    expect(page.locator("#id_spades_0")).to_have_value("7")
    expect(page.locator("#id_card_10D_0")).to_be_checked()
    expect(page.locator("#id_sweeps_1")).to_have_value("1")
    expect(page.locator("#preview")).to_contain_text("→")

    page.click("button.save")
    expect(page.locator(".turn")).to_contain_text("Hand 2")
    # The saved hand's draft is gone: the next hand starts blank, after a reload too.
    page.reload()
    expect(page.locator("#id_cards_0")).to_have_value("")
    expect(page.locator("#id_sweeps_1")).to_have_value("0")


def test_after_a_reload_the_last_sides_counts_follow_from_the_kept_ones(
    page, log_in, start_match, enter_hand
):
    log_in(page)
    start_match(page, ["Ana", "Ben"])
    enter_hand(page, 30, 9, save=False)
    expect(page.locator("#id_cards_1")).to_have_attribute("placeholder", "22")
    page.reload()
    expect(page.locator("#id_cards_0")).to_have_value("30")
    expect(page.locator("#id_cards_1")).to_have_attribute("placeholder", "22")
    expect(page.locator("#id_spades_1")).to_have_attribute("placeholder", "4")


def test_a_second_phone_sees_the_hand_saved_on_the_first_and_keeps_what_it_typed(
    new_page, log_in, live_server, start_match, enter_hand, poll_now
):
    first, second = _two_phones(new_page, log_in, live_server, start_match)
    expect(second.locator(".turn")).to_contain_text("Hand 1")

    # The second phone starts typing hand 1 while the first phone saves it.
    second.fill("#id_cards_0", "30")
    second.fill("#id_spades_0", "9")
    enter_hand(first, 27, 7, ("10D", "AS"))
    expect(first.locator("[data-total]")).to_have_text(["7", "4"])

    poll_now(second)
    expect(second.locator("[data-total]")).to_have_text(["7", "4"], timeout=6_000)
    expect(second.locator(".turn")).to_contain_text("Hand 2")
    expect(second.locator("#hands > tr")).to_have_count(1)
    expect(second.locator("#id_cards_0")).to_have_value("30")
    expect(second.locator("#id_spades_0")).to_have_value("9")

    second.click("button.save")
    expect(second.locator("[data-total]")).to_have_text(["11", "11"])
    assert list(Hand.objects.order_by("number").values_list("number", flat=True)) == [1, 2]
    poll_now(first)
    expect(first.locator("[data-total]")).to_have_text(["11", "11"], timeout=6_000)


def test_a_hand_number_taken_meanwhile_is_kept_as_the_next_hand_when_chosen(
    new_page, log_in, live_server, start_match, enter_hand
):
    first, second = _two_phones(new_page, log_in, live_server, start_match)
    # No refresh reaches the second phone before it saves: its poll is stopped.
    second.evaluate("document.querySelectorAll('[data-poll]').forEach(e => e.remove())")

    enter_hand(first, 27, 7, ("10D", "AS"))
    expect(first.locator("[data-total]")).to_have_text(["7", "4"])
    enter_hand(second, 30, 9)
    expect(second.locator(".clash")).to_contain_text("Hand 1 was saved from another screen.")
    expect(second.locator("[data-total]")).to_have_text(["7", "4"])
    assert Hand.objects.count() == 1

    second.get_by_role("button", name="Keep mine as hand 2").click()
    expect(second.locator("[data-total]")).to_have_text(["11", "11"])
    assert Hand.objects.count() == 2


def test_a_double_tap_on_start_creates_one_match(page, log_in, live_server):
    log_in(page)
    page.goto(f"{live_server.url}/matches/new/")
    page.fill("#id_seat_0", "Ana")
    page.fill("#id_seat_1", "Ben")
    # A slow network: the second tap comes before the first reply.
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 400, "downloadThroughput": -1, "uploadThroughput": -1},
    )
    page.evaluate(
        "() => { const f = document.querySelector('form.match-setup');"
        " f.requestSubmit(); setTimeout(() => f.requestSubmit(), 150); }"
    )
    page.wait_for_url(f"{live_server.url}/matches/*/")
    expect(page.locator("[data-total]")).to_have_text(["0", "0"])
    assert Match.objects.count() == 1
