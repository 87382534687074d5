"""Share links (a match anyone holding its token may see, without logging in) and scoring links
(a match whoever holds its token may score).

The token is made once per match and forgotten when the link is turned off; a new link gets a
new token, so an old link never works again.
"""

from __future__ import annotations

import secrets
from typing import TypeVar

from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from scoring.models import Event, Match

Shared = TypeVar("Shared", Match, Event)

# 32 random bytes from the OS's CSPRNG: 43 URL-safe characters, 256 bits nobody can guess.
SHARE_TOKEN_BYTES = 32


def _token_set(obj: Shared, field: str, on: bool) -> Shared:
    """Give `obj` a new token in `field` (one it has already is kept), or forget it (`on`
    False): read locked, so two taps at once make one token."""
    with transaction.atomic():
        obj = type(obj).objects.select_for_update().get(pk=obj.pk)
        token = getattr(obj, field)
        if on and not token:
            setattr(obj, field, secrets.token_urlsafe(SHARE_TOKEN_BYTES))
        elif not on and token is not None:
            setattr(obj, field, None)
        else:
            return obj
        obj.save(update_fields=[field])
    return obj


def share_link_create(*, match: Shared) -> Shared:
    """Give the match (or an event: its big screen) a read-only share token; one already shared
    keeps its token."""
    return _token_set(match, "share_token", True)


def share_link_revoke(*, match: Shared) -> Shared:
    """Forget the share token: the old link stops working, and a new link gets a new token."""
    return _token_set(match, "share_token", False)


def scoring_link_create(*, match: Match) -> Match:
    """Give an open match a scoring link (its holder records, undoes and fixes its hands); one
    it has already is kept. A match that is over gets none."""
    if not match.is_open:
        raise ValidationError(_("This match is over: it needs no scoring link."))
    return _token_set(match, "scoring_token", True)


def scoring_link_revoke(*, match: Match) -> Match:
    """Turn the scoring link off: whoever holds it can change nothing more, at once."""
    return _token_set(match, "scoring_token", False)


def event_scoring_links(*, event: Event) -> int:
    """A scoring link for every open table of the event that has none; how many were made."""
    made = 0
    for match in event.matches.filter(
        status__in=(Match.Status.PLAYING, Match.Status.TIED), scoring_token__isnull=True
    ).order_by("pk"):
        scoring_link_create(match=match)
        made += 1
    return made


def match_for_share_token(token: str) -> Match:
    """The match shared under `token`, or 404 (a revoked or wrong token shows nothing)."""
    if not token:
        raise Http404
    return get_object_or_404(Match, share_token=token)


def match_for_scoring_token(token: str) -> Match:
    """The match whose scoring link is `token`, or 404 (turned off, or never made)."""
    if not token:
        raise Http404
    return get_object_or_404(Match, scoring_token=token)


def event_for_share_token(token: str) -> Event:
    """The event whose big screen is shared under `token`, or 404."""
    if not token:
        raise Http404
    return get_object_or_404(Event, share_token=token)
