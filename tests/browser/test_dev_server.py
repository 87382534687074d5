"""`make run` (DEBUG on): a refused form shows in place, as in production.

Under DEBUG, django-htmx adds a script that replaces the whole page with an error answer (400,
403, 404, 500) to show Django's debug page. The app answers a form with errors with 400 (409 for
a hand number taken meanwhile) and means it to be swapped in: a newcomer's first wrong hand must
not look like a crash. A real server error still brings the debug page.
"""

from typing import Any

import pytest
from playwright.sync_api import expect

from scoring.matches import views as matches

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DEBUG_SCRIPT = "script[src*='django_htmx/django-htmx.js']"


@pytest.fixture
def dev_server(settings: Any) -> None:
    """The dev server's settings: `make run` serves with DEBUG on (casino_site/settings.py)."""
    settings.DEBUG = True


def _styled_page_is_still_there(page: Any) -> None:
    expect(page.locator("header.top .brand")).to_be_visible()
    expect(page.locator("footer.bottom")).to_be_visible()
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") != "rgba(0, 0, 0, 0)"


def test_a_refused_hand_shows_in_place_under_debug(
    dev_server: None, page: Any, log_in: Any, start_match: Any, enter_hand: Any
) -> None:
    log_in(page)
    start_match(page, ["Ana", "Ben"])
    # The page is the dev server's: django-htmx's error script is in it.
    expect(page.locator(DEBUG_SCRIPT)).to_have_count(1)

    enter_hand(page, 55, 9)
    error = page.locator("#entry #id_cards_0_error")
    expect(error).to_be_visible()
    expect(page.locator("#id_cards_0")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#id_cards_0")).to_have_value("55")
    _styled_page_is_still_there(page)
    expect(page.locator("[data-total]")).to_have_text(["0", "0"])

    # Fixed, the same form saves: Ana most cards and spades (4), Ben the six special cards (7).
    page.fill("#id_cards_0", "30")
    page.click("button.save")
    expect(page.locator("[data-total]")).to_have_text(["4", "7"])
    expect(page.locator(".turn")).to_contain_text("Hand 2")


def test_a_duplicate_player_name_shows_in_place_under_debug(
    dev_server: None, page: Any, log_in: Any, live_server: Any
) -> None:
    log_in(page)
    page.goto(f"{live_server.url}/players/")
    expect(page.locator(DEBUG_SCRIPT)).to_have_count(1)
    name = page.locator("#roster input[name=name]")
    name.fill("Ana")
    page.locator("#roster button[type=submit]").click()
    expect(page.locator("#roster")).to_contain_text("Ana")
    expect(name).to_have_value("")

    name.fill("ana ")
    page.locator("#roster button[type=submit]").click()
    expect(page.locator("#roster .errors")).to_be_visible()
    expect(page.locator("#roster input[name=name]")).to_have_attribute("aria-invalid", "true")
    _styled_page_is_still_there(page)
    expect(page.get_by_role("heading", level=1)).to_be_visible()


def test_a_server_error_still_shows_the_debug_page(
    dev_server: None,
    page: Any,
    log_in: Any,
    live_server: Any,
    monkeypatch: pytest.MonkeyPatch,
    settings: Any,
) -> None:
    log_in(page)
    page.goto(f"{live_server.url}/players/")

    def broken(**_kwargs: Any) -> None:
        raise RuntimeError("the players table is on fire")

    monkeypatch.setattr(matches.services, "player_create", broken)
    page.locator("#roster input[name=name]").fill("Cy")
    page.locator("#roster button[type=submit]").click()
    expect(page.locator("body")).to_contain_text("the players table is on fire")
    expect(page.locator("header.top")).to_have_count(0)
