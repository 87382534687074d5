"""The board's numbers add up: each hand's cell says what counted (the engine's credited points:
with difference scoring the margin or nothing, for a Dominican side held at 20 only up to it),
the saved bar and the points preview say the same, the option is named on the board, a held
total is marked and explained; the time note sits on the hand numbered `last_hand`; the hand
that decides a match has its saved bar with Undo, and Undo opens the match again."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from helpers import HX, app_url, tally

from scoring.engine import rules
from scoring.engine.rules import Rules, Tally
from scoring.matches import services
from scoring.matches.forms import HandForm
from scoring.models import Match, PlayerRating
from scoring.sharing import links

pytestmark = pytest.mark.django_db

# Ana 7 (cards 3, 10♦ 2, A♠ 1, spades 1), Ben 4 (2♠ and three aces).
ANA_7 = (tally(27, 7, big=True, aces="S"), tally(25, 6, little=True, aces="CHD"))
# The mirror image: Ana 4, Ben 7.
BEN_7 = tuple(reversed(ANA_7))

CELL = re.compile(
    r'<span class="hand-pts">\+(\d+)(.*?)</span> <b class="run-total">(\d+)</b>', re.S
)
TOAST = re.compile(r'<span class="toast-side side-(\d)">[^<+]*\+(\d+)')
PREVIEW = re.compile(r'<span class="preview-side side-(\d)"><b>[^<]*</b> \+(\d+).*?→ (\d+)</span>')


def fields(number: int, tallies: Sequence[Tally]) -> dict[str, Any]:
    """The hand form's fields for these tallies (the last side's cards and spades follow)."""
    return {key: str(value) for key, value in HandForm.initial_for(number, tallies).items()}


def start(user: Any, players: Sequence[Any], game: Rules, **options: Any) -> Match:
    sides = options.pop("sides", [[players[0]], [players[1]]])
    return services.match_start(circle=user.personal_circle, rules=game, sides=sides, **options)


def sheet_rows(body: str) -> list[list[tuple[int, int]]]:
    """Each hand row of the score sheet as (shown points, shown total) per side."""
    rows = re.findall(r'<tr class="hand-row">(.*?)</tr>', body, re.S)
    return [[(int(p), int(t)) for p, _detail, t in CELL.findall(row)] for row in rows]


def engine_score(match: Match, hands: Sequence[Sequence[Tally]]) -> rules.MatchScore:
    start_totals = list(match.sides.order_by("position").values_list("start_total", flat=True))
    return rules.score_match(match.rules, hands, start_totals, last_hand=match.last_hand)


# --- difference scoring and the Dominican cap: what counted, everywhere ----------------------

GAMES = {
    "difference": (Rules.make("casino", scoring="difference"), None, 2),
    "difference-partners": (Rules.make("casino", scoring="difference"), None, 4),
    "dominican-held": (Rules.make("dominican"), [18, 16], 2),
    "dominican-3": (Rules.make("dominican"), [19, 18, 20], 3),
    "cumulative": (Rules.make("casino"), None, 2),
    "finnish": (Rules.make("finnish"), None, 2),
}


def random_hand(chance: random.Random, sides: int) -> tuple[Tally, ...]:
    """A hand that adds up, dealt from the real cards to `sides` sides."""
    deck = [("S", rank) for rank in range(1, 14)] + [
        (suit, rank) for suit in "CHD" for rank in range(1, 14)
    ]
    chance.shuffle(deck)
    piles: list[list[tuple[str, int]]] = [[] for _ in range(sides)]
    for card in deck:
        piles[chance.randrange(sides)].append(card)
    return tuple(
        tally(
            len(pile),
            sum(suit == "S" for suit, _rank in pile),
            big=("D", 10) in pile,
            little=("S", 2) in pile,
            aces="".join(suit for suit, rank in pile if rank == 1),
        )
        for pile in piles
    )


@pytest.mark.parametrize("game", GAMES)
def test_every_hand_shown_adds_up_to_its_total(user_client, user, players, game):
    """The class: whatever the scoring, each hand's "+n" on the sheet, in the saved bar and in
    the preview is what the engine credited, and each side's total before it plus that n is the
    total shown after it."""
    match_rules, start_totals, count = GAMES[game]
    if count == 4:
        sides = [[players[0], players[2]], [players[1], players[3]]]
        match = start(user, players, match_rules, sides=sides, start_totals=start_totals)
    else:
        sides = [[player] for player in players[:count]]
        match = start(user, players, match_rules, sides=sides, start_totals=start_totals)
    chance = random.Random(f"{game}-31")
    hands: list[tuple[Tally, ...]] = []
    reduced = 0
    while len(hands) < 12:
        match.refresh_from_db()
        if not match.is_open:
            break
        hand = random_hand(chance, len(sides))
        number = len(hands) + 1
        preview = user_client.post(
            app_url("hand-preview", match), fields(number, hand), headers=HX
        ).content.decode()
        saved = user_client.post(
            app_url("hand-create", match), fields(number, hand), headers=HX
        ).content.decode()
        hands.append(hand)
        score = engine_score(match, hands)
        credited = list(score.hands[-1].credited)
        reduced += credited != list(score.hands[-1].points)
        assert [int(points) for _side, points in TOAST.findall(saved)] == credited, saved
        shown = [(int(points), int(total)) for _side, points, total in PREVIEW.findall(preview)]
        assert shown == list(zip(credited, score.hands[-1].totals, strict=True)), preview
    board = user_client.get(app_url("match", match))
    rows = sheet_rows(board.content.decode())
    assert rows, "no score sheet"
    shown_from = len(hands) - len(rows)
    before = score.hands[shown_from - 1].totals if shown_from else engine_score(match, []).totals
    for row, hand_score in zip(rows, score.hands[shown_from:], strict=True):
        assert [points for points, _total in row] == list(hand_score.credited)
        assert [b + points for b, (points, _total) in zip(before, row, strict=True)] == [
            total for _points, total in row
        ]
        before = hand_score.totals
    if game != "cumulative" and game != "finnish":
        assert reduced, "the seed dealt no hand where fewer points counted"


def test_difference_scoring_shows_what_counted_and_says_so(client, user_client, user, players):
    match = start(user, players, Rules.make("casino", scoring="difference"))
    services.hand_record(match=match, number=1, tallies=ANA_7)
    saved = user_client.post(app_url("hand-create", match), fields(2, ANA_7), headers=HX)
    text = saved.content.decode()
    # Ana's 7 against Ben's 4 credits Ana 3 and Ben nothing: the bar says so, with what was taken.
    assert TOAST.findall(text) == [("0", "3"), ("1", "0")]
    assert '<small class="pts-taken"> (7)</small>' in text
    board = user_client.get(app_url("match", match)).content.decode()
    assert sheet_rows(board) == [[(3, 3), (0, 0)], [(3, 6), (0, 0)]]
    assert "Difference scoring: in each hand only the side with more points scores" in board
    whole = user_client.get(app_url("match-sheet", match)).content.decode()
    cells = re.findall(r"<td><strong>(\d+)</strong> <small>\(\+(\d+)", whole)
    assert cells == [("3", "3"), ("0", "0"), ("6", "3"), ("0", "0")]
    assert "Difference scoring: in each hand only the side with more points scores" in whole
    # The share page says the same (and its breakdowns what counted).
    links.share_link_create(match=match)
    match.refresh_from_db()
    shared = client.get(reverse("scoring:shared-match", args=[match.share_token]))
    page = shared.content.decode()
    assert sheet_rows(page) == [[(3, 3), (0, 0)], [(3, 6), (0, 0)]]
    assert "Difference scoring: in each hand only the side with more points scores" in page
    assert "Counted" in page
    plain = start(user, players, Rules.make("casino"))
    assert "Difference scoring" not in user_client.get(app_url("match", plain)).content.decode()


def test_a_dominican_total_held_at_20_is_marked_and_explained(user_client, user, players):
    # Ana at 18 must take most cards; she takes 9 points without them: held at 20.
    held = (tally(20, 10, big=True, little=True, aces="SCHD"), tally(32, 3))
    match = start(user, players, Rules.make("dominican"), start_totals=[18, 10])
    saved = user_client.post(app_url("hand-create", match), fields(1, held), headers=HX)
    text = saved.content.decode()
    assert TOAST.findall(text) == [("0", "2"), ("1", "3")]
    assert "held at 20" in text
    board = user_client.get(app_url("match", match)).content.decode()
    assert sheet_rows(board) == [[(2, 20), (3, 13)]]
    assert "‡" in board and "the points above it do not count" in board
    detail = user_client.get(app_url("hand", match, 1)).content.decode()
    assert "Counted" in detail and "held at 20" in detail


# --- the time note --------------------------------------------------------------------------


def upload(document: dict[str, Any]) -> SimpleUploadedFile:
    return SimpleUploadedFile("match.json", json.dumps(document).encode(), "application/json")


def match_file(hands: Sequence[Sequence[Tally]], last_hand: int) -> dict[str, Any]:
    return {
        "format": "casino-score/1",
        "rules": {"variant": "casino", "target": 61},  # 5 hands of ANA_7 do not reach it
        "sides": [{"players": ["Ana"]}, {"players": ["Ben"]}],
        "last_hand": last_hand,
        "hands": [{"tallies": [t._asdict() for t in hand]} for hand in hands],
    }


LAST = "Time: this is the last hand."
MORE = "Time: the top totals are equal, so one more hand is played."


def ahead(number: int) -> str:
    return f"Time has been called: hand {number} is the last hand."


def imported(client: Any, hands: Sequence[Sequence[Tally]], last_hand: int) -> Match:
    response = client.post(app_url("match-import"), {"file": upload(match_file(hands, last_hand))})
    assert response.status_code == 302, response.content.decode()
    return Match.objects.latest("pk")


def board_text(client: Any, match: Match) -> str:
    """The board's time notes (the offline words in the page say every one of them)."""
    page = client.get(app_url("match", match)).content.decode()
    return " | ".join(re.findall(r'<p class="time-called" role="note">(.*?)</p>', page, re.S))


def test_an_import_with_last_hand_ahead_follows_the_number(user_client):
    """`last_hand` 5 with one hand played: hands 2 to 4 are ordinary hands (the engine scores
    them so), the board says which hand is the last, and says "this is the last hand" on hand 5."""
    match = imported(user_client, [ANA_7], 5)
    assert match.last_hand == 5
    for number in (2, 3, 4):
        board = board_text(user_client, match)
        assert LAST not in board and ahead(5) in board
        user_client.post(app_url("hand-create", match), fields(number, ANA_7), headers=HX)
        match.refresh_from_db()
        assert match.is_open  # Ana ahead after hand 2, 3, 4: no time win before hand 5
    board = board_text(user_client, match)
    assert LAST in board and ahead(5) not in board
    user_client.post(app_url("hand-create", match), fields(5, ANA_7), headers=HX)
    match.refresh_from_db()
    assert (match.status, match.outcome_kind) == (Match.Status.WON, "time")


def test_undo_after_time_was_called_keeps_the_note_with_the_engine(user_client):
    # Time called during hand 2; hand 2 ended level (11-11): one more hand.
    match = imported(user_client, [ANA_7, BEN_7], 2)
    board = board_text(user_client, match)
    assert MORE in board
    user_client.post(app_url("hand-delete", match), {"number": "2"}, headers=HX)
    assert LAST in board_text(user_client, match)
    # Hand 2 again, Ana ahead: she wins on time; Undo from the saved bar opens the match again.
    saved = user_client.post(app_url("hand-create", match), fields(2, ANA_7), headers=HX)
    match.refresh_from_db()
    assert match.outcome_kind == "time"
    undo = re.search(r'name="undo" value="([^"]+)"', saved.content.decode())
    assert undo, "no Undo after the deciding hand"
    user_client.post(app_url("hand-delete", match), {"undo": undo.group(1)}, headers=HX)
    match.refresh_from_db()
    assert match.is_open and match.hand_count == 1
    assert LAST in board_text(user_client, match)
    # Hand 1 undone too: hand 1 is an ordinary hand, hand 2 still the last.
    user_client.post(app_url("hand-delete", match), {"number": "1"}, headers=HX)
    board = board_text(user_client, match)
    assert LAST not in board and ahead(2) in board
    user_client.post(app_url("hand-create", match), fields(1, ANA_7), headers=HX)
    match.refresh_from_db()
    assert match.is_open and LAST in board_text(user_client, match)


# --- the deciding hand's saved bar ----------------------------------------------------------


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-js"])
def test_the_deciding_hand_has_its_saved_bar_and_undo_reopens_the_match(
    user_client, user, players, htmx
):
    match = start(user, players, Rules.make("casino"), start_totals=[18, 5])
    headers = HX if htmx else {}
    saved = user_client.post(
        app_url("hand-create", match), fields(1, ANA_7), headers=headers, follow=not htmx
    )
    text = saved.content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.WON
    assert PlayerRating.objects.filter(match=match).count() == 2
    assert "Hand 1 saved:" in text and TOAST.findall(text) == [("0", "7"), ("1", "4")]
    undo = re.search(r'name="undo" value="([^"]+)"', text)
    assert undo, "no Undo after the deciding hand"
    assert f'action="{app_url("hand-delete", match)}"' in text
    response = user_client.post(
        app_url("hand-delete", match), {"undo": undo.group(1)}, headers=headers, follow=not htmx
    )
    body = response.content.decode()
    match.refresh_from_db()
    assert match.is_open and match.hand_count == 0 and match.winner_position is None
    assert not PlayerRating.objects.filter(match=match).exists()  # rated no more
    assert "Hand 1 was undone: its counts are back in the form." in body
    assert 'value="27"' in body  # Ana's cards, back in the form
