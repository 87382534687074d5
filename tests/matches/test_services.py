import contextlib

import pytest
from helpers import FIRST_8, FIRST_11, SECOND_8, at_once, tally

from scoring.engine import matchdoc, rules
from scoring.engine.rules import Rules
from scoring.matches import services
from scoring.models import Hand, Match, Player, Seat, Tally
from scoring.sharing import exchange

pytestmark = pytest.mark.django_db


def _record(match: Match, *hands) -> None:
    for hand in hands:
        services.hand_record(match=match, number=match.hand_count + 1, tallies=hand)
        match.refresh_from_db()


def _totals(match: Match) -> list[int]:
    return list(match.sides.order_by("position").values_list("total", flat=True))


def test_match_start_seats_partners_opposite(user, players):
    match = services.match_start(
        circle=user.personal_circle,
        rules=Rules.make("casino"),
        sides=[[players[0], players[2]], [players[1], players[3]]],
    )
    seats = {
        s.seat: (s.player.name, s.side.position)
        for s in match.seats.select_related("player", "side")
    }
    assert seats == {0: ("Ana", 0), 1: ("Ben", 1), 2: ("Cy", 0), 3: ("Dee", 1)}


def test_match_start_takes_variant_defaults(user, players):
    match = services.match_start(
        circle=user.personal_circle,
        rules=Rules.make("dominican"),
        sides=[[players[0]], [players[1]]],
    )
    assert (match.sweeps, match.several_reach, match.target) == ("cancel", "highest", 21)
    royal = services.match_start(
        circle=user.personal_circle, rules=Rules.make("royal"), sides=[[players[0]], [players[1]]]
    )
    assert royal.several_reach == "count-out"


def test_match_start_with_start_totals(user, players):
    match = services.match_start(
        circle=user.personal_circle,
        rules=Rules.make("casino"),
        sides=[[players[0]], [players[1]]],
        start_totals=[15, 9],
    )
    assert _totals(match) == [15, 9]
    _record(match, FIRST_8)
    assert _totals(match) == [23, 12]
    assert match.status == "won" and match.winner_position == 0


def test_difference_scoring_needs_two_sides(user, players):
    with pytest.raises(services.ValidationError):
        services.match_start(
            circle=user.personal_circle,
            rules=Rules.make("casino", scoring="difference"),
            sides=[[p] for p in players[:3]],
        )


def test_hand_record_stores_tallies_points_and_totals(casino_match):
    _record(casino_match, FIRST_8)
    rows = list(Tally.objects.filter(hand__match=casino_match).order_by("side__position"))
    assert [(r.cards, r.spades, r.aces) for r in rows] == [(29, 8, "SH"), (23, 5, "CD")]
    assert [
        (r.cards_points, r.spades_points, r.big_casino_points, r.aces_points) for r in rows
    ] == [
        (3, 1, 2, 2),
        (0, 0, 0, 2),
    ]
    assert [(r.points, r.total_after) for r in rows] == [(8, 8), (3, 3)]
    assert casino_match.hand_count == 1
    assert Hand.objects.get(match=casino_match).dealer_seat == 0


def test_dealer_moves_to_next_player_each_hand(casino_match):
    _record(casino_match, FIRST_8, SECOND_8)
    assert list(casino_match.hands.order_by("number").values_list("dealer_seat", flat=True)) == [
        0,
        1,
    ]


def test_hand_that_does_not_add_up_is_refused_and_nothing_stored(casino_match):
    with pytest.raises(services.HandRefused) as error:
        services.hand_record(match=casino_match, number=1, tallies=(tally(25, 6), tally(25, 7)))
    assert "cards add up to 50, not 52" in " ".join(error.value.messages)
    assert not Hand.objects.exists()


def test_same_hand_submitted_twice_is_recorded_once(casino_match):
    first = services.hand_record(match=casino_match, number=1, tallies=FIRST_8)
    again = services.hand_record(match=casino_match, number=1, tallies=FIRST_8)
    assert first.created and not again.created
    assert first.hand.pk == again.hand.pk
    assert Hand.objects.filter(match=casino_match).count() == 1
    casino_match.refresh_from_db()
    assert _totals(casino_match) == [8, 3]


def test_other_counts_for_a_recorded_hand_number_are_refused(casino_match):
    services.hand_record(match=casino_match, number=1, tallies=FIRST_8)
    with pytest.raises(services.HandRefused):
        services.hand_record(match=casino_match, number=1, tallies=SECOND_8)
    assert _totals(casino_match) == [8, 3]


def test_hand_number_must_be_the_next_one(casino_match):
    with pytest.raises(services.HandRefused):
        services.hand_record(match=casino_match, number=3, tallies=FIRST_8)


def test_no_hand_after_the_match_is_won(casino_match):
    _record(casino_match, FIRST_11, FIRST_11)
    assert casino_match.status == "won"
    assert casino_match.finished_at is not None
    with pytest.raises(services.HandRefused):
        services.hand_record(match=casino_match, number=3, tallies=FIRST_8)


def test_edit_middle_hand_rescores_later_hands_and_the_result(casino_match):
    # 8-3, 16-6, 19-14, 27-17: first side wins after hand 4.
    _record(casino_match, FIRST_8, FIRST_8, SECOND_8, FIRST_8)
    assert casino_match.status == "won" and casino_match.winner_position == 0
    # Hand 2 was really the other way round: 8-3, 11-11, 14-19, 22-22: tied, play on.
    services.hand_edit(match=casino_match, number=2, tallies=SECOND_8)
    casino_match.refresh_from_db()
    assert _totals(casino_match) == [22, 22]
    assert casino_match.status == "tied"
    assert casino_match.winner_position is None and casino_match.finished_at is None
    later = Tally.objects.get(hand__match=casino_match, hand__number=3, side__position=1)
    assert later.total_after == 19


def test_edit_refused_when_later_hand_would_follow_the_winning_one(casino_match):
    _record(casino_match, FIRST_11, FIRST_8, FIRST_8)  # 11-0, 19-3, 27-6: won after hand 3
    with pytest.raises(services.HandRefused) as error:
        services.hand_edit(match=casino_match, number=2, tallies=FIRST_11)  # would win at hand 2
    assert "Hand 3 would come after the winning hand" in error.value.messages[0]
    casino_match.refresh_from_db()
    assert _totals(casino_match) == [27, 6]
    assert Tally.objects.get(hand__match=casino_match, hand__number=2, side__position=0).cards == 29


def test_delete_last_hand_reopens_a_won_match(casino_match):
    _record(casino_match, FIRST_11, FIRST_11)
    assert casino_match.status == "won"
    services.hand_delete_last(match=casino_match, number=2)
    casino_match.refresh_from_db()
    assert casino_match.status == "playing" and casino_match.hand_count == 1
    assert _totals(casino_match) == [11, 0]
    assert casino_match.finished_at is None


def test_deleting_a_hand_that_is_no_longer_the_last_is_refused(casino_match):
    _record(casino_match, FIRST_8, FIRST_8)
    services.hand_delete_last(match=casino_match, number=2)
    # The same request again (a double tap): hand 2 is gone, hand 1 stays.
    with pytest.raises(services.HandRefused) as error:
        services.hand_delete_last(match=casino_match, number=2)
    assert "Hand 2 is not the last hand any more" in error.value.messages[0]
    assert list(casino_match.hands.values_list("number", flat=True)) == [1]


def test_a_hand_number_taken_with_other_counts_names_the_next_number(casino_match):
    _record(casino_match, FIRST_8)
    with pytest.raises(services.HandNumberTaken) as error:
        services.hand_record(match=casino_match, number=1, tallies=FIRST_11)
    assert (error.value.number, error.value.next_number) == (1, 2)


def test_every_change_a_board_shows_bumps_the_match_version(casino_match):
    versions = [Match.objects.get(pk=casino_match.pk).version]
    for change in (
        lambda: _record(casino_match, FIRST_8),
        lambda: services.hand_edit(match=casino_match, number=1, tallies=FIRST_11),
        lambda: services.hand_delete_last(match=casino_match, number=1),
        lambda: services.match_abandon(match=casino_match),
    ):
        change()
        versions.append(Match.objects.get(pk=casino_match.pk).version)
    assert versions == sorted(set(versions)), versions


def test_a_match_has_one_rematch_however_often_it_is_asked_for(casino_match):
    first = services.match_rematch(match=casino_match)
    assert services.match_rematch(match=casino_match) == first
    assert Match.objects.filter(rematch_of=casino_match).count() == 1


def _every_option_of_every_variant() -> list[rules.Rules]:
    """Each variant with each value of each option away from its default (where the variant
    allows it), and one with every option moved at once."""
    options = {"target": (11, 61)} | {
        name: values for name, values in matchdoc.OPTION_VALUES.items() if name != "variant"
    }
    found = []
    for variant in rules.Variant:
        default = rules.Rules.make(variant)
        moved = {}
        for name, values in options.items():
            for value in values:
                try:
                    one = rules.Rules.make(variant, **{name: value})
                except ValueError:
                    continue
                if one != default:
                    found.append(one)
                    moved[name] = value
        with contextlib.suppress(ValueError):
            found.append(rules.Rules.make(variant, **moved))
    return found


@pytest.mark.parametrize("match_rules", _every_option_of_every_variant(), ids=str)
def test_a_rematch_keeps_every_option_of_the_rules(user, players, match_rules):
    """Rematches × rules: a Finnish match with ties "none" and sweep freeze "off" once came back
    with the defaults."""
    match = services.match_start(
        circle=user.personal_circle,
        rules=match_rules,
        sides=[[players[0]], [players[1]]],
    )
    assert match.rules == match_rules
    rematch = services.match_rematch(match=match)
    assert Match.objects.get(pk=rematch.pk).rules == match_rules


def test_abandon_keeps_the_match(casino_match):
    _record(casino_match, FIRST_8)
    services.match_abandon(match=casino_match)
    casino_match.refresh_from_db()
    assert casino_match.status == "abandoned" and casino_match.hand_count == 1
    with pytest.raises(services.HandRefused):
        services.hand_record(match=casino_match, number=2, tallies=FIRST_8)


def test_rematch_same_players_next_dealer(casino_match):
    _record(casino_match, FIRST_11, FIRST_11)  # hands dealt by seats 0 and 1
    rematch = services.match_rematch(match=casino_match)
    assert rematch.rematch_of == casino_match
    assert rematch.first_dealer_seat == 0  # the seat after the last dealer (1) with 2 players
    names = list(
        Seat.objects.filter(match=rematch).order_by("seat").values_list("player__name", flat=True)
    )
    assert names == ["Ana", "Ben"]
    assert (rematch.variant, rematch.target, rematch.status) == ("casino", 21, "playing")


def test_player_names_unique_ignoring_case(user):
    services.player_create(circle=user.personal_circle, name="Ana")
    with pytest.raises(services.ValidationError):
        services.player_create(circle=user.personal_circle, name="  ana ")
    assert services.player_get_or_create(circle=user.personal_circle, name="ANA").name == "Ana"
    assert Player.objects.filter(circle=user.personal_circle).count() == 1


def test_failure_after_hand_row_leaves_nothing_partial(casino_match, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("database went away")

    monkeypatch.setattr(Tally.objects, "bulk_create", broken)
    with pytest.raises(RuntimeError):
        services.hand_record(match=casino_match, number=1, tallies=FIRST_8)
    assert not Hand.objects.filter(match=casino_match).exists()
    casino_match.refresh_from_db()
    assert casino_match.hand_count == 0


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("second", [FIRST_8, SECOND_8], ids=["same-counts", "other-counts"])
def test_concurrent_submissions_of_one_hand_record_it_once(user, players, second):
    match = services.match_start(
        circle=user.personal_circle, rules=Rules.make("casino"), sides=[[players[0]], [players[1]]]
    )
    recorded = at_once(
        *[
            lambda tallies=tallies: services.hand_record(match=match, number=1, tallies=tallies)
            for tallies in (FIRST_8, second)
        ]
    )
    outcomes = [
        result if isinstance(result, services.HandRefused) else result.created
        for result in recorded
    ]
    assert Hand.objects.filter(match=match).count() == 1
    assert Tally.objects.filter(hand__match=match).count() == 2
    assert outcomes.count(True) == 1
    others = [o for o in outcomes if o is not True]
    if second is FIRST_8:
        assert others == [False]
    else:
        assert len(others) == 1 and isinstance(others[0], services.HandRefused)


def test_player_names_unique_ignoring_case_in_any_script(user):
    services.player_create(circle=user.personal_circle, name="Аня")
    with pytest.raises(services.ValidationError):
        services.player_create(circle=user.personal_circle, name="АНЯ")
    assert services.player_get_or_create(circle=user.personal_circle, name="аня").name == "Аня"
    assert services.player_get_or_create(circle=user.personal_circle, name="ÉMILE").name == "ÉMILE"
    assert services.player_get_or_create(circle=user.personal_circle, name="émile").name == "ÉMILE"
    assert Player.objects.filter(circle=user.personal_circle).count() == 2


def test_an_abandoned_match_whose_fixed_hand_decides_it_is_won(casino_match):
    """Abandoning leaves a won match as it is; so does fixing a hand of an abandoned match into
    the winning one: the match is won, and its file imports again (an abandoned match that its
    hands decide is a file no app could read)."""
    _record(casino_match, FIRST_8)
    services.match_abandon(match=casino_match)
    winning = [tally(40, 13, True, True, "SCHD", 12), tally(12, 0)]
    services.hand_edit(match=casino_match, number=1, tallies=winning)
    casino_match.refresh_from_db()
    assert (casino_match.status, casino_match.winner_position) == ("won", 0)
    assert casino_match.finished_at is not None
    document = exchange.export_json(exchange.match_documents(None, pks=[casino_match.pk]))[0]
    assert document["abandoned"] is False
    matchdoc.read_scored_match(document)  # refused before: abandoned, yet won by its hands
    # Fixed back to a hand that decides nothing, it plays on (it can be abandoned again).
    services.hand_edit(match=casino_match, number=1, tallies=FIRST_8)
    casino_match.refresh_from_db()
    assert (casino_match.status, casino_match.winner_position) == ("playing", None)


def test_a_match_stored_abandoned_yet_won_by_its_hands_exports_as_won(casino_match):
    """Before the fix above, fixing a hand could leave a match abandoned with a winner: its file
    says what its hands decide, so it imports."""
    winning = [tally(40, 13, True, True, "SCHD", 12), tally(12, 0)]
    _record(casino_match, winning)
    Match.objects.filter(pk=casino_match.pk).update(status=Match.Status.ABANDONED)
    document = exchange.export_json(exchange.match_documents(None, pks=[casino_match.pk]))[0]
    assert document["abandoned"] is False
    _, score = matchdoc.read_scored_match(document)
    assert (score.status, score.winner) == (rules.Status.WON, 0)
