"""Statistics on a small hand-built history, every number worked out by hand."""

import pytest
from django.utils import timezone
from helpers import FIRST_8, FIRST_11
from openskill.models import PlackettLuce

from scoring.engine.rules import Rules
from scoring.history import selectors as history_selectors
from scoring.matches import services
from scoring.matches.ratings import recompute as ratings_recompute
from scoring.models import Match, Player, PlayerRating, Seat, Side
from scoring.sharing import exchange

pytestmark = pytest.mark.django_db


def _play(owner, variant, sides, hands):
    match = services.match_start(
        circle=owner.personal_circle, rules=Rules.make(variant), sides=sides
    )
    for number, hand in enumerate(hands, start=1):
        services.hand_record(match=match, number=number, tallies=hand)
    match.refresh_from_db()
    return match


@pytest.fixture
def history(user, players):
    ana, ben, cy, dee = players
    return {
        # Ana beats Ben 22-0 at Casino.
        "m1": _play(user, "casino", [[ana], [ben]], [FIRST_11, FIRST_11]),
        # Ben (first side) beats Ana 22-0 at Royal Casino.
        "m2": _play(user, "royal", [[ben], [ana]], [FIRST_11, FIRST_11]),
        # Ana & Cy beat Ben & Dee 22-0.
        "m3": _play(user, "casino", [[ana, cy], [ben, dee]], [FIRST_11, FIRST_11]),
        # Ana v Ben still playing after one hand (8-3).
        "m4": _play(user, "casino", [[ana], [ben]], [FIRST_8]),
    }


def test_player_record_overall_by_variant_and_layout(history, players):
    stats = history_selectors.player_stats(players[0])
    assert (stats.overall.played, stats.overall.won, stats.overall.lost) == (3, 2, 1)
    assert stats.overall.win_rate == pytest.approx(2 / 3)
    assert [(label, r.played, r.won) for label, r in stats.by_variant] == [
        ("Casino", 2, 2),
        ("Royal Casino", 1, 0),
    ]
    assert [(label, r.played, r.won) for label, r in stats.by_layout] == [
        ("2 players", 2, 1),
        ("2 teams of 2", 1, 1),
    ]
    assert stats.in_progress == 1


def test_player_per_hand_statistics(history, players):
    stats = history_selectors.player_stats(players[0])
    # Hands: 2 (m1, 11 each) + 2 (m2, 0 each) + 2 (m3, 11 each) + 1 (m4, 8) = 7 hands, 52 points.
    assert stats.hands == 7
    assert stats.points_per_hand == pytest.approx(52 / 7)
    assert stats.most_cards == pytest.approx(5 / 7)
    assert stats.most_spades == pytest.approx(5 / 7)
    assert stats.big_casino == pytest.approx(5 / 7)
    assert stats.little_casino == pytest.approx(4 / 7)  # FIRST_8 leaves the 2♠ to the other side
    assert stats.aces_per_hand == pytest.approx((4 * 4 + 2) / 7)
    assert stats.sweeps_per_hand == pytest.approx(0)


def test_streaks_best_match_partners_and_opponents(history, players):
    stats = history_selectors.player_stats(players[0])
    assert (stats.longest_streak, stats.current_streak) == (1, 1)  # won, lost, won
    assert stats.best_match.match == history["m3"]  # 22 gained in m1 and m3: the later one
    assert [(name, r.played, r.won) for _, name, r in stats.partners] == [("Cy", 1, 1)]
    assert [(name, count) for _, name, count in stats.opponents] == [("Ben", 4), ("Dee", 1)]
    ben = history_selectors.player_stats(players[1])
    assert (ben.longest_streak, ben.current_streak) == (1, 0)
    assert [(name, r.played, r.won) for _, name, r in ben.partners] == [("Dee", 1, 0)]


def test_head_to_head_counts_only_opposing_sides(history, players):
    ana, ben, cy, _ = players
    h2h = history_selectors.head_to_head(ana, ben)
    assert (h2h.played, h2h.first_won, h2h.second_won) == (3, 2, 1)
    assert len(h2h.rows) == 4  # the match in progress is listed, not counted
    partners = history_selectors.head_to_head(ana, cy)
    assert (partners.played, len(partners.rows)) == (0, 0)


def test_ratings_follow_openskill_in_match_order(history, players):
    model = PlackettLuce()
    ana, ben, cy, dee = (model.rating() for _ in range(4))
    [[ana], [ben]] = model.rate([[ana], [ben]], ranks=[1, 2])
    [[ben], [ana]] = model.rate([[ben], [ana]], ranks=[1, 2])
    [[ana, cy], [ben, dee]] = model.rate([[ana, cy], [ben, dee]], ranks=[1, 2])
    expected = {"Ana": ana, "Ben": ben, "Cy": cy, "Dee": dee}
    for player in Player.objects.all():
        assert player.rating_mu == pytest.approx(expected[player.name].mu)
        assert player.rating_sigma == pytest.approx(expected[player.name].sigma)
        assert player.rating == pytest.approx(expected[player.name].ordinal())
    assert {p.name: p.rated_matches for p in Player.objects.all()} == {
        "Ana": 3,
        "Ben": 3,
        "Cy": 1,
        "Dee": 1,
    }
    assert PlayerRating.objects.filter(player__name="Ana").count() == 3


def test_recompute_gives_the_same_ratings_as_updates(history, user):
    before = {p.name: (p.rating_mu, p.rating_sigma) for p in Player.objects.all()}
    ratings_recompute(circle=user.personal_circle)
    for player in Player.objects.all():
        assert (player.rating_mu, player.rating_sigma) == pytest.approx(before[player.name])
    assert PlayerRating.objects.count() == 8


def test_deleting_the_winning_hand_unrates_the_match(history, players, user):
    services.hand_delete_last(match=history["m3"], number=history["m3"].hand_count)
    assert Player.objects.get(name="Cy").rated_matches == 0
    assert Player.objects.get(name="Ana").rated_matches == 2
    assert not PlayerRating.objects.filter(match=history["m3"]).exists()


def test_leaderboard_orders_by_rating_and_marks_provisional(history, user, players):
    board = list(history_selectors.leaderboard(user.personal_circle))
    ratings = [p.rating for p in board]
    assert ratings == sorted(ratings, reverse=True)
    assert all(p.provisional for p in board)  # nobody has 5 finished matches yet
    for _ in range(2):
        _play(user, "casino", [[players[0]], [players[1]]], [FIRST_11, FIRST_11])
    board = {p.name: p for p in history_selectors.leaderboard(user.personal_circle)}
    assert {name for name, p in board.items() if not p.provisional} == {"Ana", "Ben"}


def test_rename_refuses_a_name_in_use(players):
    services.player_rename(player=players[0], name="Anna")
    assert Player.objects.filter(name="Anna").exists()
    with pytest.raises(services.ValidationError):
        services.player_rename(player=players[0], name="BEN")


def test_merge_moves_matches_and_recomputes(history, players, user):
    ana, _, _, dee = players
    twin = services.player_create(circle=user.personal_circle, name="D.")
    extra = _play(user, "casino", [[twin], [ana]], [FIRST_11, FIRST_11])
    preview = history_selectors.merge_preview(twin, dee)
    assert (preview["matches"], preview["shared"]) == (1, [])
    services.player_merge(source=twin, target=dee)
    assert not Player.objects.filter(name="D.").exists()
    assert extra.seats.get(side__position=0).player == dee
    stats = history_selectors.player_stats(dee)
    assert (stats.overall.played, stats.overall.won) == (2, 1)
    assert Player.objects.get(pk=dee.pk).rated_matches == 2


def test_merge_refused_for_two_people_who_played_together(history, players):
    ana, ben, _, _ = players
    with pytest.raises(services.ValidationError):
        services.player_merge(source=ana, target=ben)
    assert Player.objects.filter(pk=ana.pk).exists()
    assert Match.objects.filter(seats__player=ana).count() == 4


@pytest.mark.slow
def test_long_histories_are_walked_in_chunks(user, players):
    """A prefetch over thousands of ids is refused by SQLite; replays and exports go in chunks."""
    ana, ben = players[:2]
    now = timezone.now()
    matches = Match.objects.bulk_create(
        Match(
            circle=user.personal_circle,
            variant="casino",
            sweeps="count",
            several_reach="highest",
            scoring="cumulative",
            twenty_needs="little-casino",
            status="won",
            winner_position=index % 2,
            finished_at=now,
            hand_count=0,
        )
        for index in range(600)
    )
    sides = Side.objects.bulk_create(
        Side(match=match, position=position, total=21 if position == index % 2 else 5)
        for index, match in enumerate(matches)
        for position in (0, 1)
    )
    Seat.objects.bulk_create(
        Seat(match=side.match, side=side, player=(ana, ben)[side.position], seat=side.position)
        for side in sides
    )
    ratings_recompute(circle=user.personal_circle)
    assert Player.objects.get(pk=ana.pk).rated_matches == 600
    assert len(exchange.match_documents(user.personal_circle)) == 600


def test_the_statistics_read_tallies_without_joining_what_they_do_not_need(user):
    """A refresh reads the tallies of its matches with their side's match for the game, and no
    order: Tally's default order joins the hand and the match again to sort, which PostgreSQL's
    planner, its counts behind a bulk of new rows, once ran as nested loops for 107 s."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from scoring.matches import demo, stats

    demo.seed(user.personal_circle, 3, seed=5)
    pks = list(Match.objects.values_list("pk", flat=True))
    with CaptureQueriesContext(connection) as queries:
        stats.player_summaries_refresh(pks)
    (read,) = [
        q["sql"] for q in queries if 'FROM "scoring_tally"' in q["sql"] and "SELECT" in q["sql"]
    ]
    assert "ORDER BY" not in read and '"scoring_hand"' not in read, read
