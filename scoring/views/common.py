"""What every view module shares."""

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def partial_template(request: HtmxHttpRequest, template: str, region: str) -> str:
    """Render only `region` for a plain htmx request (not boosted, not a history restore)."""
    if request.htmx and not request.htmx.boosted and not request.htmx.history_restore_request:
        return f"{template}#{region}"
    return template
