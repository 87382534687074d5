"""Strict readers for DJANGO_* environment variables: junk raises instead of being guessed."""

import ipaddress
import os
import re
from collections.abc import Mapping

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def env_str(name: str, default: str = "", environ: Mapping[str, str] = os.environ) -> str:
    """Return the variable, or `default` when it is unset."""
    return environ.get(name, default)


def env_bool(name: str, default: bool, environ: Mapping[str, str] = os.environ) -> bool:
    """Read a boolean; anything other than true/false/yes/no/on/off/1/0 is an error."""
    raw = environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {raw!r}")


def env_int(name: str, default: int, environ: Mapping[str, str] = os.environ) -> int:
    """Read an integer; anything else is an error."""
    raw = environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {raw!r}") from None


def env_list(name: str, default: list[str], environ: Mapping[str, str] = os.environ) -> list[str]:
    """Read a comma-separated list, dropping blanks."""
    raw = environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_header(name: str, environ: Mapping[str, str] = os.environ) -> tuple[str, str] | None:
    """Read "Header-Name: value" (as a proxy sends it) into Django's ("HTTP_HEADER_NAME", "value")
    form, for SECURE_PROXY_SSL_HEADER; unset gives None, anything else is an error."""
    raw = environ.get(name)
    if raw is None or raw.strip() == "":
        return None
    header, colon, value = raw.partition(":")
    header, value = header.strip(), value.strip()
    if not colon or not value or not re.fullmatch(r"[A-Za-z0-9-]+", header):
        raise ImproperlyConfigured(f"{name} must look like 'X-Forwarded-Proto: https', not {raw!r}")
    return "HTTP_" + header.upper().replace("-", "_"), value


def env_addresses(
    name: str, default: list[str], environ: Mapping[str, str] = os.environ
) -> list[str]:
    """Read comma-separated IP addresses or networks ("10.0.0.5,10.1.0.0/16"), or "*" for any,
    the way gunicorn reads FORWARDED_ALLOW_IPS: unset gives `default`, set but empty gives none."""
    raw = environ.get(name)
    if raw is None:
        return default
    addresses = [item.strip() for item in raw.split(",") if item.strip()]
    for address in addresses:
        if address == "*":
            continue
        try:
            ipaddress.ip_network(address)
        except ValueError:
            raise ImproperlyConfigured(
                f"{name} must list IP addresses or networks (10.0.0.5, 10.1.0.0/16) or *, "
                f"not {address!r}"
            ) from None
    return addresses
