"""Who entered each hand and who changed it, the hand's earlier versions, and what the shared page
keeps to itself."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from helpers import FIRST_8, FIRST_11, HX, SECOND_8, app_url, tally

from scoring.matches import services
from scoring.matches.forms import HandForm
from scoring.models import HandRevision, Membership
from scoring.sharing import links

pytestmark = pytest.mark.django_db
# Side 1 takes 30 cards, 9 spades, the little casino, the ace of spades and 2 sweeps.
SWEPT = (tally(30, 9, little=True, aces="S", sweeps=2), tally(22, 4, big=True, aces="CHD"))


def _edit_data(number: int, tallies) -> dict[str, str]:
    """What the edit form posts for `tallies`."""
    return {key: str(value) for key, value in HandForm.initial_for(number, tallies).items()}


@pytest.fixture
def ben(django_user_model, user):
    """A second account, a member of ana's circle."""
    ben = django_user_model.objects.create_user(username="ben", password="casino-pass-3")
    Membership.objects.create(circle=user.personal_circle, user=ben, role="member")
    return ben


@pytest.fixture
def ben_client(ben):
    client = Client()
    client.force_login(ben)
    return client


@pytest.fixture
def played(casino_match, user):
    services.hand_record(match=casino_match, number=1, tallies=FIRST_8, by=user)
    return casino_match


def _text(body: str) -> str:
    """The page's words, tags and repeated spaces left out."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body))


# --- who entered and changed a hand, on its breakdown ------------------------------------------


def test_the_opened_breakdown_says_who_entered_the_hand_and_when(user_client, played):
    hand = played.hands.get()
    for headers in (HX, {}):
        body = user_client.get(app_url("hand", played, 1), headers=headers).content.decode()
        assert "Entered by ana" in _text(body)
        assert f'<time datetime="{hand.created_at.isoformat()}">' in body
        assert "Last changed" not in body
        assert app_url("hand-history", played, 1) not in body


def test_the_breakdown_names_who_changed_the_hand_and_links_its_earlier_versions(
    user_client, ben_client, played
):
    response = ben_client.post(app_url("hand-edit", played, 1), _edit_data(1, SECOND_8))
    assert response.status_code == 302
    body = user_client.get(app_url("hand", played, 1), headers=HX).content.decode()
    text = _text(body)
    assert "Entered by ana" in text and "Last changed by ben" in text
    assert app_url("hand-history", played, 1) in body
    assert "Earlier version (1)" in text

    user_client.post(app_url("hand-edit", played, 1), _edit_data(1, FIRST_11))
    text = _text(user_client.get(app_url("hand", played, 1)).content.decode())
    assert "Last changed by ana" in text and "Earlier versions (2)" in text


def test_a_deleted_account_shows_as_a_former_member(user_client, ben, ben_client, played):
    services.hand_record(match=played, number=2, tallies=FIRST_8, by=ben)
    ben_client.post(app_url("hand-edit", played, 1), _edit_data(1, SECOND_8))
    ben.delete()
    text = _text(user_client.get(app_url("hand", played, 2), headers=HX).content.decode())
    assert "Entered by a former member" in text and "ben" not in text
    text = _text(user_client.get(app_url("hand", played, 1), headers=HX).content.decode())
    assert "Entered by ana" in text and "Last changed by a former member" in text


def test_the_edit_page_says_who_entered_the_hand(ben_client, played):
    text = _text(ben_client.get(app_url("hand-edit", played, 1)).content.decode())
    assert "Entered by ana" in text


def test_who_entered_a_hand_is_not_on_the_cached_board(user_client, played):
    body = user_client.get(app_url("match", played)).content.decode()
    assert "Entered by" not in body and "Earlier version" not in body


# --- edits and revisions ---------------------------------------------------------------------------


def test_an_edit_that_changes_nothing_keeps_no_revision(user_client, ben_client, played):
    response = ben_client.post(app_url("hand-edit", played, 1), _edit_data(1, FIRST_8), follow=True)
    assert "Nothing changed in hand 1." in response.content.decode()
    hand = played.hands.get()
    assert not HandRevision.objects.filter(hand=hand).exists()
    assert hand.changed_by is None and hand.changed_at is None
    body = user_client.get(app_url("hand", played, 1), headers=HX).content.decode()
    assert "Last changed" not in body and app_url("hand-history", played, 1) not in body


def test_edits_by_two_accounts_keep_two_revisions_with_the_right_names(
    user, ben, user_client, ben_client, played
):
    response = ben_client.post(
        app_url("hand-edit", played, 1), _edit_data(1, SECOND_8), follow=True
    )
    assert "Hand 1 saved." in response.content.decode()
    user_client.post(app_url("hand-edit", played, 1), _edit_data(1, FIRST_11))

    hand = played.hands.get()
    revisions = list(hand.revisions.order_by("pk"))
    assert [(r.by, r.replaced_by) for r in revisions] == [(user, ben), (ben, user)]
    assert revisions[0].tallies[0]["cards"] == 29 and revisions[1].tallies[0]["cards"] == 23
    assert revisions[0].at == hand.created_at
    assert revisions[0].at < revisions[1].at < hand.changed_at
    assert (hand.entered_by, hand.changed_by) == (user, user)
    played.refresh_from_db()
    assert [side.total for side in played.sides.order_by("position")] == [11, 0]


# --- the history page --------------------------------------------------------------------------


def test_the_history_shows_every_version_newest_first_with_who_and_when(
    user_client, ben_client, played
):
    ben_client.post(app_url("hand-edit", played, 1), _edit_data(1, SWEPT))
    user_client.post(app_url("hand-edit", played, 1), _edit_data(1, FIRST_11))
    response = user_client.get(app_url("hand-history", played, 1))
    assert response.status_code == 200
    body = response.content.decode()
    versions = re.findall(r'<section class="hand-version[^"]*".*?</section>', body, re.S)
    assert len(versions) == 3
    current, middle, first = (_text(version) for version in versions)

    assert "Version 3, current" in current and "Changed by ana" in current
    assert "Replaced by" not in current
    assert "Cards 30 Spades 9 Special cards 10♦ (big casino), 2♠ (little casino)" in current
    assert "A♠, A♣, A♥, A♦ Sweeps 0" in current

    assert "Version 2 " in middle and "Changed by ben" in middle and "Replaced by ana" in middle
    assert "Cards 30 Spades 9 Special cards 2♠ (little casino), A♠ Sweeps 2" in middle
    assert "Cards 22 Spades 4 Special cards 10♦ (big casino), A♣, A♥, A♦ Sweeps 0" in middle

    assert "Version 1 " in first and "Entered by ana" in first and "Replaced by ben" in first
    assert "Cards 29 Spades 8 Special cards 10♦ (big casino), A♠, A♥ Sweeps 0" in first
    assert "Cards 23 Spades 5 Special cards 2♠ (little casino), A♣, A♦ Sweeps 0" in first

    # Each side's table is captioned with the side's name; the scoreboard is linked.
    assert "<caption>Ana</caption>" in versions[0] and "<caption>Ben</caption>" in versions[2]
    assert f'href="{played.get_absolute_url()}"' in body


def test_a_version_without_special_cards_says_so(user_client, played):
    user_client.post(app_url("hand-edit", played, 1), _edit_data(1, FIRST_11))
    body = user_client.get(app_url("hand-history", played, 1)).content.decode()
    assert "Cards 22 Spades 4 Special cards – Sweeps 0" in _text(body)


def test_the_history_of_a_hand_never_changed_is_its_one_version(user_client, played):
    body = user_client.get(app_url("hand-history", played, 1)).content.decode()
    assert body.count('<section class="hand-version') == 1
    assert "Version 1, current" in body and "Entered by ana" in _text(body)


def test_the_history_is_only_for_members_of_the_circle(
    client, other_user, user, ben, ben_client, played
):
    url = app_url("hand-history", played, 1)
    assert ben_client.get(url).status_code == 200
    response = client.get(url)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(other_user)
    assert client.get(url).status_code == 404
    Membership.objects.filter(circle=user.personal_circle, user=ben).delete()
    assert ben_client.get(url).status_code == 404


def test_the_history_of_a_missing_hand_is_404(user_client, played):
    assert user_client.get(app_url("hand-history", played, 2)).status_code == 404


def test_the_history_refuses_post(user_client, played):
    assert user_client.post(app_url("hand-history", played, 1)).status_code == 405


def test_the_history_reads_the_same_few_rows_however_many_versions(
    user_client, played, django_assert_max_num_queries
):
    for tallies in (SECOND_8, FIRST_11, SWEPT, FIRST_8, SECOND_8):
        user_client.post(app_url("hand-edit", played, 1), _edit_data(1, tallies))
    assert played.hands.get().revisions.count() == 5
    with django_assert_max_num_queries(7):
        assert user_client.get(app_url("hand-history", played, 1)).status_code == 200


# --- the shared page -----------------------------------------------------------------------------


def test_the_shared_page_names_no_account(client, django_user_model, user, played):
    keeper = django_user_model.objects.create_user(username="zoe-keeper")
    fixer = django_user_model.objects.create_user(username="yan-fixer")
    Membership.objects.create(circle=user.personal_circle, user=keeper, role="member")
    services.hand_record(match=played, number=2, tallies=FIRST_8, by=keeper)
    services.hand_edit(match=played, number=1, tallies=SECOND_8, by=fixer)
    shared = links.share_link_create(match=played)
    body = client.get(reverse("scoring:shared-match", args=[shared.share_token])).content.decode()
    assert "Points in hand 1" in body  # the breakdowns are in the page
    for name in ("zoe-keeper", "yan-fixer", "Entered by", "changed by", "a former member"):
        assert name not in body
    assert "/history/" not in body
