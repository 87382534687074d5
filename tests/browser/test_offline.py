"""Without signal: the app installs, a reload shows the board from the phone, hands saved offline
wait in an outbox and are sent once, in order, when the network is back."""

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from conftest import CHROMIUM, CHROMIUM_ARGS, PHONE
from django.conf import settings
from django.test import Client
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from scoring.access import personal_circle
from scoring.circles import services as circles
from scoring.engine.rules import Rules
from scoring.matches import services
from scoring.models import Hand, Match, Membership

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CONTROLLED = "() => navigator.serviceWorker.ready.then(() => !!navigator.serviceWorker.controller)"
# A worker has finished installing (`ready` would never settle while none is registered).
ACTIVE = "() => navigator.serviceWorker.getRegistration().then((r) => !!(r && r.active))"
# The pages kept for each account: {cache name: [paths]}.
KEPT_PAGES = """async () => {
  const kept = {};
  for (const name of (await caches.keys()).filter((name) => name.startsWith("casino-pages"))) {
    kept[name] = (await (await caches.open(name)).keys()).map((r) => new URL(r.url).pathname);
  }
  return kept;
}"""


def _until(page: Any, script: str, timeout: float = 5.0) -> None:
    """Wait until `script` (which may answer a promise) comes true: wait_for_function takes a
    promise for true at once."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(script):
        assert time.monotonic() < deadline, f"never true: {script}"
        page.wait_for_timeout(100)


@contextmanager
def first_send_lost(context: Any) -> Iterator[list[str]]:
    """While inside: the network loses the first POST of `context` (signal not quite back);
    gives the list of what it lost."""
    dropped: list[str] = []

    def drop_the_first_send(route: Any) -> None:
        if route.request.method == "POST" and not dropped:
            dropped.append(route.request.url)
            route.abort("internetdisconnected")
        else:
            route.continue_()

    context.route("**/*", drop_the_first_send)
    try:
        yield dropped
    finally:
        context.unroute("**/*", drop_the_first_send)


def _controlled(page: Any) -> None:
    """Wait until the service worker is installed, then load the page again: a page loaded under
    an active worker is run by it (the first page waits for clients.claim, which a busy machine
    can keep waiting), and the worker keeps a copy of it."""
    _until(page, ACTIVE, timeout=30)
    page.reload()
    _until(page, CONTROLLED, timeout=15)


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
    _controlled(page)
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
    second = _second_phone(new_page, live_server, ana, url)

    first.context.set_offline(True)
    _offline_hand(first, 30, 9, ("10D", "AS"))  # Ana 7, Ben 4, waiting
    enter_hand(second, 20, 4)  # meanwhile hand 1 on the other phone: Ben 11
    expect(second.locator("[data-total]")).to_have_text(["0", "11"])

    first.context.set_offline(False)
    first.evaluate("window.dispatchEvent(new Event('online'))")
    waiting = first.locator("[data-outbox-list] > li")
    expect(waiting).to_contain_text("Hand 1 was saved meanwhile on another phone.")
    assert Hand.objects.count() == 1  # never silently dropped, never silently stored
    waiting.get_by_role("button", name="Keep mine as hand 2").click()
    expect(first.locator("[data-outbox-list] > li")).to_have_count(0)
    expect(first.locator("[data-total]")).to_have_text(["7", "15"])
    assert list(Hand.objects.values_list("number", flat=True).order_by("number")) == [1, 2]


def test_logging_out_forgets_the_kept_pages(
    page: Any, log_in: Any, start_match: Any, live_server: Any
) -> None:
    ana = log_in(page)
    url = start_match(page, ["Ana", "Ben"])
    _controlled(page)
    path = url.removeprefix(page.url.split("/matches/")[0])
    assert path in page.evaluate(KEPT_PAGES)[f"casino-pages-{ana.pk}"]
    page.locator("details[data-menu] summary").click()
    page.get_by_role("button", name="Log out").click()
    page.wait_for_url(f"{live_server.url}/")
    _until(
        page,
        "() => caches.keys().then((names) => !names.some((name) => name.startsWith('casino-pages')))",
    )
    assert page.evaluate(KEPT_PAGES) == {}


def _signed_in(page: Any, live_server: Any, user: Any) -> None:
    """The phone's session becomes `user`'s without a page for no one in between (a login in
    another tab, a session cookie handed over): only what the next page says tells who it is."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
    )


def _not_served_offline(page: Any, url: str) -> None:
    """Without signal the page is not there; back online, the match list is opened again."""
    page.context.set_offline(True)
    with pytest.raises(PlaywrightError, match="net::ERR_"):
        page.goto(url)
    page.context.set_offline(False)
    page.goto(url.split("/matches/")[0] + "/matches/")


def test_pages_kept_for_one_account_are_not_shown_offline_to_the_next(
    page: Any, log_in: Any, start_match: Any, live_server: Any, django_user_model: Any
) -> None:
    log_in(page, "ana")
    url = start_match(page, ["Ana", "Ben"])
    _controlled(page)
    assert url.removeprefix(live_server.url) in str(page.evaluate(KEPT_PAGES))

    ben = django_user_model.objects.create_user(username="ben", password="casino-pass-1")
    _signed_in(page, live_server, ben)
    page.goto(f"{live_server.url}/matches/")  # Ben's first page: Ana's pages go
    _until(page, f"() => caches.match('{url}', {{ ignoreVary: true }}).then((kept) => !kept)")
    _not_served_offline(page, url)
    assert page.evaluate(KEPT_PAGES) == {f"casino-pages-{ben.pk}": ["/matches/"]}


def test_a_board_the_member_lost_is_forgotten_once_asked_for_online(
    page: Any, log_in: Any, live_server: Any, django_user_model: Any
) -> None:
    cy = django_user_model.objects.create_user(username="cy", password="casino-pass-1")
    circle = personal_circle(cy)
    ana = log_in(page, "ana")
    membership = Membership.objects.create(circle=circle, user=ana, role="member")
    players = [services.player_create(circle=circle, name=name) for name in ("Cy", "Ana")]
    match = services.match_start(
        circle=circle, rules=Rules.make("casino"), sides=[[p] for p in players]
    )
    url = f"{live_server.url}{match.get_absolute_url()}"
    page.goto(url)
    _controlled(page)
    assert match.get_absolute_url() in str(page.evaluate(KEPT_PAGES))

    circles.member_remove(circle=circle, member_id=membership.pk, by=cy)
    response = page.goto(url)  # online: the server no longer gives it
    assert response is not None and response.status == 404
    _not_served_offline(page, url)
    assert match.get_absolute_url() not in page.evaluate(KEPT_PAGES)[f"casino-pages-{ana.pk}"]


def test_a_hand_the_server_refused_does_not_push_the_next_hands_number(
    new_page: Any, log_in: Any, start_match: Any, enter_hand: Any, live_server: Any
) -> None:
    """A waiting hand refused when sent (hand 2, after the other phone undid hand 1) is never
    stored: the next hand typed here is hand 1 again, not hand 3 (which the server would refuse
    too, and every hand after it). Found by the random walk (tests/browser/test_phone_walk.py)."""
    first = new_page()
    ana = log_in(first)
    url = start_match(first, ["Ana", "Ben"])
    _controlled(first)
    second = _second_phone(new_page, live_server, ana, url)
    enter_hand(second, 30, 9, ("10D", "AS"))  # hand 1: Ana 7, Ben 4
    expect(second.locator("[data-total]")).to_have_text(["7", "4"])
    first.reload()
    expect(first.locator("#id_number")).to_have_value("2")

    first.context.set_offline(True)
    _offline_hand(first, 27, 7)  # hand 2, waiting
    second.get_by_role("button", name="Undo").click()  # meanwhile hand 1 is undone there
    expect(second.locator("[data-total]")).to_have_text(["0", "0"])
    first.context.set_offline(False)
    first.evaluate("window.dispatchEvent(new Event('online'))")
    waiting = first.locator("[data-outbox-list] > li")
    expect(waiting).to_contain_text("Hand 2 was not recorded:")
    first.evaluate("window.casinoApp.refreshBoard()")
    expect(first.locator("[data-total]")).to_have_text(["0", "0"])
    expect(first.locator("#id_number")).to_have_value("1")
    expect(first.locator(".turn-hand")).to_have_text("Hand 1")
    enter_hand(first, 20, 4)  # saved as hand 1, with the refused one still listed
    expect(first.locator("[data-hand-saved]")).to_contain_text("Hand 1 saved")
    assert list(Hand.objects.values_list("number", flat=True)) == [1]
    expect(waiting).to_have_count(1)


def _second_phone(new_page: Any, live_server: Any, account: Any, url: str) -> Any:
    """Another phone of the same account, signed in through the form, on the page `url`."""
    second = new_page()
    second.goto(f"{live_server.url}/accounts/login/")
    second.fill("#id_login", account.username)
    second.fill("#id_password", "casino-pass-1")
    second.click("form.stack button[type=submit]")
    second.wait_for_url(f"{live_server.url}/matches/")
    second.goto(url)
    return second


def test_a_send_the_network_drops_is_tried_again_without_a_new_online_event(
    page: Any, log_in: Any, start_match: Any
) -> None:
    """Signal coming back is seldom clean: the first send may find no network although the phone
    says it is online (one "online" event, then nothing). The hand is sent a moment later by
    itself, not left waiting for an event that does not come."""
    log_in(page)
    start_match(page, ["Ana", "Ben"])
    _controlled(page)
    page.context.set_offline(True)
    _offline_hand(page, 30, 9, ("10D", "AS"))
    expect(page.locator("[data-outbox-list] > li")).to_contain_text("Hand 1: waiting to be sent")

    with first_send_lost(page.context) as dropped:
        page.context.set_offline(False)
        page.evaluate("window.dispatchEvent(new Event('online'))")
        expect(page.locator("[data-outbox-list] > li")).to_have_count(0, timeout=15_000)
    assert dropped, "the first send was not the one dropped"
    match = Match.objects.get()
    assert list(match.hands.values_list("number", flat=True)) == [1]
