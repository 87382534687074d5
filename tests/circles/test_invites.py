"""Invites to a circle: the admins' page (create, list, revoke, QR code), the page a link opens
(join, already a member, gone), signing up from an invite, and the rules no sequence of joins,
revocations and time passing may break."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any
from urllib.parse import quote

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from helpers import HX, at_once, examples
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase

from scoring.access import SESSION_KEY
from scoring.circles import invites
from scoring.models import Circle, FormSubmission, Invite, Membership
from scoring.web.once import FIELD

pytestmark = pytest.mark.django_db
PASSWORD = "a-Long-pass-42"


def _add(circle: Circle, user: Any, role: str = Membership.Role.MEMBER) -> Membership:
    return Membership.objects.create(circle=circle, user=user, role=role)


@pytest.fixture
def circle(user) -> Circle:
    """A circle of friends that ana runs."""
    table = Circle.objects.create(name="Friday table")
    _add(table, user, Membership.Role.ADMIN)
    return table


@pytest.fixture
def ben(django_user_model, circle):
    """A member of the circle who is not an admin."""
    member = django_user_model.objects.create_user(username="ben", password="casino-pass-3")
    _add(circle, member)
    return member


@pytest.fixture
def invite(circle, user) -> Invite:
    return invites.invite_create(circle=circle, by=user)


def _page(circle: Circle) -> str:
    return reverse("scoring:circle-invites", args=[circle.pk])


def _revoke_url(invite: Invite) -> str:
    return reverse("scoring:invite-revoke", args=[invite.circle_id, invite.pk])


def _qr_url(invite: Invite) -> str:
    return reverse("scoring:invite-qr", args=[invite.circle_id, invite.pk])


def _join_url(invite: Invite | str) -> str:
    return reverse("scoring:invite-join", args=[getattr(invite, "token", invite)])


def _client(user: Any | None = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _members(circle: Circle) -> set[str]:
    return set(circle.memberships.values_list("user__username", flat=True))


def _messages(response) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


# --- the invites page ----------------------------------------------------------------------------


def test_the_page_offers_a_link_for_a_group_chat_lasting_a_week_by_default(user_client, circle):
    response = user_client.get(_page(circle))
    body = response.content.decode()
    assert response.status_code == 200
    assert "Invites to Friday table" in body
    assert re.search(r'<input type="radio" name="days" value="7"[^>]*checked', body)
    assert re.search(r'<input type="radio" name="uses" value="many"[^>]*checked', body)
    assert [int(v) for v in re.findall(r'name="days" value="(\d+)"', body)] == [1, 7, 30]
    assert f'name="{FIELD}"' in body
    assert "No active invites." in body


def test_creating_an_invite_with_the_defaults(user_client, user, circle):
    before = timezone.now()
    response = user_client.post(_page(circle), {"days": "7", "uses": "many", FIELD: "t1"})
    invite = Invite.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"{_page(circle)}#invite-{invite.pk}"
    assert (invite.circle, invite.created_by, invite.max_uses, invite.uses) == (
        circle,
        user,
        None,
        0,
    )
    assert invite.revoked_at is None
    assert re.fullmatch(r"[A-Za-z0-9_-]{43}", invite.token)
    assert before + timedelta(days=7) <= invite.expires_at <= timezone.now() + timedelta(days=7)

    body = user_client.get(response["Location"]).content.decode()
    assert f'id="invite-{invite.pk}"' in body
    assert f'<label for="invite-url-{invite.pk}">Invite link</label>' in body
    assert re.search(
        rf'id="invite-url-{invite.pk}" class="invite-url" readonly\s+'
        rf'value="http://testserver{re.escape(_join_url(invite))}"',
        body,
    )
    assert f'src="{_qr_url(invite)}"' in body
    assert "0 times, no limit" in body
    assert "ana" in body.split("Made by", 1)[1]
    assert f'datetime="{invite.expires_at.isoformat()}"' in body


def test_a_single_use_invite_for_one_day(user_client, circle):
    user_client.post(_page(circle), {"days": "1", "uses": "once"})
    invite = Invite.objects.get()
    assert invite.max_uses == 1
    assert abs(invite.expires_at - (timezone.now() + timedelta(days=1))) < timedelta(minutes=1)
    assert "0 of 1 time" in user_client.get(_page(circle)).content.decode()


@pytest.mark.parametrize(
    "data", [{"days": "3", "uses": "many"}, {"days": "7", "uses": "twice"}, {}], ids=str
)
def test_a_choice_the_form_does_not_offer_is_refused(user_client, circle, data):
    response = user_client.post(_page(circle), data)
    assert response.status_code == 400
    assert 'class="errors"' in response.content.decode()
    assert not Invite.objects.exists()


def test_a_double_tap_creates_one_invite(user_client, circle):
    data = {"days": "30", "uses": "many", FIELD: "same-form"}
    first = user_client.post(_page(circle), data)
    second = user_client.post(_page(circle), data)
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"]
    assert Invite.objects.count() == 1
    assert FormSubmission.objects.count() == 1


def test_htmx_create_answers_with_the_list_holding_the_new_link(user_client, circle):
    response = user_client.post(_page(circle), {"days": "7", "uses": "many"}, headers=HX)
    invite = Invite.objects.get()
    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith('<div id="invites">') and "<html" not in body
    assert re.search(rf'id="invite-url-{invite.pk}"[^>]*autofocus', body)
    assert "HX-Request" in response["Vary"]


def test_only_active_invites_are_listed(user_client, user, circle, django_user_model):
    active = invites.invite_create(circle=circle, by=user, days=30)
    expired = invites.invite_create(circle=circle, by=user, now=timezone.now() - timedelta(days=8))
    revoked = invites.invite_revoke(invite=invites.invite_create(circle=circle, by=user))
    used_up = invites.invite_create(circle=circle, by=user, max_uses=1)
    joiner = django_user_model.objects.create_user(username="zoe")
    invites.invite_accept(code=used_up.token, user=joiner)
    elsewhere = invites.invite_create(circle=user.personal_circle, by=user)

    assert list(invites.invites_active(circle)) == [active]
    body = user_client.get(_page(circle)).content.decode()
    assert f'id="invite-{active.pk}"' in body
    for gone in (expired, revoked, used_up, elsewhere):
        assert gone.token not in body


def test_a_link_made_by_an_account_since_deleted_says_so(user_client, circle, ben):
    invites.invite_create(circle=circle, by=ben)
    ben.delete()
    assert "a former member" in user_client.get(_page(circle)).content.decode()


def test_opening_the_page_makes_the_circle_the_current_one(user_client, circle):
    user_client.get(_page(circle))
    assert user_client.session[SESSION_KEY] == circle.pk


def test_a_hostile_circle_name_is_escaped_on_both_pages(user_client, user, other_user):
    hostile = Circle.objects.create(name='<script>alert(1)</script>"><img src=x>')
    _add(hostile, user, Membership.Role.ADMIN)
    invite = invites.invite_create(circle=hostile, by=user)
    pages = [user_client.get(_page(hostile)), _client(other_user).get(_join_url(invite))]
    for response in pages:
        body = response.content.decode()
        assert response.status_code == 200
        assert "<script>alert" not in body and "<img src=x" not in body
        assert "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x&gt;" in body


# --- who may use the page ------------------------------------------------------------------------


def _admin_urls(invite: Invite) -> list[tuple[str, str]]:
    page = _page(invite.circle)
    return [("GET", page), ("POST", page), ("POST", _revoke_url(invite)), ("GET", _qr_url(invite))]


def test_a_member_who_is_not_an_admin_is_refused_403(ben, invite):
    client = _client(ben)
    for method, url in _admin_urls(invite):
        response = client.get(url) if method == "GET" else client.post(url, {"days": "7"})
        assert response.status_code == 403, (method, url)
    invite.refresh_from_db()
    assert invite.revoked_at is None
    assert Invite.objects.count() == 1


def test_someone_outside_the_circle_gets_404(other_user, invite):
    client = _client(other_user)
    for method, url in _admin_urls(invite):
        response = client.get(url) if method == "GET" else client.post(url, {"days": "7"})
        assert response.status_code == 404, (method, url)
    invite.refresh_from_db()
    assert invite.revoked_at is None
    assert client.session.get(SESSION_KEY) != invite.circle_id


def test_anonymous_is_sent_to_log_in(invite):
    for method, url in _admin_urls(invite):
        response = Client().get(url) if method == "GET" else Client().post(url)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_an_invite_of_another_circle_cannot_be_reached_through_ones_own(user_client, user, circle):
    """Admin of both circles, but the URL pairs one circle with the other's invite: 404."""
    other = invites.invite_create(circle=user.personal_circle, by=user)
    url = reverse("scoring:invite-revoke", args=[circle.pk, other.pk])
    assert user_client.post(url).status_code == 404
    qr = reverse("scoring:invite-qr", args=[circle.pk, other.pk])
    assert user_client.get(qr).status_code == 404
    other.refresh_from_db()
    assert other.revoked_at is None


# --- QR code and revoking -------------------------------------------------------------------------


def test_the_qr_code_is_an_svg_of_the_join_link(user_client, invite):
    response = user_client.get(_qr_url(invite))
    body = response.content.decode()
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"
    assert body.startswith("<svg") and "<path" in body
    assert f"<title>http://testserver{_join_url(invite)}</title>" in body


def test_revoking_stops_the_link_at_once(user_client, invite, other_user):
    response = user_client.post(_revoke_url(invite))
    assert response.status_code == 302 and response["Location"] == _page(invite.circle)
    assert _messages(response) == ["Invite revoked: its link no longer works."]
    invite.refresh_from_db()
    assert invite.revoked_at is not None
    assert invite.token not in user_client.get(_page(invite.circle)).content.decode()
    assert user_client.get(_qr_url(invite)).status_code == 404
    joiner = _client(other_user)
    assert joiner.get(_join_url(invite)).status_code == 410
    assert joiner.post(_join_url(invite)).status_code == 410
    assert "mallory" not in _members(invite.circle)


def test_revoking_twice_keeps_the_first_time(user_client, invite):
    user_client.post(_revoke_url(invite))
    first = Invite.objects.get().revoked_at
    assert user_client.post(_revoke_url(invite)).status_code == 302
    assert Invite.objects.get().revoked_at == first


def test_htmx_revoke_answers_with_the_list_and_says_so(user_client, invite):
    response = user_client.post(_revoke_url(invite), headers=HX)
    body = response.content.decode()
    assert response.status_code == 200 and "<html" not in body
    assert 'role="status">Invite revoked: its link no longer works.' in body
    assert invite.token not in body and "No active invites." in body


def test_revoking_needs_a_post(user_client, invite):
    assert user_client.get(_revoke_url(invite)).status_code == 405


# --- the page a link opens -----------------------------------------------------------------------


def test_anonymous_sees_the_circle_and_who_invited_and_how_to_join(client, invite):
    response = client.get(_join_url(invite))
    body = response.content.decode()
    assert response.status_code == 200
    assert "Join Friday table" in body and "ana invites you to Friday table." in body
    assert "Log in or sign up to join" in body
    next_query = f"?next={quote(_join_url(invite))}"
    assert f'href="{reverse("scoring:signup")}{next_query}"' in body
    assert f'href="{reverse("login")}{next_query}"' in body
    assert f'action="{_join_url(invite)}"' not in body  # no join form without an account
    assert response["X-Robots-Tag"] == "noindex, nofollow"
    assert "no-cache" in response["Cache-Control"]


def test_anonymous_post_is_sent_to_log_in_and_back(client, invite):
    response = client.post(_join_url(invite))
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={quote(_join_url(invite))}"
    assert Invite.objects.get().uses == 0


def test_a_signed_in_account_joins_as_a_member(other_user, invite):
    client = _client(other_user)
    page = client.get(_join_url(invite)).content.decode()
    assert f'action="{_join_url(invite)}"' in page
    assert ">Join Friday table</button>" in page and f'name="{FIELD}"' in page

    response = client.post(_join_url(invite), {FIELD: "join-1"})
    assert response.status_code == 302 and response["Location"] == reverse("scoring:match-list")
    membership = Membership.objects.get(circle=invite.circle, user=other_user)
    assert membership.role == Membership.Role.MEMBER
    assert Invite.objects.get().uses == 1
    assert client.session[SESSION_KEY] == invite.circle_id
    assert _messages(response) == [
        "Welcome to Friday table: its players, matches and statistics are yours too."
    ]
    followed = client.get(reverse("scoring:match-list"))
    assert followed.status_code == 200
    assert followed.wsgi_request.session[SESSION_KEY] == invite.circle_id


def test_a_member_opening_the_link_again_is_only_taken_there(ben, invite):
    client = _client(ben)
    page = client.get(_join_url(invite)).content.decode()
    assert "You are already in Friday table." in page and ">Open Friday table</button>" in page
    response = client.post(_join_url(invite))
    assert response.status_code == 302 and response["Location"] == reverse("scoring:match-list")
    assert _messages(response) == [
        "You are already in Friday table: it is now the circle you are looking at."
    ]
    assert client.session[SESSION_KEY] == invite.circle_id
    assert Invite.objects.get().uses == 0
    assert Membership.objects.filter(user=ben, circle=invite.circle).count() == 1


def test_the_admin_opening_their_own_link_stays_admin(user_client, invite):
    assert user_client.post(_join_url(invite)).status_code == 302
    assert Membership.objects.get(circle=invite.circle, user__username="ana").is_admin
    assert Invite.objects.get().uses == 0


def test_a_member_whose_link_has_since_gone_is_still_taken_there(ben, invite):
    """A member may keep an old link: it takes them to the circle they are in."""
    invites.invite_revoke(invite=invite)
    client = _client(ben)
    assert client.get(_join_url(invite)).status_code == 200
    assert client.post(_join_url(invite)).status_code == 302


def _remove(admin: Any, circle: Circle, member: Any) -> None:
    membership = Membership.objects.get(circle=circle, user=member)
    url = reverse("scoring:circle-remove", args=[circle.pk])
    assert _client(admin).post(url, {"member": membership.pk}, headers=HX).status_code == 200
    assert not Membership.objects.filter(circle=circle, user=member).exists()


def test_a_removed_member_cannot_walk_back_in_through_the_link_they_joined_with(
    user, other_user, invite
):
    """Circles × invites: removal ends what the many-use link gave, on the page and on POST."""
    client = _client(other_user)
    assert client.post(_join_url(invite)).status_code == 302
    _remove(user, invite.circle, other_user)

    page = client.get(_join_url(invite))
    assert page.status_code == 410
    assert "You were removed from this circle after this link was made" in page.content.decode()
    again = client.post(_join_url(invite), {FIELD: "join-again"})
    assert again.status_code == 410
    assert not Membership.objects.filter(circle=invite.circle, user=other_user).exists()
    assert Invite.objects.get(pk=invite.pk).uses == 1
    # The link still works for everybody else.
    newcomer = get_user_model().objects.create_user(username="cleo", password="casino-pass-4")
    assert _client(newcomer).post(_join_url(invite)).status_code == 302
    assert Membership.objects.filter(circle=invite.circle, user=newcomer).exists()


def test_any_invite_made_before_the_removal_is_closed_to_that_account(
    user, circle, ben, other_user
):
    older = invites.invite_create(circle=circle, by=user, max_uses=5)
    _remove(user, circle, ben)
    with pytest.raises(invites.InviteGone) as gone:
        invites.invite_accept(code=older.token, user=ben)
    assert gone.value.state is invites.State.REMOVED
    assert invites.invite_accept(code=older.token, user=other_user).new


def test_an_admin_invites_a_removed_member_again_with_a_new_link(user, circle, ben):
    _remove(user, circle, ben)
    fresh = invites.invite_create(circle=circle, by=user)
    assert _client(ben).get(_join_url(fresh)).status_code == 200
    assert _client(ben).post(_join_url(fresh)).status_code == 302
    assert Membership.objects.get(circle=circle, user=ben).role == Membership.Role.MEMBER
    # Removed a second time: the link that brought them back is closed to them too.
    _remove(user, circle, ben)
    assert _client(ben).post(_join_url(fresh)).status_code == 410


def test_a_member_who_left_may_come_back_through_the_link(circle, ben, invite):
    """Leaving is the member's own choice: only a removal by an admin closes old links."""
    from scoring.circles import services as circles

    circles.member_leave(circle=circle, user=ben)
    assert _client(ben).post(_join_url(invite)).status_code == 302
    assert Membership.objects.filter(circle=circle, user=ben).exists()


def test_the_circle_page_and_the_removal_note_say_old_links_are_closed(user_client, circle, ben):
    page = user_client.get(reverse("scoring:circle", args=[circle.pk])).content.decode()
    assert "cannot come back through any invite link made before now" in page
    membership = Membership.objects.get(circle=circle, user=ben)
    answer = user_client.post(
        reverse("scoring:circle-remove", args=[circle.pk]), {"member": membership.pk}, headers=HX
    ).content.decode()
    assert "Invite links made before now no longer let them in" in answer


def test_a_double_tap_on_join_counts_one_use(other_user, circle, user):
    invite = invites.invite_create(circle=circle, by=user, max_uses=1)
    client = _client(other_user)
    first = client.post(_join_url(invite), {FIELD: "tap"})
    second = client.post(_join_url(invite), {FIELD: "tap"})
    third = client.post(_join_url(invite))  # a resend without the form's token
    assert first.status_code == second.status_code == third.status_code == 302
    assert Invite.objects.get().uses == 1
    assert "mallory" in _members(circle)


def test_a_single_use_link_lets_in_one_account(circle, user, other_user, django_user_model):
    invite = invites.invite_create(circle=circle, by=user, max_uses=1)
    assert _client(other_user).post(_join_url(invite)).status_code == 302
    late = _client(django_user_model.objects.create_user(username="zoe"))
    get, post = late.get(_join_url(invite)), late.post(_join_url(invite))
    assert get.status_code == post.status_code == 410
    assert "This invite link has been used as many times as it allowed." in post.content.decode()
    assert _members(circle) == {"ana", "mallory"}
    assert Invite.objects.get().uses == 1


def test_an_expired_link_is_gone(circle, user, other_user):
    invite = invites.invite_create(circle=circle, by=user, days=1)
    Invite.objects.filter(pk=invite.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    client = _client(other_user)
    for response in (client.get(_join_url(invite)), client.post(_join_url(invite))):
        body = response.content.decode()
        assert response.status_code == 410
        assert "This invite no longer works" in body and "This invite link has expired." in body
        assert "Friday table" not in body  # a dead link no longer tells whose circle it was
    assert _members(circle) == {"ana"}


def test_a_revoked_link_is_gone_for_anonymous_too(client, invite):
    invites.invite_revoke(invite=invite)
    response = client.get(_join_url(invite))
    assert response.status_code == 410
    assert "This invite link was revoked by an admin of the circle." in response.content.decode()


@pytest.mark.parametrize("code", ["no-such-code", "x" * 65, "ab%20cd"])
def test_an_unknown_code_is_not_found(other_user, invite, code):
    client = _client(other_user)
    for response in (client.get(_join_url(code)), client.post(_join_url(code))):
        assert response.status_code == 404
        assert "No invite has this link." in response.content.decode()
        assert response["X-Robots-Tag"] == "noindex, nofollow"
    assert Client().get(_join_url(code)).status_code == 404
    assert _members(invite.circle) == {"ana"}


@pytest.mark.django_db(transaction=True)
def test_two_accounts_racing_for_the_last_use_let_in_exactly_one(user, circle):
    invite = invites.invite_create(circle=circle, by=user, max_uses=1)
    racers = [get_user_model().objects.create_user(username=f"racer{i}") for i in range(2)]
    clients = [_client(racer) for racer in racers]
    responses = at_once(
        *[lambda client=client: client.post(_join_url(invite)) for client in clients]
    )
    assert sorted(response.status_code for response in responses) == [302, 410]
    assert Invite.objects.get().uses == 1
    assert len(_members(circle) & {"racer0", "racer1"}) == 1


# --- signing up or logging in from an invite -----------------------------------------------------


def test_signing_up_from_an_invite_comes_back_to_it_and_joins(client, invite):
    join_page = client.get(_join_url(invite)).content.decode()
    signup_url = re.search(r'href="(/signup/\?next=[^"]*)"', join_page).group(1)
    signup_page = client.get(signup_url, follow=True).content.decode()
    assert f'<input type="hidden" name="next" value="{_join_url(invite)}">' in signup_page
    assert f'href="{reverse("login")}?next={quote(_join_url(invite), safe="")}"' in signup_page

    data = {"username": "zoe", "password1": PASSWORD, "password2": PASSWORD}
    data["next"] = re.search(r'name="next" value="([^"]+)"', signup_page).group(1)
    response = client.post(reverse("account_signup"), data)
    assert response.status_code == 302 and response["Location"] == _join_url(invite)
    assert "zoe" not in _members(invite.circle)  # joining is the account's own tap

    page = client.get(response["Location"]).content.decode()
    assert ">Join Friday table</button>" in page and "Signed in as zoe." in page
    client.post(_join_url(invite))
    assert "zoe" in _members(invite.circle)
    assert client.session[SESSION_KEY] == invite.circle_id


def test_signing_up_with_an_address_from_an_invite_keeps_the_invite_in_the_link(
    client, invite, mailoutbox
):
    """The address is verified by a link, later: the sign-up goes straight back to the invite,
    and the link in the mail comes back to it too."""
    data = {"username": "zoe", "email": "zoe@example.com", "password1": PASSWORD}
    data |= {"password2": PASSWORD, "next": _join_url(invite)}
    response = client.post(reverse("account_signup"), data)
    assert response.status_code == 302 and response["Location"] == _join_url(invite)
    client.post(_join_url(invite))
    assert "zoe" in _members(invite.circle)

    (mail,) = mailoutbox
    link = re.search(r"http://testserver(/accounts/confirm-email/[^\s]+)", mail.body).group(1)
    page = client.get(link).content.decode()
    assert f'<input type="hidden" name="next" value="{_join_url(invite)}">' in page
    confirmed = client.post(link, {"next": _join_url(invite)})
    assert confirmed.status_code == 302 and confirmed["Location"] == _join_url(invite)
    assert EmailAddress.objects.get(email="zoe@example.com").verified


def test_a_refused_signup_keeps_the_invite(client, invite):
    data = {"username": "zoe", "password1": "zoe", "next": "/join/x/"}  # too like the name
    response = client.post(reverse("account_signup"), data)
    assert response.status_code == 400
    assert '<input type="hidden" name="next" value="/join/x/">' in response.content.decode()


def test_logging_in_from_an_invite_comes_back_to_it(client, other_user, invite):
    login_url = f"{reverse('login')}?next={quote(_join_url(invite))}"
    page = client.get(login_url).content.decode()
    assert f'<input type="hidden" name="next" value="{_join_url(invite)}">' in page
    signup_link = f"{reverse('account_signup')}?next={quote(_join_url(invite), safe='')}"
    assert f'href="{signup_link}"' in page
    response = client.post(
        login_url,
        {"login": "mallory", "password": "casino-pass-2", "next": _join_url(invite)},
    )
    assert response.status_code == 302 and response["Location"] == _join_url(invite)


@pytest.mark.parametrize(
    "next_url",
    [
        "https://evil.example/join/x/",
        "//evil.example/join/x/",
        "/\\evil.example",
        "javascript:alert(1)",
        "http://testserver.evil.example/",
    ],
)
def test_signup_ignores_a_next_that_leaves_the_site(client, next_url):
    page = client.get(reverse("account_signup"), {"next": next_url}).content.decode()
    form = page.split(f'action="{reverse("account_signup")}"', 1)[1].split("</form>", 1)[0]
    assert 'name="next"' not in form
    assert f'href="{reverse("login")}"' in page and "login/?next=" not in page
    data = {"username": "zoe", "password1": PASSWORD, "password2": PASSWORD, "next": next_url}
    response = client.post(f"{reverse('account_signup')}?next={quote(next_url)}", data)
    assert response.status_code == 302
    assert response["Location"] == reverse("scoring:match-new")


def test_signup_without_next_still_starts_a_match(client):
    data = {"username": "zoe", "password1": PASSWORD, "password2": PASSWORD}
    response = client.post(reverse("account_signup"), data)
    assert response["Location"] == reverse("scoring:match-new")


def test_signup_honours_a_next_on_this_site_given_in_the_query(client):
    data = {"username": "zoe", "password1": PASSWORD, "password2": PASSWORD}
    response = client.post(f"{reverse('account_signup')}?next=/players/", data)
    assert response["Location"] == "/players/"


# --- services ------------------------------------------------------------------------------------


def test_the_service_refuses_settings_that_let_nobody_in(circle, user):
    with pytest.raises(ValueError):
        invites.invite_create(circle=circle, by=user, days=0)
    with pytest.raises(ValueError):
        invites.invite_create(circle=circle, by=user, max_uses=0)
    assert not Invite.objects.exists()


def test_codes_are_unguessable_and_never_repeat(circle, user):
    codes = {invites.invite_create(circle=circle, by=user).token for _ in range(20)}
    assert len(codes) == 20
    assert all(len(code) == 43 for code in codes)


ACCOUNTS = 5
STEP = st.one_of(
    st.tuples(st.just("join"), st.integers(0, ACCOUNTS - 1)),
    # Minutes: a few (around the moment it expires), or whole days (landing right on it).
    st.tuples(st.just("wait"), st.integers(0, 90) | st.integers(0, 31).map(lambda d: d * 1440)),
    st.tuples(st.just("revoke"), st.just(0)),
)


@pytest.mark.slow
class NoSequenceBreaksAnInvitesLimits(TestCase):
    """Whatever the invite's settings and whatever happens to it, an account joins only while
    the invite is active, at most `max_uses` accounts join, and a member joining again changes
    nothing."""

    @settings(max_examples=examples(60))
    @given(
        days=st.sampled_from(invites.DAYS_CHOICES),
        max_uses=st.one_of(st.none(), st.integers(1, 4)),
        steps=st.lists(STEP, max_size=25),
    )
    def test_joins_revocations_and_time(self, days, max_uses, steps):
        User = get_user_model()
        admin = User.objects.create_user(username="admin")
        circle = Circle.objects.create(name="Table")
        _add(circle, admin, Membership.Role.ADMIN)
        accounts = [User.objects.create_user(username=f"friend{i}") for i in range(ACCOUNTS)]
        start = timezone.now()
        invite = invites.invite_create(
            circle=circle, by=admin, days=days, max_uses=max_uses, now=start
        )
        now, revoked, joined = start, False, set()

        for action, value in steps:
            if action == "wait":
                now += timedelta(minutes=value)
            elif action == "revoke":
                invites.invite_revoke(invite=invite, now=now)
                revoked = True
            else:
                account = accounts[value]
                open_ = (
                    not revoked
                    and now < start + timedelta(days=days)
                    and (max_uses is None or len(joined) < max_uses)
                )
                if value in joined:
                    result = invites.invite_accept(code=invite.token, user=account, now=now)
                    assert not result.new
                elif open_:
                    result = invites.invite_accept(code=invite.token, user=account, now=now)
                    assert result.new and result.membership.role == Membership.Role.MEMBER
                    joined.add(value)
                else:
                    with self.assertRaises(invites.InviteGone):
                        invites.invite_accept(code=invite.token, user=account, now=now)

            invite.refresh_from_db()
            members = set(
                circle.memberships.exclude(user=admin).values_list("user__username", flat=True)
            )
            assert members == {f"friend{i}" for i in joined}
            assert invite.uses == len(joined)
            assert max_uses is None or invite.uses <= max_uses
            listed = invites.invites_active(circle, now).exists()
            assert listed == (invites.invite_state(invite, now) is invites.State.ACTIVE)
            if revoked or now >= start + timedelta(days=days):
                assert not listed
