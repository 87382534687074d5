"""Deployment checks (`manage.py check --deploy`) for proxy settings that contradict each other.

Which address the login throttle counts depends on three settings that must agree with how the
app is reached (docs/DEPLOY.md, "Behind a proxy"): DJANGO_TRUSTED_PROXY_COUNT, FORWARDED_ALLOW_IPS
and DJANGO_SECURE_PROXY_SSL_HEADER. Messages are for operators and are not translated.
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


@register(Tags.security, deploy=True)
def check_proxy_settings(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    count: int = settings.TRUSTED_PROXY_COUNT
    trusted: list[str] = settings.TRUSTED_PROXIES
    https_header = settings.SECURE_PROXY_SSL_HEADER
    warnings: list[CheckMessage] = []
    if not count and https_header:
        warnings.append(
            CheckWarning(
                "DJANGO_SECURE_PROXY_SSL_HEADER says a proxy ends TLS, but "
                f"DJANGO_TRUSTED_PROXY_COUNT is 0: {LOCKOUT}.",
                hint="Set DJANGO_TRUSTED_PROXY_COUNT to the number of proxies (1 for nginx).",
                id="casino.W001",
            )
        )
    elif not count and any(not _is_loopback(item) for item in trusted):
        warnings.append(
            CheckWarning(
                f"FORWARDED_ALLOW_IPS names a proxy ({','.join(trusted)}), but "
                f"DJANGO_TRUSTED_PROXY_COUNT is 0: {LOCKOUT}.",
                hint="Set DJANGO_TRUSTED_PROXY_COUNT to the number of proxies, or leave "
                "FORWARDED_ALLOW_IPS unset when clients reach the app directly.",
                id="casino.W002",
            )
        )
    if count and not https_header and settings.SECURE_SSL_REDIRECT:
        warnings.append(
            CheckWarning(
                f"DJANGO_TRUSTED_PROXY_COUNT is {count}, but DJANGO_SECURE_PROXY_SSL_HEADER is "
                "unset: the app cannot tell which requests reached the proxy over HTTPS.",
                hint="Set DJANGO_SECURE_PROXY_SSL_HEADER='X-Forwarded-Proto: https' (the proxy "
                "must overwrite that header), or set DJANGO_TRUSTED_PROXY_COUNT=0 if there is "
                "no proxy.",
                id="casino.W003",
            )
        )
    if count and "*" in trusted:
        warnings.append(
            CheckWarning(
                "FORWARDED_ALLOW_IPS is '*': X-Forwarded-For is believed from anyone, so a client "
                "that reaches the app without the proxy picks a new address for every password "
                "it guesses.",
                hint="List the proxies' addresses or networks in FORWARDED_ALLOW_IPS.",
                id="casino.W004",
            )
        )
    elif count and not trusted:
        warnings.append(
            CheckWarning(
                f"DJANGO_TRUSTED_PROXY_COUNT is {count}, but FORWARDED_ALLOW_IPS is empty: no "
                f"request is read through a proxy, so {LOCKOUT}.",
                hint="List the proxies' addresses in FORWARDED_ALLOW_IPS.",
                id="casino.W005",
            )
        )
    return warnings
