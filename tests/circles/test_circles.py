"""Circles: the list and one tap to switch, starting one, a circle's members and roles, leaving,
"this is me", the record on the home page and the current circle in the header.

The rules (scoring/circles/services.py): a circle always keeps an admin; a personal circle keeps its
owner, as an admin; only admins manage members; a removed member loses access at once."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection
from django.http import Http404
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import include, path, reverse
from helpers import HX, app_url, examples
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase

from scoring.access import SESSION_KEY, Scope
from scoring.circles import selectors as circle_selectors
from scoring.circles import services as circles
from scoring.engine.rules import Rules
from scoring.matches import services
from scoring.models import Circle, Match, Membership, Player, PlayerRecordStat

pytestmark = pytest.mark.django_db
ADMIN, MEMBER = Membership.Role.ADMIN, Membership.Role.MEMBER


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _join(circle: Circle, user: Any, role: str = MEMBER) -> Membership:
    """`user` joins `circle` (what an accepted invite does)."""
    return Membership.objects.create(circle=circle, user=user, role=role)


def _membership(circle: Circle, user: Any) -> Membership | None:
    return Membership.objects.filter(circle=circle, user=user).first()


def _header(body: str) -> str:
    return body.split('<header class="top">')[1].split("</header>")[0]


@pytest.fixture
def friday(user: Any) -> Circle:
    """A circle that ana started (she is its admin)."""
    return circles.circle_create(name="Friday", by=user)


@pytest.fixture
def ben(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user(username="ben")


@pytest.fixture
def ben_in_friday(friday: Circle, ben: Any) -> Membership:
    return _join(friday, ben)


# --- the list of circles, and switching ------------------------------------------------------


def test_the_circles_page_lists_the_accounts_circles_with_the_current_one_marked(
    user_client: Client, user: Any, friday: Circle, other_user: Any
) -> None:
    circles.circle_create(name="Not hers", by=other_user)
    body = user_client.get(reverse("scoring:circles")).content.decode()
    rows = re.findall(r'<li class="circle-row[^"]*".*?</li>', body, re.S)
    assert len(rows) == 2  # her personal circle and Friday; not mallory's
    personal, shared = rows
    assert "ana" in personal and "Personal" in personal and "Your role: admin" in personal
    # The current circle (the personal one at first) is marked in words, not by colour only.
    assert 'aria-current="true"' in personal and "Current circle" in personal
    assert "Switch to" not in personal
    assert "Friday" in shared and "Personal" not in shared and "aria-current" not in shared
    assert f'action="{app_url("circle-switch", friday)}"' in shared
    assert "Not hers" not in body


def test_one_tap_switches_and_goes_to_the_circles_matches(
    user_client: Client, user: Any, friday: Circle
) -> None:
    response = user_client.post(app_url("circle-switch", friday))
    assert response.status_code == 302 and response["Location"] == reverse("scoring:match-list")
    assert user_client.session[SESSION_KEY] == friday.pk
    page = user_client.get(reverse("scoring:match-list")).content.decode()
    assert "Friday" in _header(page)
    assert "You are in Friday now." in page
    rows = user_client.get(reverse("scoring:circles")).content.decode()
    current = re.search(r'<li class="circle-row current".*?</li>', rows, re.S)
    assert current and "Friday" in current.group(0)


def test_a_switch_goes_back_to_a_page_of_the_site_but_never_elsewhere(
    user_client: Client, friday: Circle
) -> None:
    url = app_url("circle-switch", friday)
    back = user_client.post(url, {"next": "/players/"})
    assert back["Location"] == "/players/"
    for foreign in ("https://evil.example/", "//evil.example/", "javascript:alert(1)"):
        response = user_client.post(url, {"next": foreign})
        assert response["Location"] == reverse("scoring:match-list"), foreign


def test_switching_to_a_circle_of_others_is_not_found(
    user_client: Client, user: Any, other_user: Any
) -> None:
    theirs = circles.circle_create(name="Theirs", by=other_user)
    assert user_client.post(app_url("circle-switch", theirs)).status_code == 404
    assert user_client.post(app_url("circle-switch", other_user.personal_circle)).status_code == 404
    assert user_client.session.get(SESSION_KEY) != theirs.pk


def test_switch_only_by_post(user_client: Client, friday: Circle) -> None:
    assert user_client.get(app_url("circle-switch", friday)).status_code == 405


# --- starting a circle -----------------------------------------------------------------------


def test_starting_a_circle_makes_its_creator_admin_and_it_becomes_current(
    user_client: Client, user: Any
) -> None:
    response = user_client.post(reverse("scoring:circles"), {"name": "  Thursday club  "})
    circle = Circle.objects.get(name="Thursday club")
    assert response.status_code == 302 and response["Location"] == app_url("circle", circle)
    assert circle.personal_for is None
    assert list(circle.memberships.values_list("user__username", "role")) == [("ana", ADMIN)]
    assert user_client.session[SESSION_KEY] == circle.pk
    page = user_client.get(response["Location"]).content.decode()
    assert "Thursday club" in _header(page)


@pytest.mark.parametrize("name", ["", "   ", "x" * 61])
def test_a_circle_needs_a_name_of_1_to_60_characters(user_client: Client, name: str) -> None:
    before = Circle.objects.count()
    response = user_client.post(reverse("scoring:circles"), {"name": name})
    assert response.status_code == 400
    assert 'class="errors"' in response.content.decode()
    assert Circle.objects.count() == before


def test_a_name_of_60_characters_fits(user_client: Client) -> None:
    user_client.post(reverse("scoring:circles"), {"name": "x" * 60})
    assert Circle.objects.filter(name="x" * 60).exists()


def test_a_double_tap_starts_one_circle(user_client: Client) -> None:
    page = user_client.get(reverse("scoring:circles")).content.decode()
    token = re.search(r'name="form_once" value="([^"]+)"', page)
    assert token, "the form carries no one-time token"
    data = {"name": "Twice", "form_once": token.group(1)}
    first = user_client.post(reverse("scoring:circles"), data)
    second = user_client.post(reverse("scoring:circles"), data)
    assert Circle.objects.filter(name="Twice").count() == 1
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"]


def test_the_service_refuses_a_bad_name_too(user: Any) -> None:
    for name in ("", " \t ", "y" * 61):
        with pytest.raises(ValidationError):
            circles.circle_create(name=name, by=user)
    assert circles.circle_create(name=" ok ", by=user).name == "ok"


# --- a circle's page -------------------------------------------------------------------------


def test_the_circle_page_lists_its_members(
    user_client: Client, friday: Circle, ben_in_friday: Membership
) -> None:
    Player.objects.create(circle=friday, name="Benjamin")
    circles.member_link_player(
        membership=ben_in_friday, player_id=Player.objects.get(name="Benjamin").pk
    )
    body = user_client.get(app_url("circle", friday)).content.decode()
    members = re.findall(r'<li class="member">.*?</li>', body, re.S)
    assert len(members) == 2
    ana, ben = members
    assert "ana" in ana and "admin" in ana and "you" in ana and "No player linked" in ana
    assert "ben" in ben and "member" in ben and "Plays as Benjamin" in ben
    assert "joined" in ben
    assert "2 members" in body


def test_a_member_of_other_circles_does_not_find_the_page(friday: Circle, other_user: Any) -> None:
    mallory = _client(other_user)
    assert mallory.get(app_url("circle", friday)).status_code == 404
    for name in ("circle-rename", "circle-role", "circle-remove", "circle-me"):
        assert (
            mallory.post(app_url(name, friday), {"name": "Mine", "role": ADMIN}).status_code == 404
        )
    assert Circle.objects.get(pk=friday.pk).name == "Friday"


def test_a_member_sees_the_page_but_no_admin_controls(
    friday: Circle, ben: Any, ben_in_friday: Membership
) -> None:
    body = _client(ben).get(app_url("circle", friday)).content.decode()
    assert "Friday" in body and "Your role: member" in body
    assert "Manage ana" not in body and "Rename the circle" not in body
    assert "Invite people" not in body
    assert app_url("circle-leave", friday) in body  # anyone may leave


def test_a_member_who_is_not_admin_is_refused_every_admin_action(
    user: Any, friday: Circle, ben: Any, ben_in_friday: Membership
) -> None:
    ana = _membership(friday, user)
    client = _client(ben)
    refused = {
        "circle-rename": {"name": "Ben's"},
        "circle-role": {"member": ben_in_friday.pk, "role": ADMIN},
        "circle-remove": {"member": ana.pk},
    }
    for name, data in refused.items():
        for headers in ({}, HX):
            response = client.post(app_url(name, friday), data, headers=headers)
            assert response.status_code == 403, name
    friday.refresh_from_db()
    assert friday.name == "Friday"
    assert _membership(friday, ben).role == MEMBER and _membership(friday, user) is not None


def test_the_admin_page_links_to_invites(user_client: Client, friday: Circle) -> None:
    body = user_client.get(app_url("circle", friday)).content.decode()
    assert f'href="{reverse("scoring:circle-invites", args=[friday.pk])}"' in body
    assert "Invite people" in body


def _urls_without_invites() -> type:
    """The site's URLs without the invites pages (a URLconf: anything with `urlpatterns`)."""
    from casino_site import urls as site
    from scoring import urls as scoring

    kept = [p for p in scoring.urlpatterns if "invite" not in (getattr(p, "name", "") or "")]
    routes = [p for p in site.urlpatterns if getattr(p, "app_name", None) != "scoring"]
    return type(
        "WithoutInvites", (), {"urlpatterns": [*routes, path("", include((kept, "scoring")))]}
    )


def test_the_circle_page_renders_without_the_invites_pages(friday: Circle, user: Any) -> None:
    with override_settings(ROOT_URLCONF=_urls_without_invites()):
        response = _client(user).get(app_url("circle", friday))
    assert response.status_code == 200
    assert "Invite people" not in response.content.decode()


def test_renaming_is_for_admins_and_trims_the_name(user_client: Client, friday: Circle) -> None:
    response = user_client.post(app_url("circle-rename", friday), {"name": "  Friday night "})
    assert response.status_code == 302 and response["Location"] == app_url("circle", friday)
    friday.refresh_from_db()
    assert friday.name == "Friday night"
    refused = user_client.post(app_url("circle-rename", friday), {"name": "  "})
    assert refused.status_code == 400 and 'class="errors"' in refused.content.decode()
    friday.refresh_from_db()
    assert friday.name == "Friday night"


def test_circle_names_are_escaped(user_client: Client, user: Any) -> None:
    circle = circles.circle_create(name="<script>alert(1)</script>", by=user)
    user_client.post(app_url("circle-switch", circle))
    for url in (reverse("scoring:circles"), app_url("circle", circle), reverse("scoring:home")):
        body = user_client.get(url).content.decode()
        assert "<script>alert(1)" not in body, url
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body, url


# --- roles -----------------------------------------------------------------------------------


def test_an_admin_makes_a_member_admin_and_back(
    user_client: Client, user: Any, friday: Circle, ben: Any, ben_in_friday: Membership
) -> None:
    url = app_url("circle-role", friday)
    response = user_client.post(url, {"member": ben_in_friday.pk, "role": ADMIN})
    assert response.status_code == 302 and response["Location"] == app_url("circle", friday)
    assert _membership(friday, ben).role == ADMIN
    assert "ben is admin now." in user_client.get(response["Location"]).content.decode()
    # With htmx, the members come back (a fragment, not a page), with what was done.
    response = user_client.post(url, {"member": ben_in_friday.pk, "role": MEMBER}, headers=HX)
    body = response.content.decode()
    assert response.status_code == 200 and "<html" not in body and 'id="members"' in body
    assert "ben is member now." in body
    assert "HX-Request" in response["Vary"]
    assert _membership(friday, ben).role == MEMBER


def test_the_last_admin_cannot_be_demoted(user_client: Client, user: Any, friday: Circle) -> None:
    me = _membership(friday, user)
    for headers in ({}, HX):
        response = user_client.post(
            app_url("circle-role", friday), {"member": me.pk, "role": MEMBER}, headers=headers
        )
        assert response.status_code == 400
        assert "A circle always needs an admin" in response.content.decode()
    assert _membership(friday, user).role == ADMIN


def test_an_admin_may_step_down_when_another_admin_remains(
    user_client: Client, user: Any, friday: Circle, ben: Any
) -> None:
    _join(friday, ben, ADMIN)
    me = _membership(friday, user)
    response = user_client.post(
        app_url("circle-role", friday), {"member": me.pk, "role": MEMBER}, headers=HX
    )
    # Her page changes as a whole (no admin controls any more): htmx is sent to load it.
    assert response.status_code == 200 and response["HX-Redirect"] == app_url("circle", friday)
    assert _membership(friday, user).role == MEMBER
    assert (
        user_client.post(app_url("circle-rename", friday), {"name": "Mine again"}).status_code
        == 403
    )


def test_an_unknown_role_or_member_is_refused(
    user_client: Client, friday: Circle, ben_in_friday: Membership, other_user: Any
) -> None:
    url = app_url("circle-role", friday)
    outsider = _membership(other_user.personal_circle, other_user)
    for data in (
        {"member": ben_in_friday.pk, "role": "owner"},
        {"member": "x", "role": ADMIN},
        {"member": outsider.pk, "role": MEMBER},  # a membership of another circle
    ):
        response = user_client.post(url, data, headers=HX)
        assert response.status_code == 400, data
    assert _membership(friday, ben_in_friday.user).role == MEMBER
    assert _membership(other_user.personal_circle, other_user).role == ADMIN


def test_the_owner_of_a_personal_circle_stays_its_admin(user: Any, ben: Any) -> None:
    personal = user.personal_circle
    _join(personal, ben, ADMIN)
    owner = _membership(personal, user)
    response = _client(ben).post(
        app_url("circle-role", personal), {"member": owner.pk, "role": MEMBER}, headers=HX
    )
    assert response.status_code == 400
    assert "stays its admin" in response.content.decode()
    removed = _client(ben).post(
        app_url("circle-remove", personal), {"member": owner.pk}, headers=HX
    )
    assert removed.status_code == 400
    assert _membership(personal, user).role == ADMIN


# --- removing a member -----------------------------------------------------------------------


def test_removing_a_member_cuts_their_access_at_once(
    user_client: Client, user: Any, friday: Circle, ben: Any, ben_in_friday: Membership
) -> None:
    players = [services.player_create(circle=friday, name=name) for name in ("Ana", "Ben")]
    match = services.match_start(
        circle=friday, rules=Rules.make("casino"), sides=[[p] for p in players]
    )
    bens = _client(ben)
    assert bens.get(match.get_absolute_url()).status_code == 200  # he is in, for now
    response = user_client.post(
        app_url("circle-remove", friday), {"member": ben_in_friday.pk}, headers=HX
    )
    assert response.status_code == 200 and "ben was removed from the circle." in (
        response.content.decode()
    )
    assert _membership(friday, ben) is None
    assert bens.get(match.get_absolute_url()).status_code == 404
    assert bens.get(app_url("circle", friday)).status_code == 404
    assert bens.get(reverse("scoring:player", args=[players[0].pk])).status_code == 404
    # His current circle was Friday: he is back in his personal one.
    assert "ben" in _header(bens.get(reverse("scoring:match-list")).content.decode())


def test_removing_again_does_nothing(
    user_client: Client, friday: Circle, ben_in_friday: Membership
) -> None:
    url = app_url("circle-remove", friday)
    first = user_client.post(url, {"member": ben_in_friday.pk})
    again = user_client.post(url, {"member": ben_in_friday.pk})
    assert first.status_code == again.status_code == 302
    assert friday.memberships.count() == 1


def test_an_admin_cannot_remove_themselves(user_client: Client, user: Any, friday: Circle) -> None:
    me = _membership(friday, user)
    response = user_client.post(app_url("circle-remove", friday), {"member": me.pk})
    assert response.status_code == 400
    assert "leave the circle instead" in response.content.decode()
    assert _membership(friday, user) is not None


def test_the_last_admin_cannot_be_removed(user: Any, friday: Circle, ben: Any) -> None:
    _join(friday, ben)
    with pytest.raises(ValidationError, match="always needs an admin"):
        circles.member_remove(circle=friday, member_id=_membership(friday, user).pk, by=ben)
    assert _membership(friday, user).role == ADMIN


# --- leaving ---------------------------------------------------------------------------------


def test_a_member_leaves_and_no_longer_gets_in(
    friday: Circle, ben: Any, ben_in_friday: Membership
) -> None:
    bens = _client(ben)
    bens.post(app_url("circle-switch", friday))
    response = bens.post(app_url("circle-leave", friday))
    assert response.status_code == 302 and response["Location"] == reverse("scoring:circles")
    assert _membership(friday, ben) is None
    page = bens.get(response["Location"]).content.decode()
    assert "You left Friday." in page
    assert "Friday" not in _header(page) and "ben" in _header(page)
    assert bens.get(app_url("circle", friday)).status_code == 404
    # The same tap sent again has nothing left to do.
    assert bens.post(app_url("circle-leave", friday))["Location"] == reverse("scoring:circles")


def test_the_last_admin_cannot_leave(user_client: Client, user: Any, friday: Circle) -> None:
    response = user_client.post(app_url("circle-leave", friday))
    assert response.status_code == 400
    assert "only member of this circle" in response.content.decode()
    _join(friday, get_user_model().objects.create_user(username="cy"))
    response = user_client.post(app_url("circle-leave", friday))
    assert response.status_code == 400
    assert "only admin" in response.content.decode()
    assert _membership(friday, user).role == ADMIN


def test_the_personal_circle_cannot_be_left(user_client: Client, user: Any) -> None:
    personal = user.personal_circle
    page = user_client.get(app_url("circle", personal)).content.decode()
    assert app_url("circle-leave", personal) not in page
    assert "your personal circle" in page
    response = user_client.post(app_url("circle-leave", personal))
    assert response.status_code == 400
    assert "You cannot leave your personal circle." in response.content.decode()
    assert _membership(personal, user) is not None


def test_someone_elses_personal_circle_can_be_left(user: Any, ben: Any) -> None:
    _join(user.personal_circle, ben)
    response = _client(ben).post(app_url("circle-leave", user.personal_circle))
    assert response.status_code == 302
    assert _membership(user.personal_circle, ben) is None


def test_leaving_a_circle_one_is_not_in_changes_nothing(friday: Circle, other_user: Any) -> None:
    response = _client(other_user).post(app_url("circle-leave", friday))
    assert response.status_code == 302 and response["Location"] == reverse("scoring:circles")
    assert friday.memberships.count() == 1


# --- "this is me" ----------------------------------------------------------------------------


@pytest.fixture
def friday_players(friday: Circle) -> list[Player]:
    return [services.player_create(circle=friday, name=name) for name in ("Ana", "Ben", "Cy")]


def test_a_member_says_which_player_they_are(
    user_client: Client, user: Any, friday: Circle, friday_players: list[Player]
) -> None:
    url = app_url("circle-me", friday)
    response = user_client.post(url, {"player": friday_players[0].pk})
    assert response.status_code == 302
    assert _membership(friday, user).player == friday_players[0]
    # Changing it is allowed; with htmx the members come back.
    response = user_client.post(url, {"player": friday_players[2].pk}, headers=HX)
    assert response.status_code == 200 and "You are Cy in this circle." in response.content.decode()
    assert _membership(friday, user).player == friday_players[2]
    # And "nobody".
    response = user_client.post(url, {"player": ""}, headers=HX)
    assert "No player is linked to you in this circle." in response.content.decode()
    assert _membership(friday, user).player is None


def test_a_player_is_one_members_only(
    user: Any,
    friday: Circle,
    friday_players: list[Player],
    ben: Any,
    ben_in_friday: Membership,
) -> None:
    ana = friday_players[0]
    _client(user).post(app_url("circle-me", friday), {"player": ana.pk})
    bens = _client(ben)
    # Ana is not offered to Ben ...
    page = bens.get(app_url("circle", friday)).content.decode()
    options = re.search(r'<select name="player".*?</select>', page, re.S).group(0)
    assert ">Ben<" in options and ">Cy<" in options and ">Ana<" not in options
    # ... and if he asks for her anyway, he is told why not.
    for headers in ({}, HX):
        response = bens.post(app_url("circle-me", friday), {"player": ana.pk}, headers=headers)
        assert response.status_code == 400
        assert "Ana is already linked to ana." in response.content.decode()
    assert _membership(friday, ben).player is None
    assert _membership(friday, user).player == ana


def test_a_player_of_another_circle_cannot_be_me(
    user_client: Client, user: Any, friday: Circle, players: list[Player]
) -> None:
    for value in (players[0].pk, "nope"):
        response = user_client.post(app_url("circle-me", friday), {"player": value}, headers=HX)
        assert response.status_code == 400
        assert "Choose one of this circle&#x27;s players." in response.content.decode()
    assert _membership(friday, user).player is None


def test_linking_the_same_player_again_changes_nothing(
    user: Any, friday: Circle, friday_players: list[Player], ben_in_friday: Membership
) -> None:
    ana = _membership(friday, user)
    circles.member_link_player(membership=ana, player_id=friday_players[0].pk)
    again = circles.member_link_player(membership=ana, player_id=friday_players[0].pk)
    assert again.player == friday_players[0]
    with pytest.raises(ValidationError, match="already linked to ana"):
        circles.member_link_player(membership=ben_in_friday, player_id=friday_players[0].pk)


# --- the home page ---------------------------------------------------------------------------


def _linked(user: Any, circle: Circle, name: str, played: int, won: int) -> Player:
    player = services.player_create(circle=circle, name=name)
    PlayerRecordStat.objects.create(
        player=player, variant="casino", layout="2", played=played - 1, won=won
    )
    PlayerRecordStat.objects.create(player=player, variant="royal", layout="3", played=1, won=0)
    Player.objects.filter(pk=player.pk).update(rating=12.5, rated_matches=played)
    membership = _membership(circle, user) or _join(circle, user)
    circles.member_link_player(membership=membership, player_id=player.pk)
    return player


def _cells(row: str) -> list[str]:
    return [
        " ".join(re.sub(r"<[^>]+>", "", cell).split())
        for cell in re.findall(r"<td>(.*?)</td>", row, re.S)
    ]


def test_home_shows_the_record_in_each_circle(
    user_client: Client, user: Any, friday: Circle
) -> None:
    _linked(user, user.personal_circle, "Me", played=8, won=6)
    _linked(user, friday, "Ana", played=3, won=1)
    body = user_client.get(reverse("scoring:home")).content.decode()
    record = body.split('id="record-title"')[1].split("</section>")[0]
    rows = re.findall(r"<tr>.*?</tr>", record, re.S)[1:]
    assert len(rows) == 2
    mine, fridays = rows
    assert "ana" in mine and "as Me" in mine
    assert _cells(mine) == ["8", "6", "75 %", "12.5"]
    assert "Friday" in fridays and "as Ana" in fridays
    assert _cells(fridays) == ["3", "1", "33 %", "12.5 (provisional)"]


def test_the_home_pages_queries_do_not_grow_with_the_circles(
    client: Client, django_user_model: Any
) -> None:
    counts = []
    for number, username in ((1, "one"), (4, "four")):
        user = django_user_model.objects.create_user(username=username)
        _linked(user, user.personal_circle, "Me", played=2, won=1)
        for index in range(number - 1):
            circle = circles.circle_create(name=f"Table {index}", by=user)
            _linked(user, circle, "Me", played=2, won=1)
        client.force_login(user)
        client.get(reverse("scoring:home"))
        with CaptureQueriesContext(connection) as queries:
            body = client.get(reverse("scoring:home")).content.decode()
        assert body.count("as Me") == number
        counts.append(len(queries))
    assert counts[0] == counts[1], counts
    # Session, account, records, the header's circle, and the linked players' club-night tables;
    # the matches to continue, today's, and their seats.
    assert counts[1] <= 8


def test_home_hints_at_the_circle_page_when_no_player_is_linked(
    user_client: Client, user: Any, friday: Circle
) -> None:
    user_client.post(app_url("circle-switch", friday))
    body = user_client.get(reverse("scoring:home")).content.decode()
    assert "No player is linked to your account yet." in body
    assert f'href="{app_url("circle", friday)}"' in body
    assert "<table" not in body


def test_home_has_no_record_for_visitors(client: Client) -> None:
    body = client.get(reverse("scoring:home")).content.decode()
    assert "Your record" not in body and "circle-now" not in body


# --- the header ------------------------------------------------------------------------------


def test_the_header_shows_the_current_circle_on_every_kind_of_page(
    user_client: Client, user: Any, friday: Circle, casino_match: Match
) -> None:
    user_client.post(app_url("circle-switch", friday))
    for url in (reverse("scoring:home"), reverse("scoring:rules"), reverse("scoring:circles")):
        header = _header(user_client.get(url).content.decode())
        assert "Circle:" in header and "Friday" in header, url
        assert f'href="{reverse("scoring:circles")}"' in header, url
    # A match of her personal circle makes that one current again (scope.match), header included.
    header = _header(user_client.get(casino_match.get_absolute_url()).content.decode())
    assert "ana" in header and "Friday" not in header


def test_the_header_reads_the_circle_in_one_query(user: Any, friday: Circle) -> None:
    with CaptureQueriesContext(connection) as queries:
        assert circle_selectors.current_circle_of(user, friday.pk) == friday
    assert len(queries) == 1
    assert circle_selectors.current_circle_of(user, None) == user.personal_circle
    # A circle she is not (or no longer) in: her personal one.
    stranger = circles.circle_create(
        name="Not hers", by=get_user_model().objects.create_user(username="zed")
    )
    assert circle_selectors.current_circle_of(user, stranger.pk) == user.personal_circle


def test_the_scoreboard_header_costs_no_query(
    user_client: Client, casino_match: Match, django_assert_num_queries: Any
) -> None:
    user_client.get(casino_match.get_absolute_url())
    with django_assert_num_queries(3):  # session, account, match (with its circle)
        body = user_client.get(casino_match.get_absolute_url()).content.decode()
    assert "Circle:" in _header(body)


# --- the scope -------------------------------------------------------------------------------


def test_the_scope_finds_a_circle_only_for_its_members(
    user: Any, friday: Circle, ben: Any, ben_in_friday: Membership, other_user: Any
) -> None:
    assert Scope(user).circle_membership(friday.pk, admin=True).role == ADMIN
    assert Scope(ben).circle_membership(friday.pk).role == MEMBER
    with pytest.raises(PermissionDenied):
        Scope(ben).circle_membership(friday.pk, admin=True)
    with pytest.raises(Http404):
        Scope(other_user).circle_membership(friday.pk)
    with pytest.raises(Http404):
        Scope(user).circle_membership("not a number")


# --- any sequence of changes keeps the rules -------------------------------------------------

ACTIONS = ("promote", "demote", "remove", "leave", "join")


@pytest.mark.slow
class AnySequenceKeepsTheRules(TestCase):
    """Random role changes, removals, leaves (and joins) by random accounts, through the pages,
    against a model of the rules: a circle never ends without an admin, and nobody but an admin
    changes anyone's membership."""

    @settings(max_examples=examples(40))
    @given(
        start=st.lists(st.sampled_from([ADMIN, MEMBER, None]), min_size=3, max_size=3),
        steps=st.lists(
            st.tuples(
                st.integers(0, 3),  # who acts
                st.sampled_from(ACTIONS),
                st.integers(0, 3),  # on whom
                st.integers(0, 1),  # in which circle: the owner's personal one, or a shared one
            ),
            max_size=15,
        ),
    )
    def test_a_circle_always_keeps_an_admin(self, start: list, steps: list) -> None:
        User = get_user_model()
        users = [User.objects.create_user(username=f"player{i}") for i in range(4)]
        owner = users[0]
        both = [owner.personal_circle, circles.circle_create(name="Shared", by=owner)]
        model: list[dict[int, str]] = [{0: ADMIN}, {0: ADMIN}]
        for index, role in enumerate(start, start=1):
            if role is not None:
                for which, circle in enumerate(both):
                    _join(circle, users[index], role)
                    model[which][index] = role
        clients = [_client(user) for user in users]
        known_ids = {
            (which, index): membership.pk
            for which, circle in enumerate(both)
            for index, user in enumerate(users)
            if (membership := _membership(circle, user)) is not None
        }

        for actor, action, target, which in steps:
            circle, roles = both[which], model[which]
            member_id = known_ids.get((which, target), 0)
            expected_status, change = self._expect(which, roles, actor, action, target)
            if action == "join":
                if target not in roles:
                    known_ids[(which, target)] = _join(circle, users[target]).pk
                    roles[target] = MEMBER
                continue
            if action == "leave":
                response = clients[actor].post(app_url("circle-leave", circle))
            else:
                name = "circle-remove" if action == "remove" else "circle-role"
                data = {"member": member_id, "role": ADMIN if action == "promote" else MEMBER}
                response = clients[actor].post(app_url(name, circle), data, headers=HX)
            assert response.status_code == expected_status, (actor, action, target, which)
            if change is not None:
                change(roles)
            stored = {
                users.index(m.user): m.role
                for m in Membership.objects.filter(circle=circle).select_related("user")
            }
            assert stored == roles, (actor, action, target, which)
            for circle_roles in model:
                assert ADMIN in circle_roles.values()

    @staticmethod
    def _expect(which: int, roles: dict[int, str], actor: int, action: str, target: int) -> Any:
        """(status, change to the model) that the rules give for one action."""
        is_owner = which == 0 and target == 0
        others_admin = any(r == ADMIN for who, r in roles.items() if who != target)
        if action == "join":
            return None, None
        if action == "leave":
            if actor not in roles:
                return 302, None
            leaving_owner = which == 0 and actor == 0
            last = roles[actor] == ADMIN and not any(
                r == ADMIN for who, r in roles.items() if who != actor
            )
            if leaving_owner or last:
                return 400, None
            return 302, lambda model: model.pop(actor)
        if actor not in roles:
            return 404, None
        if roles[actor] != ADMIN:
            return 403, None
        if action == "remove":
            if target not in roles:
                return 200, None  # removed already
            if target == actor or is_owner:
                return 400, None
            return 200, lambda model: model.pop(target)
        if target not in roles:
            return 400, None
        role = ADMIN if action == "promote" else MEMBER
        if roles[target] == role:
            return 200, None
        if role == MEMBER and (is_owner or not others_admin):
            return 400, None
        return 200, lambda model: model.__setitem__(target, role)
