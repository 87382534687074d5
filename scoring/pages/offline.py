"""What makes the app installable and usable without signal: the web app manifest and the
service worker (scoring/static/scoring/sw.js), both served from the site's root so that the
worker's scope is the whole site."""

import hashlib
from functools import cache

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

# What the worker keeps for a reload without signal: the app's own files (their hashed names in
# production, so a new release is a new list and a new cache).
PRECACHE = (
    "scoring/app.css",
    "scoring/app.js",
    "scoring/outbox.js",
    "scoring/local.js",
    "scoring/engine.js",
    "scoring/share.js",
    "django_htmx/htmx-2.min.js",
    "scoring/icons/icon.svg",
    "scoring/icons/icon-192.png",
)
THEME = "#0b6b3a"


@require_safe
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest, in the reader's language."""
    icons = [
        {"src": static("scoring/icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": static("scoring/icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        {
            "src": static("scoring/icons/maskable-192.png"),
            "sizes": "192x192",
            "type": "image/png",
            "purpose": "maskable",
        },
        {
            "src": static("scoring/icons/maskable-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
        {"src": static("scoring/icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
    ]
    document = {
        "name": _("Casino Scorekeeper"),
        "short_name": _("Casino"),
        "description": _("Score Casino at a real card table, with or without signal."),
        "id": "/",
        "start_url": reverse("scoring:match-list"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#f7f6f2",
        "theme_color": THEME,
        "icons": icons,
    }
    response = JsonResponse(document, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response


@cache
def _worker(files: tuple[str, ...]) -> str:
    """The worker's source after the release it belongs to (a short name for the worker and the
    files it keeps: a new one empties the old caches) and the files to keep; made once per
    process and list of files, not at every visit."""
    path = finders.find("scoring/sw.js")
    assert isinstance(path, str), "scoring/sw.js is one of the app's static files"
    with open(path, encoding="utf-8") as file:
        source = file.read()
    release = hashlib.sha256("\n".join([source, *files]).encode()).hexdigest()[:12]
    return f"const RELEASE = {release!r};\nconst PRECACHE = {list(files)!r};\n{source}"


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, with the list of files to keep and the release they belong to. Never
    cached by the browser's HTTP cache, so an update is found at the next visit."""
    files = tuple(static(name) for name in PRECACHE)
    response = HttpResponse(_worker(files), content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response
