"""URLs for many rows at once."""

from collections.abc import Callable

from django.urls import reverse


def url_of(name: str) -> Callable[[int], str]:
    """The URL of a match's page, for many matches: reversed once, the pk put in per match."""
    marker = "2147483647"
    head, tail = reverse(name, args=[int(marker)]).split(marker)
    return lambda pk: f"{head}{pk}{tail}"
