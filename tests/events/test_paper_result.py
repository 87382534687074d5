"""A table played on paper: the organiser enters its final totals and winner instead of its
hands. It counts in the standings, the ratings and wins and losses, is marked as a result from
paper on every page that shows it, is left out of the statistics of hands, and survives an export
and an import."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from helpers import FIRST_11
from test_events import make_event

from scoring.circles import services as circles
from scoring.engine import matchdoc, rules
from scoring.engine.rules import Paper, Rules
from scoring.events import exchange as event_exchange
from scoring.events import services as events
from scoring.events.selectors import EventPage
from scoring.history.selectors import player_stats
from scoring.matches import services, stats
from scoring.models import Event, Match, Membership, Player, PlayerMatchStat
from scoring.sharing import exchange

CASINO = Rules.make("casino")


@pytest.mark.parametrize(
    ("paper", "start", "problem"),
    [
        (Paper((21, 9), 0), (0, 0), None),
        (Paper((15, 9), 0), (0, 0), None),  # time was called: ahead, under the target
        (Paper((22, 25), 0), (0, 0), None),  # counted out first, with fewer points
        (Paper((9, 15), 0), (0, 0), "behind"),
        (Paper((21,), 0), (0, 0), "sides"),
        (Paper((21, 3), 0), (0, 5), "range"),  # below its start total
        (Paper((rules.MAX_PAPER_TOTAL + 1, 3), 0), (0, 0), "range"),
        (Paper((21, 3), 2), (0, 0), "winner"),
    ],
)
def test_the_engine_checks_what_a_paper_result_can_show(paper, start, problem) -> None:
    assert rules.paper_problem(CASINO, paper, start) == problem
    if problem is None:
        score = rules.paper_score(CASINO, paper, start)
        assert (score.status, score.winner, score.totals) == (rules.Status.WON, 0, paper.totals)
        assert score.outcome is not None and score.outcome.kind == rules.PAPER
    else:
        with pytest.raises(rules.PaperError):
            rules.paper_score(CASINO, paper, start)


def _paired(user: Any, names: str = "Ana Ben") -> tuple[Event, Any]:
    event = make_event(user, names)
    made = events.round_pair(event=event, number=1)
    return event, made.tables.select_related("match", "round").order_by("number").first()


@pytest.mark.django_db
def test_a_paper_result_counts_in_standings_ratings_and_wins_but_not_in_hands(user) -> None:
    event, table = _paired(user)
    match = events.table_paper_result(event=event, table=table, paper=Paper((14, 21), 1))
    match.refresh_from_db()
    assert match.on_paper and match.status == Match.Status.WON and match.hand_count == 0
    assert [s.total for s in match.sides.order_by("position")] == [14, 21]
    winner = match.seats.get(side__position=1).player
    loser = match.seats.get(side__position=0).player
    rows = {line.name: line.row for line in EventPage(event).standings}
    assert rows[winner.name].match_points > rows[loser.name].match_points
    assert rows[winner.name].played == rows[loser.name].played == 1
    winner.refresh_from_db()
    loser.refresh_from_db()
    assert (winner.rated_matches, loser.rated_matches) == (1, 1)
    assert winner.rating > loser.rating
    won, lost = player_stats(winner), player_stats(loser)
    assert (won.overall.won, won.overall.played, lost.overall.won) == (1, 1, 0)
    assert won.points_per_hand is None  # no hand to count
    assert PlayerMatchStat.objects.get(player=winner, match=match).hands == 0
    # Kept step by step, the statistics equal a rebuild.
    kept = sorted(PlayerMatchStat.objects.values_list("player_id", "won", "gained", "hands"))
    stats.player_summaries_rebuild(circle=user.personal_circle)
    rebuilt = sorted(PlayerMatchStat.objects.values_list("player_id", "won", "gained", "hands"))
    assert kept == rebuilt


@pytest.mark.django_db
def test_entered_again_the_result_is_replaced_and_a_resend_changes_nothing(user) -> None:
    event, table = _paired(user)
    events.table_paper_result(event=event, table=table, paper=Paper((14, 21), 1))
    match = Match.objects.get(pk=table.match_id)
    version = match.version
    events.table_paper_result(event=event, table=table, paper=Paper((14, 21), 1))
    assert Match.objects.get(pk=match.pk).version == version
    events.table_paper_result(event=event, table=table, paper=Paper((25, 12), 0))
    match.refresh_from_db()
    assert match.winner_position == 0 and match.version > version
    assert [s.total for s in match.sides.order_by("position")] == [25, 12]
    first = match.seats.get(side__position=0).player
    first.refresh_from_db()
    assert first.rated_matches == 1  # replayed, not counted twice
    # A re-score (what any later change of the match runs) keeps what was entered.
    services.rescore(match)
    match.refresh_from_db()
    assert match.on_paper and match.winner_position == 0


@pytest.mark.django_db
def test_a_table_with_hands_or_won_by_them_takes_no_paper_result(user) -> None:
    event, table = _paired(user)
    match = table.match
    services.hand_record(match=match, number=1, tallies=FIRST_11)
    with pytest.raises(ValidationError, match="has hands"):
        events.table_paper_result(event=event, table=table, paper=Paper((21, 14), 0))
    match.refresh_from_db()
    assert not match.on_paper and match.hand_count == 1


@pytest.mark.django_db
def test_an_abandoned_table_can_still_get_its_result_and_then_takes_no_hand(user) -> None:
    event, table = _paired(user)
    events.table_abandon(event=event, table=table)
    events.table_paper_result(event=event, table=table, paper=Paper((21, 3), 0))
    match = Match.objects.get(pk=table.match_id)
    assert match.status == Match.Status.WON and match.on_paper
    with pytest.raises(ValidationError):
        services.hand_record(match=match, number=1, tallies=FIRST_11)


@pytest.mark.django_db
def test_the_organiser_enters_it_without_javascript(user, user_client) -> None:
    event, table = _paired(user)
    url = reverse("scoring:event-paper", args=[event.pk])
    assert "Enter a table's result from paper" in user_client.get(event.get_absolute_url()).text
    picker = user_client.get(url)
    assert picker.status_code == 200 and f'value="{table.pk}"' in picker.text
    form = user_client.get(url, {"table": table.pk})
    assert form.status_code == 200 and 'name="total_0"' in form.text
    # Refused: the winner behind without the target; nothing stored.
    refused = user_client.post(
        f"{url}?table={table.pk}", {"total_0": "9", "total_1": "15", "winner": "0"}
    )
    assert refused.status_code == 400
    assert "has fewer points than another side" in refused.text
    assert not Match.objects.get(pk=table.match_id).on_paper
    # Not a number, no winner: said at the fields.
    blank = user_client.post(f"{url}?table={table.pk}", {"total_0": "x", "total_1": "15"})
    assert blank.status_code == 400 and "Enter a whole number." in blank.text
    done = user_client.post(
        f"{url}?table={table.pk}", {"total_0": "21", "total_1": "15", "winner": "0"}, follow=True
    )
    assert done.status_code == 200
    assert "Table 1: the result from paper is entered." in done.text
    assert "won: a result from paper" in done.text
    # The form comes back filled in, to fix it.
    again = user_client.get(url, {"table": table.pk})
    assert 'value="21"' in again.text and "Change the result" in again.text
    # A table of another event, or none: 404 with the picker.
    assert user_client.get(url, {"table": 999999}).status_code == 404


@pytest.mark.django_db
def test_the_board_history_and_share_page_say_it_was_played_on_paper(user, user_client) -> None:
    event, table = _paired(user)
    events.table_paper_result(event=event, table=table, paper=Paper((21, 15), 0))
    match = Match.objects.get(pk=table.match_id)
    board = user_client.get(match.get_absolute_url())
    assert board.status_code == 200
    assert "the final result was entered from the score sheet" in board.text
    assert "only its final result was entered" in board.text
    history = user_client.get(reverse("scoring:match-list"))
    assert "result from paper" in history.text
    sheet = user_client.get(reverse("scoring:match-sheet", args=[match.pk]))
    assert sheet.status_code == 200


@pytest.mark.django_db
def test_only_the_organiser_enters_a_paper_result(user, other_user, client) -> None:
    circle = user.personal_circle
    Membership.objects.create(circle=circle, user=other_user, role=Membership.Role.MEMBER)
    event, table = _paired(user)
    client.force_login(other_user)
    url = reverse("scoring:event-paper", args=[event.pk])
    assert client.get(url, {"table": table.pk}).status_code == 403
    posted = client.post(
        f"{url}?table={table.pk}", {"total_0": "21", "total_1": "3", "winner": "0"}
    )
    assert posted.status_code == 403
    assert not Match.objects.get(pk=table.match_id).on_paper


@pytest.mark.django_db
def test_export_and_import_keep_a_paper_result(user, other_user) -> None:
    event, table = _paired(user)
    events.table_paper_result(event=event, table=table, paper=Paper((21, 15), 0))
    (doc,) = exchange.match_documents(user.personal_circle)
    written = matchdoc.match_json(doc)
    assert written["paper"] == {"totals": [21, 15], "winner": 0}
    assert written["hands"] == [] and written["result"]["winner"] == 0
    text = json.dumps(written)
    imported = exchange.matches_import(circle=other_user.personal_circle, text=text, by=other_user)
    (match,) = imported.matches
    assert match.on_paper and match.winner_position == 0
    assert [s.total for s in match.sides.order_by("position")] == [21, 15]
    assert Player.objects.get(circle=other_user.personal_circle, name="Ana").rated_matches == 1
    (again,) = exchange.match_documents(other_user.personal_circle)
    assert matchdoc.match_json(again) == written


@pytest.mark.parametrize(
    ("paper", "extra", "message"),
    [
        ({"totals": [21, 15], "winner": 0}, {"hands": [{"tallies": []}]}, "hands must be empty"),
        ({"totals": [21, 15], "winner": 0}, {"abandoned": True}, "abandoned must be false"),
        ({"totals": [9, 15], "winner": 0}, {}, "has fewer points than another side"),
        ({"totals": [21], "winner": 0}, {}, "one total for each side"),
        ({"totals": [21, 15], "winner": 5}, {}, "paper.winner must be a whole number"),
        ({"totals": "21-15", "winner": 0}, {}, "paper.totals must be a list"),
        ({"totals": [21, 15], "winner": 0, "x": 1}, {}, "unknown key paper.x"),
    ],
)
def test_the_format_refuses_a_paper_result_that_cannot_be(paper, extra, message) -> None:
    raw = {
        "format": matchdoc.FORMAT,
        "rules": {"variant": "casino"},
        "sides": [{"players": ["Ana"]}, {"players": ["Ben"]}],
        "paper": paper,
        **extra,
    }
    with pytest.raises(matchdoc.DocumentError, match=message):
        matchdoc.read_match(raw)


@pytest.mark.django_db
def test_an_event_with_a_table_played_on_paper_exports_and_imports_as_it_was(user) -> None:
    event, table = _paired(user, "Ana Ben Cy Dee")
    events.table_paper_result(event=event, table=table, paper=Paper((12, 21), 1))
    document = event_exchange.event_json(event)
    tables = document["pairings"][0]["tables"]
    papers = {t["table"]: t["match"].get("paper") for t in tables}
    assert papers == {table.number: {"totals": [12, 21], "winner": 1}, 3 - table.number: None}
    club = circles.circle_create(name="Club", by=user)
    imported = event_exchange.event_import(circle=club, text=json.dumps(document), by=user)
    assert Match.objects.filter(event=imported, outcome_kind=rules.PAPER).count() == 1
    again = event_exchange.event_json(imported)
    assert again["pairings"] == document["pairings"]
    assert again["standings"] == document["standings"]
