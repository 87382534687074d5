"""The outbox on a phone that changes hands, and on a server that answers anything but "saved":
each waiting hand is sent only in the session of the account that typed it, logging out with
hands waiting asks what becomes of them, and every answer the hand could not get past ends in a
state the board shows with a way out."""

import time
from typing import Any

import pytest
from conftest import PASSWORD
from helpers import main_menu
from playwright.sync_api import expect
from test_every_page import Axe, check_page

from scoring.access import personal_circle
from scoring.models import Hand, Membership

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SYNC = "**/hands/sync/"
# Without the worker: these tests are about the outbox, not about pages kept offline.
NO_WORKER = {"service_workers": "block"}


def _log_in_again(page: Any, live_server: Any, username: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_login", username)
    page.fill("#id_password", PASSWORD)
    page.click("form.stack button[type=submit]")
    page.wait_for_url(f"{live_server.url}/matches/")


def _queue_offline(page: Any, *hands: tuple[int, int]) -> None:
    """Save hands without signal (side 1's cards and spades; the deck gives side 2 the rest)."""
    page.context.set_offline(True)
    for cards, spades in hands:
        page.fill("#id_cards_0", str(cards))
        page.fill("#id_spades_0", str(spades))
        page.click("button.save")
    expect(page.locator("[data-outbox-list] > li")).to_have_count(len(hands))


def _back_online(page: Any) -> None:
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")


def _log_out_from_the_menu(page: Any) -> None:
    main_menu(page).get_by_role("button", name="Log out").click()


def _accessible(page: Any, label: str) -> None:
    """axe-core and the 44 px tap targets, as on every page (tests/browser/test_every_page.py)."""
    problems, _description = check_page(page, Axe(), label, "light", "ana")
    assert not problems, "\n".join(str(problem) for problem in problems)
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = false; })")


def test_hands_typed_by_one_account_are_never_sent_in_another_accounts_session(
    new_page: Any, log_in: Any, start_match: Any, live_server: Any, screenshot: Any
) -> None:
    page = new_page(**NO_WORKER)
    ana = log_in(page, "ana")
    url = start_match(page, ["Ana", "Ben"])
    _queue_offline(page, (30, 9), (27, 7))

    # The signal is weak: back "online", but nothing gets through. Logging out asks first.
    page.route(SYNC, lambda route: route.abort())
    _back_online(page)
    _log_out_from_the_menu(page)
    page.wait_for_url("**/accounts/logout/")
    question = page.locator("[data-logout-outbox]")
    expect(question).to_contain_text("Hands not yet sent: 2")
    expect(page.locator("[data-logout-plain]")).to_be_hidden()
    screenshot(page, "outbox-logout-question.png", full_page=False)
    _accessible(page, "logout with hands waiting")
    question.get_by_role("button", name="Keep them and log out").click()
    page.wait_for_url(f"{live_server.url}/")
    page.unroute(SYNC)

    # Ben logs in on the same phone, online: Ana's hands are not sent as his.
    ben = log_in(page, "ben")
    Membership.objects.create(circle=personal_circle(ana), user=ben, role="member")
    page.goto(url)
    others = page.locator("[data-outbox-others]")
    expect(others).to_contain_text("Hands of another account are waiting on this phone.")
    expect(others.get_by_role("button", name="Discard them")).to_be_visible()
    expect(page.locator("[data-outbox-list] > li")).to_have_count(0)
    expect(page.locator("[data-net-badge]")).to_be_hidden()  # none of them is his
    expect(page.locator(".turn")).to_contain_text("Hand 1 · Deals: Ana")
    page.locator("[data-outbox]").evaluate("(box) => box.scrollIntoView({ block: 'center' })")
    screenshot(page, "outbox-other-account.png", full_page=False)
    _accessible(page, "board with another account's hands")
    page.wait_for_timeout(500)
    assert not Hand.objects.exists()

    # Ben logs out (nothing of his waits: no question); Ana logs in again and they are sent.
    _log_out_from_the_menu(page)
    page.wait_for_url(f"{live_server.url}/")
    _log_in_again(page, live_server, "ana")
    expect(page.locator("[data-net-badge]")).to_be_hidden()
    page.goto(url)
    # Sent (the phone scores waiting hands too, so the totals alone do not say it; and the list
    # is empty too before the outbox has read what waits): the server's board comes back.
    expect(page.locator("[data-offline-scored]")).to_be_hidden()
    for _ in range(50):
        if Hand.objects.count() == 2:
            break
        page.wait_for_timeout(100)
    expect(page.locator("[data-outbox-list] > li")).to_have_count(0)
    expect(page.locator("[data-total]")).to_have_text(["8", "14"])
    hands = Hand.objects.order_by("number")
    assert [(hand.number, hand.entered_by) for hand in hands] == [(1, ana), (2, ana)]


def test_hands_waiting_when_the_session_ends_elsewhere_wait_for_their_account(
    new_page: Any, log_in: Any, start_match: Any, live_server: Any
) -> None:
    """Ana's password is changed on another device while her hand waits; Ben logs in on her
    phone: the hand is not recorded as entered by Ben, who never typed it."""
    page = new_page(**NO_WORKER)
    ana = log_in(page, "ana")
    url = start_match(page, ["Ana", "Ben"])
    _queue_offline(page, (30, 9))
    ana.set_password("another-pass-2")
    ana.save()  # every session of hers ends
    page.context.set_offline(False)
    ben = log_in(page, "ben")
    Membership.objects.create(circle=personal_circle(ana), user=ben, role="member")
    page.goto(url)
    expect(page.locator("#board")).to_be_visible()
    page.wait_for_timeout(500)  # a page or two after Ben logged in: time enough to send
    assert not Hand.objects.exists(), Hand.objects.values("number", "entered_by__username")[0]
    expect(page.locator("[data-outbox-others]")).to_be_visible()

    _log_out_from_the_menu(page)
    page.wait_for_url(f"{live_server.url}/")
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_login", "ana")
    page.fill("#id_password", "another-pass-2")
    page.click("form.stack button[type=submit]")
    page.wait_for_url(f"{live_server.url}/matches/")
    page.goto(url)
    # Sent: the server's board comes back (see above).
    expect(page.locator("[data-offline-scored]")).to_be_hidden()
    for _ in range(50):
        if Hand.objects.exists():
            break
        page.wait_for_timeout(100)
    expect(page.locator("[data-outbox-list] > li")).to_have_count(0)
    expect(page.locator("[data-total]")).to_have_text(["4", "7"])
    assert [(hand.number, hand.entered_by) for hand in Hand.objects.all()] == [(1, ana)]


def test_with_hands_waiting_the_turn_is_the_next_hand_and_claims_no_dealer(
    new_page: Any, log_in: Any, start_match: Any
) -> None:
    page = new_page(**NO_WORKER)
    log_in(page)
    start_match(page, ["Ana", "Ben"])
    turn = page.locator("#turn")
    expect(turn).to_contain_text("Hand 1 · Deals: Ana")
    _queue_offline(page, (30, 9), (27, 7))
    # Two hands waiting: the turn is hand 3, and who deals it is not claimed before the server
    # has scored the two.
    expect(turn.locator(".turn-hand")).to_have_text("Hand 3")
    expect(turn).to_contain_text(
        "Who deals and who plays first shows once the waiting hands are sent."
    )
    expect(turn).not_to_contain_text("Deals:", use_inner_text=True)
    _back_online(page)
    expect(page.locator("[data-outbox]")).to_be_hidden()
    expect(turn).to_contain_text("Hand 3 · Deals: Ana", use_inner_text=True)


def test_another_accounts_hands_can_be_discarded_and_are_then_never_sent(
    new_page: Any, log_in: Any, start_match: Any, live_server: Any
) -> None:
    page = new_page(**NO_WORKER)
    ana = log_in(page, "ana")
    url = start_match(page, ["Ana", "Ben"])
    _queue_offline(page, (30, 9))
    page.route(SYNC, lambda route: route.abort())
    _back_online(page)
    _log_out_from_the_menu(page)
    page.locator("[data-logout-outbox]").get_by_role("button", name="Keep them and log out").click()
    page.wait_for_url(f"{live_server.url}/")
    page.unroute(SYNC)

    ben = log_in(page, "ben")
    Membership.objects.create(circle=personal_circle(ana), user=ben, role="member")
    page.goto(url)
    page.locator("[data-outbox-others]").get_by_role("button", name="Discard them").click()
    expect(page.locator("[data-outbox]")).to_be_hidden()
    page.reload()
    expect(page.locator("[data-outbox]")).to_be_hidden()

    _log_out_from_the_menu(page)
    page.wait_for_url(f"{live_server.url}/")
    _log_in_again(page, live_server, "ana")
    page.goto(url)
    expect(page.locator("[data-outbox]")).to_be_hidden()
    assert not Hand.objects.exists()


def test_logging_out_can_discard_the_waiting_hands(
    new_page: Any, log_in: Any, start_match: Any, live_server: Any
) -> None:
    page = new_page(**NO_WORKER)
    log_in(page, "ana")
    url = start_match(page, ["Ana", "Ben"])
    _queue_offline(page, (30, 9))
    page.route(SYNC, lambda route: route.abort())
    _back_online(page)
    _log_out_from_the_menu(page)
    question = page.locator("[data-logout-outbox]")
    expect(question).to_contain_text("Hands not yet sent: 1")
    question.get_by_role("button", name="Discard them and log out").click()
    page.wait_for_url(f"{live_server.url}/")
    page.unroute(SYNC)

    _log_in_again(page, live_server, "ana")
    page.goto(url)
    expect(page.locator("[data-outbox]")).to_be_hidden()
    expect(page.locator(".turn")).to_contain_text("Hand 1 · Deals: Ana")
    assert not Hand.objects.exists()


HTML_ANSWERS = {
    # A member removed or a match deleted, answered by a server (or proxy) in HTML.
    "404": {"status": 404, "content_type": "text/html", "body": "<h1>Not Found</h1>"},
    "500": {"status": 500, "content_type": "text/html", "body": "<h1>Server Error</h1>"},
    "503": {
        "status": 503,
        "content_type": "text/html",
        "headers": {"Retry-After": "1"},
        "body": "<h1>Service Unavailable</h1>",
    },
}


@pytest.mark.parametrize("answer", list(HTML_ANSWERS))
def test_an_answer_that_is_not_json_leaves_a_hand_to_retry_or_discard(
    new_page: Any, log_in: Any, start_match: Any, screenshot: Any, answer: str
) -> None:
    page = new_page(**NO_WORKER)
    log_in(page)
    start_match(page, ["Ana", "Ben"])
    page.route(SYNC, lambda route: route.fulfill(**HTML_ANSWERS[answer]))
    _queue_offline(page, (30, 9))
    _back_online(page)

    hand = page.locator("[data-outbox-list] > li")
    expect(page.locator("[data-offline]")).to_be_hidden()  # no "Could not reach the server"
    expect(hand).to_contain_text("Hand 1 could not be sent.")
    expect(hand.get_by_role("button", name="Try again")).to_be_visible()
    expect(hand.get_by_role("button", name="Discard it")).to_be_visible()
    page.locator("[data-outbox]").evaluate("(box) => box.scrollIntoView({ block: 'center' })")
    screenshot(page, f"outbox-failed-{answer}.png", full_page=False)
    assert not Hand.objects.exists()

    if answer == "404":
        _accessible(page, "board with a hand not sent")
        expect(hand).to_contain_text("This match is gone, or you are no longer in its circle.")
        hand.get_by_role("button", name="Discard it").click()
        expect(page.locator("[data-outbox]")).to_be_hidden()
        expect(page.locator(".turn-hand")).to_have_text("Hand 1")
        page.reload()
        expect(page.locator("[data-outbox]")).to_be_hidden()
        assert not Hand.objects.exists()
    else:
        # A server that is down is tried again by itself after the Retry-After it named; a
        # server error (a database coming back, a worker restarted) after a short wait too.
        expect(hand).to_contain_text("it is sent again by itself in a moment")
        page.unroute(SYNC)
        expect(page.locator("[data-outbox]")).to_be_hidden(timeout=5000)
        expect(page.locator("[data-total]")).to_have_text(["4", "7"])
    assert Hand.objects.count() == (0 if answer == "404" else 1)


def _stop_the_clock(page: Any) -> None:
    """The page's clock stands still from now on (page.clock installed first): time passes only
    by run_for, so waits of seconds are checked to the step without waiting for them."""
    page.clock.pause_at((page.evaluate("Date.now()") + 50) / 1000)  # a number is in seconds


def _tried_after(page: Any, tries: list[Any], wait_ms: int, count: int) -> None:
    """Not tried again 200 ms before `wait_ms`, and tried again (the `count`th time) within a
    second after it."""
    page.clock.run_for(wait_ms - 200)
    page.wait_for_timeout(150)  # real time for a send, had one begun
    assert len(tries) == count - 1, f"sent again before {wait_ms} ms"
    for _step in range(12):
        page.clock.run_for(100)
        page.wait_for_timeout(50)
        if len(tries) == count:
            return
    raise AssertionError(f"not sent again within a second of {wait_ms} ms: {len(tries)} sends")


def test_a_server_that_stays_down_is_not_tried_for_ever(
    new_page: Any, log_in: Any, start_match: Any
) -> None:
    page = new_page(**NO_WORKER)
    page.clock.install()
    log_in(page)
    start_match(page, ["Ana", "Ben"])
    tries: list[str] = []

    def down(route: Any) -> None:
        tries.append(route.request.url)
        route.fulfill(**{**HTML_ANSWERS["503"], "headers": {"Retry-After": "0"}})

    page.route(SYNC, down)
    _queue_offline(page, (30, 9))
    _stop_the_clock(page)
    _back_online(page)
    hand = page.locator("[data-outbox-list] > li")
    expect(hand).to_contain_text("it is sent again by itself in a moment")
    for _second in range(10):  # Retry-After: 0: sent again within a second or two, each time
        if "(error 503)" in hand.inner_text():
            break
        page.clock.run_for(1000)
        page.wait_for_timeout(100)
    expect(hand).to_contain_text("The server did not take it (error 503).")
    assert len(tries) == 5
    page.clock.run_for(120_000)
    page.wait_for_timeout(300)
    assert len(tries) == 5  # waits for "Try again" now
    expect(hand.get_by_role("button", name="Try again")).to_be_visible()


def test_a_server_error_is_tried_a_few_times_waiting_longer_each_time(
    new_page: Any, log_in: Any, start_match: Any
) -> None:
    """A 500 (before the 503 of a database that is down, a proxy's error page) is no refusal:
    sent four times in all, 2, 4 and 8 s apart, then it waits for "Try again"."""
    page = new_page(**NO_WORKER)
    page.clock.install()
    log_in(page)
    start_match(page, ["Ana", "Ben"])
    tries: list[float] = []

    def broken(route: Any) -> None:
        tries.append(time.monotonic())
        route.fulfill(**HTML_ANSWERS["500"])

    page.route(SYNC, broken)
    _queue_offline(page, (30, 9))
    _stop_the_clock(page)
    _back_online(page)
    hand = page.locator("[data-outbox-list] > li")
    expect(hand).to_contain_text("it is sent again by itself in a moment")
    assert len(tries) == 1
    for count, wait in ((2, 2000), (3, 4000), (4, 8000)):
        _tried_after(page, tries, wait, count)
    expect(hand).to_contain_text("The server did not take it (error 500).")
    page.clock.run_for(120_000)
    page.wait_for_timeout(300)
    assert len(tries) == 4  # waits for "Try again" now
    page.unroute(SYNC)
    page.clock.resume()
    hand.get_by_role("button", name="Try again").click()
    expect(page.locator("[data-outbox]")).to_be_hidden()
    expect(page.locator("[data-total]")).to_have_text(["4", "7"])
    assert Hand.objects.count() == 1


def test_logging_out_without_signal_says_it_needs_signal_and_keeps_everything(
    new_page: Any, log_in: Any, start_match: Any
) -> None:
    """The server ends a session: offline, Log out once led to the browser's "site can't be
    reached" page. Now it says why it waits, and the board and its hands stay as they are."""
    page = new_page(**NO_WORKER)
    log_in(page)
    board = start_match(page, ["Ana", "Ben"])
    _queue_offline(page, (30, 9))
    said: list[str] = []
    page.on("dialog", lambda dialog: (said.append(dialog.message), dialog.accept()))
    _log_out_from_the_menu(page)
    expect(page.locator("[data-outbox-list] > li")).to_have_count(1)
    assert page.url == board
    assert said == [
        "Logging out needs signal. Until then your hands and pages stay on this phone, as they are."
    ]
