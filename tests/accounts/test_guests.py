"""Play first, keep it all: "Start a match" without an account, and a sign-up later that keeps
every match, player and statistic under the new name (the same account: nothing copied)."""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from helpers import FIRST_11

from scoring.accounts import guests
from scoring.engine.rules import Rules
from scoring.matches import services
from scoring.models import Circle, Match, Player, PlayerStat, Profile
from scoring.web.once import FIELD

pytestmark = pytest.mark.django_db
PASSWORD = "a-Long-pass-42"


def _start(client: Client):
    response = client.post(reverse("scoring:guest-start"))
    assert response.status_code == 302 and response["Location"] == reverse("scoring:match-new")
    return get_user_model().objects.get(pk=client.session["_auth_user_id"])


def _play(guest):
    circle = guest.personal_circle
    ana, ben = (services.player_create(circle=circle, name=name) for name in ("Ana", "Ben"))
    match = services.match_start(circle=circle, rules=Rules.make("casino"), sides=[[ana], [ben]])
    for number, hand in enumerate((FIRST_11, FIRST_11), start=1):
        services.hand_record(match=match, number=number, tallies=hand, by=guest)
    return match


def test_the_landing_page_starts_a_match_without_an_account_and_says_for_how_long(client):
    page = client.get(reverse("scoring:home")).content.decode()
    assert f'action="{reverse("scoring:guest-start")}"' in page
    assert "Start a match" in page
    assert "a guest’s matches are deleted 30 days after they were started" in page


def test_start_a_match_signs_in_a_guest_on_the_new_match_page(client):
    guest = _start(client)
    assert guests.is_guest(guest) and not guest.has_usable_password()
    assert guest.username.startswith("guest-")
    assert guest.personal_circle.name == "Your circle"
    assert 29 * 86400 < client.session.get_expiry_age() <= 30 * 86400
    page = client.get(reverse("scoring:match-new"))
    assert page.status_code == 200
    assert "You are scoring as a guest." in page.content.decode()
    assert reverse("scoring:account-keep") in page.content.decode()


def test_a_guest_scores_like_a_member(client):
    guest = _start(client)
    circle = guest.personal_circle
    services.player_create(circle=circle, name="Ana")  # one known, one new
    response = client.post(
        reverse("scoring:match-new"),
        {
            "variant": "casino",
            "layout": "2",
            "seat_0": "Ana",
            "seat_1": "Ben",
            "first_dealer": "0",
            "target": "21",
        },
    )
    assert response.status_code == 302, response.content.decode()[:500]
    match = Match.objects.get(circle=circle)
    board = client.get(match.get_absolute_url())
    assert board.status_code == 200 and "Hand 1" in board.content.decode()
    assert set(Player.objects.filter(circle=circle).values_list("name", flat=True)) == {
        "Ana",
        "Ben",
    }


def test_signing_up_keeps_every_match_player_and_statistic_under_the_new_name(client):
    guest = _start(client)
    match = _play(guest)
    stats_before = list(PlayerStat.objects.filter(player__circle=guest.personal_circle).values())
    page = client.get(reverse("scoring:account-keep")).content.decode()
    assert page.count('type="password"') == 1
    response = client.post(
        reverse("scoring:account-keep"),
        {"username": "zoe", "password1": PASSWORD, "email": "zoe@example.com"},
    )
    assert response.status_code == 302 and response["Location"] == reverse("scoring:home")
    zoe = get_user_model().objects.get(pk=guest.pk)  # the same account, renamed
    assert zoe.username == "zoe" and zoe.check_password(PASSWORD)
    assert not guests.is_guest(zoe)
    assert Match.objects.get(pk=match.pk).circle_id == zoe.personal_circle.pk
    assert zoe.personal_circle.name == "zoe’s circle"
    after = list(PlayerStat.objects.filter(player__circle=zoe.personal_circle).values())
    assert after == stats_before and after  # nothing copied, nothing counted again
    assert get_user_model().objects.count() == 1
    [sent] = mail.outbox  # the address's link, as at a sign-up
    assert sent.to == ["zoe@example.com"]
    # Still signed in; no longer a guest; and the password works on a new phone.
    home = client.get(reverse("scoring:home")).content.decode()
    assert "You are scoring as a guest." not in home
    assert "Everything you scored is kept under zoe." in home
    phone = Client()
    logged_in = phone.post(reverse("account_login"), {"login": "zoe", "password": PASSWORD})
    assert logged_in.status_code == 302
    assert phone.get(match.get_absolute_url()).status_code == 200
    assert client.session.get_expire_at_browser_close() is False
    # A resend of the form, or the page again: nothing to keep any more.
    again = client.post(reverse("scoring:account-keep"), {"username": "zed", "password1": PASSWORD})
    assert again.status_code == 302 and again["Location"] == reverse("scoring:account")
    assert get_user_model().objects.get(pk=guest.pk).username == "zoe"


def test_keeping_refuses_a_taken_name_or_a_weak_password_and_stays_a_guest(client, user):
    guest = _start(client)
    for data in (
        {"username": user.username, "password1": PASSWORD},
        {"username": "zoe", "password1": "zoe"},
    ):
        response = client.post(reverse("scoring:account-keep"), data)
        assert response.status_code == 400
        assert 'class="errors"' in response.content.decode()
        assert guests.is_guest(get_user_model().objects.get(pk=guest.pk))


def test_an_account_that_is_no_guest_has_nothing_to_keep_and_starts_no_guest(client, user):
    client.force_login(user)
    response = client.get(reverse("scoring:account-keep"))
    assert response.status_code == 302 and response["Location"] == reverse("scoring:account")
    response = client.post(reverse("scoring:guest-start"))
    assert response.status_code == 302 and response["Location"] == reverse("scoring:match-new")
    assert get_user_model().objects.count() == 1
    assert Client().get(reverse("scoring:account-keep")).status_code == 302  # to log in


def test_guests_are_counted_like_sign_ups_per_client():
    client = Client()
    made = [Client().post(reverse("scoring:guest-start")).status_code for _ in range(20)]
    assert made == [302] * 20
    refused = client.post(reverse("scoring:guest-start"))
    assert refused.status_code == 429
    assert get_user_model().objects.count() == 20


def test_a_double_tap_on_start_makes_one_guest():
    first = Client().post(reverse("scoring:guest-start"), {FIELD: "tap"})
    second = Client().post(reverse("scoring:guest-start"), {FIELD: "tap"})
    assert first.status_code == second.status_code == 302
    assert Profile.objects.filter(is_guest=True).count() == 1


def test_guests_nobody_kept_are_deleted_after_the_stated_days(client, user):
    old, fresh = _start(Client()), _start(Client())
    kept = _start(client)
    _play(old), _play(fresh), _play(kept)
    guests.guest_claim(user=kept, username="zoe", password=PASSWORD)
    month_ago = timezone.now() - datetime.timedelta(days=31)
    get_user_model().objects.filter(pk__in=[old.pk, kept.pk]).update(date_joined=month_ago)
    out = []
    call_command("purge_guests", stdout=type("Out", (), {"write": out.append})())
    assert [line.strip() for line in out] == ["1 guest account deleted."]
    assert set(get_user_model().objects.values_list("pk", flat=True)) == {
        fresh.pk,
        kept.pk,
        user.pk,
    }
    assert not Circle.objects.filter(personal_for_id=old.pk).exists()
    assert Match.objects.filter(circle__personal_for_id=fresh.pk).count() == 1
    assert Match.objects.filter(circle__personal_for_id=kept.pk).count() == 1
    assert re.fullmatch(r"guest-[0-9a-f]{12}", fresh.username)
