"""The move to circles, on a populated database: every account gets its personal circle, and
every player, match, hand, tally, rating and statistic is still there, where it was."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("scoring", "0008_fill_player_statistics")]
AFTER = [("scoring", "0011_circles_required")]
COUNTED = (
    "Player",
    "Match",
    "Side",
    "Seat",
    "Hand",
    "Tally",
    "PlayerRating",
    "PlayerMatchStat",
    "PlayerStat",
    "PlayerPairStat",
)


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


def _latest():
    """Every app's last migration: the schema the rest of the tests run on."""
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()


def _populate(apps):
    """Two accounts, each with players, a won match with two hands and its statistics, and an
    open match: written with the models of the old schema (owner columns)."""
    User = apps.get_model("auth", "User")
    Player = apps.get_model("scoring", "Player")
    Match = apps.get_model("scoring", "Match")
    Side = apps.get_model("scoring", "Side")
    Seat = apps.get_model("scoring", "Seat")
    Hand = apps.get_model("scoring", "Hand")
    Tally = apps.get_model("scoring", "Tally")
    PlayerRating = apps.get_model("scoring", "PlayerRating")
    PlayerMatchStat = apps.get_model("scoring", "PlayerMatchStat")
    PlayerStat = apps.get_model("scoring", "PlayerStat")
    PlayerPairStat = apps.get_model("scoring", "PlayerPairStat")
    for username in ("ana", "ben"):
        user = User.objects.create(username=username)
        players = [
            Player.objects.create(owner=user, name=name, name_key=name.casefold())
            for name in (f"{username}-1", f"{username}-2")
        ]
        for status in ("won", "playing"):
            match = Match.objects.create(
                owner=user,
                variant="casino",
                sweeps="cancel",
                several_reach="points",
                scoring="standard",
                twenty_needs="points",
                status=status,
                winner_position=0 if status == "won" else None,
                hand_count=2,
                version=3,
            )
            sides = [Side.objects.create(match=match, position=p, total=11) for p in (0, 1)]
            for position, (side, player) in enumerate(zip(sides, players, strict=True)):
                Seat.objects.create(match=match, side=side, player=player, seat=position)
            for number in (1, 2):
                hand = Hand.objects.create(match=match, number=number, dealer_seat=number % 2)
                for side in sides:
                    Tally.objects.create(hand=hand, side=side, cards=26, spades=6, points=3)
            if status == "won":
                for player in players:
                    PlayerRating.objects.create(
                        player=player, match=match, mu=25, sigma=8, rating=1
                    )
            for side, player in zip(sides, players, strict=True):
                PlayerMatchStat.objects.create(
                    player=player,
                    match=match,
                    side=side,
                    variant="casino",
                    layout="2",
                    status=status,
                    won=status == "won" and side.position == 0,
                    created_at=match.created_at,
                )
        for player in players:
            PlayerStat.objects.create(player=player, hands=4)
        PlayerPairStat.objects.create(player=players[0], other=players[1], opposed=2)


def _counts(apps):
    return {name: apps.get_model("scoring", name).objects.count() for name in COUNTED}


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_every_row_moves_into_its_accounts_personal_circle():
    old = _migrate(BEFORE)
    _populate(old)
    before = _counts(old)
    owners = {
        name: dict(old.get_model("scoring", name).objects.values_list("pk", "owner__username"))
        for name in ("Player", "Match")
    }
    try:
        new = _migrate(AFTER)
        assert _counts(new) == before
        Circle = new.get_model("scoring", "Circle")
        Membership = new.get_model("scoring", "Membership")
        circles = {
            c.personal_for.username: c for c in Circle.objects.select_related("personal_for")
        }
        assert set(circles) == {"ana", "ben"}
        for username, circle in circles.items():
            assert circle.name == username
            (membership,) = Membership.objects.filter(circle=circle)
            assert (membership.user.username, membership.role) == (username, "admin")
        for name in ("Player", "Match"):
            moved = new.get_model("scoring", name).objects.values_list(
                "pk", "circle__personal_for__username"
            )
            assert dict(moved) == owners[name]
        Match = new.get_model("scoring", "Match")
        Hand = new.get_model("scoring", "Hand")
        assert all(m.created_by.username == owners["Match"][m.pk] for m in Match.objects.all())
        for hand in Hand.objects.select_related("match__created_by", "entered_by"):
            assert hand.entered_by == hand.match.created_by
        # And back again: the owners are what they were.
        again = _migrate(BEFORE)
        for name in ("Player", "Match"):
            back = again.get_model("scoring", name).objects.values_list("pk", "owner__username")
            assert dict(back) == owners[name]
        assert _counts(again) == before
    finally:
        _migrate(_latest())  # leave the schema as the other tests expect it
