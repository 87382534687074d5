"""Every URL × every method × everyone around a circle: its admin, a member, a member of another
circle, a member who was removed, anonymous, and whoever holds a share link.

The circle is the admin's (the world of tests/cross/test_authorization_matrix.py, with a member and a
removed member added). Admins and members get in wherever the owner does, except where only an
admin may act (ADMIN_ONLY: a member gets 403 and changes nothing); everyone else is refused and
sees none of the circle's names.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from test_authorization_matrix import (
    OWNER_MARK,
    PROTECTED,
    Route,
    World,
    _as,
    _body,
    _describe,
    _request,
    build_world,
    gets_in,
    login_redirect,
    owner_snapshot,
    refused,
    url_for,
)

from scoring.models import Membership

pytestmark = pytest.mark.slow  # left out of make test-fast; make test runs it

# (URL name, method) that only an admin of the circle may use.
ADMIN_ONLY = {
    ("scoring:player", "POST"),  # rename a player
    ("scoring:player-merge", "POST"),
    ("scoring:match-delete", "POST"),
    ("scoring:circle-invites", "GET"),
    ("scoring:circle-invites", "POST"),
    ("scoring:invite-qr", "GET"),
    ("scoring:invite-revoke", "POST"),
    ("scoring:circle-rename", "POST"),
    ("scoring:circle-role", "POST"),
    ("scoring:circle-remove", "POST"),
    # The event's organiser's (here the admin, who made it): a table's result from paper.
    ("scoring:event-paper", "GET"),
    ("scoring:event-paper", "POST"),
}
# Pages whose POST takes the account out of the circle (checked last, on their own).
LEAVING = {"scoring:circle-leave"}
METHODS = ("GET", "POST")


@pytest.fixture
def circle(user: Any, other_user: Any) -> World:
    world = build_world(user, other_user, OWNER_MARK, "Yusuf")
    users = get_user_model()
    world.member = users.objects.create_user(username="mia")  # type: ignore[attr-defined]
    world.removed = users.objects.create_user(username="rex")  # type: ignore[attr-defined]
    home = user.personal_circle
    Membership.objects.create(circle=home, user=world.member, role="member")  # type: ignore[attr-defined]
    Membership.objects.create(circle=home, user=world.removed, role="member")  # type: ignore[attr-defined]
    Membership.objects.filter(user=world.removed, circle=home).delete()  # type: ignore[attr-defined]
    return world


def test_the_admin_only_list_names_real_pages() -> None:
    names = {route.name for route in PROTECTED}
    missing = {name for name, _method in ADMIN_ONLY if name not in names}
    assert not missing, f"ADMIN_ONLY names pages that do not exist: {sorted(missing)}"


@pytest.mark.django_db
@pytest.mark.parametrize("route", PROTECTED, ids=lambda route: route.name or route.route)
def test_everyone_around_a_circle_gets_exactly_their_share(route: Route, circle: World) -> None:
    if route.is_share_link:
        return  # read-only for anyone with the link: tests/cross/test_authorization_matrix.py
    url = url_for(route, circle)
    before = owner_snapshot(circle.owner)
    # Outsiders first: a member of another circle, a removed member, anonymous.
    for who, user in (
        ("a member of another circle", circle.other),
        ("a removed member", circle.removed),  # type: ignore[attr-defined]
        ("anonymous", None),
    ):
        for method in METHODS:
            response = _request(_as(user), method, url)
            assert OWNER_MARK not in _body(response).decode(errors="replace"), _describe(
                who, method, url, response
            )
            if user is None:
                assert refused(response), _describe(who, method, url, response)
            elif route.kwargs and not _is_own(route, url):
                assert refused(response) or response.status_code in (301, 302, 303), _describe(
                    who, method, url, response
                )
    assert owner_snapshot(circle.owner) == before, f"{route.name}: an outsider changed the data"

    if route.name in LEAVING:
        return
    # A member: in wherever the admin is, except for admin actions (403, nothing changed).
    admin = _as(circle.owner)
    member = _as(circle.member)  # type: ignore[attr-defined]
    for method in METHODS:
        if (route.name, method) in ADMIN_ONLY:
            snapshot = owner_snapshot(circle.owner)
            response = _request(member, method, url)
            assert response.status_code == 403, _describe("a member", method, url, response)
            assert owner_snapshot(circle.owner) == snapshot, f"{route.name}: a member changed it"
            continue
        if method == "GET":
            as_admin, as_member = _request(admin, method, url), _request(member, method, url)
            if gets_in(as_admin):
                assert gets_in(as_member), _describe("a member", method, url, as_member)
                assert not login_redirect(as_member)


def _is_own(route: Route, url: str) -> bool:
    """Pages about the visitor's own things (none of the circle's): their circles list."""
    return not route.kwargs
