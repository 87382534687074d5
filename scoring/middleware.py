"""The app's middleware: pages never kept by the browser, and input no page can take refused at the
door (the account's language is scoring/accounts/middleware.py)."""

from collections.abc import Callable

from django.core.exceptions import BadRequest
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.utils.cache import add_never_cache_headers


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
