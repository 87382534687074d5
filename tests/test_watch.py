"""An open board's poll (scoring/watch.py): 204 from one indexed read while nothing changed and the
reader is still a member; anything else goes to the view, which answers as it always did (the new
board, a 404 for a removed member) or gives the board a fresh token."""

import re
from unittest import mock

import pytest
from django.core import signing
from django.db import connection
from django.test.utils import CaptureQueriesContext
from helpers import FIRST_8, HX, shared_match

from scoring import services, watch
from scoring.circles import services as circles
from scoring.models import Membership
from scoring.rules import Rules
from scoring.sharing import links

pytestmark = pytest.mark.django_db


def _poll_url(client, match) -> str:
    """The poll the board itself renders (its hx-get), as the phone sends it."""
    html = client.get(match.get_absolute_url()).content.decode()
    found = re.search(r'id="board-poll"[^>]*hx-get="([^"]+)"', html)
    assert found, "the open board polls"
    return found.group(1).replace("&amp;", "&")


def test_the_boards_own_poll_is_answered_204_in_one_read(user_client, casino_match):
    url = _poll_url(user_client, casino_match)
    with CaptureQueriesContext(connection) as queries:
        response = user_client.get(url, headers=HX)
    assert (response.status_code, len(queries)) == (204, 1)


def test_a_saved_hand_is_seen_by_the_next_poll(user_client, casino_match):
    url = _poll_url(user_client, casino_match)
    services.hand_record(match=casino_match, number=1, tallies=FIRST_8)
    response = user_client.get(url, headers=HX)
    assert response.status_code == 200 and 'id="board-status"' in response.content.decode()


def test_a_removed_member_gets_no_204_at_once(client, user, other_user):
    match = shared_match(user, other_user)
    client.force_login(other_user)
    url = _poll_url(client, match)
    assert client.get(url, headers=HX).status_code == 204
    membership = Membership.objects.get(circle=match.circle, user=other_user)
    circles.member_remove(circle=match.circle, member_id=membership.pk, by=user)
    assert client.get(url, headers=HX).status_code == 404


def test_a_deleted_account_gets_no_204(client, user, other_user):
    match = shared_match(user, other_user)
    client.force_login(other_user)
    url = _poll_url(client, match)
    other_user.delete()
    response = client.get(url, headers=HX)
    assert response.status_code != 204


@pytest.mark.parametrize(
    "token",
    [
        "",
        "not-a-token",
        signing.dumps([1, 1], salt="another.salt"),
        signing.dumps(["1", 1], salt=watch.SALT),
    ],
    # Named, not shown: a signed token holds the time, and xdist's workers must collect the
    # same test ids.
    ids=["empty", "not-a-token", "another-salt", "account-not-a-number"],
)
def test_a_token_not_ours_gets_a_fresh_one_from_the_view(user_client, casino_match, user, token):
    url = f"{casino_match.get_absolute_url()}?watch={token}&since={casino_match.version}"
    response = user_client.get(url, headers=HX)
    assert response.status_code == 200
    fresh = re.search(r"watch=([^&]+)&amp;since", response.content.decode()).group(1)
    assert watch.watcher(fresh, casino_match.pk) == user.pk


def test_another_matchs_token_is_refused(user_client, user, players, casino_match):
    other = services.match_start(
        circle=user.personal_circle, rules=Rules.make("casino"), sides=[[players[2]], [players[3]]]
    )
    token = watch.token_for(user.pk, other.pk)
    url = f"{casino_match.get_absolute_url()}?watch={token}&since={casino_match.version}"
    assert watch.watcher(token, casino_match.pk) is None
    assert user_client.get(url, headers=HX).status_code == 200  # the view, with a fresh token


def test_an_old_token_gets_a_fresh_one(user_client, casino_match, user):
    url = _poll_url(user_client, casino_match)
    later = signing.time.time() + watch.MAX_AGE + 5
    with mock.patch("django.core.signing.time.time", return_value=later):
        response = user_client.get(url, headers=HX)
    assert response.status_code == 200 and b"board-poll" in response.content


def test_a_poll_that_is_not_a_boards_goes_to_the_view(user_client, casino_match, user):
    token = watch.token_for(user.pk, casino_match.pk)
    url = f"{casino_match.get_absolute_url()}?watch={token}&since={casino_match.version}"
    assert user_client.get(url).status_code == 200  # no HX-Request: the whole page
    assert user_client.post(url, headers=HX).status_code != 204


def test_a_shared_boards_poll_is_one_read_and_stops_when_the_link_is_turned_off(
    client, casino_match
):
    token = links.share_link_create(match=casino_match).share_token
    url = f"/shared/{token}/?since={casino_match.version}"
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, headers=HX)
    assert (response.status_code, len(queries)) == (204, 1)
    links.share_link_revoke(match=casino_match)
    assert client.get(url, headers=HX).status_code == 286  # htmx stops polling


def test_a_nul_in_a_shared_poll_is_no_server_error(client):
    response = client.get("/shared/ab%00cd/?since=1", headers=HX)
    assert response.status_code == 404
