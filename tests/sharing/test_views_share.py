"""The live read-only scoreboard behind a share link, and the owner's share panel."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from helpers import FIRST_8, HX, SECOND_8, app_url

from scoring.matches import services
from scoring.models import Hand, Match
from scoring.sharing import links

pytestmark = pytest.mark.django_db
TYPICAL = {"number": "1", "cards_0": "27", "spades_0": "7", "card_10D": "0", "card_AS": "0"}


@pytest.fixture
def shared(casino_match: Match) -> Match:
    return links.share_link_create(match=casino_match)


def share_url(match: Match) -> str:
    return reverse("scoring:shared-match", args=[match.share_token])


def poll_url(body: str) -> str:
    return re.search(r'hx-get="([^"]+)"', body).group(1).replace("&amp;", "&")


# --- what anyone with the link sees --------------------------------------------------------------


def test_share_link_shows_the_scoreboard_without_login(client, shared):
    services.hand_record(match=shared, number=1, tallies=FIRST_8)
    response = client.get(share_url(shared))
    body = response.content.decode()
    assert response.status_code == 200
    assert "Ana" in body and "Ben" in body
    assert '<span class="side-total" data-total="0">8</span>' in body
    assert '<span class="side-total" data-total="1">3</span>' in body
    assert "Hand 1" in body and "Deals:" in body
    assert response["X-Robots-Tag"] == "noindex, nofollow"


def test_shared_board_has_no_form_and_no_way_to_change_anything(client, shared):
    services.hand_record(match=shared, number=1, tallies=FIRST_8)
    body = client.get(share_url(shared)).content.decode()
    # The only form is the footer's language choice, which changes nothing in the match.
    assert re.findall(r'<form[^>]*action="([^"]*)"', body) == [reverse("scoring:language")]
    for name in ("hand-create", "hand-delete", "match-abandon", "match-rematch", "share-revoke"):
        assert app_url(name, shared) not in body
    assert app_url("hand-edit", shared, 1) not in body
    assert 'name="cards_0"' not in body


def test_shared_board_polls_itself_with_get(client, shared):
    body = client.get(share_url(shared)).content.decode()
    assert 'hx-trigger="every 3s"' in body
    assert f'hx-get="{share_url(shared)}?since=' in body
    assert "hx-post" not in body


def test_htmx_poll_returns_only_the_board_fragment(client, shared):
    body = client.get(share_url(shared), headers=HX).content.decode()
    assert body.lstrip().startswith('<div id="shared-board"') and "<html" not in body


def test_poll_without_change_is_204_and_after_a_hand_is_the_new_board(client, shared):
    url = poll_url(client.get(share_url(shared)).content.decode())
    unchanged = client.get(url, headers=HX)
    assert unchanged.status_code == 204 and unchanged.content == b""
    services.hand_record(match=shared, number=1, tallies=SECOND_8)
    changed = client.get(url, headers=HX)
    body = changed.content.decode()
    assert changed.status_code == 200
    assert '<span class="side-total" data-total="1">8</span>' in body
    assert poll_url(body) != url


def test_poll_url_without_htmx_is_the_whole_page(client, shared):
    url = poll_url(client.get(share_url(shared)).content.decode())
    response = client.get(url)
    assert response.status_code == 200 and "<html" in response.content.decode()


def test_shared_page_is_not_cached(client, shared):
    response = client.get(share_url(shared))
    assert "no-cache" in response["Cache-Control"] and "no-store" in response["Cache-Control"]


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_every_write_through_the_share_link_is_refused(client, shared, method):
    response = getattr(client, method)(share_url(shared), TYPICAL)
    assert response.status_code == 405
    assert not Hand.objects.exists()


def test_anonymous_posts_to_the_match_are_sent_to_login_and_change_nothing(client, shared):
    # Holding the token grants nothing on the owner's URLs.
    for name, args in [
        ("hand-create", ()),
        ("hand-delete", ()),
        ("match-abandon", ()),
        ("match-rematch", ()),
        ("share-revoke", ()),
        ("share-create", ()),
    ]:
        response = client.post(
            app_url(name, shared, *args), {**TYPICAL, "token": shared.share_token}
        )
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    shared.refresh_from_db()
    assert not Hand.objects.exists()
    assert shared.status == Match.Status.PLAYING and shared.share_token
    assert Match.objects.count() == 1


def test_revoked_link_is_404(client, shared):
    url = share_url(shared)
    links.share_link_revoke(match=shared)
    assert client.get(url).status_code == 404
    assert client.get(url, headers=HX).status_code == 286  # htmx: stop polling (below)


@pytest.mark.parametrize("token", ["wrong", "None", "x" * 43])
def test_wrong_token_is_404(client, shared, token):
    assert client.get(reverse("scoring:shared-match", args=[token])).status_code == 404


def test_match_never_shared_is_not_reachable(client, casino_match):
    assert casino_match.share_token is None
    assert client.get(reverse("scoring:shared-match", args=["None"])).status_code == 404


def test_share_token_in_the_link_is_long_and_random(shared, casino_match):
    assert len(shared.share_token) >= 43
    assert re.fullmatch(r"[A-Za-z0-9_-]{43,}", shared.share_token)


# --- the owner's share panel ---------------------------------------------------------------------


def test_scoreboard_offers_to_create_a_share_link(user_client, casino_match):
    # The board sends the panel closed and empty; opening it fetches the panel (htmx) or,
    # without JavaScript, follows a link to the board with the panel open.
    body = user_client.get(app_url("match", casino_match)).content.decode()
    assert 'id="share-panel"' in body
    assert f'action="{app_url("share-create", casino_match)}"' not in body
    assert f'hx-get="{app_url("share-panel", casino_match)}"' in body
    no_js = f"{casino_match.get_absolute_url()}?panel=share#share-panel"
    assert f'href="{no_js}"' in body
    for panel in (
        user_client.get(app_url("share-panel", casino_match), headers=HX),
        user_client.get(no_js.partition("#")[0]),
    ):
        text = panel.content.decode()
        assert "<details open>" in text
        assert f'action="{app_url("share-create", casino_match)}"' in text
        assert app_url("export-match", casino_match) in text
    plain = user_client.get(app_url("share-panel", casino_match))
    assert plain.status_code == 302 and plain["Location"] == no_js
    assert "HX-Request" in plain["Vary"]


def test_share_panel_is_the_owners_only(client, other_user, casino_match):
    url = app_url("share-panel", casino_match)
    signed_out = client.get(url, headers=HX)  # the page, not the panel, to the login
    assert signed_out.status_code == 401 and "login" in signed_out["HX-Redirect"]
    client.force_login(other_user)
    assert client.get(url, headers=HX).status_code == 404


def test_plain_post_creates_the_link_and_redirects_to_the_board(user_client, casino_match):
    response = user_client.post(app_url("share-create", casino_match))
    assert response.status_code == 302
    assert response["Location"] == f"{casino_match.get_absolute_url()}?panel=share#share-panel"
    casino_match.refresh_from_db()
    body = user_client.get(response["Location"]).content.decode()
    assert '<section id="share-panel"' in body and "<details open>" in body
    assert f"http://testserver{share_url(casino_match)}" in body
    assert app_url("share-qr", casino_match) in body
    assert 'for="share-url"' in body and 'alt="QR code' in body


def test_htmx_post_returns_the_open_panel_with_link_and_qr(user_client, casino_match):
    response = user_client.post(app_url("share-create", casino_match), headers=HX)
    body = response.content.decode()
    casino_match.refresh_from_db()
    assert response.status_code == 200
    assert body.lstrip().startswith('<section id="share-panel"') and "<details open" in body
    assert share_url(casino_match) in body and "Stop sharing" in body


def test_revoke_from_the_panel(user_client, shared):
    url = share_url(shared)
    response = user_client.post(app_url("share-revoke", shared), headers=HX)
    assert "Create a share link" in response.content.decode()
    assert user_client.get(url).status_code == 404
    assert user_client.post(app_url("share-revoke", shared)).status_code == 302


def test_qr_code_is_an_svg_drawn_on_the_server(user_client, shared):
    response = user_client.get(app_url("share-qr", shared))
    body = response.content.decode()
    assert response.status_code == 200 and response["Content-Type"] == "image/svg+xml"
    assert body.startswith("<svg") and "viewBox" in body
    assert f"<title>http://testserver{share_url(shared)}</title>" in body


def test_qr_code_of_a_match_not_shared_is_404(user_client, casino_match):
    assert user_client.get(app_url("share-qr", casino_match)).status_code == 404


def test_share_controls_refuse_the_wrong_method(user_client, casino_match):
    assert user_client.get(app_url("share-create", casino_match)).status_code == 405
    assert user_client.get(app_url("share-revoke", casino_match)).status_code == 405
    assert user_client.post(app_url("share-qr", casino_match)).status_code == 405


def test_another_users_match_cannot_be_shared_revoked_or_drawn(client, other_user, shared):
    token = shared.share_token
    client.force_login(other_user)
    assert client.post(app_url("share-create", shared)).status_code == 404
    assert client.post(app_url("share-revoke", shared)).status_code == 404
    assert client.get(app_url("share-qr", shared)).status_code == 404
    shared.refresh_from_db()
    assert shared.share_token == token


def test_a_board_polling_a_link_turned_off_is_told_so_and_stops_polling(client, shared):
    """django-htmx's HttpResponseStopPolling (286): the notice takes the board's place and htmx
    polls no more; a full page load of the dead link is a plain 404."""
    url = share_url(shared)
    links.share_link_revoke(match=shared)
    poll = client.get(url, {"since": "1"}, headers=HX)
    assert poll.status_code == 286
    body = poll.content.decode()
    assert "This share link was turned off by the match's owner." in body
    assert "hx-get" not in body and "hx-trigger" not in body
    assert client.get(url).status_code == 404
