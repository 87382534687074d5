"""The cheap poll of an open scoreboard: "anything new since version N?" answered from one indexed
read, without the session, the user or any other middleware.

Every open board asks every few seconds, which is most of the traffic a server sees, and almost
every answer is "no" (204). The board's poll carries a watch token: the account, the match and a
keyed hash of the session it was given to, signed with the site's secret (so every app server of
one site reads it) and dated. The first middleware (`WatchMiddleware`) answers 204 when the token
is good and comes with its session's cookie, that session is still open (logged out or expired,
its tokens stop at once), the account is still a member of the match's circle (a removed member,
or a deleted account, is refused at once: the read joins the membership and the session) and the
version is the one the board has. A token read elsewhere (an access log, a login page's ?next=)
is nothing without the session's cookie, and anything not exactly as a board sends it (a version
that is not a number, a token of another shape) goes on to the view. Anything else (a new version, a token
too old or not ours, no membership) goes on to the view, which answers as before: the new board, a
fresh token, a 404. A shared link's board needs no token: its share token is the read's key.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.sessions.models import Session
from django.core import signing
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.utils.crypto import constant_time_compare, salted_hmac

from scoring.models import Event, Match, Membership

SALT = "scoring.web.watch"
# A board asks with one token this long; the view then gives it a new one (a 200 with only the
# poll in it), so a board left open all evening keeps polling cheaply.
MAX_AGE = 60 * 60
MATCH_POLL = re.compile(r"^/matches/(\d{1,18})/$")
SHARED_POLL = re.compile(r"^/shared/([^/\x00]{1,64})/$")
# An event's page (a member's) and its big screen (a share link), polled the same way.
EVENT_POLL = re.compile(r"^/events/(\d{1,18})/$")
SCREEN_POLL = re.compile(r"^/events/screen/([^/\x00]{1,64})/$")
EVENT_SALT = "scoring.web.watch.event"
SESSION_SALT = "scoring.web.watch.session"
# A version as the board writes it, and a session key as Django makes one: anything else is not a
# board's poll (and never reaches the database).
VERSION = re.compile(r"[0-9]{1,18}")
SESSION_KEY = re.compile(r"[a-z0-9]{8,40}")


def session_tag(session_key: str) -> str:
    """What a token holds of the session it was given to: a keyed hash, so the token (which an
    access log or a login page's ?next= may show) never shows the session's key."""
    return salted_hmac(SESSION_SALT, session_key).hexdigest()[:24]


def token_for(user_id: int, match_id: int, session_key: str, *, salt: str = SALT) -> str:
    """The watch token of this account's board of this match in this session (or, `salt`
    EVENT_SALT, of an event's page)."""
    return signing.dumps([user_id, match_id, session_tag(session_key)], salt=salt, compress=False)


def watcher(token: str, match_id: int, session_key: str | None, *, salt: str = SALT) -> int | None:
    """The account a good, recent token of this match's board names, given to this session;
    None for anything else (another shape, another session, another match)."""
    if not token or not session_key or not SESSION_KEY.fullmatch(session_key):
        return None
    payload = _token_payload(token, salt)
    if payload is None:
        return None
    user_id, named, tag = payload
    if named != match_id or not constant_time_compare(tag, session_tag(session_key)):
        return None
    return user_id


def _token_payload(token: str, salt: str) -> tuple[int, int, str] | None:
    """What a good, recent token signed with `salt` holds: (account, match or event, session
    tag); None for a token not ours, too old, or of another shape."""
    try:
        payload = signing.loads(token, salt=salt, max_age=MAX_AGE)
    except Exception:  # anything a token not ours can raise: it is simply not ours
        return None
    if not isinstance(payload, list) or len(payload) != 3:
        return None
    user_id, named, tag = payload
    if type(user_id) is not int or type(named) is not int or not isinstance(tag, str):
        return None
    return user_id, named, tag


# One read each, written out: the ORM would join the circle too and order the rows, and its
# query building is a good part of a poll's cost. Both are index lookups (the match's primary
# key, the membership's unique (circle, user) and the session's key, so a session that ended
# (logged out, expired) stops its tokens at once; the share token's unique index).
MEMBER_VERSION = (
    f"SELECT m.version FROM {Match._meta.db_table} m"
    f" JOIN {Membership._meta.db_table} ms ON ms.circle_id = m.circle_id"
    f" JOIN {Session._meta.db_table} s ON s.session_key = %s"
    # The database's clock (SQLite's, text to the second, against Django's stored UTC text):
    # cheaper than a parameter, and a session within its last second is still open.
    " WHERE m.id = %s AND ms.user_id = %s AND s.expire_date > CURRENT_TIMESTAMP"
)
SHARED_VERSION = f"SELECT version FROM {Match._meta.db_table} WHERE share_token = %s"
MEMBER_EVENT_VERSION = MEMBER_VERSION.replace(Match._meta.db_table, Event._meta.db_table)
SCREEN_VERSION = SHARED_VERSION.replace(Match._meta.db_table, Event._meta.db_table)


def _one(sql: str, params: tuple[Any, ...]) -> int | None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    return row[0] if row else None


def member_version(match_id: int, user_id: int, session_key: str) -> int | None:
    """The match's version, if the account is a member of its circle and the session is still
    open (one indexed read)."""
    return _one(MEMBER_VERSION, (session_key, match_id, user_id))


def shared_version(token: str) -> int | None:
    """The version of the match shared under this token (one indexed read)."""
    return _one(SHARED_VERSION, (token,))


def unchanged(request: HttpRequest) -> bool:
    """Whether this is an open board's poll and the board is as the server has it. Anything not
    exactly as a board sends it (a version that is not a number, a token of another shape or
    session) is no: the view answers it."""
    if request.method != "GET" or "HX-Request" not in request.headers:
        return False
    since = request.GET.get("since", "")
    if not VERSION.fullmatch(since):
        return False
    version = _polled_version(request)
    return version is not None and str(version) == since


def _polled_version(request: HttpRequest) -> int | None:
    """The version of the board the poll's path names, as this poller may see it; None when
    the path is no board's, or the board is not theirs to see."""
    path = request.path_info
    if found := MATCH_POLL.match(path):
        match_id = int(found.group(1))
        if watching := _watching(request, match_id, SALT):
            return member_version(match_id, *watching)
    elif found := SHARED_POLL.match(path):
        return shared_version(found.group(1))
    elif found := EVENT_POLL.match(path):
        event_id = int(found.group(1))
        if watching := _watching(request, event_id, EVENT_SALT):
            user_id, session_key = watching
            return _one(MEMBER_EVENT_VERSION, (session_key, event_id, user_id))
    elif found := SCREEN_POLL.match(path):
        return _one(SCREEN_VERSION, (found.group(1),))
    return None


def _watching(request: HttpRequest, board_id: int, salt: str) -> tuple[int, str] | None:
    """(account, session key) of a member's poll of this match's or event's board, when its
    watch token is good for the session of its cookie."""
    session_key = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    user_id = watcher(request.GET.get("watch", ""), board_id, session_key, salt=salt)
    if user_id is None or not session_key:
        return None
    return user_id, session_key


class WatchMiddleware:
    """First in the list: a board's poll that finds nothing new ends here, with 204."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if unchanged(request):
            return HttpResponse(status=204)
        return self.get_response(request)
