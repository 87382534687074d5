"""Template tags of the accounts pages (templates/account/)."""

from __future__ import annotations

from typing import Any

from allauth.account.utils import get_next_redirect_url
from django import template
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.utils.html import format_html
from django.utils.safestring import SafeString

register = template.Library()


@register.simple_tag(takes_context=True)
def next_field(context: dict[str, Any]) -> SafeString | str:
    """The hidden `next` of a form, only when it is a page of this site: a `next` that leaves the
    site is dropped here already, not carried from page to page (allauth's own `redirect_field`
    repeats any value and refuses it only at the end)."""
    request = context.get("request")
    next_url = get_next_redirect_url(request, REDIRECT_FIELD_NAME) if request else None
    if not next_url:
        return ""
    return format_html('<input type="hidden" name="{}" value="{}">', REDIRECT_FIELD_NAME, next_url)
