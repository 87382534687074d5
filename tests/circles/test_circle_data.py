"""What a circle holds stays in it: history, players, leaderboard, statistics, exports; and a
circle's export, imported into a new circle, is the same circle again."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from helpers import FIRST_11

from scoring.engine.rules import Rules
from scoring.matches import demo, services, stats
from scoring.matches.ratings import recompute as ratings_recompute
from scoring.models import (
    Circle,
    Match,
    Membership,
    Player,
    PlayerPairStat,
    PlayerRating,
    PlayerRecordStat,
    PlayerStat,
)
from scoring.sharing import exchange

pytestmark = pytest.mark.django_db


@pytest.fixture
def friday(user, other_user):
    """A circle of two accounts with a match each has played in, besides their own circles."""
    circle = Circle.objects.create(name="Friday cards")
    Membership.objects.create(circle=circle, user=user, role="admin")
    Membership.objects.create(circle=circle, user=other_user, role="member")
    ana, ben = (services.player_create(circle=circle, name=n) for n in ("Fri-Ana", "Fri-Ben"))
    match = services.match_start(
        circle=circle, by=user, rules=Rules.make("casino"), sides=[[ana], [ben]]
    )
    services.hand_record(match=match, number=1, tallies=FIRST_11, by=user)
    services.hand_record(match=match, number=2, tallies=FIRST_11, by=other_user)
    return circle


def _switch(client, circle):
    session = client.session
    session["circle"] = circle.pk
    session.save()


def test_each_circle_shows_only_its_own_history_players_and_leaderboard(user_client, user, friday):
    home = user.personal_circle
    mine = services.player_create(circle=home, name="Home-Cy")
    other = services.player_create(circle=home, name="Home-Dee")
    services.match_start(circle=home, rules=Rules.make("royal"), sides=[[mine], [other]])
    pages = ("scoring:match-list", "scoring:player-list", "scoring:leaderboard")

    _switch(user_client, friday)
    for page in pages:
        body = user_client.get(reverse(page)).content.decode()
        assert "Fri-Ana" in body and "Home-Cy" not in body, page
    _switch(user_client, home)
    for page in pages:
        body = user_client.get(reverse(page)).content.decode()
        assert "Home-Cy" in body and "Fri-Ana" not in body, page


def test_both_members_see_the_circles_statistics_and_ratings(client, user, other_user, friday):
    ana = Player.objects.get(circle=friday, name="Fri-Ana")
    assert PlayerStat.objects.get(player=ana).hands == 2
    ana.refresh_from_db()
    assert ana.rated_matches == 1
    for account in (user, other_user):
        client.force_login(account)
        body = client.get(reverse("scoring:player", args=[ana.pk])).content.decode()
        assert "Fri-Ana" in body


def test_opening_a_match_of_another_circle_makes_it_the_current_one(user_client, user, friday):
    match = Match.objects.get(circle=friday)
    _switch(user_client, user.personal_circle)
    assert user_client.get(match.get_absolute_url()).status_code == 200
    assert user_client.session["circle"] == friday.pk
    body = user_client.get(reverse("scoring:match-list")).content.decode()
    assert "Fri-Ana" in body


def test_a_circle_exported_and_imported_into_a_new_circle_is_the_same(user, friday):
    demo.seed(friday, 15, seed=5)
    exported = exchange.export_json(exchange.match_documents(friday))
    text = "".join(exchange.export_chunks(exchange.iter_match_documents(friday)))
    fresh = Circle.objects.create(name="Copy")
    result = exchange.matches_import(circle=fresh, text=text, by=user)
    assert len(result.matches) == Match.objects.filter(circle=friday).count() == 16
    assert exchange.export_json(exchange.match_documents(fresh)) == exported
    names = sorted(Player.objects.filter(circle=fresh).values_list("name", flat=True))
    assert names == sorted(Player.objects.filter(circle=friday).values_list("name", flat=True))
    # Ratings and statistics follow the imported matches, as in the original circle.
    for player in Player.objects.filter(circle=fresh):
        original = Player.objects.get(circle=friday, name=player.name)
        assert player.stat.hands == original.stat.hands
        assert player.rated_matches == original.rated_matches


def test_the_web_export_and_csv_are_the_current_circles(user_client, user, friday):
    _switch(user_client, friday)
    export = user_client.get(reverse("scoring:export-all"))
    text = b"".join(export.streaming_content).decode()
    assert "Fri-Ana" in text
    csv_text = b"".join(user_client.get(reverse("scoring:export-hands")).streaming_content)
    assert b"Fri-Ana" in csv_text
    _switch(user_client, user.personal_circle)
    text = b"".join(user_client.get(reverse("scoring:export-all")).streaming_content).decode()
    assert "Fri-Ana" not in text


def test_a_match_cannot_seat_players_of_another_circle(user, friday):
    stranger = services.player_create(circle=user.personal_circle, name="Home-Eve")
    ana = Player.objects.get(circle=friday, name="Fri-Ana")
    with pytest.raises(ValidationError):
        services.match_start(circle=friday, rules=Rules.make("casino"), sides=[[ana], [stranger]])


def test_a_hand_remembers_who_entered_it(friday, user, other_user):
    match = Match.objects.get(circle=friday)
    hands = {hand.number: hand.entered_by for hand in match.hands.all()}
    assert hands == {1: user, 2: other_user}
    assert match.created_by == user


def test_merging_players_keeps_the_account_linked_to_the_player(user, friday):
    ana = Player.objects.get(circle=friday, name="Fri-Ana")
    twin = services.player_create(circle=friday, name="Fri-Ana-Twin")
    Membership.objects.filter(user=user, circle=friday).update(player=twin)
    services.player_merge(source=twin, target=ana)
    assert Membership.objects.get(user=user, circle=friday).player == ana


def _kept(circle):
    """The statistics and ratings kept for the circle's players."""
    players = Player.objects.filter(circle=circle).order_by("name")
    return {
        "ratings": [(p.name, round(p.rating_mu, 9), p.rated_matches) for p in players],
        "trend": list(
            PlayerRating.objects.filter(player__circle=circle)
            .order_by("pk")
            .values_list("player__name", "match_id", "mu")
        ),
        **{
            model.__name__: sorted(
                tuple(sorted((k, v) for k, v in row.items() if k not in ("id",)))
                for row in model.objects.filter(player__circle=circle).values()
            )
            for model in (PlayerStat, PlayerRecordStat, PlayerPairStat)
        },
    }


def test_deleting_a_match_counts_statistics_and_ratings_as_if_it_never_was(user, friday):
    demo.seed(friday, 20, seed=11)
    won = list(Match.objects.filter(circle=friday, status="won").order_by("finished_at", "pk"))
    doomed = won[len(won) // 2]  # rated in the middle of the history
    services.match_delete(match=doomed)
    assert not Match.objects.filter(pk=doomed.pk).exists()
    kept = _kept(friday)
    stats.player_summaries_rebuild(friday)
    ratings_recompute(circle=friday)
    assert _kept(friday) == kept


def test_an_admin_deletes_a_match_a_member_cannot(client, user, other_user, friday):
    match = Match.objects.get(circle=friday)
    url = reverse("scoring:match-delete", args=[match.pk])
    client.force_login(other_user)  # a member
    assert (
        "Delete match"
        not in client.get(reverse("scoring:match-sheet", args=[match.pk])).content.decode()
    )
    assert client.post(url).status_code == 403
    client.force_login(user)  # the admin
    assert (
        "Delete match"
        in client.get(reverse("scoring:match-sheet", args=[match.pk])).content.decode()
    )
    response = client.post(url)
    assert response.status_code == 302 and response["Location"] == reverse("scoring:match-list")
    assert not Match.objects.filter(pk=match.pk).exists()
    assert client.post(url).status_code == 404  # sent again: nothing left to delete
