"""A health check for load balancers and uptime monitors: the app answers and reaches its database."""

from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_safe

from scoring.web.htmx import unavailable


@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    """200 "ok", or 503 (with Retry-After) while the database cannot be reached: the balancer
    takes the server out of rotation instead of reading a crash."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError:
        return unavailable(HttpResponse("database unavailable", content_type="text/plain"))
    return HttpResponse("ok", content_type="text/plain")
