"""Security: Content-Security-Policy without inline code, CSRF on every form and htmx request,
user-entered names escaped everywhere, and login throttling (django-axes)."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from datetime import timedelta
from html.parser import HTMLParser
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone
from helpers import HX, built_once
from test_authorization_matrix import (
    OWNER_MARK,
    ROUTES,
    World,
    all_pages,
    build_world,
    is_djangos_own,
    url_for,
)

from scoring.models import Hand, Player

pytestmark = pytest.mark.django_db
SCRIPT_NAME = "<script>alert(1)</script>"
ATTRIBUTE_NAME = '"><img src=x onerror=alert(2)>'
RAW_PAYLOADS = (SCRIPT_NAME, "<img src=x")
HAND = {"number": "2", "cards_0": "27", "spades_0": "7", "card_10D": "0", "card_AS": "0"}


@pytest.fixture
def world(user: Any, other_user: Any) -> World:
    return build_world(user, other_user, OWNER_MARK, "Yusuf")


class PageProblems(HTMLParser):
    """What a strict Content-Security-Policy would block or a page must not have."""

    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []
        self.post_forms_without_token = 0
        self.hx_headers: str | None = None
        self.loads_htmx = False
        self._script = False
        self._data_block = False
        self._form: dict[str, Any] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag == "script":
            self._script = True
            self._data_block = values.get("type", "").strip().lower() == "application/json"
            if not values.get("src") and not self._data_block:
                self.problems.append("<script> without src")
            self.loads_htmx = self.loads_htmx or "htmx" in values.get("src", "")
        if tag == "style":
            self.problems.append("<style> element")
        for name, value in values.items():
            if name.startswith("on"):
                self.problems.append(f"event handler attribute {name}")
            if name == "style":
                self.problems.append(f"style attribute on <{tag}>")
            if name.startswith(("hx-on", "data-hx-on")):
                self.problems.append(f"{name} (needs eval)")
            if name in ("hx-vals", "hx-vars") and value.strip().startswith(("js:", "javascript:")):
                self.problems.append(f"{name} with JavaScript (needs eval)")
            if name == "hx-trigger" and "[" in value:
                self.problems.append("hx-trigger filter (needs eval)")
            if value.strip().lower().startswith("javascript:"):
                self.problems.append(f"javascript: URL in {name}")
        if tag == "body":
            self.hx_headers = values.get("hx-headers")
        if tag == "form" and values.get("method", "get").lower() == "post":
            self._form = {"token": False}
        if (
            tag == "input"
            and self._form is not None
            and values.get("name") == ("csrfmiddlewaretoken")
        ):
            self._form["token"] = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._script = False
        if tag == "form" and self._form is not None:
            if not self._form["token"]:
                self.post_forms_without_token += 1
            self._form = None

    def handle_data(self, data: str) -> None:
        if self._script and data.strip():
            if not self._data_block:
                self.problems.append("inline script code")
                return
            # A data block (allauth's passkey script reads its settings from one): never run, so
            # the policy allows it, as long as it holds nothing but JSON.
            try:
                json.loads(data)
            except ValueError:
                self.problems.append("a JSON data block that is not JSON")


def _parse(body: str) -> PageProblems:
    parser = PageProblems()
    parser.feed(body)
    parser.close()
    return parser


def _html_pages(world: World, *, htmx: bool = False) -> list[tuple[str, Any]]:
    """(URL, response) of every HTML page the app serves, as its owner sees it (public pages
    anonymously; the public pages that send the anonymous elsewhere, such as the accounts' e-mail
    address, passkeys or logout, as the owner)."""
    owner = Client()
    owner.force_login(world.owner)
    anonymous = Client()
    pages = []
    for route, url in all_pages(world):
        client = anonymous if route.is_public or route.is_share_link else owner
        response = client.get(url, headers=HX if htmx else {})
        if client is anonymous and route.is_public and response.status_code in (301, 302):
            response = owner.get(url, headers=HX if htmx else {})
        if response.status_code == 200 and response["Content-Type"].startswith("text/html"):
            pages.append((url, response))
    return pages


# --- Content-Security-Policy ---------------------------------------------------------------------


@pytest.mark.slow
def test_every_page_has_a_policy_that_allows_no_inline_script(world: World) -> None:
    pages = _html_pages(world)
    assert len(pages) >= 10
    for url, response in pages:
        policy = response.get("Content-Security-Policy", "")
        directives = dict(
            (part.split()[0], part.split()[1:]) for part in policy.split(";") if part.strip()
        )
        assert directives.get("script-src") == ["'self'"], url
        assert directives.get("style-src") == ["'self'"], url
        assert directives.get("frame-ancestors") == ["'none'"], url
        assert "unsafe" not in policy, url


@pytest.mark.slow
@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx fragment"])
def test_no_page_has_inline_script_style_or_event_handlers(world: World, htmx: bool) -> None:
    for url, response in _html_pages(world, htmx=htmx):
        problems = _parse(response.content.decode()).problems
        assert not problems, f"{url}: {problems} (the Content-Security-Policy blocks these)"


def test_htmx_is_told_not_to_inject_its_indicator_style(user_client: Client) -> None:
    body = user_client.get(reverse("scoring:match-list")).content.decode()
    config = re.search(r"""<meta name="htmx-config" content='([^']*)'>""", body)
    assert config, "no htmx-config meta"
    assert json.loads(html.unescape(config.group(1)))["includeIndicatorStyles"] is False


# --- CSRF ----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def refused_world(django_db_setup: None, django_db_blocker: Any) -> Iterator[World]:
    """One world for the refused posts, one a route (built once, rolled back after the last: a
    refused post writes nothing, and each test checks it)."""
    with built_once(django_db_blocker):
        with django_db_blocker.unblock():
            users = get_user_model().objects
            owner = users.create_user(username="csrf-owner")
            other = users.create_user(username="csrf-other")
            built = build_world(owner, other, OWNER_MARK, "Yusuf")
        yield built


@pytest.mark.parametrize(
    "route",
    [route for route in ROUTES if not is_djangos_own(route)],
    ids=lambda route: route.name or route.route,
)
def test_post_without_csrf_token_is_refused(route: Any, refused_world: World) -> None:
    world = refused_world
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.owner)
    before = Hand.objects.count(), Player.objects.count()
    response = client.post(url_for(route, world), HAND, headers=HX)
    assert response.status_code == 403, f"{route.name}: {response.status_code}"
    assert (Hand.objects.count(), Player.objects.count()) == before


def test_admin_login_needs_the_csrf_token_too() -> None:
    response = Client(enforce_csrf_checks=True).post(reverse("admin:login"), {})
    assert response.status_code == 403


@pytest.mark.slow
def test_every_post_form_carries_the_token_and_every_page_gives_it_to_htmx(world: World) -> None:
    pages = [(url, _parse(response.content.decode())) for url, response in _html_pages(world)]
    for url, page in pages:
        assert page.post_forms_without_token == 0, f"{url}: a POST form without {{% csrf_token %}}"
        if page.loads_htmx:
            assert page.hx_headers and "X-CSRFToken" in page.hx_headers, url
    assert sum(page.loads_htmx for _, page in pages) >= 10


def _csrf_token(body: str) -> str:
    match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body)
    assert match, "no csrf token in the page"
    return match.group(1)


def test_plain_form_post_with_the_pages_token_records_the_hand(world: World) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.owner)
    page = client.get(world.match.get_absolute_url()).content.decode()
    data = {**HAND, "csrfmiddlewaretoken": _csrf_token(page)}
    response = client.post(reverse("scoring:hand-create", args=[world.match.pk]), data)
    assert response.status_code == 302
    assert world.match.hands.count() == 2


def test_htmx_post_with_the_token_from_hx_headers_records_the_hand(world: World) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.owner)
    page = _parse(client.get(world.match.get_absolute_url()).content.decode())
    token = re.search(r'"X-CSRFToken": "([^"]+)"', page.hx_headers or "")
    assert token
    response = client.post(
        reverse("scoring:hand-create", args=[world.match.pk]),
        HAND,
        headers={**HX, "X-CSRFToken": token.group(1)},
    )
    assert response.status_code == 200 and "Hand 2 saved:" in response.content.decode()
    assert world.match.hands.count() == 2


# --- Names are escaped everywhere ----------------------------------------------------------------


@pytest.fixture
def hostile(user: Any, other_user: Any) -> World:
    return build_world(user, other_user, SCRIPT_NAME, ATTRIBUTE_NAME)


def _assert_escaped(url: str, body: str) -> None:
    for payload in RAW_PAYLOADS:
        assert payload not in body, f"{url} shows {payload!r} unescaped"


@pytest.mark.slow
@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx fragment"])
def test_hostile_player_names_are_escaped_on_every_page(hostile: World, htmx: bool) -> None:
    pages = _html_pages(hostile, htmx=htmx)
    for url, response in pages:
        _assert_escaped(url, response.content.decode())
    scoreboard = dict(pages)[hostile.match.get_absolute_url()].content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in scoreboard
    assert "&quot;&gt;&lt;img src=x onerror=alert(2)&gt;" in scoreboard


def test_hostile_names_are_escaped_in_what_posts_return(hostile: World) -> None:
    client = Client()
    client.force_login(hostile.owner)
    pk = hostile.match.pk
    responses = {
        "preview": client.post(reverse("scoring:hand-preview", args=[pk]), HAND, headers=HX),
        "hand refused": client.post(
            reverse("scoring:hand-create", args=[pk]), {**HAND, "cards_1": "3"}, headers=HX
        ),
        "hand saved": client.post(reverse("scoring:hand-create", args=[pk]), HAND, headers=HX),
        "sweep": client.post(
            reverse("scoring:hand-create", args=[pk]), {**HAND, "step": "0:+1"}, headers=HX
        ),
        "player exists": client.post(reverse("scoring:player-list"), {"name": SCRIPT_NAME}),
        "seat taken": client.post(
            reverse("scoring:match-new"),
            {"variant": "casino", "layout": "2", "target": "21", "first_dealer": "0"}
            | {"seat_0": SCRIPT_NAME, "seat_1": SCRIPT_NAME},
        ),
    }
    for what, response in responses.items():
        assert response.status_code in (200, 400), what
        _assert_escaped(what, response.content.decode())
    assert "&lt;script&gt;" in responses["player exists"].content.decode()


# --- Login throttling ------------------------------------------------------------------------------

LOGIN = "/accounts/login/"


def _log_in(client: Client, password: str, username: str = "ana", **extra: Any) -> Any:
    return client.post(LOGIN, {"login": username, "password": password}, **extra)


def _logged_in(client: Client) -> bool:
    return client.get(reverse("scoring:match-list")).status_code == 200


def test_five_wrong_passwords_lock_the_login_even_for_the_right_one(client: Client, user) -> None:
    for _ in range(4):
        assert _log_in(client, "wrong").status_code == 200  # the form, with its error
    locked = _log_in(client, "wrong")
    assert locked.status_code == 429
    assert "Too many failed logins" in locked.content.decode()
    assert _log_in(client, "casino-pass-1").status_code == 429
    assert not _logged_in(client)


def test_naming_the_account_another_way_buys_no_more_guesses(client: Client, user) -> None:
    from allauth.account.models import EmailAddress

    EmailAddress.objects.create(user=user, email="ana@example.com", verified=True, primary=True)
    for name in ("ana", "ANA", "Ana", "ana@example.com"):
        _log_in(client, "wrong", username=name)
    locked = _log_in(client, "wrong", username="ANA@example.com")
    assert locked.status_code == 429
    assert _log_in(client, "casino-pass-1").status_code == 429


def test_the_lock_is_per_username_and_address(client: Client, user, other_user) -> None:
    for _ in range(5):
        _log_in(client, "wrong")
    assert _log_in(client, "casino-pass-2", username="mallory").status_code == 302
    elsewhere = Client(REMOTE_ADDR="192.0.2.7")
    assert _log_in(elsewhere, "casino-pass-1").status_code == 302


def test_the_lock_ends_after_the_cool_off(client: Client, user) -> None:
    for _ in range(5):
        _log_in(client, "wrong")
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))
    assert _log_in(client, "casino-pass-1").status_code == 302
    assert _logged_in(client)


def test_a_successful_login_clears_the_failures(client: Client, user) -> None:
    for _ in range(4):
        _log_in(client, "wrong")
    assert _log_in(client, "casino-pass-1").status_code == 302
    client.logout()
    for _ in range(4):
        assert _log_in(client, "wrong").status_code == 200
    assert _log_in(client, "casino-pass-1").status_code == 302


def test_the_admin_login_is_throttled_too(client: Client, user) -> None:
    for _ in range(5):
        response = client.post(reverse("admin:login"), {"username": "ana", "password": "wrong"})
    assert response.status_code == 429


def test_tests_can_still_log_in_by_password_when_they_pass_the_request(client: Client, user):
    request = RequestFactory().get("/")
    assert client.login(request=request, username="ana", password="casino-pass-1")
    assert _logged_in(client)


# --- Login throttling behind a proxy ---------------------------------------------------------------

PROXY = "127.0.0.1"  # a trusted proxy (FORWARDED_ALLOW_IPS' default: loopback)
STRANGER = "198.51.100.66"


@pytest.fixture
def behind_one_proxy(settings: Any) -> None:
    settings.TRUSTED_PROXY_COUNT = 1
    settings.TRUSTED_PROXIES = ["127.0.0.1", "::1"]


def test_behind_a_proxy_a_strangers_guesses_do_not_lock_the_player_out(
    user, behind_one_proxy
) -> None:
    stranger = Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=STRANGER)
    for _ in range(5):
        response = _log_in(stranger, "wrong")
    assert response.status_code == 429
    player = Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert _log_in(player, "casino-pass-1").status_code == 302
    assert AccessAttempt.objects.get().ip_address == STRANGER


def test_an_address_written_by_the_client_before_the_proxys_is_not_believed(
    user, behind_one_proxy
) -> None:
    for guess in range(5):
        forged = Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=f"10.9.8.{guess}, {STRANGER}")
        response = _log_in(forged, "wrong")
    assert response.status_code == 429  # the right-most address, the one the proxy wrote


def test_a_client_reaching_the_app_directly_cannot_change_its_address(
    user, behind_one_proxy
) -> None:
    """DJANGO_TRUSTED_PROXY_COUNT=1, but the app is also reachable without the proxy: the header
    a client sends straight to the app is its own invention, not a new address per guess."""
    statuses = []
    for guess in range(8):
        direct = Client(REMOTE_ADDR=STRANGER, HTTP_X_FORWARDED_FOR=f"10.9.8.{guess}")
        statuses.append(_log_in(direct, "wrong").status_code)
    assert statuses == [200] * 4 + [429] * 4
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {STRANGER}


def test_junk_in_the_proxys_header_is_not_stored_as_an_address(user, behind_one_proxy) -> None:
    junk = Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="not-an-address")
    assert _log_in(junk, "wrong").status_code == 200
    assert AccessAttempt.objects.get().ip_address == PROXY


def test_a_login_name_too_long_for_any_account_is_still_counted(client: Client, user) -> None:
    from axes.models import AccessAttempt

    long_name = "9" * 5000
    assert _log_in(client, "wrong", username=long_name).status_code == 200
    (attempt,) = AccessAttempt.objects.all()
    assert len(attempt.username) <= 255 and attempt.username == long_name[:255]
