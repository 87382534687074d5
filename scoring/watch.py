"""The cheap poll of an open scoreboard: "anything new since version N?" answered from one indexed
read, without the session, the user or any other middleware.

Every open board asks every few seconds, which is most of the traffic a server sees, and almost
every answer is "no" (204). The board's poll carries a watch token: the account and the match,
signed with the site's secret (so every app server of one site reads it) and dated. The first
middleware (`WatchMiddleware`) answers 204 when the token is good, the account is still a member
of the match's circle (a removed member, or a deleted account, is refused at once: the read joins
the membership) and the version is the one the board has. Anything else (a new version, a token
too old or not ours, no membership) goes on to the view, which answers as before: the new board, a
fresh token, a 404. A shared link's board needs no token: its share token is the read's key.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.core import signing
from django.db import connection
from django.http import HttpRequest, HttpResponse

from scoring.models import Event, Match, Membership

SALT = "scoring.watch"
# A board asks with one token this long; the view then gives it a new one (a 200 with only the
# poll in it), so a board left open all evening keeps polling cheaply.
MAX_AGE = 60 * 60
MATCH_POLL = re.compile(r"^/matches/(\d{1,18})/$")
SHARED_POLL = re.compile(r"^/shared/([^/\x00]{1,64})/$")
# An event's page (a member's) and its big screen (a share link), polled the same way.
EVENT_POLL = re.compile(r"^/events/(\d{1,18})/$")
SCREEN_POLL = re.compile(r"^/events/screen/([^/\x00]{1,64})/$")
EVENT_SALT = "scoring.watch.event"


def token_for(user_id: int, match_id: int, *, salt: str = SALT) -> str:
    """The watch token of this account's board of this match (or, `salt` EVENT_SALT, of an
    event's page)."""
    return signing.dumps([user_id, match_id], salt=salt, compress=False)


def watcher(token: str, match_id: int, *, salt: str = SALT) -> int | None:
    """The account a good, recent token of this match's board names; None otherwise."""
    try:
        user_id, named = signing.loads(token, salt=salt, max_age=MAX_AGE)
    except (signing.BadSignature, ValueError, TypeError):
        return None
    if named != match_id or not isinstance(user_id, int):
        return None
    return user_id


# One read each, written out: the ORM would join the circle too and order the rows, and its
# query building is a good part of a poll's cost. Both are index lookups (the match's primary
# key and the membership's unique (circle, user); the share token's unique index).
MEMBER_VERSION = (
    f"SELECT m.version FROM {Match._meta.db_table} m"
    f" JOIN {Membership._meta.db_table} ms ON ms.circle_id = m.circle_id"
    " WHERE m.id = %s AND ms.user_id = %s"
)
SHARED_VERSION = f"SELECT version FROM {Match._meta.db_table} WHERE share_token = %s"
MEMBER_EVENT_VERSION = MEMBER_VERSION.replace(Match._meta.db_table, Event._meta.db_table)
SCREEN_VERSION = SHARED_VERSION.replace(Match._meta.db_table, Event._meta.db_table)


def _one(sql: str, params: tuple[int | str, ...]) -> int | None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    return row[0] if row else None


def member_version(match_id: int, user_id: int) -> int | None:
    """The match's version, if the account is a member of its circle (one indexed read)."""
    return _one(MEMBER_VERSION, (match_id, user_id))


def shared_version(token: str) -> int | None:
    """The version of the match shared under this token (one indexed read)."""
    return _one(SHARED_VERSION, (token,))


def unchanged(request: HttpRequest) -> bool:
    """Whether this is an open board's poll and the board is as the server has it."""
    if request.method != "GET" or "HX-Request" not in request.headers:
        return False
    since = request.GET.get("since")
    if not since:
        return False
    if found := MATCH_POLL.match(request.path_info):
        match_id = int(found.group(1))
        user_id = watcher(request.GET.get("watch", ""), match_id)
        return user_id is not None and str(member_version(match_id, user_id)) == since
    if found := SHARED_POLL.match(request.path_info):
        return str(shared_version(found.group(1))) == since
    if found := EVENT_POLL.match(request.path_info):
        event_id = int(found.group(1))
        user_id = watcher(request.GET.get("watch", ""), event_id, salt=EVENT_SALT)
        return user_id is not None and str(_one(MEMBER_EVENT_VERSION, (event_id, user_id))) == since
    if found := SCREEN_POLL.match(request.path_info):
        return str(_one(SCREEN_VERSION, (found.group(1),))) == since
    return False


class WatchMiddleware:
    """First in the list: a board's poll that finds nothing new ends here, with 204."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if unchanged(request):
            return HttpResponse(status=204)
        return self.get_response(request)
