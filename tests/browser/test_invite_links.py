"""An invite on a small phone: the circle's admin makes a link, a friend without an account opens
it, signs up and is in the circle; a revoked link stops working."""

import re

import pytest
from playwright.sync_api import expect

from scoring.models import Circle, Membership

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SMALL_PHONE = {"viewport": {"width": 360, "height": 740}}
LINK = re.compile(r"^http://[^/]+/join/[A-Za-z0-9_-]{43}/$")


def _circle_run_by(user) -> Circle:
    circle = Circle.objects.create(name="Friday table")
    Membership.objects.create(circle=circle, user=user, role=Membership.Role.ADMIN)
    return circle


def _fits_the_screen(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_a_friend_opens_the_link_signs_up_and_is_in_the_circle(
    new_page, log_in, live_server, screenshot
):
    admin = new_page(**SMALL_PHONE)
    circle = _circle_run_by(log_in(admin))
    admin.goto(f"{live_server.url}/circles/{circle.pk}/invites/")
    expect(admin.get_by_role("heading", name="Invites to Friday table")).to_be_visible()
    expect(admin.get_by_label("7 days")).to_be_checked()
    expect(admin.get_by_label("Anyone who gets the link (for a group chat)")).to_be_checked()
    admin.get_by_role("button", name="Create an invite link").click()

    link = admin.get_by_label("Invite link")
    expect(link).to_have_value(LINK)
    expect(link).to_be_focused()
    expect(admin.locator(".invite-facts")).to_contain_text("0 times, no limit")
    qr = admin.locator("img.invite-qr")
    qr.scroll_into_view_if_needed()
    qr.evaluate(
        "img => img.complete || new Promise(done => {"
        " img.addEventListener('load', done); img.addEventListener('error', done); })"
    )
    assert qr.evaluate("img => img.naturalWidth > 0")
    assert _fits_the_screen(admin)
    screenshot(admin, "circle-invites.png")
    join_url = link.input_value()

    friend = new_page(**SMALL_PHONE)  # another browser context: no session, no account
    friend.goto(join_url)
    expect(friend.get_by_role("heading", name="Join Friday table")).to_be_visible()
    expect(friend.get_by_text("ana invites you to Friday table.")).to_be_visible()
    assert _fits_the_screen(friend)
    screenshot(friend, "invite-join.png")
    friend.locator("main").get_by_role("link", name="Sign up").click()
    friend.fill("#id_username", "zoe")
    friend.fill("#id_password1", "a-long-casino-pass")
    friend.get_by_role("button", name="Create account").click()

    friend.wait_for_url(join_url)
    friend.get_by_role("button", name="Join Friday table").click()
    friend.wait_for_url(f"{live_server.url}/matches/")
    expect(friend.get_by_role("status")).to_contain_text("Welcome to Friday table")
    membership = Membership.objects.get(circle=circle, user__username="zoe")
    assert membership.role == Membership.Role.MEMBER

    admin.reload()
    expect(admin.locator(".invite-facts")).to_contain_text("1 time, no limit")


def test_without_javascript_an_admin_makes_a_single_use_link_and_revokes_it(
    new_page, log_in, live_server
):
    admin = new_page(java_script_enabled=False, **SMALL_PHONE)
    circle = _circle_run_by(log_in(admin))
    admin.goto(f"{live_server.url}/circles/{circle.pk}/invites/")
    admin.get_by_label("One person only").check()
    admin.get_by_label("1 day", exact=True).check()
    admin.get_by_role("button", name="Create an invite link").click()
    expect(admin.get_by_label("Invite link")).to_have_value(LINK)
    expect(admin.locator(".invite-facts")).to_contain_text("0 of 1 time")
    join_url = admin.get_by_label("Invite link").input_value()

    admin.get_by_role("button", name="Revoke this link").click()
    expect(admin.get_by_role("status")).to_contain_text("Invite revoked")
    expect(admin.get_by_label("Invite link")).to_have_count(0)

    late = new_page(**SMALL_PHONE)
    assert late.goto(join_url).status == 410
    expect(late.get_by_role("heading", name="This invite no longer works")).to_be_visible()
