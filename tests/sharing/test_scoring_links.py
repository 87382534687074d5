"""A match's scoring link: whoever opens it records, undoes and fixes that match's hands, signed
in or not, and reaches nothing else; turned off, or the match over, it changes nothing more."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from helpers import FIRST_8, HX, app_url, friday_club

from scoring.events import services as events
from scoring.matches import services
from scoring.models import Hand, Match, Membership
from scoring.sharing import links

pytestmark = pytest.mark.django_db
TYPICAL = {"number": "1", "cards_0": "27", "spades_0": "7", "card_10D": "0", "card_AS": "0"}


@pytest.fixture
def linked(casino_match: Match) -> Match:
    return links.scoring_link_create(match=casino_match)


def open_link(client: Client, match: Match) -> None:
    response = client.get(reverse("scoring:scoring-open", args=[match.scoring_token]))
    assert response.status_code == 302
    assert response["Location"] == match.get_absolute_url()  # the token leaves the address


@pytest.fixture
def guest(client: Client, linked: Match) -> Client:
    """A phone with no account that opened the link."""
    open_link(client, linked)
    return client


def test_the_link_opens_the_board_with_the_hand_form_and_no_member_tools(guest, linked):
    body = guest.get(linked.get_absolute_url()).content.decode()
    assert 'name="cards_0"' in body
    assert app_url("hand-create", linked) in body
    assert "through its scoring link" in body
    for name in ("match-abandon", "match-delete", "share-panel", "share-create", "scoring-create"):
        assert app_url(name, linked) not in body
    assert app_url("hand-sync", linked) not in body  # no outbox: nothing waits unsent
    assert "data-account" not in body


def test_a_hand_saved_through_the_link_is_stored_once_and_marked(guest, linked):
    url = app_url("hand-create", linked)
    assert guest.post(url, TYPICAL).status_code == 302
    assert guest.post(url, TYPICAL).status_code == 302  # a resend stores nothing more
    hand = Hand.objects.get(match=linked)
    assert hand.via_link and hand.entered_by is None
    body = guest.get(linked.get_absolute_url()).content.decode()
    assert "through the scoring link" in body and 'class="link-icon"' in body


def test_an_htmx_save_undo_and_fix_through_the_link(guest, linked):
    saved = guest.post(app_url("hand-create", linked), TYPICAL, headers=HX)
    assert saved.status_code == 200
    hand = Hand.objects.get(match=linked)
    undone = guest.post(app_url("hand-delete", linked), {"undo": f"1:{hand.pk}"}, headers=HX)
    assert undone.status_code == 200 and not Hand.objects.filter(match=linked).exists()
    services.hand_record(match=linked, number=1, tallies=FIRST_8)
    assert not Hand.objects.get(match=linked).via_link
    edit = app_url("hand-edit", linked, 1)
    assert guest.get(edit).status_code == 200
    fixed = guest.post(edit, {**TYPICAL, "cards_0": "30", "spades_0": "9"})
    assert fixed.status_code == 302
    hand = Hand.objects.get(match=linked)
    assert hand.via_link and hand.changed_by is None and hand.changed_at is not None
    detail = guest.get(app_url("hand", linked, 1)).content.decode()
    assert "someone with the scoring link" in detail


def test_the_link_reaches_nothing_else(guest, linked, user, players):
    other = services.match_start(
        circle=linked.circle, by=user, rules=linked.rules, sides=[[players[0]], [players[1]]]
    )
    assert guest.get(other.get_absolute_url()).status_code == 404  # no link for it
    assert guest.post(app_url("hand-create", other), TYPICAL).status_code == 404
    assert not Hand.objects.filter(match=other).exists()
    for name in ("match-list", "player-list", "event-list", "leaderboard", "outbox"):
        response = guest.get(reverse(f"scoring:{name}"))
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    player = players[0]
    assert guest.get(reverse("scoring:player", args=[player.pk])).status_code == 302
    for name in ("match-abandon", "match-delete", "match-rematch", "scoring-revoke"):
        assert guest.post(app_url(name, linked)).status_code == 302
    assert guest.get(app_url("scoring-qr", linked)).status_code == 302
    assert guest.get(app_url("export-match", linked)).status_code == 302
    linked.refresh_from_db()
    assert linked.is_open and linked.scoring_token


def test_a_signed_in_outsider_with_the_link_scores_that_match_only(
    client, other_user, linked, user, players
):
    client.force_login(other_user)
    assert client.get(linked.get_absolute_url()).status_code == 404  # no link yet
    open_link(client, linked)
    body = client.get(linked.get_absolute_url()).content.decode()
    assert 'name="cards_0"' in body
    assert app_url("match-delete", linked) not in body  # admin of their own circle, not this one
    assert client.post(app_url("hand-create", linked), TYPICAL).status_code == 302
    hand = Hand.objects.get(match=linked)
    assert hand.via_link and hand.entered_by == other_user
    assert client.post(app_url("match-delete", linked)).status_code == 404
    assert client.post(app_url("match-abandon", linked)).status_code == 404
    assert client.get(app_url("export-match", linked)).status_code == 404
    assert client.get(app_url("scoring-qr", linked)).status_code == 404
    assert Match.objects.filter(pk=linked.pk).exists()


def test_turned_off_the_link_changes_nothing_more_at_once(guest, linked, user):
    old_token = linked.scoring_token
    owner = Client()
    owner.force_login(user)
    assert owner.post(app_url("scoring-revoke", linked)).status_code == 302
    assert guest.get(linked.get_absolute_url()).status_code == 404
    assert guest.post(app_url("hand-create", linked), TYPICAL).status_code == 404
    assert not Hand.objects.filter(match=linked).exists()
    ended = guest.get(reverse("scoring:scoring-open", args=[old_token]))
    assert ended.status_code == 404 and "Scoring link turned off" in ended.content.decode()
    # A new link has a new token: the old one stays dead.
    made_again = links.scoring_link_create(match=Match.objects.get(pk=linked.pk))
    assert made_again.scoring_token != old_token
    assert guest.get(linked.get_absolute_url()).status_code == 404


def test_once_the_match_is_over_the_link_only_shows_the_result(guest, linked):
    for number in (1, 2, 3):
        services.hand_record(match=linked, number=number, tallies=FIRST_8)
    linked.refresh_from_db()
    assert not linked.is_open
    body = guest.get(linked.get_absolute_url()).content.decode()
    assert "can change nothing more" in body
    assert app_url("match-rematch", linked) not in body and "saved-final" not in body
    assert guest.post(app_url("hand-delete", linked), {"number": "3"}).status_code == 403
    assert guest.post(app_url("hand-edit", linked, 1), TYPICAL).status_code == 403
    assert Hand.objects.filter(match=linked).count() == 3


def test_a_member_makes_and_turns_off_the_link_from_the_share_panel(user_client, casino_match):
    panel = user_client.get(app_url("share-panel", casino_match), headers=HX).content.decode()
    assert app_url("scoring-create", casino_match) in panel
    made = user_client.post(app_url("scoring-create", casino_match), headers=HX)
    casino_match.refresh_from_db()
    token = casino_match.scoring_token
    assert token and reverse("scoring:scoring-open", args=[token]) in made.content.decode()
    user_client.post(app_url("scoring-create", casino_match), headers=HX)  # a second tap
    casino_match.refresh_from_db()
    assert casino_match.scoring_token == token
    qr = user_client.get(app_url("scoring-qr", casino_match))
    assert qr.status_code == 200 and qr["Content-Type"] == "image/svg+xml"
    user_client.post(app_url("scoring-revoke", casino_match), headers=HX)
    casino_match.refresh_from_db()
    assert casino_match.scoring_token is None
    assert user_client.get(app_url("scoring-qr", casino_match)).status_code == 404


def test_a_finished_match_gets_no_scoring_link(user_client, casino_match):
    for number in (1, 2, 3):
        services.hand_record(match=casino_match, number=number, tallies=FIRST_8)
    casino_match.refresh_from_db()
    assert not casino_match.is_open
    response = user_client.post(app_url("scoring-create", casino_match))
    assert response.status_code == 302
    casino_match.refresh_from_db()
    assert casino_match.scoring_token is None


def test_the_organiser_hands_out_every_tables_scoring_code(user, user_client, client):
    event = friday_club(user)
    events.round_pair(event=event, number=1, by=user)
    page = user_client.get(event.get_absolute_url()).content.decode()
    assert app_url("event-scoring-links", event) in page and "/score/" not in page
    made = user_client.post(app_url("event-scoring-links", event))
    assert made.status_code == 302 and made["Location"].endswith("#scoring-links")
    user_client.post(app_url("event-scoring-links", event))  # a second tap makes none again
    tables = list(Match.objects.filter(event=event).order_by("pk"))
    tokens = [table.scoring_token for table in tables]
    assert len(tables) == 2 and all(tokens) and len(set(tokens)) == 2
    page = user_client.get(event.get_absolute_url()).content.decode()
    for table in tables:
        assert reverse("scoring:scoring-open", args=[table.scoring_token]) in page
        assert app_url("scoring-qr", table) in page
    assert app_url("event-scoring-links", event) not in page  # every table has one
    # A guest at table 1 scores it, and nothing of table 2 or of the event.
    guest = Client()
    open_link(guest, tables[0])
    assert guest.post(app_url("hand-create", tables[0]), TYPICAL).status_code == 302
    assert guest.post(app_url("hand-create", tables[1]), TYPICAL).status_code == 404
    assert guest.get(event.get_absolute_url()).status_code == 302  # to log in
    body = guest.get(tables[0].get_absolute_url()).content.decode()
    assert event.get_absolute_url() not in body
    assert [hand.match_id for hand in Hand.objects.all()] == [tables[0].pk]


def test_only_the_organiser_makes_the_tables_links(user, other_user, client):
    event = friday_club(user)
    events.round_pair(event=event, number=1, by=user)
    circle = user.personal_circle
    Membership.objects.create(circle=circle, user=other_user, role=Membership.Role.MEMBER)
    client.force_login(other_user)
    assert client.post(app_url("event-scoring-links", event)).status_code == 403
    assert "scoring-links" not in client.get(event.get_absolute_url()).content.decode()
    assert not Match.objects.filter(event=event, scoring_token__isnull=False).exists()
