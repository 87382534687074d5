"""What every page's template may read: the current circle for the header."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from scoring.access import SESSION_KEY
from scoring.circles import selectors as circles
from scoring.models import Circle


def current_circle(request: HttpRequest) -> Circle | None:
    """The signed-in account's current circle, for the header: the one a scoped view already
    loaded (no query), else read once per request (one query)."""
    if not hasattr(request, "_current_circle"):
        scope = getattr(request, "_scope", None)
        user = getattr(request, "user", None)
        if scope is not None and scope.known_circle is not None:
            circle = scope.known_circle
        elif user is not None and user.is_authenticated:
            session = getattr(request, "session", {})
            circle = circles.current_circle_of(user, session.get(SESSION_KEY))
        else:
            circle = None
        request._current_circle = circle  # type: ignore[attr-defined]
    return request._current_circle  # type: ignore[attr-defined]


def header_circle(request: HttpRequest) -> dict[str, Any]:
    """`header_circle`, the current circle, read only if a template uses it."""
    return {"header_circle": lambda: current_circle(request)}
