"""First-load weight: a page and every file it loads, compressed as the server sends them (Brotli:
WhiteNoise for the static files, to every browser that takes it, which is every current phone's
over https; gzip: the proxy for pages), stays under 60 KB on a phone's first visit."""

import gzip
import re

import brotli
import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from helpers import tally

from scoring.engine.rules import Rules
from scoring.matches import services

LIMIT = 60_000
ASSETS = re.compile(r'<(?:link rel="stylesheet" href|script src)="([^"]+)"')


def _first_load(client, url: str) -> dict[str, int]:
    """Bytes transferred for the page (gzipped) and each stylesheet and script it names (Brotli)."""
    response = client.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    sizes = {url: len(gzip.compress(response.content))}
    for asset in ASSETS.findall(html):
        assert asset.startswith(settings.STATIC_URL), asset
        path = finders.find(asset.removeprefix(settings.STATIC_URL))
        assert path, f"{asset} is not a static file"
        with open(path, "rb") as file:
            sizes[asset] = len(brotli.compress(file.read()))
    return sizes


def test_the_static_files_are_also_kept_brotli_compressed():
    """What the measure below takes for granted: collectstatic writes a .br beside each file."""
    from whitenoise.compress import Compressor

    assert Compressor().use_brotli


@pytest.mark.django_db
def test_the_busiest_pages_weigh_under_60_kb_on_first_load(user_client, user, players):
    match = services.match_start(
        circle=user.personal_circle,
        rules=Rules.make("casino", target=500),
        sides=[[p] for p in players[:3]],
    )
    three = (
        tally(20, 5, big=True, aces="SH"),
        tally(18, 5, little=True, aces="C"),
        tally(14, 3, aces="D"),
    )
    for number in range(1, 13):
        services.hand_record(match=match, number=number, tallies=three)
    pages = ("/", match.get_absolute_url(), "/matches/", f"/matches/{match.pk}/sheet/")
    # And the pages a match started without signal needs (the worker keeps them).
    for url in (*pages, "/matches/new/", "/matches/offline/"):
        sizes = _first_load(user_client, url)
        assert len(sizes) >= 3, sizes  # the page, the stylesheet and the scripts were counted
        print(f"\n{url}: {sum(sizes.values()):,} bytes compressed ({sizes})")
        assert sum(sizes.values()) < LIMIT, sizes
