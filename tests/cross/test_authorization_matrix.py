"""Every URL the app has, walked from the URL resolver, as anonymous, as another user and as the
owner, with GET and POST: only the owner gets in.

New pages are covered without touching this file, as long as their URL kwargs are in
KWARG_VALUES (the test fails and says so otherwise) and they are not public (PUBLIC lists those).
A pattern with a `token` kwarg is a share link: public and read-only.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Model
from django.http import HttpResponse
from django.shortcuts import resolve_url
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from helpers import FIRST_8, built_once

from scoring.circles import invites
from scoring.engine.rules import Rules
from scoring.events import services as events
from scoring.matches import services
from scoring.models import Event, EventTable, Invite, Match, Player

# Pages anyone may open: by URL name, plus everything under these route prefixes.
PUBLIC_NAMES = {
    "healthz",
    "manifest",  # the app's name and icons, for installing it
    "service-worker",  # keeps only pages the signed-in reader was already allowed to open
    "scoring:home",
    "scoring:signup",
    "scoring:rules",
    "scoring:rules-variant",
    "scoring:language",
    "scoring:invite-join",
    "scoring:account-deleted",
    "scoring:guest-start",  # "Start a match" without an account: makes a guest of anyone
}
PUBLIC_PREFIXES = ("accounts/", "admin/")
OWNER_MARK = "Zelda-Owner-Only"  # a name only the owner's pages may show
WRONG_TOKEN = "not-the-share-token"


@dataclass(frozen=True)
class Route:
    name: str | None  # "scoring:match"; None for an unnamed pattern
    route: str  # "matches/<int:pk>/"
    kwargs: tuple[str, ...]

    @property
    def is_public(self) -> bool:
        return self.name in PUBLIC_NAMES or self.route.startswith(PUBLIC_PREFIXES)

    @property
    def is_share_link(self) -> bool:
        return "token" in self.kwargs


def _kwarg_names(pattern: Any) -> list[str]:
    """The kwargs of a path() (its converters) or of a re_path() (its named groups: allauth's
    e-mail confirmation and password reset links are those)."""
    converters = getattr(pattern, "converters", None)
    if converters:
        return list(converters)
    return list(pattern.regex.groupindex)


def walk_routes(
    resolver: URLResolver | None = None, prefix: str = "", namespace: str = "", kwargs: tuple = ()
) -> Iterator[Route]:
    """Every URL pattern under `resolver` (the project's by default), includes followed."""
    resolver = resolver or get_resolver()
    for entry in resolver.url_patterns:
        route = prefix + str(entry.pattern).lstrip("^").rstrip("$")
        names = (*kwargs, *_kwarg_names(entry.pattern))
        if isinstance(entry, URLResolver):
            inner = ":".join(part for part in (namespace, entry.namespace or "") if part)
            yield from walk_routes(entry, route, inner, names)
        elif isinstance(entry, URLPattern):
            name = f"{namespace}:{entry.name}" if namespace and entry.name else entry.name
            yield Route(name, route, names)


ROUTES = sorted(walk_routes(), key=lambda route: route.route)
PROTECTED = [route for route in ROUTES if not route.is_public]


@dataclass
class World:
    """The owner's data every URL kwarg can point at."""

    owner: Any
    other: Any
    match: Match
    player: Player
    opponent: Player
    invite: Invite
    event: Event
    table: EventTable
    won: Match  # a won match, shared: what only a finished match has (its result card)
    night: Event  # a finished club night, its big screen shared


# Routes whose page needs one of the world's finished objects: route name -> its kwargs.
FINISHED_KWARGS = {
    "scoring:match-card": lambda world: {"pk": world.won.pk},
    "scoring:shared-card": lambda world: {"token": world.won.share_token},
    "scoring:event-card": lambda world: {"pk": world.night.pk},
    "scoring:screen-card": lambda world: {"token": world.night.share_token},
}


def build_world(owner: Any, other: Any, name: str, opponent_name: str) -> World:
    """The owner's match between `name` and `opponent_name`, one hand played, shared."""
    player = services.player_create(circle=owner.personal_circle, name=name)
    opponent = services.player_create(circle=owner.personal_circle, name=opponent_name)
    match = services.match_start(
        circle=owner.personal_circle, rules=Rules.make("casino"), sides=[[player], [opponent]]
    )
    services.hand_record(match=match, number=1, tallies=FIRST_8)
    Match.objects.filter(pk=match.pk).update(
        share_token=f"share-token-{match.pk}", scoring_token=f"scoring-token-{match.pk}"
    )
    match.refresh_from_db()
    invite = invites.invite_create(circle=owner.personal_circle, by=owner)
    event = events.event_create(
        circle=owner.personal_circle,
        by=owner,
        name=f"{name} night",
        day=datetime.date(2026, 12, 4),
        fmt=Event.Format.SWISS,
        rules=Rules.make("casino"),
        players=[player, opponent],
    )
    paired = events.round_pair(event=event, number=1, by=owner)
    Event.objects.filter(pk=event.pk).update(share_token=f"screen-token-{event.pk}")
    event.refresh_from_db()
    table = paired.tables.get()
    won = services.match_start(
        circle=owner.personal_circle, rules=Rules.make("casino"), sides=[[player], [opponent]]
    )
    night = events.event_create(
        circle=owner.personal_circle,
        by=owner,
        name=f"{name} final",
        day=datetime.date(2026, 12, 5),
        fmt=Event.Format.SWISS,
        rules=Rules.make("casino"),
        players=[player, opponent],
        rounds=1,
    )
    final = events.round_pair(event=night, number=1, by=owner).tables.get().match
    for played in (won, final):
        for number in (1, 2, 3):  # 8 - 3 a hand: won at 24
            services.hand_record(match=played, number=number, tallies=FIRST_8)
    Match.objects.filter(pk=won.pk).update(share_token=f"won-token-{won.pk}")
    Event.objects.filter(pk=night.pk).update(share_token=f"night-token-{night.pk}")
    won.refresh_from_db()
    night.refresh_from_db()
    assert won.status == Match.Status.WON
    return World(owner, other, match, player, opponent, invite, event, table, won, night)


@pytest.fixture(scope="module")
def world(django_db_setup: None, django_db_blocker: Any) -> Iterator[World]:
    """One world for every route of the matrix (built once, rolled back after the last test)."""
    with built_once(django_db_blocker):
        with django_db_blocker.unblock():
            owner = get_user_model().objects.create_user(username="ana")
            other = get_user_model().objects.create_user(username="mallory")
            built = build_world(owner, other, OWNER_MARK, "Yusuf")
        yield built


def kwarg_values(world: World) -> dict[str | tuple[str, str], Any]:
    """URL kwarg → value: by (path segment before it, name) first, then by name alone."""
    return {
        ("players", "pk"): world.player.pk,
        ("matches", "pk"): world.match.pk,
        ("circles", "pk"): world.owner.personal_circle.pk,
        ("events", "pk"): world.event.pk,
        ("screen", "token"): world.event.share_token,
        ("score", "token"): world.match.scoring_token,
        "pk": world.match.pk,
        "number": 1,
        "position": 0,
        "token": world.match.share_token,
        "other": world.opponent.pk,
        "variant": world.match.variant,
        "player_pk": world.player.pk,
        "player_id": world.player.pk,
        "player": world.player.pk,
        "opponent_pk": world.opponent.pk,
        "other_pk": world.opponent.pk,
        "circle": world.owner.personal_circle.pk,
        "invite": world.invite.pk,
        "code": world.invite.token,
    }


def url_for(route: Route, world: World, **override: Any) -> str:
    """The route's URL with the owner's objects in it; fails on a kwarg it does not know."""
    if route.name is None:
        pytest.fail(f"URL pattern {route.route!r} has no name: name it (style: kebab-case).")
    values = kwarg_values(world)
    override = {**FINISHED_KWARGS.get(route.name, lambda world: {})(world), **override}
    kwargs = {}
    for kwarg in route.kwargs:
        segment = re.search(rf"([^/<>]+)/<(?:\w+:)?{kwarg}>", route.route)
        key = (segment.group(1), kwarg) if segment else None
        if kwarg in override:
            kwargs[kwarg] = override[kwarg]
        elif key in values:
            kwargs[kwarg] = values[key]
        elif kwarg in values:
            kwargs[kwarg] = values[kwarg]
        else:
            pytest.fail(
                f"URL {route.name} ({route.route}) has a kwarg {kwarg!r} that the authorization "
                f"matrix does not know: add it to kwarg_values() in "
                f"tests/cross/test_authorization_matrix.py, pointing at an object the owner has."
            )
    return reverse(route.name, kwargs=kwargs)


def owner_snapshot(owner: Any) -> dict[str, list[dict[str, Any]]]:
    """Every row of the scoring app in `owner`'s circle (found by following foreign keys)."""
    snapshot = {}
    for model in apps.get_app_config("scoring").get_models():
        path = _path_to_owner(model)
        if path:
            rows = model.objects.filter(**{path: owner.personal_circle}).order_by("pk").values()
            snapshot[model.__name__] = list(rows)
    return snapshot


def _path_to_owner(model: type[Model], depth: int = 3) -> str | None:
    fields = [field for field in model._meta.get_fields() if field.many_to_one]
    for field in fields:
        if field.name == "circle":
            return "circle"
    if depth == 0:
        return None
    for field in fields:
        if field.related_model and field.related_model is not model:
            inner = _path_to_owner(field.related_model, depth - 1)
            if inner:
                return f"{field.name}__{inner}"
    return None


def login_redirect(response: HttpResponse) -> bool:
    login_url = resolve_url(settings.LOGIN_URL)
    return response.status_code == 302 and response["Location"].startswith(login_url)


def sent_to_log_in(response: HttpResponse) -> bool:
    """The login page, or for a script's JSON endpoint (which cannot follow a redirect to a
    form) a 401 saying so."""
    json_401 = response.status_code == 401 and response["Content-Type"] == "application/json"
    return login_redirect(response) or json_401


def refused(response: HttpResponse) -> bool:
    return response.status_code in (403, 404, 405) or sent_to_log_in(response)


def gets_in(response: HttpResponse) -> bool:
    return not refused(response)


def _describe(who: str, method: str, url: str, response: HttpResponse) -> str:
    where = f" → {response['Location']}" if response.has_header("Location") else ""
    return f"{who} {method} {url}: {response.status_code}{where}"


def _request(client: Client, method: str, url: str) -> HttpResponse:
    return client.get(url) if method == "GET" else client.post(url, {})


def _body(response: HttpResponse) -> bytes:
    """The body of a response, streamed (a whole history exported) or not."""
    return b"".join(response.streaming_content) if response.streaming else response.content


def _as(user: Any | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_the_walk_finds_the_pages_of_the_app() -> None:
    names = {route.name for route in ROUTES}
    assert {"scoring:match", "scoring:hand-create", "scoring:match-new", "login"} <= names
    assert len(PROTECTED) >= 10


@pytest.mark.django_db
def test_a_url_kwarg_the_matrix_does_not_know_fails_and_says_where_to_add_it(
    world: World,
) -> None:
    route = Route(
        "scoring:match", "matches/<int:pk>/rounds/<slug:round_slug>/", ("pk", "round_slug")
    )
    with pytest.raises(pytest.fail.Exception, match=r"'round_slug'.*add it to kwarg_values"):
        url_for(route, world)


@pytest.mark.django_db
@pytest.mark.parametrize("route", PROTECTED, ids=lambda route: route.name or route.route)
def test_only_the_owner_gets_in(route: Route, world: World) -> None:
    if route.is_share_link:
        _check_share_link(route, world)
        return
    url = url_for(route, world)
    before = owner_snapshot(world.owner)
    outsiders = {
        method: (_request(_as(None), method, url), _request(_as(world.other), method, url))
        for method in ("GET", "POST")
    }
    assert owner_snapshot(world.owner) == before, f"{route.name}: someone else changed the data"
    owner_client = _as(world.owner)
    owner = {method: _request(owner_client, method, url) for method in ("GET", "POST")}
    entered = [method for method in ("GET", "POST") if gets_in(owner[method])]
    assert entered, (
        f"{route.name}: the owner gets in with neither GET nor POST "
        f"({owner['GET'].status_code}, {owner['POST'].status_code}); if the page is public, add "
        f"it to PUBLIC_NAMES, else check that kwarg_values() points at the owner's objects"
    )
    for method, (anonymous, other) in outsiders.items():
        for who, response in (("anonymous", anonymous), ("another user", other)):
            assert OWNER_MARK not in _body(response).decode(errors="replace"), _describe(
                who, method, url, response
            )
        if method in entered:
            assert sent_to_log_in(anonymous), _describe("anonymous", method, url, anonymous)
            if route.kwargs:  # a page about one of the owner's objects
                assert refused(other) or other.status_code in (301, 302, 303), _describe(
                    "another user", method, url, other
                )
        else:
            assert refused(anonymous), _describe("anonymous", method, url, anonymous)
            assert refused(other), _describe("another user", method, url, other)


def _check_share_link(route: Route, world: World) -> None:
    """Anyone with the token reads; nobody writes; a wrong token shows nothing. (A scoring
    link's token opens its match's board: test_a_scoring_link_reaches_its_match_only.)"""
    url = url_for(route, world)
    if route.name == SCORING_OPEN:
        _check_scoring_open(url, url_for(route, world, token=WRONG_TOKEN), world)
        return
    wrong = url_for(route, world, token=WRONG_TOKEN)
    before = owner_snapshot(world.owner)
    for who, user in (("anonymous", None), ("another user", world.other), ("owner", world.owner)):
        client = _as(user)
        response = client.get(url)
        assert response.status_code == 200, _describe(who, "GET", url, response)
        response = client.post(url, {})
        assert response.status_code in (403, 405), _describe(who, "POST", url, response)
        response = client.get(wrong)
        assert response.status_code == 404, _describe(who, "GET", wrong, response)
    assert owner_snapshot(world.owner) == before, f"{route.name}: the share link changed data"


# A scoring link's holder (signed in elsewhere or not at all) may use these pages of its match,
# and no other page of the owner's.
SCORING_OPEN = "scoring:scoring-open"
LINKED_NAMES = {
    "scoring:match",
    "scoring:match-sheet",
    "scoring:hand",
    "scoring:hand-create",
    "scoring:hand-preview",
    "scoring:hand-edit",
    "scoring:hand-history",
    "scoring:hand-delete",
}


def _check_scoring_open(url: str, wrong: str, world: World) -> None:
    before = owner_snapshot(world.owner)
    for who, user in (("anonymous", None), ("another user", world.other), ("owner", world.owner)):
        client = _as(user)
        response = client.get(url)
        assert response.status_code == 302, _describe(who, "GET", url, response)
        assert response["Location"] == world.match.get_absolute_url()
        response = client.post(url, {})
        assert response.status_code == 405, _describe(who, "POST", url, response)
        response = client.get(wrong)
        assert response.status_code == 404, _describe(who, "GET", wrong, response)
    assert owner_snapshot(world.owner) == before, "the scoring link's page changed data"


def _holding_the_link(user: Any | None, world: World) -> Client:
    client = _as(user)
    opened = client.get(reverse(SCORING_OPEN, args=[world.match.scoring_token]))
    assert opened.status_code == 302
    return client


@pytest.mark.django_db
@pytest.mark.parametrize(
    "route", [route for route in PROTECTED if not route.is_share_link], ids=lambda r: r.name
)
def test_a_scoring_link_reaches_its_match_only(route: Route, world: World) -> None:
    url = url_for(route, world)
    before = owner_snapshot(world.owner)
    for who, user in (("anonymous", None), ("another user", world.other)):
        client = _holding_the_link(user, world)
        answers = {method: _request(client, method, url) for method in ("GET", "POST")}
        if route.name in LINKED_NAMES and f"/matches/{world.match.pk}/" in url:
            assert any(gets_in(answer) for answer in answers.values()), [
                _describe(who, method, url, answer) for method, answer in answers.items()
            ]
            continue
        for method, answer in answers.items():
            body = _body(answer).decode(errors="replace")
            assert OWNER_MARK not in body, _describe(who, method, url, answer)
            if user is None:
                assert refused(answer), _describe(who, method, url, answer)
            elif route.kwargs:
                assert refused(answer) or answer.status_code in (301, 302, 303), _describe(
                    who, method, url, answer
                )
    assert owner_snapshot(world.owner) == before, f"{route.name}: a link holder changed data"


def test_the_scoring_link_pages_are_the_match_loops() -> None:
    names = {route.name for route in ROUTES}
    assert names >= LINKED_NAMES and SCORING_OPEN in names


@pytest.mark.django_db
@pytest.mark.parametrize(
    "route", [route for route in ROUTES if route.name in PUBLIC_NAMES], ids=lambda r: r.name
)
def test_public_pages_open_without_login(route: Route, world: World) -> None:
    url = url_for(route, world)
    responses = {method: _request(Client(), method, url) for method in ("GET", "POST")}
    assert any(gets_in(response) for response in responses.values()), [
        _describe("anonymous", method, url, response) for method, response in responses.items()
    ]


def is_djangos_own(route: Route) -> bool:
    """The admin, and the accounts' links with a key in them (e-mail confirmation, password
    reset, a passkey's pages), whose kwargs only django-allauth can make."""
    return route.route.startswith("admin/") or (
        route.route.startswith("accounts/") and bool(route.kwargs)
    )


def all_pages(world: World) -> Iterator[tuple[Route, str]]:
    """(route, URL) of every page of the app (Django's own aside), for the security tests."""
    for route in ROUTES:
        if not is_djangos_own(route):
            yield route, url_for(route, world)
