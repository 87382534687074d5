"""What every view module shares."""

import io
from typing import Any

import segno
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django_htmx.middleware import HtmxDetails

from scoring.access import Scope


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails
    scope: Scope  # set by @scoped (scoring/access.py)


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
