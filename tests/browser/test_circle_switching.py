"""Circles on a phone: start one, switch between circles in one tap, and always see in the
header which circle is current, without the header spilling off a 360 px screen."""

from typing import Any

import pytest
from playwright.sync_api import expect

from scoring.models import Circle, Membership

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SMALL_PHONE = {"width": 360, "height": 740}


def _fits_the_screen(page: Any) -> None:
    """Nothing scrolls sideways, and the header's circle is inside the screen."""
    width = page.evaluate("document.documentElement.clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    box = page.locator("header .circle-now").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    assert box["height"] >= 44  # a touch target


def test_start_a_circle_and_switch_between_circles(
    new_page: Any, log_in: Any, live_server: Any, screenshot: Any
) -> None:
    page = new_page(viewport=SMALL_PHONE)
    user = log_in(page)
    current = page.locator("header .circle-now")
    expect(current).to_have_accessible_name("Circle: ana’s circle")
    _fits_the_screen(page)

    # From the header to the circles, and a new circle, which becomes the current one.
    current.click()
    page.wait_for_url(f"{live_server.url}/circles/")
    page.get_by_label("Circle name").fill("Friday night cards at Ben's place")
    page.get_by_role("button", name="Start circle").click()
    friday = Circle.objects.get(name="Friday night cards at Ben's place")
    page.wait_for_url(f"{live_server.url}/circles/{friday.pk}/")
    assert Membership.objects.get(circle=friday, user=user).role == Membership.Role.ADMIN
    expect(page.get_by_role("heading", level=1)).to_have_text(friday.name)
    expect(current).to_contain_text(friday.name)
    _fits_the_screen(page)
    screenshot(page, "circle-page-phone.png")

    # One tap back to the personal circle: its matches, and the header says so.
    current.click()
    page.wait_for_url(f"{live_server.url}/circles/")
    expect(page.locator(".circle-row.current")).to_contain_text(friday.name)
    page.get_by_role("button", name="Switch to ana’s circle").click()
    page.wait_for_url(f"{live_server.url}/matches/")
    expect(current).to_have_accessible_name("Circle: ana’s circle")
    _fits_the_screen(page)

    # And one tap to Friday again.
    current.click()
    expect(page.locator(".circle-row.current")).to_contain_text("ana")
    expect(page.locator(".circle-row.current")).to_contain_text("Current circle")
    page.get_by_role("button", name=f"Switch to {friday.name}").click()
    page.wait_for_url(f"{live_server.url}/matches/")
    expect(current).to_contain_text(friday.name)
    # A player added now is Friday's.
    page.goto(f"{live_server.url}/players/")
    page.get_by_label("Name").fill("Ben")
    page.get_by_role("button", name="Add player").click()
    expect(page.locator("#roster")).to_contain_text("Ben")
    assert list(friday.players.values_list("name", flat=True)) == ["Ben"]


def test_this_is_me_and_the_record_on_the_home_page(
    new_page: Any, log_in: Any, live_server: Any
) -> None:
    page = new_page(viewport=SMALL_PHONE)
    log_in(page)
    page.goto(f"{live_server.url}/players/")
    page.get_by_label("Name").fill("Ana")
    page.get_by_role("button", name="Add player").click()
    expect(page.locator("#roster")).to_contain_text("Ana")

    page.goto(f"{live_server.url}/")
    page.get_by_role("link", name="Say which player is you").click()
    page.get_by_label("Which of this circle's players are you?").select_option(label="Ana")
    page.get_by_role("button", name="Save").click()
    # htmx swaps the members in place, with what was done.
    expect(page.locator("#members")).to_contain_text("You are Ana in this circle.")
    expect(page.locator("#members .member").first).to_contain_text("Plays as Ana")

    page.goto(f"{live_server.url}/")
    record = page.locator(".my-record")
    expect(record.get_by_role("link", name="as Ana")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
