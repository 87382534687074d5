"""Bytes no page can take, on every URL the resolver knows: a NUL in the address, the query, a
posted field or the session cookie, integers past any column's range, and a form in another
charset. Each is a clear 400 or 404 (or the login page), never a server error, and nothing is
stored. PostgreSQL is where this shows (it refuses NUL in text and integers past bigint);
.ci/run runs this file there too.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import NoReverseMatch
from helpers import built_once
from test_authorization_matrix import (
    ROUTES,
    Route,
    World,
    build_world,
    kwarg_values,
    owner_snapshot,
)
from test_authorization_matrix import url_for as matrix_url

from scoring.models import Hand

pytestmark = [pytest.mark.django_db, pytest.mark.slow]
HUGE = 9223372036854775807  # the largest bigint; a page's offset past it overflows
PAST_BIGINT = HUGE + 1
# The query keys and form fields the app's views read (and a few they do not).
KEYS = (
    "page", "after", "since", "q", "next", "variant", "status", "player", "other", "circle",
    "member", "role", "name", "client_id", "number", "token", "code", "days", "uses", "format",
    "side_0_cards", "side_0_spades", "pk", "language", "csrfmiddlewaretoken", "once",
)  # fmt: skip
NUL = "a\x00b"
User = get_user_model()
NAMED = [route for route in ROUTES if route.name is not None]  # the admin's catch-all has none


@pytest.fixture(scope="module")
def world(django_db_setup: None, django_db_blocker: Any) -> Iterator[World]:
    """One world for the module's six hundred tests (built once, rolled back after the last)."""
    with built_once(django_db_blocker):
        with django_db_blocker.unblock():
            owner = User.objects.create_user(username="ana")
            other = User.objects.create_user(username="mallory")
            built = build_world(owner, other, "Ana", "Ben")
        yield built


def url_for(route: Route, world: World, **override: Any) -> str:
    """The route's URL with the owner's objects in it; a kwarg the matrix has no object for (the
    key of an e-mailed link) gets a plain word."""
    known = kwarg_values(world)
    words = {kwarg: "word" for kwarg in route.kwargs if kwarg not in known}
    if "app_label" in words:  # the admin's pages of one app
        words["app_label"] = "scoring"
    return matrix_url(route, world, **{**words, **override})


def _owner(world: World) -> Client:
    client = Client()  # exceptions raise: a server error fails the test with its traceback
    client.force_login(world.owner)
    return client


def _str_kwargs(route: Route) -> list[str]:
    return [
        kwarg
        for kwarg in route.kwargs
        if f"<{kwarg}>" in route.route or f"str:{kwarg}" in route.route
    ]


def _int_kwargs(route: Route) -> list[str]:
    return [kwarg for kwarg in route.kwargs if f"int:{kwarg}" in route.route]


def _ok(status: int) -> bool:
    return status in (302, 400, 403, 404, 405, 410)


@pytest.mark.parametrize("route", [r for r in NAMED if _str_kwargs(r)], ids=lambda r: r.name)
@pytest.mark.parametrize("anonymous", [True, False], ids=["anonymous", "owner"])
def test_a_nul_in_a_text_part_of_the_address_is_not_found(
    world: World, route: Route, anonymous: bool
) -> None:
    client = Client() if anonymous else _owner(world)
    before = owner_snapshot(world.owner)
    for kwarg in _str_kwargs(route):
        try:
            url = url_for(route, world, **{kwarg: NUL})
        except NoReverseMatch:
            continue  # the pattern cannot hold a NUL: no such address reaches a view
        for method in (client.get, client.post):
            response = method(url)
            assert response.status_code in (302, 404, 405), (route.name, method, response)
    assert owner_snapshot(world.owner) == before


@pytest.mark.parametrize("route", [r for r in ROUTES if _int_kwargs(r)], ids=lambda r: r.name)
def test_an_id_past_any_column_is_not_found(world: World, route: Route) -> None:
    client = _owner(world)
    for kwarg in _int_kwargs(route):
        for value in (HUGE, PAST_BIGINT, 10**40):
            url = url_for(route, world, **{kwarg: value})
            for method in (client.get, client.post):
                response = method(url)
                assert _ok(response.status_code), (route.name, kwarg, value, response)


@pytest.mark.parametrize("route", NAMED, ids=lambda r: r.name)
def test_a_nul_or_a_huge_number_in_the_query_is_refused(world: World, route: Route) -> None:
    client = _owner(world)
    url = url_for(route, world)
    before = owner_snapshot(world.owner)
    with_nul = client.get(f"{url}?{urlencode(dict.fromkeys(KEYS, NUL))}")
    assert with_nul.status_code == 400, route.name
    for value in (HUGE, PAST_BIGINT, -HUGE, 10**40):
        response = client.get(f"{url}?{urlencode(dict.fromkeys(KEYS, value))}")
        assert response.status_code < 500, (route.name, value, response)
    assert owner_snapshot(world.owner) == before


@pytest.mark.parametrize("route", NAMED, ids=lambda r: r.name)
def test_a_nul_in_a_posted_field_is_no_server_error(world: World, route: Route) -> None:
    """Forms refuse a NUL with their message (nothing stored: the hand-entry and setup forms
    are fuzzed in tests/cross/test_bad_input.py); an action that reads no field (revoke, delete) may
    go ahead, as it would with any other junk beside it."""
    client = _owner(world)
    url = url_for(route, world)
    response = client.post(url, dict.fromkeys(KEYS, NUL))
    assert response.status_code < 500, route.name
    htmx = client.post(url, dict.fromkeys(KEYS, NUL), headers={"HX-Request": "true"})
    assert htmx.status_code < 500, route.name


@pytest.mark.parametrize("route", NAMED, ids=lambda r: r.name)
def test_huge_numbers_in_posted_fields_are_no_server_error(world: World, route: Route) -> None:
    client = _owner(world)
    url = url_for(route, world)
    for value in (PAST_BIGINT, 10**40):
        response = client.post(url, dict.fromkeys(KEYS, value))
        assert response.status_code < 500, (route.name, value, response)


def test_the_outbox_sync_refuses_a_nul_in_the_hands_id(world: World) -> None:
    client = _owner(world)
    url = url_for(next(r for r in ROUTES if r.name == "scoring:hand-sync"), world)
    response = client.post(url, {"client_id": "phone\x00-1", "number": 2})
    assert response.status_code == 400
    assert not Hand.objects.filter(match=world.match, number=2).exists()


@pytest.mark.parametrize("charset", ["utf-16", "utf-32", "latin-1", "cp1251", "nonsense"])
def test_a_form_in_another_charset_is_refused(world: World, charset: str) -> None:
    client = _owner(world)
    url = url_for(next(r for r in ROUTES if r.name == "scoring:hand-sync"), world)
    body = "client_id=x&number=2".encode("utf-16" if charset == "utf-16" else "utf-8")
    response = client.generic(
        "POST", url, body, content_type=f"application/x-www-form-urlencoded; charset={charset}"
    )
    assert response.status_code == 400
    assert not Hand.objects.filter(match=world.match, number=2).exists()


@pytest.mark.parametrize("path", ["/shared/%00/", "/join/%00/", "/matches/?page=%00"])
def test_anonymous_nul_addresses_answer_without_a_server_error(path: str) -> None:
    response = Client().get(path)
    assert response.status_code in (302, 400, 404)


def test_a_session_cookie_with_a_nul_is_a_signed_out_visitor(world: World) -> None:
    client = Client()
    client.cookies["sessionid"] = "abcdefgh\x00ijklmnop"
    response = client.get(url_for(next(r for r in ROUTES if r.name == "scoring:match-list"), world))
    assert response.status_code == 302  # to the login page, as for any unknown session


# A form in another charset, as a stranger's script or a broken client sends it: the 400 must
# not send Django's error handler to read the body again (its CSRF check reads the form, and
# Django refuses a form not in UTF-8 with another 400, raised inside the handler: a 500). The
# browser's CSRF cookie is there, as on any page that showed the form.
FOREIGN_FORMS = {
    "urlencoded utf-16": (
        "login=ana&password=x&csrfmiddlewaretoken=y".encode("utf-16"),
        "application/x-www-form-urlencoded; charset=utf-16",
    ),
    "urlencoded utf-32": (
        "login=ana&password=x".encode("utf-32"),
        "application/x-www-form-urlencoded; charset=UTF-32",
    ),
    "multipart utf-16": (
        '--b\r\nContent-Disposition: form-data; name="login"\r\n\r\nana\r\n--b--\r\n'.encode(
            "utf-16"
        ),
        "multipart/form-data; boundary=b; charset=utf-16",
    ),
}


@pytest.mark.parametrize("signed_in", [False, True], ids=["anonymous", "signed-in"])
def test_a_form_in_another_charset_is_a_400_on_every_url_with_csrf_checked(
    world: World, signed_in: bool
) -> None:
    client = Client(enforce_csrf_checks=True)  # as a browser: the error handler checks CSRF
    if signed_in:
        client.force_login(world.owner)
    client.cookies["csrftoken"] = "c" * 32
    answers = {}
    for route in NAMED:
        try:
            url = url_for(route, world)
        except NoReverseMatch:
            continue
        for form, (body, content_type) in FOREIGN_FORMS.items():
            response = client.generic("POST", url, body, content_type=content_type)
            answers[route.name, form] = response.status_code
    assert len(answers) > 3 * 100
    assert {key: status for key, status in answers.items() if status != 400} == {}
