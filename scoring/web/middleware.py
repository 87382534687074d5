"""The app's middleware: the answer while the database is down, pages never kept by the browser,
and input no page can take refused at the door (the account's language is
scoring/accounts/middleware.py)."""

import sys
from collections.abc import Callable
from typing import Any

from django.contrib.sessions import middleware as sessions
from django.contrib.sessions.exceptions import SessionInterrupted
from django.core.exceptions import BadRequest
from django.core.signals import got_request_exception
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.utils.cache import add_never_cache_headers
from django.utils.html import format_html
from django.utils.translation import gettext as _

from scoring.web.htmx import unavailable

# What a database that cannot be reached raises (refused, lost, timed out, restarting); a
# query the database refuses (a bug) stays a 500.
DATABASE_DOWN = (OperationalError, InterfaceError)
_FLAG = "_casino_database_down"


def _note_database_down(sender: Any, request: HttpRequest | None = None, **kwargs: Any) -> None:
    """Django turns an exception into a 500 where it is raised (in whichever middleware, or the
    view), before the middleware above sees anything; it says so with this signal, sent while
    the exception is being handled."""
    if request is not None and isinstance(sys.exc_info()[1], DATABASE_DOWN):
        setattr(request, _FLAG, True)


def _caused_by_database_down(error: BaseException | None) -> bool:
    while error is not None:
        if isinstance(error, DATABASE_DOWN):
            return True
        error = error.__cause__ or error.__context__
    return False


class SessionMiddleware(sessions.SessionMiddleware):
    """Django's, but a session that cannot be saved because the database is down is that (a
    503, `DatabaseDownMiddleware`), not "the session was deleted" (Django's 400: it reads any
    failed save as a session deleted meanwhile)."""

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        try:
            return super().process_response(request, response)
        except SessionInterrupted as error:
            if not _caused_by_database_down(error):
                raise
            setattr(request, _FLAG, True)
            return response


class DatabaseDownMiddleware:
    """First in the list: while the database cannot be reached, whatever met it first (the watch
    read, the session, the account, django-axes, the header's circle, the view, the session's
    save on the way out) the answer is a 503 with Retry-After, in JSON for a script (the
    outbox, an htmx poll: it tries again), a short page for a person; never Django's 500 page,
    which the outbox would take for a refusal. Nothing of the request was stored: every write
    is one transaction."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        got_request_exception.connect(_note_database_down, dispatch_uid=_FLAG)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not getattr(request, _FLAG, False):
            return response
        message = _("The server cannot reach its database just now; try again in a moment.")
        wants_json = "json" in request.headers.get("Accept", "") or "HX-Request" in request.headers
        answer: HttpResponse
        if wants_json or request.path_info.endswith("/sync/"):
            answer = JsonResponse({"state": "unavailable", "errors": [message]})
        else:
            answer = HttpResponse(
                format_html("<!doctype html><title>503</title><p>{}</p>", message)
            )
        add_never_cache_headers(answer)
        return unavailable(answer)


class NoStoreMiddleware:
    """Pages change with every hand: the browser must ask again, not show a stored copy.

    Back after a hand was saved with htmx would otherwise show the page as first loaded (0–0,
    hand 1), and Chromium keeps no page with `no-store` in its back/forward cache either. A view
    that set its own Cache-Control keeps it; static files are WhiteNoise's and never reach here.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if "Cache-Control" not in response and response.get("Content-Type", "").startswith(
            "text/html"
        ):
            add_never_cache_headers(response)
        return response


class BadBytesMiddleware:
    """Refuse what no page of this app can take, before any view looks it up: a NUL character in
    the address or the query (PostgreSQL refuses NUL in text, so a lookup with one would be a
    server error), and a form body in a charset other than UTF-8 (every form here posts UTF-8;
    any other would be decoded into nonsense, or fail). A 404 for an address no page has, a 400
    for the rest; nothing is read further or stored. A cookie holding a NUL is dropped. Posted
    fields are the forms' to refuse, with their message (a CharField refuses NUL); the few
    views that read a field by hand check it themselves.
    """

    FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
    CHARSETS = {"utf-8", "utf8", "us-ascii", "ascii"}

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # A cookie with a NUL is no cookie of ours (a session key with one would be looked up).
        for name in [name for name, value in request.COOKIES.items() if "\x00" in value]:
            del request.COOKIES[name]
        if "\x00" in request.path:
            raise Http404
        if _has_nul(request.GET):
            raise BadRequest("NUL in the query")
        if request.method == "POST" and request.content_type in self.FORM_TYPES:
            charset = (request.content_params or {}).get("charset", "utf-8").strip().lower()
            if charset not in self.CHARSETS:
                # Nothing reads this body again: Django's error handler checks CSRF, which reads
                # the form, and Django refuses a form not in UTF-8 with a BadRequest of its own,
                # raised inside the handler (a 500). Marked as a form that could not be read,
                # the body is an empty form to everyone after this, as Django does for a broken
                # multipart body.
                request._mark_post_parse_error()  # type: ignore[attr-defined]  # not in the stubs
                raise BadRequest("a form in another charset than UTF-8")
        return self.get_response(request)


def _has_nul(data: QueryDict) -> bool:
    return any(
        "\x00" in key or any("\x00" in value for value in values) for key, values in data.lists()
    )
