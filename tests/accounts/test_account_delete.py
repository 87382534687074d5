"""The account page, and deleting an account: it takes the account's own circles with it and
nothing that belongs to another member."""

from __future__ import annotations

import json
from collections import deque
from typing import Any
from unittest import mock

import pytest
from allauth.account.internal.flows.login import record_authentication
from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Model
from django.http import HttpRequest
from django.shortcuts import resolve_url
from django.test import Client, RequestFactory
from django.urls import reverse
from helpers import FIRST_8, FIRST_11, SECOND_8

from scoring.accounts import services as accounts
from scoring.circles import services as circles
from scoring.engine.rules import Rules
from scoring.matches import services
from scoring.models import (
    Circle,
    Hand,
    HandRevision,
    Match,
    Membership,
    Player,
    PlayerMatchStat,
    PlayerRating,
    PlayerStat,
)

pytestmark = pytest.mark.django_db
PASSWORD = "casino-pass-1"  # ana's (tests/conftest.py)
ACCOUNT = reverse("scoring:account")
DELETE = reverse("scoring:account-delete")
GOODBYE = reverse("scoring:account-deleted")
USER_FIELDS_EMPTIED = ("created_by", "entered_by", "changed_by", "by", "replaced_by")


# --- a circle that two accounts share --------------------------------------------------------------


def _path_to_circle(model: type[Model]) -> str | None:
    """How rows of `model` reach their circle ("match__circle"), by the shortest path."""
    if model is Circle:
        return "pk"
    queue = deque([(model, "")])
    seen = {model}
    while queue:
        current, path = queue.popleft()
        for field in current._meta.get_fields():
            if not (
                field.concrete and field.is_relation and (field.many_to_one or field.one_to_one)
            ):
                continue
            where = f"{path}{field.name}"
            if field.related_model is Circle:
                return where
            if field.related_model not in seen and field.related_model._meta.app_label == "scoring":
                seen.add(field.related_model)
                queue.append((field.related_model, f"{where}__"))
    return None


def snapshot(circle_id: int) -> dict[str, list[dict[str, Any]]]:
    """Every row of the scoring app that belongs to the circle: its members, invites, players,
    matches, sides, seats, hands, tallies, revisions, ratings and statistics."""
    rows = {}
    for model in apps.get_app_config("scoring").get_models():
        path = _path_to_circle(model)
        if path:
            found = model.objects.filter(**{path: circle_id}).order_by("pk").values()
            rows[model.__name__] = list(found)
    return rows


def without_account(rows: dict[str, list[dict[str, Any]]], user_id: int) -> dict[str, list]:
    """`rows` as they should be once the account is gone: its memberships out, and every
    "who did this" that named it pointing at nobody."""
    expected = {}
    for model, model_rows in rows.items():
        kept = []
        for row in model_rows:
            if model == "Membership" and row["user_id"] == user_id:
                continue
            row = dict(row)
            for field in USER_FIELDS_EMPTIED:
                if row.get(f"{field}_id") == user_id:
                    row[f"{field}_id"] = None
            kept.append(row)
        expected[model] = kept
    return expected


def _play(circle: Circle, names: tuple[str, str], *, by: Any, then: Any) -> Match:
    """A match in `circle` started by `by`; `by` enters two hands and `then` changes the first
    and enters the last two, so the match is won and every "who" field names someone."""
    one, two = (services.player_get_or_create(circle=circle, name=name) for name in names)
    match = services.match_start(
        circle=circle, by=by, rules=Rules.make("casino"), sides=[[one], [two]]
    )
    services.hand_record(match=match, number=1, tallies=FIRST_8, by=by)
    services.hand_record(match=match, number=2, tallies=SECOND_8, by=by)
    services.hand_edit(match=match, number=1, tallies=SECOND_8, by=then)
    services.hand_record(match=match, number=3, tallies=FIRST_11, by=then)
    services.hand_record(match=match, number=4, tallies=FIRST_11, by=then)
    assert match.ratings.exists()
    return match


@pytest.fixture
def world(user: Any, other_user: Any) -> dict[str, Any]:
    """ana and mallory share "Friday" (mallory its admin) where both recorded matches; each has
    matches in their personal circle too; ana has an e-mail address and is "Annie" at Friday."""
    friday = circles.circle_create(name="Friday", by=other_user)
    Membership.objects.create(circle=friday, user=user, role=Membership.Role.MEMBER)
    by_ana = _play(friday, ("Annie", "Mo"), by=user, then=other_user)
    by_mallory = _play(friday, ("Mo", "Zed"), by=other_user, then=user)
    open_match = services.match_start(
        circle=friday,
        by=user,
        rules=Rules.make("royal"),
        sides=[[Player.objects.get(circle=friday, name="Annie")], [by_mallory.seats.last().player]],
    )
    services.hand_record(match=open_match, number=1, tallies=FIRST_8, by=user)
    circles.member_link_player(
        membership=Membership.objects.get(circle=friday, user=user),
        player_id=Player.objects.get(circle=friday, name="Annie").pk,
    )
    own = _play(user.personal_circle, ("Ana", "Ben"), by=user, then=user)
    theirs = _play(other_user.personal_circle, ("Mal", "Ory"), by=other_user, then=other_user)
    EmailAddress.objects.create(user=user, email="ana@example.com", verified=True, primary=True)
    return {
        "friday": friday,
        "matches": [by_ana, by_mallory, open_match],
        "own": own,
        "theirs": theirs,
    }


def _delete(client: Client, password: str = PASSWORD) -> Any:
    return client.post(DELETE, {"password": password})


def _exists(user: Any) -> bool:
    return get_user_model().objects.filter(pk=user.pk).exists()


# --- nothing of anyone else ------------------------------------------------------------------------


def test_the_world_has_what_the_snapshots_compare(world: dict[str, Any], user: Any) -> None:
    """The shared circle's snapshot holds every kind of row, and names ana in every "who"
    field, so the comparison below can see a loss."""
    rows = snapshot(world["friday"].pk)
    for model in (
        "Membership",
        "Player",
        "Match",
        "Side",
        "Seat",
        "Hand",
        "Tally",
        "HandRevision",
        "PlayerRating",
        "PlayerMatchStat",
        "PlayerStat",
        "PlayerRecordStat",
        "PlayerPairStat",
    ):
        assert rows[model], model
    for model, field in (
        ("Match", "created_by_id"),
        ("Hand", "entered_by_id"),
        ("Hand", "changed_by_id"),
        ("HandRevision", "by_id"),
        ("HandRevision", "replaced_by_id"),
    ):
        assert any(row[field] == user.pk for row in rows[model]), (model, field)
    assert without_account(rows, user.pk) != rows


def test_deleting_an_account_removes_nothing_that_belongs_to_another_member(
    world: dict[str, Any], user: Any, other_user: Any, user_client: Client
) -> None:
    friday = world["friday"]
    shared_before = snapshot(friday.pk)
    theirs_before = snapshot(other_user.personal_circle.pk)
    own_circle = user.personal_circle
    own_players = list(Player.objects.filter(circle=own_circle).values_list("pk", flat=True))

    response = _delete(user_client)

    assert response.status_code == 302 and response["Location"] == GOODBYE
    assert not _exists(user)
    # The shared circle: every match, hand, player, rating and statistic as it was, and ana's
    # name gone from "started by", "entered by" and the hand history.
    assert snapshot(friday.pk) == without_account(shared_before, user.pk)
    assert Match.objects.filter(circle=friday).count() == 3
    assert Hand.objects.filter(match__circle=friday, entered_by=None).count() == sum(
        row["entered_by_id"] == user.pk for row in shared_before["Hand"]
    )
    assert Player.objects.filter(circle=friday, name="Annie").exists()
    assert list(Membership.objects.filter(circle=friday).values_list("user", flat=True)) == [
        other_user.pk
    ]
    # mallory's own circle: untouched.
    assert snapshot(other_user.personal_circle.pk) == theirs_before
    # ana's personal circle, with its matches, players, ratings and statistics: gone.
    assert not Circle.objects.filter(pk=own_circle.pk).exists()
    assert not Match.objects.filter(pk=world["own"].pk).exists()
    assert not Player.objects.filter(pk__in=own_players).exists()
    assert not PlayerRating.objects.filter(player_id__in=own_players).exists()
    assert not PlayerStat.objects.filter(player_id__in=own_players).exists()
    assert not PlayerMatchStat.objects.filter(player_id__in=own_players).exists()
    assert not EmailAddress.objects.filter(email="ana@example.com").exists()


def test_the_shared_circles_pages_still_show_every_match_to_the_member_who_stays(
    world: dict[str, Any], user: Any, other_user: Any, user_client: Client
) -> None:
    _delete(user_client)
    mallory = Client()
    mallory.force_login(other_user)
    mallory.post(reverse("scoring:circle-switch", args=[world["friday"].pk]))
    page = mallory.get(reverse("scoring:match-list")).content.decode()
    for match in world["matches"]:
        assert reverse("scoring:match", args=[match.pk]) in page
    history = mallory.get(reverse("scoring:hand-history", args=[world["matches"][0].pk, 1]))
    assert history.status_code == 200
    assert HandRevision.objects.filter(hand__match=world["matches"][0]).count() == 1


def test_a_personal_circle_others_joined_stays_with_them(
    user: Any, other_user: Any, user_client: Client
) -> None:
    own = user.personal_circle
    Membership.objects.create(circle=own, user=other_user, role=Membership.Role.ADMIN)
    match = _play(own, ("Ana", "Mal"), by=other_user, then=user)
    before = snapshot(own.pk)

    assert _delete(user_client).status_code == 302

    own.refresh_from_db()
    assert own.personal_for is None
    expected = without_account(before, user.pk)
    expected["Circle"][0]["personal_for_id"] = None
    assert snapshot(own.pk) == expected
    assert Match.objects.filter(pk=match.pk).exists()


def test_a_circle_where_the_account_is_alone_goes_with_it(user: Any, user_client: Client) -> None:
    alone = circles.circle_create(name="Solitaire", by=user)
    match = _play(alone, ("Ana", "Bot"), by=user, then=user)
    plan = accounts.deletion_plan(user)
    assert {fate.circle.pk for fate in plan.deleted} == {alone.pk, user.personal_circle.pk}
    assert [fate.matches for fate in plan.deleted if fate.circle == alone] == [1]

    assert _delete(user_client).status_code == 302

    assert not Circle.objects.filter(pk=alone.pk).exists()
    assert not Match.objects.filter(pk=match.pk).exists()


def test_a_circle_with_a_club_night_goes_with_it(user: Any, user_client: Client) -> None:
    """The event's entries and byes hold its players: the events go first, then the matches
    (the one lock order), then the circle."""
    import datetime

    from scoring.events import services as events
    from scoring.models import Event, EventTable

    circle = user.personal_circle
    event = events.event_create(
        circle=circle,
        by=user,
        name="Friday",
        day=datetime.date.today(),
        fmt="round_robin",
        rules=Rules.make("casino"),
        players=[],
        new_names=["Ana", "Ben", "Cy"],  # three: a bye each round
    )
    events.round_pair(event=event, number=1, by=user)
    assert EventTable.objects.filter(round__event=event, bye__isnull=False).exists()

    assert _delete(user_client).status_code == 302

    assert not Event.objects.filter(pk=event.pk).exists()
    assert not Circle.objects.filter(pk=circle.pk).exists()
    assert not Player.objects.filter(circle_id=circle.pk).exists()


# --- what the page says, and when it refuses --------------------------------------------------------


def test_the_page_says_what_is_deleted_and_what_is_left(
    world: dict[str, Any], user_client: Client
) -> None:
    page = user_client.get(DELETE).content.decode()
    deleted, left = page.split("Deleted with your account")[1].split("Circles you leave")
    assert "ana" in deleted and "1 match" in deleted and "2 players" in deleted
    assert "Friday" in left and "1 other member stays" in left and "Friday" not in deleted
    # The downloads come first, one per circle.
    downloads = page.split("What happens")[0]
    for circle in (world["friday"], world["own"].circle):
        assert reverse("scoring:account-export", args=[circle.pk]) in downloads
    assert 'name="password"' in page and 'autocomplete="current-password"' in page


def test_the_last_admin_of_a_circle_others_stay_in_must_hand_it_over_first(
    world: dict[str, Any], user: Any, other_user: Any
) -> None:
    """mallory is Friday's only admin: her deletion is refused, and nothing changes, until she
    makes ana an admin."""
    friday = world["friday"]
    client = Client()
    client.force_login(other_user)
    before = {circle.pk: snapshot(circle.pk) for circle in Circle.objects.all()}

    page = client.get(DELETE)
    assert page.status_code == 200
    text = page.content.decode()
    assert "make another member an admin" in text
    assert reverse("scoring:circle", args=[friday.pk]) in text
    assert "Delete my account for good" not in text

    refused = client.post(DELETE, {"password": "casino-pass-2"})
    assert refused.status_code == 400
    assert _exists(other_user)
    assert {circle.pk: snapshot(circle.pk) for circle in Circle.objects.all()} == before

    with pytest.raises(Exception, match="only admin of Friday"):
        accounts.account_delete(user=other_user)
    assert _exists(other_user)

    circles.member_set_role(
        circle=friday, member_id=Membership.objects.get(circle=friday, user=user).pk, role="admin"
    )
    assert client.post(DELETE, {"password": "casino-pass-2"}).status_code == 302
    assert not _exists(other_user)
    assert Match.objects.filter(circle=friday).count() == 3


def test_a_personal_circle_whose_other_members_are_not_admins_blocks_too(
    user: Any, other_user: Any, user_client: Client
) -> None:
    Membership.objects.create(circle=user.personal_circle, user=other_user)
    assert [fate.circle for fate in accounts.deletion_plan(user).blocking] == [user.personal_circle]
    assert _delete(user_client).status_code == 400
    assert _exists(user)


def test_a_wrong_password_is_refused(world: dict[str, Any], user: Any, user_client: Client) -> None:
    response = _delete(user_client, "not-my-password")
    assert response.status_code == 400
    assert "That is not your password." in response.content.decode()
    assert _exists(user)
    assert Circle.objects.filter(pk=user.personal_circle.pk).exists()
    assert user_client.get(ACCOUNT).status_code == 200  # still logged in


def test_guesses_at_the_password_are_throttled_like_logins(user: Any, user_client: Client) -> None:
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _delete(user_client, "guess").status_code == 400
    assert _delete(user_client, "guess").status_code == 429
    assert _delete(user_client).status_code == 429  # locked, even with the right one
    assert _exists(user)


def test_no_password_is_refused(user: Any, user_client: Client) -> None:
    assert user_client.post(DELETE, {}).status_code == 400
    assert _exists(user)


@pytest.mark.parametrize("method", ["get", "post"])
@pytest.mark.parametrize("url", [ACCOUNT, DELETE])
def test_anonymous_is_sent_to_log_in(client: Client, user: Any, url: str, method: str) -> None:
    response = getattr(client, method)(url, {"password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"].startswith(resolve_url(settings.LOGIN_URL))
    assert _exists(user)


def test_sending_the_form_twice_does_nothing_more(
    world: dict[str, Any], user: Any, other_user: Any, user_client: Client
) -> None:
    assert _delete(user_client)["Location"] == GOODBYE
    everything = {circle.pk: snapshot(circle.pk) for circle in Circle.objects.all()}
    users = list(get_user_model().objects.values_list("pk", flat=True))

    again = _delete(user_client)

    assert again.status_code == 302
    assert again["Location"].startswith(resolve_url(settings.LOGIN_URL))
    assert {circle.pk: snapshot(circle.pk) for circle in Circle.objects.all()} == everything
    assert list(get_user_model().objects.values_list("pk", flat=True)) == users
    assert accounts.account_delete(user=user) is None


def test_a_resend_that_finds_the_account_gone_meanwhile_says_goodbye(
    user: Any, user_client: Client
) -> None:
    with mock.patch.object(accounts, "account_exists", return_value=False):
        response = _delete(user_client, "whatever")
    assert response["Location"] == GOODBYE
    assert _exists(user)  # nothing was done by this request
    assert "_auth_user_id" not in user_client.session


def test_the_goodbye_page_logs_out_and_the_account_cannot_log_in(
    world: dict[str, Any], user: Any, user_client: Client
) -> None:
    goodbye = user_client.get(_delete(user_client)["Location"])
    text = goodbye.content.decode()
    assert goodbye.status_code == 200
    assert "Your account is deleted" in text and "Goodbye, ana." in text
    assert "1 circle was deleted with it." in text
    assert "You left 1 circle" in text
    assert user_client.get(ACCOUNT).status_code == 302
    assert not Client().login(request=RequestFactory().get("/"), username="ana", password=PASSWORD)


def test_the_goodbye_page_is_nothing_to_anyone_else(client: Client, user_client: Client) -> None:
    assert client.get(GOODBYE)["Location"] == reverse("scoring:home")
    assert user_client.get(GOODBYE)["Location"] == reverse("scoring:home")


# --- confirming with allauth instead of the password ------------------------------------------------


def _reauthenticated(client: Client, user: Any, method: str, **extra: Any) -> None:
    """What allauth records in the session when the account holder confirms it is them."""
    request = HttpRequest()
    request.session = client.session
    record_authentication(request, user, method=method, reauthenticated=True, **extra)
    request.session.save()


def test_after_allauths_reauthentication_no_password_is_asked_again(
    user: Any, user_client: Client
) -> None:
    response = user_client.post(
        reverse("account_reauthenticate") + f"?next={DELETE}", {"password": PASSWORD}
    )
    assert response.status_code == 302 and response["Location"] == DELETE
    page = user_client.get(DELETE).content.decode()
    assert 'name="password"' not in page and "You confirmed that it is you" in page
    assert user_client.post(DELETE, {}).status_code == 302
    assert not _exists(user)


def test_a_passkey_account_confirms_with_its_passkey(user: Any, user_client: Client) -> None:
    user.set_unusable_password()
    user.save()
    Authenticator.objects.create(user=user, type=Authenticator.Type.WEBAUTHN, data={})
    user_client.force_login(user)

    page = user_client.get(DELETE).content.decode()
    assert 'name="password"' not in page and "Delete my account for good" not in page
    passkey = reverse("mfa_reauthenticate_webauthn") + "?next=%2Faccount%2Fdelete%2F"
    assert passkey in page.replace("&amp;", "&")
    assert user_client.post(DELETE, {"password": "guess"}).status_code == 400
    assert _exists(user)

    _reauthenticated(user_client, user, "mfa", type="webauthn")
    assert "Delete my account for good" in user_client.get(DELETE).content.decode()
    assert user_client.post(DELETE, {}).status_code == 302
    assert not _exists(user)


# --- the account page and the downloads -------------------------------------------------------------


def test_the_account_page_links_to_everything_about_the_account(
    world: dict[str, Any], user_client: Client
) -> None:
    page = user_client.get(ACCOUNT)
    text = page.content.decode()
    assert page.status_code == 200
    for url in (
        reverse("account_email"),
        reverse("account_change_password"),
        reverse("mfa_index"),
        DELETE,
        reverse("scoring:account-export", args=[world["friday"].pk]),
        reverse("scoring:account-export", args=[world["own"].circle_id]),
    ):
        assert f'href="{url}"' in text, url
    assert "ana@example.com" in text and "verified" in text
    assert reverse("account_set_password") not in text
    assert f'<a href="{ACCOUNT}" aria-current="page">' in text  # the header's link


def test_an_account_without_a_password_is_offered_to_set_one(
    user: Any, user_client: Client
) -> None:
    user.set_unusable_password()
    user.save()
    user_client.force_login(user)
    text = user_client.get(ACCOUNT).content.decode()
    assert reverse("account_set_password") in text
    assert reverse("account_change_password") not in text


def test_the_download_of_a_circle_holds_its_matches(
    world: dict[str, Any], user: Any, other_user: Any, user_client: Client
) -> None:
    friday = world["friday"]
    response = user_client.get(reverse("scoring:account-export", args=[friday.pk]))
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith('attachment; filename="casino-matches-')
    documents = json.loads(b"".join(response.streaming_content))
    assert len(documents) == 3
    names = {name for doc in documents for side in doc["sides"] for name in side["players"]}
    assert names == {"Annie", "Mo", "Zed"}
    # Not the current circle, and not someone else's.
    mallory = Client()
    mallory.force_login(other_user)
    own = reverse("scoring:account-export", args=[user.personal_circle.pk])
    assert mallory.get(own).status_code == 404
