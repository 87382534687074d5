"""The pages the phone keeps for no signal follow the account's language, the header holds the
offline badge in every language, and a match started without signal leaves its phone board for
the server's once sent."""

from typing import Any

import pytest
from playwright.sync_api import expect
from test_offline import _controlled, _until
from test_offline_evening import KEPT, _ready_for_the_evening

from scoring.models import Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _start_offline(page: Any, live_server: Any) -> None:
    page.goto(f"{live_server.url}/matches/new/")  # the phone's copy
    page.fill("#id_seat_0", "Ana")
    page.fill("#id_seat_1", "Cleo")
    page.click("form.match-setup button[type=submit]")
    page.wait_for_url("**/matches/offline/#*")
    expect(page.locator("[data-local-title]")).to_be_visible()


def test_a_match_started_offline_goes_to_the_servers_board_when_sent(
    page: Any, log_in: Any, start_match: Any, live_server: Any
) -> None:
    _ready_for_the_evening(page, log_in, start_match)
    _start_offline(page, live_server)
    page.context.set_offline(False)  # the signal returns: the browser says so by itself
    page.wait_for_url(f"{live_server.url}/matches/*/", timeout=10_000)
    match = Match.objects.exclude(client_id="").get()
    assert page.url.endswith(match.get_absolute_url())


def test_a_match_started_offline_leaves_its_phone_board_once_another_tab_sent_it(
    page: Any, log_in: Any, start_match: Any, live_server: Any
) -> None:
    _ready_for_the_evening(page, log_in, start_match)
    _start_offline(page, live_server)
    # This tab's own sending does not get through (its signal came back a moment later)...
    page.evaluate(
        """() => {
          const send = window.fetch;
          window.fetch = (url, options) => String(url).includes("/matches/sync/")
            ? Promise.reject(new TypeError("offline")) : send(url, options);
        }"""
    )
    other = page.context.new_page()
    page.context.set_offline(False)
    other.goto(f"{live_server.url}/matches/")  # ...another tab sends the match
    _until(
        other,
        "() => !!localStorage.length && Object.keys(localStorage).some("
        "(key) => key.startsWith('casino-started:'))",
        timeout=10,
    )
    page.wait_for_url(f"{live_server.url}/matches/*/", timeout=10_000)
    match = Match.objects.exclude(client_id="").get()
    assert page.url.endswith(match.get_absolute_url())


def _kept_in(page: Any, path: str, code: str) -> str:
    return f"({KEPT})({[path, f'<html lang={chr(34)}{code}{chr(34)}>']!r})"


def test_the_pages_kept_for_no_signal_follow_a_language_switch(
    page: Any, log_in: Any, start_match: Any, live_server: Any
) -> None:
    log_in(page)
    other = start_match(page, ["Cy", "Dee"])  # a board kept, then not opened again
    url = start_match(page, ["Ana", "Ben"])
    _controlled(page)
    page.goto(other)
    page.goto(url)
    kept = ["/matches/new/", "/matches/offline/", other.removeprefix(live_server.url)]
    for path in kept:
        _until(page, _kept_in(page, path, "en"), timeout=10)

    page.select_option("#language-select", "es")
    page.get_by_role("button", name="Change").click()
    expect(page.locator("html")).to_have_attribute("lang", "es")
    for path in kept:  # every page kept in English is kept again in Spanish
        _until(page, _kept_in(page, path, "es"), timeout=10)

    page.context.set_offline(True)
    page.goto(f"{live_server.url}/matches/new/")  # the phone's copy
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page.locator("[data-local-offline]")).to_be_visible()
    page.goto(other)
    expect(page.locator("html")).to_have_attribute("lang", "es")


@pytest.mark.parametrize("width", [360, 390])
@pytest.mark.parametrize("code", ["es", "bg", "sl"])
def test_the_offline_badge_leaves_the_menu_on_screen(
    new_page: Any,
    log_in: Any,
    start_match: Any,
    live_server: Any,
    screenshot: Any,
    width: int,
    code: str,
) -> None:
    page = new_page(viewport={"width": width, "height": 800})
    log_in(page)
    url = start_match(page, ["Ana", "Ben"])
    page.select_option("#language-select", code)
    page.locator(".language-form button").click()
    expect(page.locator("html")).to_have_attribute("lang", code)
    _controlled(page)
    page.context.set_offline(True)
    page.reload()
    page.fill("#id_cards_0", "30")
    page.fill("#id_spades_0", "9")
    page.click("button.save")
    badge = page.locator("[data-net-badge]")
    expect(badge.locator("a")).to_be_visible()  # offline, and a hand waiting
    menu = page.locator("details.menu > summary").bounding_box()
    shown = badge.bounding_box()
    assert menu is not None and shown is not None
    assert menu["x"] >= 0 and menu["x"] + menu["width"] <= width, menu
    assert shown["x"] + shown["width"] <= menu["x"], (shown, menu)  # side by side, no overlap
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    # Nothing in the badge or the menu button is cut.
    assert page.evaluate(
        """() => [...document.querySelectorAll("[data-net-badge], [data-net-badge] *, .menu > summary")]
          .every((el) => el.scrollWidth <= el.clientWidth + 1)"""
    )
    screenshot(page, f"header-offline-{code}-{width}.png", full_page=False)
    assert url
