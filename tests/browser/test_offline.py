"""Without signal: the app installs, a reload shows the board from the phone, hands saved offline
wait in an outbox and are sent once, in order, when the network is back."""

from pathlib import Path
from typing import Any

import pytest
from conftest import CHROMIUM, CHROMIUM_ARGS, PHONE
from playwright.sync_api import expect

from scoring.models import Hand, Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CONTROLLED = "() => navigator.serviceWorker.ready.then(() => !!navigator.serviceWorker.controller)"
KEPT_PAGES = "() => caches.open('casino-pages').then((cache) => cache.keys()).then((keys) => keys.map((r) => new URL(r.url).pathname))"


def _controlled(page: Any) -> None:
    """Wait until the service worker runs the page, then load it again so it keeps a copy."""
    page.wait_for_function(CONTROLLED)
    page.reload()
    page.wait_for_function(CONTROLLED)


def _offline_hand(page: Any, cards: int, spades: int, specials: tuple[str, ...] = ()) -> None:
    page.fill("#id_cards_0", str(cards))
    page.fill("#id_spades_0", str(spades))
    for card in specials:
        page.click(f"label[for=id_card_{card}_0]")
    page.click("button.save")


def test_the_app_is_installable(
    browser: Any, live_server: Any, log_in: Any, tmp_path: Path
) -> None:
    # A profile of its own: Chromium does not judge installability in an incognito context.
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=CHROMIUM, args=CHROMIUM_ARGS, **PHONE
    )
    try:
        page = context.pages[0] if context.pages else context.new_page()
        log_in(page)
        _installable(page, live_server)
    finally:
        context.close()


def _installable(page: Any, live_server: Any) -> None:
    manifest = page.request.get(f"{live_server.url}/manifest.webmanifest").json()
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/matches/"
    assert {"192x192", "512x512"} <= {icon["sizes"] for icon in manifest["icons"]}
    assert any(icon.get("purpose") == "maskable" for icon in manifest["icons"])
    worker = page.request.get(f"{live_server.url}/sw.js")
    assert worker.headers["cache-control"] == "no-cache"
    assert worker.headers["service-worker-allowed"] == "/"
    page.wait_for_function(CONTROLLED)
    session = page.context.new_cdp_session(page)
    errors = session.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert errors == []


def test_three_hands_without_signal_are_sent_once_when_it_returns(
    page: Any, log_in: Any, start_match: Any, screenshot: Any
) -> None:
    log_in(page)
    url = start_match(page, ["Ana", "Ben"])
    _controlled(page)

    page.context.set_offline(True)
    page.reload()  # from the phone's copy
    expect(page.locator(".turn")).to_contain_text("Hand 1")
    expect(page.locator("[data-net-badge]")).to_contain_text("Offline")
    # Ana: 7, 8 and 11 points; Ben: 4, 3 and 0.
    _offline_hand(page, 30, 9, ("10D", "AS"))
    _offline_hand(page, 27, 7, ("10D", "AS", "AH"))
    _offline_hand(page, 30, 9, ("10D", "2S", "AS", "AC", "AH", "AD"))
    hands = page.locator("[data-outbox-list] > li")
    expect(hands).to_have_count(3)
    expect(hands.first).to_contain_text("Hand 1: waiting to be sent")
    expect(hands.first).to_contain_text("✓ 52 cards")
    expect(page.locator("[data-net-badge]")).to_contain_text("Hands waiting: 3")
    expect(page.locator("#id_cards_1")).to_have_attribute("placeholder", "52 − …")
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, "offline-outbox.png", full_page=False)

    page.reload()  # still without signal: the hands are still waiting
    expect(page.locator("[data-outbox-list] > li")).to_have_count(3)
    expect(page.locator("#id_number")).to_have_value("4")
    assert not Hand.objects.exists()

    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator("[data-outbox-list] > li")).to_have_count(0)
    expect(page.locator("[data-total]")).to_have_text(["26", "7"])
    expect(page.locator("[data-net-badge]")).to_be_hidden()
    match = Match.objects.get()
    assert list(match.hands.values_list("number", flat=True)) == [1, 2, 3]
    assert [side.total for side in match.sides.order_by("position")] == [26, 7]
    assert url == page.url


def test_a_hand_taken_meanwhile_by_another_phone_is_a_conflict_to_resolve(
    new_page: Any, log_in: Any, start_match: Any, enter_hand: Any, live_server: Any
) -> None:
    first = new_page()
    ana = log_in(first)
    url = start_match(first, ["Ana", "Ben"])
    _controlled(first)
    second = new_page()
    second.goto(f"{live_server.url}/accounts/login/")
    second.fill("#id_login", ana.username)
    second.fill("#id_password", "casino-pass-1")
    second.click("form.stack button[type=submit]")
    second.wait_for_url(f"{live_server.url}/matches/")
    second.goto(url)

    first.context.set_offline(True)
    _offline_hand(first, 30, 9, ("10D", "AS"))  # Ana 7, Ben 4, waiting
    enter_hand(second, 20, 4)  # meanwhile hand 1 on the other phone: Ben 11
    expect(second.locator("[data-total]")).to_have_text(["0", "11"])

    first.context.set_offline(False)
    first.evaluate("window.dispatchEvent(new Event('online'))")
    waiting = first.locator("[data-outbox-list] > li")
    expect(waiting).to_contain_text("Hand 1 was saved meanwhile on another phone.")
    assert Hand.objects.count() == 1  # never silently dropped, never silently stored
    waiting.get_by_role("button", name="Keep it as hand 2").click()
    expect(first.locator("[data-outbox-list] > li")).to_have_count(0)
    expect(first.locator("[data-total]")).to_have_text(["7", "15"])
    assert list(Hand.objects.values_list("number", flat=True).order_by("number")) == [1, 2]


def test_logging_out_forgets_the_kept_pages(page: Any, log_in: Any, start_match: Any) -> None:
    log_in(page)
    url = start_match(page, ["Ana", "Ben"])
    _controlled(page)
    assert url.removeprefix(page.url.split("/matches/")[0]) in page.evaluate(KEPT_PAGES)
    page.locator("details[data-menu] summary").click()
    page.get_by_role("button", name="Log out").click()
    page.wait_for_load_state()
    page.wait_for_function("() => caches.keys().then((names) => !names.includes('casino-pages'))")
    assert page.evaluate(KEPT_PAGES) == []
