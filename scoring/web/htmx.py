"""What every view module shares."""

import io
from collections.abc import Iterator
from typing import Any

import segno
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.cache import patch_vary_headers
from django_htmx.http import HttpResponseStopPolling
from django_htmx.middleware import HtmxDetails

from scoring.access import LinkScope, Scope
from scoring.web import chunks


class HtmxHttpRequest(HttpRequest):
    """Any request, with what django-htmx's middleware adds."""

    htmx: HtmxDetails


class SignedInRequest(HtmxHttpRequest):
    """A request to a view that needs a login (`login_required`)."""

    user: User


class ScopedRequest(SignedInRequest):
    """A request to a private view (@scoped, scoring/access.py): signed in, with its scope."""

    scope: Scope


class LinkedRequest(HtmxHttpRequest):
    """A request to a view of one match that its scoring link's holder may use (@linked,
    scoring/access.py): a member's scope or the link's."""

    scope: Scope | LinkScope


def partial_template(request: HtmxHttpRequest, template: str, region: str) -> str:
    """Render only `region` for a plain htmx request (not boosted, not a history restore)."""
    if request.htmx and not request.htmx.boosted and not request.htmx.history_restore_request:
        return f"{template}#{region}"
    return template


def render_region(
    request: HtmxHttpRequest,
    template: str,
    region: str,
    context: dict[str, Any],
    *,
    status: int = 200,
) -> HttpResponse:
    """The page, or only its `region` for a plain htmx request. Either way the answer varies
    with HX-Request, so no cache (the browser's, a proxy's, a service worker's) hands a fragment
    to a page load or a page to htmx."""
    response = render(request, partial_template(request, template, region), context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response


def link_ended(request: HtmxHttpRequest, template: str) -> HttpResponse:
    """A read-only page (a shared board, an event's big screen) whose share link was turned off:
    404; to a page still open on it, its `ended` partial in place of the page, and htmx stops
    polling (286)."""
    if not request.htmx:
        raise Http404
    return HttpResponseStopPolling(render_to_string(f"{template}#ended", request=request))


def nothing_new(request: HtmxHttpRequest, version: int) -> bool:
    """An open read-only page's poll, and it has this version already: a 204 swaps nothing (so
    what the viewer opened stays open)."""
    return bool(request.htmx) and request.GET.get("since") == str(version)


def qr_code(url: str) -> HttpResponse:
    """A QR code of `url` as SVG, drawn by the server (a share link, an invite): private to
    whoever may see the link, and asked for again each time (the link may have been revoked)."""
    svg = io.BytesIO()
    segno.make(url, error="m").save(
        svg, kind="svg", omitsize=True, border=4, xmldecl=False, light="#ffffff", title=url
    )
    response = HttpResponse(svg.getvalue(), content_type="image/svg+xml")
    response["Cache-Control"] = "private, no-cache"
    return response


def png(content: bytes | None, filename: str) -> HttpResponse:
    """An image made on the server (a result card), shown in the page or saved as `filename`;
    kept a minute by the browser (an edited hand may change it), never by a shared cache. None:
    there is nothing to draw yet (404)."""
    if content is None:
        raise Http404
    response = HttpResponse(content, content_type="image/png")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["Cache-Control"] = "private, max-age=60"
    return response


def download(
    content: str | Iterator[str], content_type: str, filename: str
) -> HttpResponse | StreamingHttpResponse:
    """A private file to save: text, or pieces of text streamed as they are made (a whole history
    is never held in memory). Never kept by the browser's cache or any cache between (a shared
    phone, a proxy): it holds a circle's matches."""
    response: HttpResponse | StreamingHttpResponse
    if isinstance(content, str):
        response = HttpResponse(content, content_type=content_type)
    else:
        response = StreamingHttpResponse(chunks.batched_text(content), content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "private, no-store"
    return response


# A database that is down is usually back within a minute: clients (a balancer, the outbox, a
# phone's form) are told to try again after this.
RETRY_AFTER = 30


def unavailable(response: HttpResponse) -> HttpResponse:
    """The answer while the database cannot be reached: 503, and when to try again."""
    response.status_code = 503
    response["Retry-After"] = str(RETRY_AFTER)
    return response
