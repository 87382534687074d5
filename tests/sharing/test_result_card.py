"""The result card: a won match's (a finished club night's) result as an image made on the
server, on the board to share, and in the Open Graph tags of its share link."""

from __future__ import annotations

import io
import re
from html import unescape

import pytest
from django.test import Client
from django.utils import translation
from helpers import FIRST_8, FIRST_11, SECOND_8, app_url, friday_club
from PIL import Image

from scoring.events import services as events
from scoring.events.selectors import EventPage
from scoring.matches import services
from scoring.models import Match
from scoring.sharing import card, links

pytestmark = pytest.mark.django_db
GOLD = (0xFF, 0xD7, 0x5E)


def _won(match: Match) -> Match:
    for number in (1, 2):
        services.hand_record(match=match, number=number, tallies=FIRST_11)
    match.refresh_from_db()
    assert match.status == Match.Status.WON
    return match


def _image(response) -> Image.Image:
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"] == "image/png"
    return Image.open(io.BytesIO(response.content))


def _og(page: str) -> dict[str, str]:
    return {
        name: unescape(value)
        for name, value in re.findall(r'<meta property="(og:[a-z:]+)" content="([^"]*)"', page)
    }


def test_a_won_match_has_a_card_of_the_size_chats_preview(user_client, casino_match):
    match = _won(casino_match)
    image = _image(user_client.get(app_url("match-card", match.pk)))
    assert image.size == (card.WIDTH, card.HEIGHT) == (1200, 630)
    # The winner's row is drawn in gold (and marked with a star: not by colour alone).
    assert GOLD in {colour for _count, colour in image.convert("RGB").getcolors(1 << 20)}


def test_the_card_says_who_won_the_score_the_game_and_the_date(casino_match):
    match = _won(casino_match)
    drawn = card.for_match(match)
    assert drawn is not None
    assert drawn.heading == "Ana wins!"
    assert [(row.name, row.number, row.winner) for row in drawn.rows] == [
        ("Ana", "22", True),
        ("Ben", "0", False),
    ]
    assert drawn.line.startswith("Casino to 21 · ")
    assert str(match.finished_at.year) in drawn.line
    assert drawn.text == f"Ana wins! Ana 22, Ben 0 · {drawn.line}"


def test_the_card_speaks_the_readers_language(casino_match):
    match = _won(casino_match)
    with translation.override("es"):
        drawn = card.for_match(match)
    assert drawn is not None and drawn.heading == "¡Gana Ana!"
    assert "a 21" in drawn.line


def test_a_match_not_won_has_no_card(user_client, casino_match):
    assert user_client.get(app_url("match-card", casino_match.pk)).status_code == 404
    services.hand_record(match=casino_match, number=1, tallies=FIRST_8)
    assert user_client.get(app_url("match-card", casino_match.pk)).status_code == 404
    services.match_abandon(match=casino_match)
    assert user_client.get(app_url("match-card", casino_match.pk)).status_code == 404


def test_an_edit_that_changes_the_winner_changes_the_card(user_client, casino_match):
    match = casino_match
    for number, hand in enumerate((FIRST_8, SECOND_8, SECOND_8, SECOND_8), start=1):
        services.hand_record(match=match, number=number, tallies=hand)
    assert card.for_match(Match.objects.get(pk=match.pk)).heading == "Ben wins!"
    # The deciding hand was Ana's, all eleven points: she wins 25 to 19.
    services.hand_edit(match=match, number=4, tallies=FIRST_11)
    changed = card.for_match(Match.objects.get(pk=match.pk))
    assert changed.heading == "Ana wins!"
    assert [(row.number, row.winner) for row in changed.rows] == [("25", True), ("19", False)]


def test_a_long_name_is_cut_to_fit_the_card():
    font = card._font(60, True)
    long = "Bartholomew-Maximilian " * 6
    cut = card._fit(long, font, 600)
    assert cut.endswith("…") and font.getlength(cut) <= 600
    assert card._fit("Ana", font, 600) == "Ana"
    row = card.Row(long, "121", winner=True)
    drawn = card.draw(card.Card("Somebody wins!", "Casino", (row, card.Row("Ben", "3")), "x"))
    assert Image.open(io.BytesIO(drawn)).size == (1200, 630)


def test_the_won_board_offers_the_card_to_share_and_works_without_javascript(
    user_client, casino_match
):
    match = _won(casino_match)
    page = user_client.get(match.get_absolute_url()).content.decode()
    link = re.search(r'<a class="button" href="([^"]+)" download="([^"]+)" data-share-card', page)
    assert link, "the result's Share link: a download without JavaScript"
    assert link.group(1) == app_url("match-card", match.pk)
    assert link.group(2) == f"casino-result-{match.pk}.png"
    assert 'data-text="Ana wins! Final score: Ana 22 – Ben 0"' in page
    assert "scoring/share.js" in page
    # An open board has none, and does not load the script.
    opened = services.match_rematch(match=match)
    page = user_client.get(opened.get_absolute_url()).content.decode()
    assert "data-share-card" not in page and "scoring/share.js" not in page


def test_the_share_link_of_a_won_match_previews_its_card_in_a_chat(user_client, casino_match):
    shared = links.share_link_create(match=casino_match)
    url = app_url("shared-match", shared.share_token)
    anyone = Client()
    og = _og(anyone.get(url).content.decode())
    assert og["og:title"] == "Live score"
    assert og["og:description"] == "Live score Ana 0 – Ben 0"
    assert "og:image" not in og  # no result yet
    assert og["og:url"] == f"http://testserver{url}"

    _won(casino_match)
    og = _og(anyone.get(url).content.decode())
    assert og["og:title"] == "Ana wins!"
    assert og["og:description"] == "Final score: Ana 22 – Ben 0"
    card_url = app_url("shared-card", shared.share_token)
    assert og["og:image"] == f"http://testserver{card_url}"
    assert _image(anyone.get(card_url)).size == (1200, 630)

    # The link turned off: the card goes with it.
    links.share_link_revoke(match=casino_match)
    assert anyone.get(card_url).status_code == 404
    assert user_client.get(app_url("match-card", casino_match.pk)).status_code == 200


def test_the_share_panel_of_a_won_match_shows_the_card(user_client, casino_match):
    match = _won(casino_match)
    panel = user_client.get(match.get_absolute_url() + "?panel=share").content.decode()
    assert f'class="result-card" src="{app_url("match-card", match.pk)}"' in panel
    assert "Download the result card" in panel


def _finished_night(user):
    night = friday_club(user, names=("Ana", "Ben"), rounds=1)
    table = events.round_pair(event=night, number=1, by=user).tables.get()
    for number in (1, 2):
        services.hand_record(match=table.match, number=number, tallies=FIRST_11)
    night.refresh_from_db()
    return night


def test_a_finished_club_night_has_a_podium_card(user, user_client):
    waiting = friday_club(user, names=("Cy", "Dee"), rounds=1)
    assert EventPage(waiting).podium is None
    assert user_client.get(app_url("event-card", waiting.pk)).status_code == 404  # not paired
    night = _finished_night(user)
    podium = EventPage(night).podium
    assert podium is not None
    drawn = card.event_card(night, podium)
    assert drawn.heading == "Friday club"
    first = [row for row in drawn.rows if row.winner]
    assert len(first) == 1 and first[0] == drawn.rows[0]
    assert [row.number for row in drawn.rows] == ["1 MP", "0 MP"]
    assert _image(user_client.get(app_url("event-card", night.pk))).size == (1200, 630)
    page = user_client.get(night.get_absolute_url()).content.decode()
    assert f'src="{app_url("event-card", night.pk)}"' in page
    assert "data-share-card" in page


def test_the_big_screen_link_of_a_finished_night_previews_its_podium(user):
    night = links.share_link_create(match=_finished_night(user))
    anyone = Client()
    og = _og(anyone.get(app_url("event-screen", night.share_token)).content.decode())
    assert og["og:title"] == "Friday club"
    assert re.fullmatch(r"Final standings: 1\. (Ana|Ben), 2\. (Ana|Ben)", og["og:description"])
    card_url = app_url("screen-card", night.share_token)
    assert og["og:image"] == f"http://testserver{card_url}"
    assert _image(anyone.get(card_url)).size == (1200, 630)
    assert anyone.get(app_url("screen-card", "not-the-token")).status_code == 404


def test_links_to_hand_out_have_copy_and_share_buttons_with_a_text_box_beneath(
    user_client, user, casino_match
):
    links.share_link_create(match=casino_match)
    night = links.share_link_create(match=friday_club(user, names=("Eve", "Fay")))
    user_client.post(
        app_url("circle-invites", user.personal_circle.pk), {"days": 7, "uses": "many"}
    )
    pages = {
        "share-url": casino_match.get_absolute_url() + "?panel=share",
        "screen-url": night.get_absolute_url(),
        "invite-url-": app_url("circle-invites", user.personal_circle.pk),
    }
    for box, url in pages.items():
        page = user_client.get(url).content.decode()
        found = re.search(rf'<input type="text" id="({box}\d*)" class="[a-z-]+" readonly', page)
        assert found, (url, "the link's text box")
        box_id = found.group(1)
        assert f'data-copy="{box_id}" aria-describedby="{box_id}-done"' in page, url
        assert f'data-share="{box_id}"' in page, url
        assert f'<span id="{box_id}-done" class="link-done" role="status">' in page, url
        assert "scoring/share.js" in page, url
