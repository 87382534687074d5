"""An open board's poll (scoring/web/watch.py): 204 from one indexed read while nothing changed and the
reader is still a member; anything else goes to the view, which answers as it always did (the new
board, a 404 for a removed member) or gives the board a fresh token."""

import datetime
import re
from unittest import mock
from urllib.parse import quote

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.core import signing
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from helpers import FIRST_8, HX, friday_club, shared_match

from scoring.circles import services as circles
from scoring.engine.rules import Rules
from scoring.matches import services
from scoring.models import Membership
from scoring.sharing import links
from scoring.web import watch

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
    assert watch.watcher(fresh, casino_match.pk, user_client.session.session_key) == user.pk


def test_another_matchs_token_is_refused(user_client, user, players, casino_match):
    other = services.match_start(
        circle=user.personal_circle, rules=Rules.make("casino"), sides=[[players[2]], [players[3]]]
    )
    session = user_client.session.session_key
    token = watch.token_for(user.pk, other.pk, session)
    url = f"{casino_match.get_absolute_url()}?watch={token}&since={casino_match.version}"
    assert watch.watcher(token, casino_match.pk, session) is None
    assert user_client.get(url, headers=HX).status_code == 200  # the view, with a fresh token


def test_an_old_token_gets_a_fresh_one(user_client, casino_match, user):
    url = _poll_url(user_client, casino_match)
    later = signing.time.time() + watch.MAX_AGE + 5
    with mock.patch("django.core.signing.time.time", return_value=later):
        response = user_client.get(url, headers=HX)
    assert response.status_code == 200 and b"board-poll" in response.content


def test_a_poll_that_is_not_a_boards_goes_to_the_view(user_client, casino_match, user):
    token = watch.token_for(user.pk, casino_match.pk, user_client.session.session_key)
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


# --- a token belongs to the session it was given to ---------------------------------------------


def _event_poll_url(client, event) -> str:
    html = client.get(event.get_absolute_url()).content.decode()
    found = re.search(r'id="event-poll"[^>]*hx-get="([^"]+)"', html)
    assert found, "the event page polls"
    return found.group(1).replace("&amp;", "&")


@pytest.fixture
def event(user):
    return friday_club(user, ["Nia", "Oz", "Pim", "Rex"], day=datetime.date(2026, 3, 6))


@pytest.fixture(params=["match", "event"])
def board_poll(request, user, user_client, casino_match):
    """The poll a member's page renders (a match's board, an event's page), as its phone sends it."""
    if request.param == "match":
        return _poll_url(user_client, casino_match)
    return _event_poll_url(user_client, request.getfixturevalue("event"))


def test_a_token_without_its_session_gets_no_204(user, user_client, board_poll):
    """Whoever read the token (in an access log, in a login page's ?next=) holds no session of
    the account: no cookie, or another session of the same account."""
    assert user_client.get(board_poll, headers=HX).status_code == 204
    anonymous = type(user_client)()
    assert anonymous.get(board_poll, headers=HX).status_code != 204  # no session at all
    elsewhere = type(user_client)()
    elsewhere.force_login(user)  # the same account, another session (another phone)
    assert elsewhere.get(board_poll, headers=HX).status_code == 200  # the view: a fresh token
    assert user_client.get(board_poll, headers=HX).status_code == 204  # still good where given


def test_a_token_stops_when_its_session_ends(user, user_client, board_poll):
    session_cookie = user_client.cookies[settings.SESSION_COOKIE_NAME].value
    assert user_client.get(board_poll, headers=HX).status_code == 204
    user_client.logout()
    thief = type(user_client)()
    thief.cookies[settings.SESSION_COOKIE_NAME] = session_cookie  # the old cookie, replayed
    assert thief.get(board_poll, headers=HX).status_code != 204


def test_a_token_stops_when_its_session_expires(user, user_client, board_poll):
    assert user_client.get(board_poll, headers=HX).status_code == 204
    key = user_client.cookies[settings.SESSION_COOKIE_NAME].value
    Session.objects.filter(session_key=key).update(
        expire_date=timezone.now() - datetime.timedelta(seconds=1)
    )
    assert user_client.get(board_poll, headers=HX).status_code != 204


def test_a_tied_poll_is_still_one_read(user_client, board_poll):
    with CaptureQueriesContext(connection) as queries:
        response = user_client.get(board_poll, headers=HX)
    assert (response.status_code, len(queries)) == (204, 1)


MALFORMED_SINCE = ["None", "", "abc", "1.0", " 1", "-1", "\u00b2", "1\n", "0x1", "null"]


@pytest.mark.parametrize("since", MALFORMED_SINCE)
def test_a_malformed_since_never_gets_a_204(user_client, board_poll, since):
    """`since=None` matched a refused lookup's None: a non-member, a wrong token, an unknown
    share link all got 204. Anything but a version number goes to the view."""
    url = re.sub(r"since=\d+", "since=" + quote(since), board_poll)
    assert user_client.get(url, headers=HX).status_code != 204
    # A refused lookup: no session (the token is not this client's).
    assert type(user_client)().get(url, headers=HX).status_code != 204


@pytest.mark.parametrize("since", MALFORMED_SINCE)
@pytest.mark.parametrize("prefix", ["/shared/", "/events/screen/"])
def test_an_unknown_link_with_a_malformed_since_gets_no_204(client, prefix, since):
    url = f"{prefix}no-such-token/?since={quote(since)}"
    assert client.get(url, headers=HX).status_code != 204


@pytest.mark.parametrize(
    "payload",
    [[True, 1, "x"], [1], [1, 1], "1", None, {"user": 1}, [1, 1, 1], [1, True, "x"]],
    ids=["bool-account", "one", "two", "text", "null", "object", "tag-not-text", "bool-match"],
)
def test_a_signed_token_of_another_shape_goes_to_the_view(user_client, casino_match, payload):
    """Only the site can sign, but nothing of another shape may get further than the view."""
    token = signing.dumps(payload, salt=watch.SALT, compress=False)
    url = f"{casino_match.get_absolute_url()}?watch={token}&since={casino_match.version}"
    assert watch.watcher(token, casino_match.pk, "k" * 32) is None
    response = user_client.get(url, headers=HX)
    assert response.status_code == 200 and b"board-poll" in response.content


@pytest.mark.parametrize("cookie", ["\x00", "a" * 300, "ab;cd", "é"])
def test_a_session_cookie_that_is_no_session_key_goes_to_the_view(
    user_client, casino_match, cookie
):
    url = _poll_url(user_client, casino_match)
    user_client.cookies[settings.SESSION_COOKIE_NAME] = cookie
    assert user_client.get(url, headers=HX).status_code not in (204, 500)


def test_since_none_is_no_204_for_a_refused_lookup(client, other_user, casino_match):
    """A stranger's own good token (signed for its session) names a match of a circle it is not
    in: the read finds nothing, and nothing is not the version "None"."""
    client.force_login(other_user)
    token = watch.token_for(other_user.pk, casino_match.pk, client.session.session_key)
    url = f"{casino_match.get_absolute_url()}?watch={token}&since=None"
    assert client.get(url, headers=HX).status_code == 404


@pytest.mark.django_db
def test_a_poll_after_the_session_ended_takes_the_page_to_the_login(client, casino_match):
    """htmx follows a redirect and would swap the login page into the board's hidden poll: the
    answer tells it to take the whole page to the login, back to the board (not to the poll's
    address with its token)."""
    board = reverse("scoring:match", args=[casino_match.pk])
    answer = client.get(
        f"{board}?since=0&watch=x",
        headers={"HX-Request": "true", "HX-Current-URL": f"http://testserver{board}"},
    )
    assert answer.status_code == 401  # htmx swaps nothing, and goes where HX-Redirect says
    assert answer["HX-Redirect"] == f"{reverse('account_login')}?next={board}"
    plain = client.get(board)  # without htmx: the login page, as before
    assert plain.status_code == 302 and plain["Location"].startswith(reverse("account_login"))
