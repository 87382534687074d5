"""Statistics kept up to date (scoring/matches/stats.py) and matches written in bulk (scoring/matches/bulk.py).

The kept statistics are checked against the aggregates the player and head-to-head pages used
to compute over every row of a history on each request (kept here as the reference), on random
histories with every kind of change; the bulk writer against the same matches recorded hand by
hand through the services.
"""

import dataclasses
import random
from collections import Counter
from datetime import UTC, datetime

import pytest
from django.core.management import call_command
from django.db.models import Avg, Case, Count, F, IntegerField, OuterRef, Q, Subquery, Sum, When
from django.db.models import Value as V
from helpers import FIRST_8, FIRST_11, SECOND_8

from scoring.engine import rules
from scoring.engine.rules import Rules
from scoring.history import selectors as history
from scoring.matches import bulk, demo, seating, services, stats
from scoring.models import (
    Hand,
    Match,
    Player,
    PlayerMatchStat,
    PlayerPairStat,
    PlayerRating,
    PlayerRecordStat,
    PlayerStat,
    Seat,
    Side,
    Tally,
)

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


# --- the reference: the statistics as the pages used to aggregate them -------------------------


def _finished_sides(player):
    won = Case(
        When(position=F("match__winner_position"), then=V(1)),
        default=V(0),
        output_field=IntegerField(),
    )
    return Side.objects.filter(seats__player=player, match__status=Match.Status.WON).annotate(
        won=won
    )


def _reference_stats(player):
    def records(key, labels):
        rows = (
            _finished_sides(player)
            .values(key)
            .annotate(played=Count("pk"), wins=Sum("won"))
            .order_by(key)
        )
        return [(labels.get(row[key], row[key]), row["played"], row["wins"] or 0) for row in rows]

    by_variant = records("match__variant", dict(Match.Variant.choices))
    hands = Tally.objects.filter(side__seats__player=player).aggregate(
        hands=Count("pk"),
        points=Avg("points"),
        cards=Count("pk", filter=Q(cards_points__gt=0)),
        spades=Count("pk", filter=Q(spades_points__gt=0)),
        big=Count("pk", filter=Q(big_casino=True)),
        little=Count("pk", filter=Q(little_casino=True)),
        aces=Avg("aces_points"),
        sweeps=Avg("sweeps"),
    )
    count = hands["hands"]
    results = list(
        _finished_sides(player)
        .order_by("match__finished_at", "match__pk")
        .values_list("won", flat=True)
    )
    longest = run = 0
    for won in results:
        run = run + 1 if won else 0
        longest = max(longest, run)
    best = (
        _finished_sides(player)
        .filter(won=1)
        .select_related("match")
        .order_by(F("total") - F("start_total"), "match__finished_at")
        .last()
    )
    partners = (
        Seat.objects.filter(side__seats__player=player, match__status=Match.Status.WON)
        .exclude(player=player)
        .values("player_id", "player__name")
        .annotate(
            played=Count("side", distinct=True),
            wins=Count("side", distinct=True, filter=Q(side__position=F("match__winner_position"))),
        )
        .order_by("-played", "player__name")
    )
    opponents = (
        Seat.objects.filter(match__seats__player=player)
        .exclude(side__seats__player=player)
        .values("player_id", "player__name")
        .annotate(matches=Count("match", distinct=True))
        .order_by("-matches", "player__name")[:5]
    )
    trend = PlayerRating.objects.filter(player=player).order_by("-pk")
    return {
        "overall": (sum(r[1] for r in by_variant), sum(r[2] for r in by_variant)),
        "by_variant": by_variant,
        "by_layout": records("match__layout", dict(Match.Layout.choices)),
        "in_progress": Match.objects.filter(
            seats__player=player, status__in=[Match.Status.PLAYING, Match.Status.TIED]
        ).count(),
        "hands": count,
        "points_per_hand": hands["points"],
        "shares": [
            (hands[name] or 0) / count if count else None
            for name in ("cards", "spades", "big", "little")
        ],
        "aces_per_hand": hands["aces"],
        "sweeps_per_hand": hands["sweeps"],
        "streaks": (longest, run),
        # Which of several equally good matches is the best is up to the database: compare
        # what the page shows of it.
        "best": (best.total - best.start_total, best.match.finished_at) if best else None,
        "partners": [(r["player_id"], r["player__name"], r["played"], r["wins"]) for r in partners],
        "opponents": [(r["player_id"], r["player__name"], r["matches"]) for r in opponents],
        "trend": list(trend.values_list("rating", flat=True)[:30])[::-1],
    }


def _kept_stats(player):
    kept = history.player_stats(player)
    best = kept.best_match
    return {
        "overall": (kept.overall.played, kept.overall.won),
        "by_variant": [(label, r.played, r.won) for label, r in kept.by_variant],
        "by_layout": [(label, r.played, r.won) for label, r in kept.by_layout],
        "in_progress": kept.in_progress,
        "hands": kept.hands,
        "points_per_hand": kept.points_per_hand,
        "shares": [kept.most_cards, kept.most_spades, kept.big_casino, kept.little_casino],
        "aces_per_hand": kept.aces_per_hand,
        "sweeps_per_hand": kept.sweeps_per_hand,
        "streaks": (kept.longest_streak, kept.current_streak),
        "best": (best.total - best.start_total, best.match.finished_at) if best else None,
        "partners": [(pk, name, r.played, r.won) for pk, name, r in kept.partners],
        "opponents": kept.opponents,
        "trend": kept.trend,
    }


def _reference_head_to_head(first, second):
    def side_of(player):
        return Subquery(
            Seat.objects.filter(match=OuterRef("pk"), player=player).values("side__position")[:1]
        )

    matches = (
        Match.objects.filter(seats__player=first)
        .filter(seats__player=second)
        .annotate(first_side=side_of(first), second_side=side_of(second))
        .exclude(first_side=F("second_side"))
    )
    won = Q(status=Match.Status.WON)
    counts = matches.aggregate(
        played=Count("pk", filter=won),
        first_won=Count("pk", filter=won & Q(winner_position=F("first_side"))),
        second_won=Count("pk", filter=won & Q(winner_position=F("second_side"))),
    )
    recent = list(matches.order_by("-created_at", "-pk").values_list("pk", flat=True)[:20])
    return counts["played"], counts["first_won"], counts["second_won"], recent


def _close(kept, reference):
    if isinstance(reference, list):
        return len(kept) == len(reference) and all(map(_close, kept, reference))
    if reference is None or kept is None:
        return kept is reference
    return kept == pytest.approx(reference, rel=1e-12)


def _assert_pages_match_reference(owner):
    players = list(Player.objects.filter(circle=owner.personal_circle))
    for player in players:
        kept, reference = _kept_stats(player), _reference_stats(player)
        for name in ("points_per_hand", "aces_per_hand", "sweeps_per_hand", "shares"):
            # The database's AVG may differ from a division in the last binary digit.
            assert _close(kept.pop(name), reference.pop(name)), (player.name, name)
        assert kept == reference, player.name
    for first in players:
        for second in players:
            if first != second:
                h2h = history.head_to_head(first, second)
                assert (
                    h2h.played,
                    h2h.first_won,
                    h2h.second_won,
                    [row.match.pk for row in h2h.rows],
                ) == _reference_head_to_head(first, second), (first.name, second.name)


# --- stored rows, comparable across owners ---------------------------------------------------------

KEPT_MODELS = (PlayerMatchStat, PlayerStat, PlayerRecordStat, PlayerPairStat)


def _stored(owner, models):
    """Every stored field of the owner's rows, with pks replaced by what they point at (a
    match's place in the history, a side's position, a hand's number, a player's name)."""
    names = {p.pk: p.name for p in Player.objects.filter(circle=owner.personal_circle)}
    matches = list(Match.objects.filter(circle=owner.personal_circle).order_by("created_at", "pk"))
    keys = {
        "match": {m.pk: index for index, m in enumerate(matches)},
        "player": names,
        "other": names,
    }
    keys["rematch_of"] = keys["match"]
    keys["side"] = {
        s.pk: (keys["match"][s.match_id], s.position)
        for s in Side.objects.filter(match__circle=owner.personal_circle)
    }
    keys["hand"] = {
        h.pk: (keys["match"][h.match_id], h.number)
        for h in Hand.objects.filter(match__circle=owner.personal_circle)
    }
    by_owner = {
        Match: Match.objects.filter(circle=owner.personal_circle),
        Player: Player.objects.filter(circle=owner.personal_circle),
        Side: Side.objects.filter(match__circle=owner.personal_circle),
        Seat: Seat.objects.filter(match__circle=owner.personal_circle),
        Hand: Hand.objects.filter(match__circle=owner.personal_circle),
        Tally: Tally.objects.filter(hand__match__circle=owner.personal_circle),
        PlayerRating: PlayerRating.objects.filter(player__circle=owner.personal_circle),
    }
    stored = {}
    for model in models:
        rows = (
            by_owner[model]
            if model in by_owner
            else model.objects.filter(player__circle=owner.personal_circle)
        )
        values = []
        for obj in rows.order_by("pk"):
            row = {}
            for field in model._meta.concrete_fields:
                if field.name in ("id", "circle", "created_by", "entered_by") or (
                    # When the row was written: now, whichever way it is written.
                    model in (Hand, Player) and field.name in ("created_at", "updated_at")
                ):
                    continue
                value = getattr(obj, field.attname)
                if field.is_relation and value is not None:
                    value = keys[field.name][value]
                row[field.name] = value
            values.append(row)
        # Rating rows in the order they were written (the trend); the others in any order.
        stored[model.__name__] = values if model is PlayerRating else sorted(values, key=repr)
    return stored


# --- bulk writes store what the services store ---------------------------------------------------

WRITTEN = (Match, Side, Seat, Hand, Tally, Player, PlayerRating)


@pytest.mark.slow
def test_bulk_seed_stores_exactly_what_recording_hand_by_hand_stores(django_user_model):
    by_services = django_user_model.objects.create(username="one-by-one")
    in_bulk = django_user_model.objects.create(username="in-bulk")
    demo.seed(by_services.personal_circle, 12, seed=19, now=NOW, through_services=True)
    demo.seed(in_bulk.personal_circle, 12, seed=19, now=NOW)

    # The sample has every table layout, every variant, won and abandoned matches.
    matches = Match.objects.filter(circle=in_bulk.personal_circle)
    assert set(matches.values_list("layout", flat=True)) == {"2", "3", "4", "teams"}
    assert set(matches.values_list("variant", flat=True)) == {"casino", "royal", "dominican"}
    assert set(matches.values_list("status", flat=True)) == {"won", "abandoned"}
    assert Tally.objects.filter(hand__match__circle=in_bulk.personal_circle).count() > 50

    expected = _stored(by_services, WRITTEN + KEPT_MODELS)
    assert _stored(in_bulk, WRITTEN + KEPT_MODELS) == expected
    assert all(row["version"] > 1 for row in expected["Match"])


def _services_match(owner, spec):
    match = services.match_start(
        circle=owner.personal_circle,
        rules=Rules.make(
            spec.rules.variant,
            target=spec.rules.target,
            sweeps=spec.rules.sweeps,
            several_reach=spec.rules.several_reach,
            scoring=spec.rules.scoring,
            twenty_needs=spec.rules.twenty_needs,
        ),
        sides=spec.sides,
        first_dealer_seat=spec.first_dealer,
        start_totals=spec.start_totals,
    )
    for number, tallies in enumerate(spec.hands, start=1):
        services.hand_record(match=match, number=number, tallies=tallies)
    if spec.abandoned:
        services.match_abandon(match=match)
    Match.objects.filter(pk=match.pk).update(created_at=spec.created_at)
    if spec.finished_at and Match.objects.get(pk=match.pk).finished_at:
        Match.objects.filter(pk=match.pk).update(finished_at=spec.finished_at)
    stats.player_summaries_refresh(match)


def test_bulk_matches_with_options_start_totals_and_ties(django_user_model):
    """Rules other than a variant's defaults, start totals, a tie, an abandoned match that was
    already won (abandoning leaves it won), and a match without hands."""

    def specs(owner):
        ana, ben, cy, dee = (
            services.player_get_or_create(circle=owner.personal_circle, name=name)
            for name in ("Ana", "Ben", "Cy", "Dee")
        )
        royal = rules.Rules.make("royal")
        return [
            bulk.NewMatch(
                rules=rules.Rules.make("casino", scoring="difference", target=11),
                sides=[[ana], [ben]],
                hands=[FIRST_8, SECOND_8, FIRST_11],
                first_dealer=1,
            ),
            bulk.NewMatch(
                rules=rules.Rules.make("casino", several_reach="count-out"),
                sides=[[ana, cy], [ben, dee]],
                start_totals=[19, 18],
                hands=[FIRST_8],
                first_dealer=3,
            ),
            # 8-3 then 3-8: 11 all, past a target of 10: tied, then abandoned.
            bulk.NewMatch(
                rules=rules.Rules.make("casino", target=10, several_reach="highest"),
                sides=[[cy], [dee]],
                hands=[FIRST_8, SECOND_8],
                abandoned=True,
            ),
            bulk.NewMatch(rules=royal, sides=[[ana], [ben]], hands=[FIRST_11, FIRST_11]),
            bulk.NewMatch(
                rules=royal, sides=[[ben], [cy]], hands=[FIRST_11, FIRST_11], abandoned=True
            ),
            bulk.NewMatch(rules=royal, sides=[[ana], [ben], [cy]]),
        ]

    by_services = django_user_model.objects.create(username="one-by-one")
    in_bulk = django_user_model.objects.create(username="in-bulk")

    def dated(specs):
        for hour, spec in enumerate(specs):
            when = NOW.replace(hour=hour)
            yield dataclasses.replace(spec, created_at=when, finished_at=when)

    for spec in dated(specs(by_services)):
        _services_match(by_services, spec)
    bulk.matches_create(in_bulk.personal_circle, dated(specs(in_bulk)))
    statuses = list(
        Match.objects.filter(circle=in_bulk.personal_circle)
        .order_by("created_at")
        .values_list("status", flat=True)
    )
    assert statuses == ["won", "won", "abandoned", "won", "won", "playing"]
    assert Match.objects.filter(circle=in_bulk.personal_circle, outcome_kind="tied").exists()
    written = (Match, Side, Seat, Hand, Tally)
    assert _stored(in_bulk, written + KEPT_MODELS) == _stored(by_services, written + KEPT_MODELS)


def test_bulk_refuses_what_the_services_refuse(user, players):
    ana, ben = players[:2]
    casino = rules.Rules.make("casino")
    with pytest.raises(bulk.BulkRefused, match="hand 3 comes after the winning hand"):
        bulk.matches_create(
            user,
            [bulk.NewMatch(rules=casino, sides=[[ana], [ben]], hands=[FIRST_11] * 3)],
        )
    bad = (FIRST_11[0], FIRST_11[1]._replace(cards=23))
    with pytest.raises(bulk.BulkRefused, match="match 2, hand 1"):
        bulk.matches_create(
            user,
            [
                bulk.NewMatch(rules=casino, sides=[[ana], [ben]]),
                bulk.NewMatch(rules=casino, sides=[[ana], [ben]], hands=[bad]),
            ],
        )
    assert not Match.objects.exists()  # all or nothing


# --- kept statistics are the aggregates, whatever happens to the matches ------------------------


def _random_history(owner, seed, steps):
    """Matches started, hands recorded, changed and deleted, matches abandoned, players merged
    through the services, the statistics refreshed after each change (as services do)."""
    rng = random.Random(seed)
    roster = [
        services.player_create(circle=owner.personal_circle, name=name) for name in demo.NAMES[:6]
    ]
    matches = []
    done = Counter()
    for step in range(steps):
        roll = rng.random()
        playing = list(
            Match.objects.filter(
                circle=owner.personal_circle, status__in=["playing", "tied"]
            ).order_by("pk")
        )
        if roll < 0.12 or not matches or (roll < 0.65 and not playing):
            _, side_count, per_side = rng.choice(demo.LAYOUTS)
            chosen = rng.sample(roster, side_count * per_side)
            if rng.random() < 0.2:  # a newcomer, who may turn out to be someone on the roster
                newcomer = services.player_create(circle=owner.personal_circle, name=f"New {step}")
                chosen[rng.randrange(len(chosen))] = newcomer
                roster.append(newcomer)
            match = services.match_start(
                circle=owner.personal_circle,
                rules=Rules.make(rng.choice(demo.VARIANTS)),
                sides=[chosen[position::side_count] for position in range(side_count)],
                first_dealer_seat=rng.randrange(4),
            )
            matches.append(match)
            changed = [match]
            done["start"] += 1
        else:
            match = rng.choice(playing) if roll < 0.65 else rng.choice(matches)
            match.refresh_from_db()
            sides = match.sides.count()
            changed = [match]
            try:
                if roll < 0.65 and match.is_open:
                    services.hand_record(
                        match=match,
                        number=match.hand_count + 1,
                        tallies=demo.random_hand(rng, sides),
                    )
                    done["record"] += 1
                elif roll < 0.75 and match.hand_count:
                    services.hand_edit(
                        match=match,
                        number=rng.randint(1, match.hand_count),
                        tallies=demo.random_hand(rng, sides),
                    )
                    done["edit"] += 1
                elif roll < 0.83 and match.hand_count:
                    services.hand_delete_last(match=match, number=match.hand_count)
                    done["delete"] += 1
                elif roll < 0.85 and match.is_open:
                    services.match_abandon(match=match)
                    done["abandon"] += 1
                elif roll >= 0.85:
                    newcomers = [p for p in roster if p.name.startswith("New")]
                    if newcomers:
                        source = rng.choice(newcomers)
                        targets = [
                            p
                            for p in roster
                            if p != source and not seating.shared_matches(source, p)
                        ]
                        if targets:
                            target = rng.choice(targets)
                            services.player_merge(source=source, target=target)
                            roster.remove(source)
                            changed = Match.objects.filter(seats__player=target)
                            done["merge"] += 1
            except services.ValidationError:
                continue  # refused (a hand after the winning one): nothing changed
        stats.player_summaries_refresh(changed)
        if rng.random() < 0.1:
            stats.player_summaries_refresh(changed)  # a second call changes nothing
    return done


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 3, 5])
def test_kept_statistics_equal_the_aggregates_after_any_change(user, seed):
    done = _random_history(user, seed, steps=200)
    # Every kind of change happened, and enough matches were won to make streaks.
    assert min(done[kind] for kind in ("start", "record", "edit", "delete", "abandon")) >= 3
    assert done["merge"] >= 1
    assert Match.objects.filter(circle=user.personal_circle, status="won").count() >= 3
    _assert_pages_match_reference(user)
    kept = _stored(user, KEPT_MODELS)
    stats.player_summaries_rebuild(user.personal_circle)
    assert _stored(user, KEPT_MODELS) == kept


@pytest.mark.slow
def test_streaks_follow_a_changed_result_in_the_middle(user, players):
    ana, ben = players[:2]

    def play(hands):
        match = services.match_start(
            circle=user.personal_circle, rules=Rules.make("casino"), sides=[[ana], [ben]]
        )
        for number, hand in enumerate(hands, start=1):
            services.hand_record(match=match, number=number, tallies=hand)
        stats.player_summaries_refresh(match)
        return match

    def streaks():
        _assert_pages_match_reference(user)
        stat = PlayerStat.objects.get(player=ana)
        return stat.longest_streak, stat.current_streak

    _, second, _ = (play([FIRST_11, FIRST_11]) for _ in range(3))
    # Ana 11, 14, 17, 20; Ben 0, 8, 16, 24: Ben wins.
    lost = play([FIRST_11, SECOND_8, SECOND_8, SECOND_8])
    play([FIRST_11, FIRST_11])
    assert streaks() == (3, 1)

    # The second match is not won any more: won, won, lost, won.
    services.hand_delete_last(match=second, number=2)
    stats.player_summaries_refresh(second)
    assert streaks() == (2, 1)
    # Ana wins the lost match after all (it keeps the time it finished): four in a row.
    services.hand_edit(match=lost, number=4, tallies=FIRST_11)
    stats.player_summaries_refresh(lost)
    assert streaks() == (4, 4)
    # The second match is won again, after all the others: five.
    services.hand_record(match=second, number=2, tallies=FIRST_11)
    stats.player_summaries_refresh(second)
    assert streaks() == (5, 5)


def test_merge_moves_the_statistics_to_the_other_player(user, players):
    ana, ben, cy, _ = players
    twin = services.player_create(circle=user.personal_circle, name="Ana B.")
    for sides in ([[twin], [ben]], [[ben, cy], [twin, ana]]):
        match = services.match_start(
            circle=user.personal_circle, rules=Rules.make("casino"), sides=sides
        )
        for number in (1, 2):
            services.hand_record(match=match, number=number, tallies=FIRST_11)
        stats.player_summaries_refresh(match)
    with pytest.raises(services.ValidationError):
        services.player_merge(source=twin, target=ana)  # they were partners
    solo = services.match_start(
        circle=user.personal_circle, rules=Rules.make("royal"), sides=[[twin], [cy]]
    )
    stats.player_summaries_refresh(solo)
    dee = players[3]
    services.player_merge(source=twin, target=dee)
    stats.player_summaries_refresh(Match.objects.filter(seats__player=dee))
    assert not PlayerStat.objects.filter(player_id=twin.pk).exists()
    _assert_pages_match_reference(user)
    assert history.player_stats(dee).in_progress == 1


@pytest.mark.slow
def test_demo_history_statistics_equal_the_aggregates(user):
    demo.seed(user.personal_circle, 60, seed=5)
    _assert_pages_match_reference(user)


@pytest.mark.slow
def test_stats_rebuild_command_counts_again(user, other_user, capsys):
    demo.seed(user.personal_circle, 30, seed=8)
    demo.seed(other_user.personal_circle, 5, seed=9)
    kept = _stored(user, KEPT_MODELS)
    PlayerStat.objects.all().delete()
    PlayerPairStat.objects.filter(player__circle=user.personal_circle).update(opposed=0)
    call_command("stats_rebuild", "--owner", user.username)
    assert "from 30 matches" in capsys.readouterr().out
    assert _stored(user, KEPT_MODELS) == kept
    assert not PlayerStat.objects.filter(player__circle=other_user.personal_circle).exists()
    call_command("stats_rebuild")
    assert PlayerStat.objects.filter(player__circle=other_user.personal_circle).exists()
    _assert_pages_match_reference(other_user)
    with pytest.raises(SystemExit):
        call_command("stats_rebuild", "--owner", "nobody")


@pytest.mark.parametrize("variant", [str(v) for v in rules.Variant])
@pytest.mark.parametrize("table", [(2, 1), (3, 1), (2, 2)])
def test_a_hand_added_to_an_open_match_is_counted_as_a_full_recount_would(
    user, players, variant, table
):
    """services.hand_record counts a hand added to an open match in two set-based statements
    (stats.hand_appended), with no refresh after it: what it stores is what a rebuild stores."""
    sides_count, per_side = table
    seats = players[: sides_count * per_side]
    lineup = [seats[side::sides_count] for side in range(sides_count)]
    rng = random.Random(f"{variant}{table}")
    for _ in range(2):  # the second match: the players' totals already hold the first's
        match = services.match_start(
            circle=user.personal_circle, rules=Rules.make(variant), sides=lineup
        )
        while match.is_open and match.hand_count < 30:
            try:
                services.hand_record(
                    match=match,
                    number=match.hand_count + 1,
                    tallies=demo.random_hand(rng, sides_count, variant),
                )
            except services.ValidationError:
                continue
            match.refresh_from_db()
    kept = _stored(user, KEPT_MODELS)
    stats.player_summaries_rebuild(user.personal_circle)
    assert _stored(user, KEPT_MODELS) == kept


def test_a_hand_added_to_an_open_match_reads_no_statistics(user, casino_match):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    services.hand_record(match=casino_match, number=1, tallies=FIRST_8)
    with CaptureQueriesContext(connection) as queries:
        services.hand_record(match=casino_match, number=2, tallies=SECOND_8)
    tables = ("scoring_playermatchstat", "scoring_playerstat", "scoring_playerrecordstat")
    sql = [query["sql"] for query in queries if any(table in query["sql"] for table in tables)]
    assert len(sql) == 2 and all(statement.startswith("UPDATE") for statement in sql)


def test_a_match_whose_lines_are_missing_is_counted_again(user, casino_match):
    services.hand_record(match=casino_match, number=1, tallies=FIRST_8)
    PlayerMatchStat.objects.filter(match=casino_match).delete()  # never counted, somehow
    services.hand_record(match=casino_match, number=2, tallies=SECOND_8)
    assert PlayerMatchStat.objects.filter(match=casino_match).count() == 2
    lines = _stored(user, (PlayerMatchStat,))
    stats.player_summaries_rebuild(user.personal_circle)
    assert _stored(user, (PlayerMatchStat,)) == lines
