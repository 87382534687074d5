"""Read-only share links: a match anyone holding its token may see, without logging in.

The token is made once per match and forgotten when the link is turned off; a new link gets a
new token, so an old link never works again.
"""

from __future__ import annotations

import secrets
from typing import TypeVar

from django.db import transaction
from django.http import Http404
from django.shortcuts import get_object_or_404

from scoring.models import Event, Match

Shared = TypeVar("Shared", Match, Event)

# 32 random bytes from the OS's CSPRNG: 43 URL-safe characters, 256 bits nobody can guess.
SHARE_TOKEN_BYTES = 32


@transaction.atomic
def share_link_create(*, match: Shared) -> Shared:
    """Give the match (or an event: its big screen) a read-only share token; one already shared
    keeps its token."""
    match = type(match).objects.select_for_update().get(pk=match.pk)
    if not match.share_token:
        match.share_token = secrets.token_urlsafe(SHARE_TOKEN_BYTES)
        match.save(update_fields=["share_token"])
    return match


@transaction.atomic
def share_link_revoke(*, match: Shared) -> Shared:
    """Forget the share token: the old link stops working, and a new link gets a new token."""
    match = type(match).objects.select_for_update().get(pk=match.pk)
    if match.share_token is not None:
        match.share_token = None
        match.save(update_fields=["share_token"])
    return match


def match_for_share_token(token: str) -> Match:
    """The match shared under `token`, or 404 (a revoked or wrong token shows nothing)."""
    if not token:
        raise Http404
    return get_object_or_404(Match, share_token=token)


def event_for_share_token(token: str) -> Event:
    """The event whose big screen is shared under `token`, or 404."""
    if not token:
        raise Http404
    return get_object_or_404(Event, share_token=token)
