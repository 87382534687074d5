"""Template tags saying when a limited account action may be done again (scoring/accounts/rate_limits.py)."""

from __future__ import annotations

from typing import Any

from django import template

from scoring.accounts import rate_limits

register = template.Library()


@register.simple_tag(takes_context=True)
def try_again(context: dict[str, Any]) -> str:
    """When the refused request of the page may be sent again (the 429 page)."""
    request = context.get("request")
    if request is None:
        return ""
    return rate_limits.try_again_text(rate_limits.retry_after(request))


@register.simple_tag(takes_context=True)
def next_link_wait(context: dict[str, Any], email: str) -> str:
    """When another verification link to `email` can be sent, while one would not be; else
    nothing."""
    request = context.get("request")
    if request is None:
        return ""
    wait = rate_limits.wait_seconds(request, rate_limits.VERIFICATION, key=email)
    return rate_limits.next_link_text(wait) if wait else ""
