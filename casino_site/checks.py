"""Deployment checks (`manage.py check --deploy`) for settings that contradict each other or open
the accounts to strangers.

Which address the login throttle and the mail limits count depends on three settings that must
agree with how the app is reached (docs/DEPLOY.md, "Behind a proxy"): DJANGO_TRUSTED_PROXY_COUNT,
FORWARDED_ALLOW_IPS and DJANGO_SECURE_PROXY_SSL_HEADER. The links in the accounts' mails name the
host a request came to, so DJANGO_ALLOWED_HOSTS must not accept any. Messages are for operators
and are not translated.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Tags, register
from django.core.checks import Warning as CheckWarning

LOCKOUT = (
    "every login then seems to come from the proxy, so a few wrong passwords from anyone lock "
    "the player out"
)


def _is_loopback(item: str) -> bool:
    return item != "*" and ipaddress.ip_network(item).is_loopback


def _proxies_named(trusted: list[str]) -> int:
    """How many proxies FORWARDED_ALLOW_IPS can name at most: this machine (any loopback entry)
    counts once, a network as many as it has addresses."""
    networks = [ipaddress.ip_network(item) for item in trusted if item != "*"]
    local = any(network.is_loopback for network in networks)
    return int(local) + sum(net.num_addresses for net in networks if not net.is_loopback)


# The proxy settings' checks, one per warning id: at most one of W001 and W002, and of W004, W005
# and W006, applies.


@register(Tags.security, deploy=True)
def check_tls_proxy_is_counted(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    if settings.TRUSTED_PROXY_COUNT or not settings.SECURE_PROXY_SSL_HEADER:
        return []
    return [
        CheckWarning(
            "DJANGO_SECURE_PROXY_SSL_HEADER says a proxy ends TLS, but "
            f"DJANGO_TRUSTED_PROXY_COUNT is 0: {LOCKOUT}.",
            hint="Set DJANGO_TRUSTED_PROXY_COUNT to the number of proxies (1 for nginx).",
            id="casino.W001",
        )
    ]


@register(Tags.security, deploy=True)
def check_named_proxy_is_counted(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    trusted: list[str] = settings.TRUSTED_PROXIES
    if settings.TRUSTED_PROXY_COUNT or settings.SECURE_PROXY_SSL_HEADER:
        return []  # a count, or casino.W001
    if all(_is_loopback(item) for item in trusted):
        return []
    return [
        CheckWarning(
            f"FORWARDED_ALLOW_IPS names a proxy ({','.join(trusted)}), but "
            f"DJANGO_TRUSTED_PROXY_COUNT is 0: {LOCKOUT}.",
            hint="Set DJANGO_TRUSTED_PROXY_COUNT to the number of proxies, or leave "
            "FORWARDED_ALLOW_IPS unset when clients reach the app directly.",
            id="casino.W002",
        )
    ]


@register(Tags.security, deploy=True)
def check_proxy_says_https(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    count: int = settings.TRUSTED_PROXY_COUNT
    if not count or settings.SECURE_PROXY_SSL_HEADER or not settings.SECURE_SSL_REDIRECT:
        return []
    return [
        CheckWarning(
            f"DJANGO_TRUSTED_PROXY_COUNT is {count}, but DJANGO_SECURE_PROXY_SSL_HEADER is "
            "unset: the app cannot tell which requests reached the proxy over HTTPS.",
            hint="Set DJANGO_SECURE_PROXY_SSL_HEADER='X-Forwarded-Proto: https' (the proxy "
            "must overwrite that header), or set DJANGO_TRUSTED_PROXY_COUNT=0 if there is "
            "no proxy.",
            id="casino.W003",
        )
    ]


@register(Tags.security, deploy=True)
def check_not_everyone_trusted(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    if not settings.TRUSTED_PROXY_COUNT or "*" not in settings.TRUSTED_PROXIES:
        return []
    return [
        CheckWarning(
            "FORWARDED_ALLOW_IPS is '*': X-Forwarded-For is believed from anyone, so a client "
            "that reaches the app without the proxy picks a new address for every password "
            "it guesses.",
            hint="List the proxies' addresses or networks in FORWARDED_ALLOW_IPS.",
            id="casino.W004",
        )
    ]


@register(Tags.security, deploy=True)
def check_some_proxy_trusted(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    count: int = settings.TRUSTED_PROXY_COUNT
    if not count or settings.TRUSTED_PROXIES:
        return []
    return [
        CheckWarning(
            f"DJANGO_TRUSTED_PROXY_COUNT is {count}, but FORWARDED_ALLOW_IPS is empty: no "
            f"request is read through a proxy, so {LOCKOUT}.",
            hint="List the proxies' addresses in FORWARDED_ALLOW_IPS.",
            id="casino.W005",
        )
    ]


@register(Tags.security, deploy=True)
def check_every_proxy_trusted(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    count: int = settings.TRUSTED_PROXY_COUNT
    trusted: list[str] = settings.TRUSTED_PROXIES
    if count < 2 or not trusted or "*" in trusted:
        return []  # at most one proxy, casino.W005 or casino.W004
    if _proxies_named(trusted) >= count:
        return []
    return [
        CheckWarning(
            f"DJANGO_TRUSTED_PROXY_COUNT is {count}, but FORWARDED_ALLOW_IPS "
            f"({','.join(trusted)}) names fewer proxies: an address is believed only from a "
            "trusted proxy, so behind an outer proxy that is not listed (a CDN in front of "
            "nginx) every login seems to come from that proxy, and a few wrong passwords "
            "from anyone lock the player out.",
            hint="Let the nearest proxy find the client among the outer proxies' addresses "
            "(nginx: set_real_ip_from with the CDN's ranges, docs/DEPLOY.md) and set "
            "DJANGO_TRUSTED_PROXY_COUNT=1; or list the outer proxies' networks in "
            "FORWARDED_ALLOW_IPS too.",
            id="casino.W006",
        )
    ]


# In the order of their ids.
PROXY_CHECKS = (
    check_tls_proxy_is_counted,
    check_named_proxy_is_counted,
    check_proxy_says_https,
    check_not_everyone_trusted,
    check_some_proxy_trusted,
    check_every_proxy_trusted,
)


@register(Tags.security, deploy=True)
def check_allowed_hosts(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    if "*" not in settings.ALLOWED_HOSTS:
        return []
    return [
        CheckWarning(
            "DJANGO_ALLOWED_HOSTS is '*': any Host header is accepted, and the links in the "
            "password-reset and verification mails name the host a request came to, so a "
            "stranger who asks for a reset with a Host of their own gets the player a link to "
            "their site, where the reset key is theirs.",
            hint="List the site's host names in DJANGO_ALLOWED_HOSTS (casino.example.com).",
            id="casino.W007",
        )
    ]
