"""How long until an account action that sends mail is allowed again (settings.ACCOUNT_RATE_LIMITS).

allauth counts each action per client address, per account and per e-mail address in the default
cache (the database's cache table, shared by every app server) and refuses an action over its
limit: with a 429 page, or, for a verification link, by not sending it. Neither says when to try
again; these functions read the same counts to say it: on the 429 page (templates/429.html), in
the sign-up and e-mail forms, and beside an address waiting for its link.
"""

from __future__ import annotations

import math
import time

from allauth.core.internal import ratelimit
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import ngettext

APP = "allauth.account"
VERIFICATION = "confirm_email"  # allauth's name for sending a verification link

# The page each rate-limited action is posted to, and the form field naming the address it is
# counted for (allauth lower-cases it).
ACTIONS = {
    "account_reset_password": ("reset_password", "email"),
    "account_email": ("manage_email", None),
    "account_signup": ("signup", None),
    "account_reset_password_from_key": ("reset_password_from_key", None),
}


def wait_seconds(request: HttpRequest, action: str, *, key: str | None = None) -> int | None:
    """Seconds until `action` may be done once more for this request (its client address, its
    account) and for `key` (an e-mail address); None when it may be done now."""
    now = time.time()
    waits = [
        wait
        for rate in ratelimit.get_rates(app=APP, action=action)
        if _is_counted(request, rate, key)
        and (wait := _rate_wait(request, action, rate, key, now)) is not None
    ]
    return max(1, math.ceil(max(waits))) if waits else None


def _is_counted(request: HttpRequest, rate: ratelimit.Rate, key: str | None) -> bool:
    """Whether the rate counts this request: one per address only with a `key`, one per
    account only when signed in."""
    if rate.per == "key":
        return bool(key)
    if rate.per == "user":
        user = getattr(request, "user", None)
        return bool(user and user.is_authenticated)
    return True


def _rate_wait(
    request: HttpRequest, action: str, rate: ratelimit.Rate, key: str | None, now: float
) -> float | None:
    """Seconds until the rate lets `action` be done once more; None when it does now."""
    cache_key = ratelimit.get_cache_key(
        request, app=APP, action=action, rate=rate, key=key.lower() if key else None
    )
    recent = [hit for hit in cache.get(cache_key, []) if hit > now - rate.duration]
    if len(recent) < rate.amount:
        return None
    # Newest first: once the amount-th newest hit leaves the window, one more fits.
    oldest_counted = sorted(recent, reverse=True)[rate.amount - 1]
    return oldest_counted + rate.duration - now


def longest_window(action: str) -> int:
    """The longest window among the action's limits: the wait when the counts cannot say."""
    rates = ratelimit.get_rates(app=APP, action=action)
    return max((math.ceil(rate.duration) for rate in rates), default=60)


def retry_after(request: HttpRequest) -> int:
    """Seconds until the refused request may be sent again (for the 429 page)."""
    match = getattr(request, "resolver_match", None)
    action, field = ACTIONS.get(match.url_name if match else "", (None, None))
    if action is None:
        return 60
    key = (request.POST.get(field) or "").strip() if field else None
    return wait_seconds(request, action, key=key) or longest_window(action)


def _in_minutes(seconds: int) -> tuple[bool, int]:
    """A wait as (True, minutes), rounded up, or from two hours on as (False, hours)."""
    minutes = max(1, math.ceil(seconds / 60))
    return (True, minutes) if minutes < 120 else (False, math.ceil(minutes / 60))


def try_again_text(seconds: int) -> str:
    """The wait as "Try again in 4 minutes." (in hours from two hours on)."""
    in_minutes, count = _in_minutes(seconds)
    if in_minutes:
        text = ngettext("Try again in %(count)d minute.", "Try again in %(count)d minutes.", count)
    else:
        text = ngettext("Try again in %(count)d hour.", "Try again in %(count)d hours.", count)
    return text % {"count": count}


def next_link_text(seconds: int) -> str:
    """The wait as "You can ask for another link in 3 minutes." (hours from two hours on)."""
    in_minutes, count = _in_minutes(seconds)
    if in_minutes:
        text = ngettext(
            "You can ask for another link in %(count)d minute.",
            "You can ask for another link in %(count)d minutes.",
            count,
        )
    else:
        text = ngettext(
            "You can ask for another link in %(count)d hour.",
            "You can ask for another link in %(count)d hours.",
            count,
        )
    return text % {"count": count}


def too_many(request: HttpRequest) -> HttpResponse:
    """allauth's answer over a limit (casino_site/urls.py's handler429): the app's page saying
    when to try again, and the same in a Retry-After header for scripts and crawlers."""
    seconds = retry_after(request)
    response = render(request, "429.html", {"retry_after": seconds}, status=429)
    response["Retry-After"] = str(seconds)
    return response
