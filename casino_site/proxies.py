"""The client's address as the login throttle (django-axes) and the mail limits count it, behind
trusted proxies.

Each proxy appends the address a request came from to X-Forwarded-For, so behind
DJANGO_TRUSTED_PROXY_COUNT proxies the client is that many addresses from the right; anything
further left was written by the client and means nothing. Every hop is checked against the trusted
proxies (FORWARDED_ALLOW_IPS, the list gunicorn uses for the same purpose), from the nearest out:
the first address that is not a trusted proxy is the client. So a client that reaches the app
directly, or an inner proxy directly (nginx, going around the CDN in front of it), is counted by
the address that proxy saw, never by one it wrote itself.
"""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Sequence
from functools import lru_cache

from django.conf import settings
from django.http import HttpRequest

logger = logging.getLogger(__name__)

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@lru_cache(maxsize=16)
def _networks(trusted: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(item) for item in trusted if item != "*")


def _ip(text: str | None) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address((text or "").strip())
    except ValueError:
        return None


def is_trusted_proxy(address: str | None, trusted: Sequence[str]) -> bool:
    """Whether a request from `address` came through one of the `trusted` proxies.

    A connection without an IP address (a UNIX socket) counts as trusted, as gunicorn counts it:
    only a process on the same machine, the proxy, can open it.
    """
    if "*" in trusted:
        return True
    ip = _ip(address)
    if ip is None:
        return True
    return any(ip in network for network in _networks(tuple(trusted)))


def client_ip(request: HttpRequest) -> str | None:
    """The client's address (AXES_CLIENT_IP_CALLABLE): REMOTE_ADDR, or, through trusted proxies,
    the address the outermost of DJANGO_TRUSTED_PROXY_COUNT proxies wrote; the first hop that is
    not a trusted proxy if there is one before it."""
    remote = request.META.get("REMOTE_ADDR") or None
    header = request.META.get("HTTP_X_FORWARDED_FOR", "")
    count: int = settings.TRUSTED_PROXY_COUNT
    trusted: list[str] = settings.TRUSTED_PROXIES
    if not count:
        if header and is_trusted_proxy(remote, trusted):
            logger.warning(
                "A login came through a proxy (%s, X-Forwarded-For present) but "
                "DJANGO_TRUSTED_PROXY_COUNT is 0: every client counts as the proxy, so a few wrong "
                "passwords from anyone lock the player out. Set it to the number of proxies.",
                remote or "a UNIX socket",
            )
        return remote
    if not is_trusted_proxy(remote, trusted):
        return remote  # reached the app directly: its X-Forwarded-For is its own invention
    return _forwarded_client(remote, header, count, trusted)


def _forwarded_client(
    remote: str | None, header: str, count: int, trusted: Sequence[str]
) -> str | None:
    """The client's address in X-Forwarded-For (`header`) behind `count` proxies, the nearest
    of them at `remote` (a trusted proxy): each hop is read only from a trusted proxy."""
    addresses = [address.strip() for address in header.split(",") if address.strip()]
    # Nearest first: what the nearest proxy saw, then what the one before it saw, and so on.
    seen = remote
    for hop in range(1, count + 1):
        if hop > len(addresses):
            return seen  # fewer addresses than proxies: the outermost address there is
        address = _ip(addresses[-hop])
        if address is None:
            return seen  # junk where an address should be: the proxy that passed it on
        seen = str(address)
        if hop < count and not is_trusted_proxy(seen, trusted):
            return seen  # reached an inner proxy directly: anything further left is its own
    return seen


NAME_LIMIT = 255


def login_name(request: HttpRequest, credentials: dict | None = None) -> str | None:
    """The account a login attempt is for, for django-axes: allauth authenticates with `username`
    or `email` (its form's field is `login`), Django's admin with `username`. Every way of naming
    one account (its username in any case, its e-mail address) counts as that account's username,
    so that switching between them does not buy more guesses."""
    given = _name_given(request, credentials or {})
    if not given:
        return None
    # django-axes stores the name (at most 255 characters); no account has a longer one.
    given = given[:NAME_LIMIT]
    return _account_username(given) or given.casefold()


def _name_given(request: HttpRequest, credentials: dict) -> str:
    """The name the login attempt gives: from the credentials, else the form posted."""
    data = getattr(request, "POST", {}) or {}
    return next(
        (str(credentials[key]) for key in ("username", "email") if credentials.get(key)),
        data.get("login") or data.get("username") or "",
    ).strip()


def _account_username(given: str) -> str | None:
    """The username of the account `given` names (its username in any case, or its e-mail
    address), None when none does."""
    from allauth.account.models import EmailAddress
    from django.contrib.auth import get_user_model

    users = get_user_model().objects
    found = users.filter(username__iexact=given).values_list("username", flat=True).first()
    if found is None and "@" in given:
        # The account that verified the address, which logs in with it, before one that only
        # typed it (an address can wait unverified on several accounts).
        found = (
            EmailAddress.objects.filter(email__iexact=given)
            .order_by("-verified", "pk")
            .values_list("user__username", flat=True)
            .first()
        )
    return found
