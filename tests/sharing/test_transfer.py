"""Share links, export and import as services (scoring/sharing/), without views."""

from __future__ import annotations

import copy
import csv
import io
import json
import secrets
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from django.db import DatabaseError, connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from helpers import FIRST_8, FIRST_11, SECOND_8
from helpers import tally_doc as tally

from scoring.engine.rules import Rules
from scoring.matches import services
from scoring.matches.ratings import recompute as ratings_recompute
from scoring.models import Hand, Match, Player, Seat, Side, Tally
from scoring.sharing import exchange, links
from scoring.web.chunks import batched_text

pytestmark = pytest.mark.django_db


PLAIN = [tally(29, 8, big=True, aces="SH"), tally(23, 5, little=True, aces="CD")]
ALL_11 = [tally(30, 9, big=True, little=True, aces="SCHD"), tally(22, 4)]


def document(hands=None, *, players=None, variant="casino", **extra: Any) -> dict[str, Any]:
    return {
        "format": "casino-score/1",
        "rules": {"variant": variant},
        "sides": [{"players": names} for names in (players or [["Ana"], ["Ben"]])],
        "hands": [{"tallies": copy.deepcopy(t)} for t in (hands if hands is not None else [PLAIN])],
        **extra,
    }


def snapshot() -> dict[str, int]:
    """Row counts of everything an import could write."""
    return {
        model.__name__: model.objects.count() for model in (Match, Side, Seat, Hand, Tally, Player)
    }


def totals(match: Match) -> list[int]:
    return list(match.sides.order_by("position").values_list("total", flat=True))


def import_text(owner, text: str) -> exchange.ImportResult:
    return exchange.matches_import(circle=owner.personal_circle, text=text)


# --- share links ---------------------------------------------------------------------------------


def test_share_token_comes_from_secrets_token_urlsafe_with_32_bytes(casino_match):
    with mock.patch(
        "scoring.sharing.links.secrets.token_urlsafe", wraps=secrets.token_urlsafe
    ) as spy:
        match = links.share_link_create(match=casino_match)
    spy.assert_called_once_with(32)
    assert len(match.share_token) >= 43
    assert set(match.share_token) <= set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    )


def test_share_tokens_differ_between_matches(user, players, casino_match):
    other = services.match_start(
        circle=user.personal_circle, rules=Rules.make("casino"), sides=[[players[2]], [players[3]]]
    )
    first = links.share_link_create(match=casino_match).share_token
    second = links.share_link_create(match=other).share_token
    assert first != second


def test_sharing_twice_keeps_the_same_link(casino_match):
    first = links.share_link_create(match=casino_match).share_token
    assert links.share_link_create(match=casino_match).share_token == first


def test_revoked_link_is_gone_and_a_new_link_has_a_new_token(casino_match):
    old = links.share_link_create(match=casino_match).share_token
    assert links.share_link_revoke(match=casino_match).share_token is None
    casino_match.refresh_from_db()
    assert casino_match.share_token is None
    assert not Match.objects.filter(share_token=old).exists()
    assert links.share_link_create(match=casino_match).share_token not in (None, old)


# --- export --------------------------------------------------------------------------------------


def test_export_builds_the_document_from_stored_hands(casino_match):
    services.hand_record(match=casino_match, number=1, tallies=FIRST_8)
    services.hand_record(match=casino_match, number=2, tallies=SECOND_8)
    (document,) = exchange.export_json(exchange.match_documents(casino_match.circle))
    assert document["format"] == "casino-score/1"
    assert document["rules"]["variant"] == "casino"
    assert document["sides"] == [{"players": ["Ana"]}, {"players": ["Ben"]}]
    assert document["start_totals"] == [0, 0]
    assert document["hands"][0]["tallies"][0] == tally(29, 8, big=True, aces="SH")
    assert document["result"]["totals"] == totals(casino_match) == [11, 11]
    assert document["result"]["status"] == "playing"


def test_export_lists_partners_in_seat_order(user, players):
    match = services.match_start(
        circle=user.personal_circle,
        rules=Rules.make("casino"),
        sides=[[players[0], players[2]], [players[1], players[3]]],
    )
    (doc,) = exchange.match_documents(user.personal_circle, pks=[match.pk])
    assert doc.sides == (("Ana", "Cy"), ("Ben", "Dee"))


def test_export_is_only_the_owners_matches(user, other_user, casino_match):
    mallory = services.player_create(circle=other_user.personal_circle, name="Mo")
    zed = services.player_create(circle=other_user.personal_circle, name="Zed")
    services.match_start(
        circle=other_user.personal_circle, rules=Rules.make("royal"), sides=[[mallory], [zed]]
    )
    assert [doc.sides for doc in exchange.match_documents(user.personal_circle)] == [
        (("Ana",), ("Ben",))
    ]
    assert len(exchange.match_documents(None)) == 2


def test_export_queries_do_not_grow_with_matches_or_hands(user, players, django_assert_num_queries):
    def make_match() -> None:
        match = services.match_start(
            circle=user.personal_circle,
            rules=Rules.make("casino"),
            sides=[[players[0]], [players[1]]],
        )
        services.hand_record(match=match, number=1, tallies=FIRST_8)
        services.hand_record(match=match, number=2, tallies=SECOND_8)

    make_match()
    with django_assert_num_queries(5):
        exchange.match_documents(user.personal_circle)
    for _ in range(3):
        make_match()
    with django_assert_num_queries(5):
        docs = exchange.match_documents(user.personal_circle)
    assert len(docs) == 4 and all(len(doc.hands) == 2 for doc in docs)


def test_hands_csv_has_one_row_per_side_per_hand_with_counts_and_points(casino_match):
    services.hand_record(match=casino_match, number=1, tallies=FIRST_8)
    services.hand_record(match=casino_match, number=2, tallies=FIRST_11)
    rows = list(csv.DictReader(io.StringIO(exchange.hands_csv(casino_match.circle))))
    assert len(rows) == 4
    first = rows[0]
    assert (first["match"], first["hand"], first["side"], first["players"]) == (
        str(casino_match.pk),
        "1",
        "1",
        "Ana",
    )
    assert (first["cards"], first["spades"], first["big_casino"], first["aces"]) == (
        "29",
        "8",
        "1",
        "SH",
    )
    assert (first["cards_points"], first["points"], first["total_after"]) == ("3", "8", "8")
    assert [row["total_after"] for row in rows] == ["8", "3", "19", "3"]


def test_hands_csv_defuses_names_that_spreadsheets_would_run(user):
    evil = services.player_create(circle=user.personal_circle, name="=HYPERLINK(1)")
    ben = services.player_create(circle=user.personal_circle, name="Ben")
    match = services.match_start(
        circle=user.personal_circle, rules=Rules.make("casino"), sides=[[evil], [ben]]
    )
    services.hand_record(match=match, number=1, tallies=FIRST_8)
    rows = list(csv.DictReader(io.StringIO(exchange.hands_csv(user.personal_circle))))
    assert rows[0]["players"] == "'=HYPERLINK(1)"


@pytest.mark.parametrize(
    ("name", "written"),
    [
        ("a;=1+1;b", "a;'=1+1;b"),  # ";" is the separator of the es, ru, uk, bg and sl locales
        ("a,+cmd|x", "a,'+cmd|x"),
        ("x|@SUM(A1)", "x|'@SUM(A1)"),
        ("x; -2+3", "x; '-2+3"),
        ("tab\t=1+1", "tab '=1+1"),  # TAB is a separator of its own
        ("two\nlines", "two lines"),
        ("Anne-Marie; Jo", "Anne-Marie; Jo"),  # a dash inside a piece is no formula
    ],
)
def test_hands_csv_defuses_a_formula_after_any_separator_a_spreadsheet_splits_on(
    user, name, written
):
    """CSV × locales: a spreadsheet reading ";" (or TAB, or "|") as the separator sees each
    piece of a name as a cell of its own."""
    evil = Player.objects.create(circle=user.personal_circle, name=name)
    ben = services.player_create(circle=user.personal_circle, name="Ben")
    match = services.match_start(
        circle=user.personal_circle, rules=Rules.make("casino"), sides=[[evil], [ben]]
    )
    services.hand_record(match=match, number=1, tallies=FIRST_8)
    text = exchange.hands_csv(user.personal_circle)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert rows[0]["players"] == written
    for separator in ";\t|,":
        for line in text.splitlines()[1:]:
            for cell in line.split(separator):
                assert not cell.strip().strip('"').startswith(("=", "+", "@")), (separator, cell)


# --- export, streamed ----------------------------------------------------------------------------


def _history(user, players, count: int) -> list[Match]:
    """`count` matches with two hands each, one of them between players with non-ASCII names."""
    emile = services.player_create(circle=user.personal_circle, name="Émile")
    matches = []
    for index in range(count):
        sides = [[players[index % 4]], [emile if index == 1 else players[(index + 1) % 4]]]
        match = services.match_start(
            circle=user.personal_circle, rules=Rules.make("casino"), sides=sides
        )
        services.hand_record(match=match, number=1, tallies=FIRST_8)
        services.hand_record(match=match, number=2, tallies=SECOND_8)
        matches.append(match)
    return matches


def old_export_text(circle) -> str:
    """The export file as it was written before it was streamed: everything, then one string."""
    documents = exchange.export_json(exchange.match_documents(circle))
    return json.dumps(documents, indent=2, ensure_ascii=False) + "\n"


def test_streamed_export_is_the_same_text_as_before(user, players, monkeypatch):
    monkeypatch.setattr("scoring.web.chunks.PREFETCH_CHUNK", 2)  # several chunks of matches
    _history(user, players, 5)
    text = "".join(exchange.export_chunks(exchange.iter_match_documents(user.personal_circle)))
    assert text == old_export_text(user.personal_circle)
    assert "Émile" in text and text.startswith('[\n  {\n    "format": "casino-score/1",')
    assert len(json.loads(text)) == 5


def test_streamed_export_of_no_match_is_an_empty_list(user):
    assert (
        "".join(exchange.export_chunks(exchange.iter_match_documents(user.personal_circle)))
        == "[]\n"
    )
    assert old_export_text(user.personal_circle) == "[]\n"


def test_export_of_one_match_is_one_document(user, players):
    (match,) = _history(user, players, 1)
    docs = exchange.match_documents(user.personal_circle, pks=[match.pk])
    text = "".join(exchange.export_chunks(docs, as_list=False))
    expected = exchange.export_json(docs, as_list=False)
    assert text == json.dumps(expected, indent=2, ensure_ascii=False) + "\n"


def test_export_reads_the_database_a_chunk_of_matches_at_a_time(user, players, monkeypatch):
    monkeypatch.setattr("scoring.web.chunks.PREFETCH_CHUNK", 2)
    _history(user, players, 5)
    chunks = exchange.export_chunks(exchange.iter_match_documents(user.personal_circle))
    with CaptureQueriesContext(connection) as first:
        opening = next(chunks)
    # The first match is written after reading only the first chunk: the matches, then their
    # sides, seats, hands and tallies.
    assert len(first) == 5
    assert json.loads(opening.lstrip("[")) == json.loads(old_export_text(user.personal_circle))[0]
    with CaptureQueriesContext(connection) as rest:
        remaining = list(chunks)
    assert len(rest) == 2 * 4  # two more chunks, four prefetches each
    assert len(remaining) == 4 + 1  # the other matches, then the closing bracket


def test_iter_match_documents_is_lazy(user, players, django_assert_num_queries):
    _history(user, players, 2)
    with django_assert_num_queries(0):
        documents = exchange.iter_match_documents(user.personal_circle)
    with django_assert_num_queries(5):
        assert len(list(documents)) == 2


def test_hands_csv_is_streamed_a_chunk_of_matches_at_a_time(user, players, monkeypatch):
    monkeypatch.setattr("scoring.web.chunks.PREFETCH_CHUNK", 2)
    matches = _history(user, players, 5)
    lines = exchange.iter_hands_csv(user.personal_circle)
    with CaptureQueriesContext(connection) as first:
        header = next(lines)
        first_row = next(lines)
    assert header.startswith("match,variant,hand,side,players,cards,") and header.endswith("\r\n")
    assert first_row.startswith(f"{matches[0].pk},casino,1,1,Ana,29,8,")
    assert len(first) == 3  # the match ids, then the first chunk's seats and tallies
    with CaptureQueriesContext(connection) as rest:
        remaining = list(lines)
    assert len(rest) == 2 * 2 and len(remaining) == 5 * 2 * 2 - 1
    rows = list(csv.DictReader(io.StringIO("".join([header, first_row, *remaining]))))
    assert [int(row["match"]) for row in rows[::4]] == [match.pk for match in matches]
    assert [row["players"] for row in rows[4:8]] == ["Ben", "Émile", "Ben", "Émile"]
    assert [row["total_after"] for row in rows[:4]] == ["8", "3", "11", "11"]
    assert exchange.hands_csv(user.personal_circle) == "".join([header, first_row, *remaining])


def test_hands_csv_of_one_match(user, players):
    matches = _history(user, players, 3)
    rows = list(
        csv.DictReader(io.StringIO(exchange.hands_csv(user.personal_circle, pk=matches[1].pk)))
    )
    assert {row["match"] for row in rows} == {str(matches[1].pk)} and len(rows) == 4


def test_batched_text_joins_small_pieces():
    assert list(batched_text(["ab", "c", "def", "g"], size=3)) == ["abc", "def", "g"]
    assert list(batched_text([], size=3)) == []
    assert "".join(batched_text(map(str, range(1000)), size=100)) == "".join(map(str, range(1000)))


# --- import --------------------------------------------------------------------------------------


def test_import_creates_players_match_and_hands_with_the_engines_points(user):
    result = import_text(user, json.dumps(document([PLAIN, ALL_11])))
    (match,) = result.matches
    assert result.players_created == 2
    assert match.circle == user.personal_circle and match.hand_count == 2
    assert totals(match) == [19, 3]
    first = Tally.objects.get(hand__match=match, hand__number=1, side__position=0)
    assert (first.cards_points, first.spades_points, first.points) == (3, 1, 8)
    assert match.first_dealer_seat == 0
    assert list(match.hands.values_list("dealer_seat", flat=True)) == [0, 1]


def test_import_finds_players_by_name_ignoring_case(user, players):
    result = import_text(user, json.dumps(document(players=[["ANA"], ["ben"]])))
    assert result.players_created == 0
    seats = Seat.objects.filter(match=result.matches[0]).order_by("seat")
    assert [seat.player for seat in seats] == players[:2]
    assert Player.objects.filter(circle=user.personal_circle).count() == 4


def test_import_ignores_the_result_in_the_file(user):
    doc = document([PLAIN])
    doc["result"] = {"totals": [21, 0], "status": "won", "winner": 0, "hands": []}
    (match,) = import_text(user, json.dumps(doc)).matches
    assert totals(match) == [8, 3] and match.status == Match.Status.PLAYING


def test_import_keeps_start_totals_and_options(user):
    doc = document([PLAIN], variant="dominican", start_totals=[12, 5], players=[["Ana"], ["Ben"]])
    doc["rules"].update(target=21, sweeps="count", twenty_needs="most-spades")
    (match,) = import_text(user, json.dumps(doc)).matches
    assert (match.variant, match.sweeps, match.twenty_needs) == (
        "dominican",
        "count",
        "most-spades",
    )
    assert list(match.sides.order_by("position").values_list("start_total", flat=True)) == [12, 5]
    assert totals(match) == [20, 8]


def test_import_of_a_list_is_all_or_nothing(user):
    good = document([PLAIN])
    bad = document([[tally(29, 8), tally(20, 5)]], players=[["Cy"], ["Dee"]])
    before = snapshot()
    with pytest.raises(exchange.ImportRefused) as refused:
        import_text(user, json.dumps([good, good, bad]))
    assert snapshot() == before
    assert refused.value.messages[0].startswith("match 3: hand 1: ")


def test_import_refuses_a_database_failure_and_keeps_nothing(user):
    before = snapshot()
    with (
        mock.patch.object(Seat.objects, "bulk_create", side_effect=DatabaseError("disk full")),
        pytest.raises(exchange.ImportRefused) as refused,
    ):
        import_text(user, json.dumps([document([PLAIN]), document([PLAIN])]))
    assert snapshot() == before
    assert "could not be saved" in refused.value.messages[0]


BAD_FILES = {
    "not json": ("{this is not json", "not valid JSON (line 1, column 2)"),
    "wrong format tag": (
        json.dumps({**document(), "format": "casino-score/9"}),
        'format must be "casino-score/1", not "casino-score/9"',
    ),
    "hand does not add up": (
        json.dumps(document([PLAIN, [tally(29, 8), tally(20, 5)]])),
        "hand 2: ",
    ),
    "unknown variant": (
        json.dumps(document(variant="poker")),
        'rules.variant: "poker" is not one of casino, royal, dominican, swedish, finnish, spade',
    ),
    "empty list": ("[]", "the list holds no match"),
}


@pytest.mark.parametrize("name", BAD_FILES)
def test_bad_file_is_refused_with_a_clear_message_and_nothing_saved(user, name):
    text, message = BAD_FILES[name]
    before = snapshot()
    with pytest.raises(exchange.ImportRefused) as refused:
        import_text(user, text)
    assert any(message in line for line in refused.value.messages), refused.value.messages
    assert snapshot() == before


def test_hand_that_does_not_add_up_says_which_match_hand_and_what(user):
    hands = [PLAIN, [tally(29, 8), tally(20, 5, aces="SCHD", big=True, little=True)]]
    with pytest.raises(exchange.ImportRefused) as refused:
        import_text(user, json.dumps([document(), document(hands)]))
    assert "match 2: hand 2: cards add up to 49, not 52" in refused.value.messages


# --- round trip and the shared examples ----------------------------------------------------------


def test_round_trip_into_an_empty_account_gives_the_same_matches(
    user, other_user, players, casino_match
):
    services.hand_record(match=casino_match, number=1, tallies=FIRST_8)
    services.hand_record(match=casino_match, number=2, tallies=FIRST_11)
    partners = services.match_start(
        circle=user.personal_circle,
        rules=Rules.make("dominican"),
        sides=[[players[0], players[2]], [players[1], players[3]]],
        start_totals=[10, 12],
    )
    services.hand_record(match=partners, number=1, tallies=SECOND_8)
    won = services.match_start(
        circle=user.personal_circle,
        rules=Rules.make("royal", target=11),
        sides=[[players[3]], [players[1]]],
    )
    services.hand_record(match=won, number=1, tallies=FIRST_11)
    assert Match.objects.get(pk=won.pk).status == Match.Status.WON

    exported = exchange.export_json(exchange.match_documents(user.personal_circle))
    exchange.matches_import(circle=other_user.personal_circle, text=json.dumps(exported))
    again = exchange.export_json(exchange.match_documents(other_user.personal_circle))

    assert again == exported
    assert [doc["result"]["status"] for doc in again] == ["playing", "playing", "won"]
    assert Player.objects.filter(circle=other_user.personal_circle).count() == 4


CASES_FILE = Path(__file__).resolve().parents[1] / "data" / "scoring_examples.json"
CASES: list[dict[str, Any]] = json.loads(CASES_FILE.read_text())


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_shared_example_imports_and_exports_with_the_expected_result(user, case):
    expect = case["expect"]
    if expect == "refused":
        before = snapshot()
        with pytest.raises(exchange.ImportRefused) as refused:
            import_text(user, json.dumps(case["match"]))
        assert all(line.startswith("hand ") for line in refused.value.messages)
        assert snapshot() == before
        return
    (match,) = import_text(user, json.dumps(case["match"])).matches
    (document,) = exchange.export_json(
        exchange.match_documents(user.personal_circle, pks=[match.pk])
    )
    result = document.pop("result")
    assert document["hands"] == case["match"]["hands"]
    if "hands" in expect:
        got = [{"points": h["points"], "totals": h["totals"]} for h in result["hands"]]
        assert got == expect["hands"]
    else:
        assert [h["points"] for h in result["hands"]] == [expect["points"]]
    assert result["totals"] == expect["totals"] == totals(match)
    assert result["status"] == expect["status"] == match.status
    assert result["winner"] == expect["winner"] == match.winner_position


def test_import_matches_names_ignoring_case_beyond_ascii(user):
    emile = services.player_create(circle=user.personal_circle, name="Émile")
    result = import_text(user, json.dumps(document(players=[["ÉMILE"], ["Zoë"]])))
    assert result.players_created == 1
    assert Seat.objects.get(match=result.matches[0], side__position=0).player == emile


# --- bulk import, limits, and what the format gained ---------------------------------------------

# With difference scoring, a hand whose sides score alike (4 each: 2 aces, big casino v spades and
# little casino) credits nobody: a match of such hands goes on as long as wanted.
LEVEL = [tally(26, 6, big=True, aces="SC"), tally(26, 7, little=True, aces="HD")]


def long_match(hands: int, **extra: Any) -> dict[str, Any]:
    doc = document([LEVEL] * hands, **extra)
    doc["rules"]["scoring"] = "difference"
    return doc


def varied_documents() -> list[dict[str, Any]]:
    """Matches that exercise every derived number: won, tied, count-out, Dominican caps and
    conditions, three and four sides, partnerships, start totals, sweeps, abandoned."""
    three = [
        tally(20, 5, big=True, aces="SC", sweeps=2),
        tally(18, 5, little=True, aces="H"),
        tally(14, 3, aces="D", sweeps=1),
    ]
    four = [
        tally(14, 4, big=True, aces="S"),
        tally(13, 3, little=True, aces="C"),
        tally(13, 3, aces="H", sweeps=1),
        tally(12, 3, aces="D"),
    ]
    tie = [tally(26, 6, little=True, aces="HD"), tally(26, 7, big=True, aces="SC")]
    reversed_plain = [tally(23, 5, little=True, aces="CD"), tally(29, 8, big=True, aces="SH")]
    # At 18, A needs most cards: it misses them and is held at 20.
    dominican_cap = document([reversed_plain], variant="dominican", start_totals=[18, 10])
    # At 18 and 19 both meet their conditions: most cards comes first.
    dominican_condition = document(
        [[tally(27, 5, aces="HD"), tally(25, 8, big=True, little=True, aces="SC")]],
        variant="dominican",
        start_totals=[18, 19],
    )
    royal = document(
        [[tally(27, 5, aces="HD"), tally(25, 8, big=True, little=True, aces="SC")]],
        variant="royal",
        start_totals=[18, 19],
        first_dealer=1,
    )
    return [
        document([PLAIN, ALL_11, ALL_11]),  # won at hand 3
        document([tie], start_totals=[19, 17]),  # tied
        document([tie, PLAIN], start_totals=[19, 17]),  # won after a tie
        dominican_cap,
        dominican_condition,
        royal,
        document([three, three], players=[["Ana"], ["Ben"], ["Cy"]], first_dealer=2),
        document([four], players=[["Ana"], ["Ben"], ["Cy"], ["Dee"]], variant="dominican"),
        document([PLAIN, PLAIN], players=[["Ana", "Cy"], ["Ben", "Dee"]], first_dealer=3),
        {**document([PLAIN]), "abandoned": True},
        document([], start_totals=[21, 21]),  # starts tied
        long_match(40),
    ]


def stored(match: Match) -> dict[str, Any]:
    """Every number a match's scoreboard shows, as stored."""
    match.refresh_from_db()
    return {
        "match": (
            match.status,
            match.winner_position,
            match.outcome_kind,
            match.outcome_category,
            match.hand_count,
            match.finished_at is None,
            match.first_dealer_seat,
        ),
        "sides": list(match.sides.order_by("position").values_list("start_total", "total")),
        "hands": list(match.hands.order_by("number").values_list("number", "dealer_seat")),
        "tallies": list(
            Tally.objects.filter(hand__match=match)
            .order_by("hand__number", "side__position")
            .values_list(*services.DERIVED_TALLY_FIELDS)
        ),
    }


def test_imported_matches_store_what_rescore_would(user):
    result = import_text(user, json.dumps(varied_documents()))
    assert len(result.matches) == 12
    imported = [stored(match) for match in result.matches]
    ratings = list(
        Player.objects.filter(circle=user.personal_circle).values_list(
            "name", "rating", "rated_matches"
        )
    )
    assert [row["match"][0] for row in imported] == [
        "won",
        "tied",
        "won",
        "playing",
        "won",
        "won",
        "playing",
        "playing",
        "playing",
        "abandoned",
        "tied",
        "playing",
    ]
    for match in result.matches:
        services.rescore(match)
    assert [stored(match) for match in result.matches] == imported
    trend = rating_rows()
    ratings_recompute(circle=user.personal_circle)
    after = list(
        Player.objects.filter(circle=user.personal_circle).values_list(
            "name", "rating", "rated_matches"
        )
    )
    assert after == ratings
    assert sum(rated for _name, _rating, rated in after) > 0
    assert rating_rows() == trend


def rating_rows() -> list[tuple[Any, ...]]:
    from scoring.models import PlayerRating

    return list(
        PlayerRating.objects.order_by("pk").values_list("player__name", "match_id", "mu", "sigma")
    )


def test_imported_wins_are_rated_after_the_owners_earlier_ones(user, players):
    ana, ben, _cy, _dee = players
    earlier = services.match_start(
        circle=user.personal_circle, rules=Rules.make("casino", target=11), sides=[[ana], [ben]]
    )
    services.hand_record(match=earlier, number=1, tallies=FIRST_11)
    import_text(
        user, json.dumps([document([PLAIN, ALL_11]), document([ALL_11], players=[["Ben"], ["Cy"]])])
    )
    ratings = list(
        Player.objects.filter(circle=user.personal_circle).values_list(
            "name", "rating", "rated_matches"
        )
    )
    trend = rating_rows()
    assert [match for _name, match, _mu, _sigma in trend][:2] == [earlier.pk, earlier.pk]
    ratings_recompute(circle=user.personal_circle)
    assert rating_rows() == trend
    after = list(
        Player.objects.filter(circle=user.personal_circle).values_list(
            "name", "rating", "rated_matches"
        )
    )
    assert after == ratings


def statistics() -> dict[str, list[str]]:
    """Every row of the player statistics, without the ids a rebuild renumbers."""
    from scoring.models import PlayerMatchStat, PlayerPairStat, PlayerRecordStat, PlayerStat

    models = (PlayerMatchStat, PlayerStat, PlayerRecordStat, PlayerPairStat)
    return {
        model.__name__: sorted(
            repr({k: v for k, v in row.items() if k != "id"}) for row in model.objects.values()
        )
        for model in models
    }


def test_imported_matches_count_in_the_player_statistics(user):
    from scoring.matches import stats

    import_text(user, json.dumps(varied_documents()))
    imported = statistics()
    assert imported["PlayerMatchStat"]
    stats.player_summaries_rebuild(user.personal_circle)
    assert statistics() == imported


def test_import_writes_in_bulk_not_match_by_match(user):
    def queries_for(count: int) -> int:
        docs = varied_documents()[:1] * count  # won matches: ratings are written too
        with CaptureQueriesContext(connection) as queries:
            import_text(user, json.dumps(docs))
        return len(queries)

    few, many = queries_for(2), queries_for(20)
    assert many <= few + 3, (few, many)


def test_import_limits_are_checked_before_any_database_work(user, django_assert_num_queries):
    minimal = {k: v for k, v in document().items() if k != "hands"}
    before = snapshot()
    with django_assert_num_queries(0), pytest.raises(exchange.ImportRefused) as refused:
        import_text(user, json.dumps([minimal] * (exchange.MAX_IMPORT_MATCHES + 1)))
    assert refused.value.messages == [
        f"one import takes at most {exchange.MAX_IMPORT_MATCHES} matches, "
        f"not {exchange.MAX_IMPORT_MATCHES + 1}"
    ]
    with django_assert_num_queries(0), pytest.raises(exchange.ImportRefused) as refused:
        import_text(user, json.dumps([document(), long_match(1001)]))
    assert refused.value.messages == ["match 2: a match has at most 1000 hands, not 1001"]
    assert snapshot() == before


def test_import_limits_hands_per_file(user, monkeypatch):
    monkeypatch.setattr(exchange, "MAX_IMPORT_HANDS", 50)
    with pytest.raises(exchange.ImportRefused) as refused:
        import_text(user, json.dumps([long_match(30), long_match(21)]))
    assert refused.value.messages == ["one import takes at most 50 hands, not 51"]
    assert len(import_text(user, json.dumps([long_match(30), long_match(20)])).matches) == 2


def test_the_limits_are_the_documented_ones():
    text = (Path(__file__).resolve().parents[2] / "docs" / "MATCH_FORMAT.md").read_text()
    assert f"{exchange.MAX_IMPORT_MATCHES:,} matches" in text
    assert f"{exchange.MAX_IMPORT_HANDS:,} hands" in text
    assert f"{exchange.matchdoc.MAX_HANDS:,} hands" in text
    assert "2 MB" in text and exchange.MAX_IMPORT_BYTES == 2 * 1024 * 1024


@pytest.mark.slow
def test_a_match_of_1000_hands_imports_and_exports(user, other_user):
    before = timezone.now()
    (match,) = import_text(user, json.dumps(long_match(1000))).matches
    assert match.hand_count == 1000
    first = match.hands.get(number=1)
    assert before <= first.created_at <= first.updated_at <= timezone.now()
    assert list(match.hands.order_by("-number").values_list("number", flat=True)[:2]) == [
        1000,
        999,
    ]
    exported = exchange.export_json(exchange.match_documents(user.personal_circle))
    assert len(exported[0]["hands"]) == 1000
    exchange.matches_import(circle=other_user.personal_circle, text=json.dumps(exported))
    assert exchange.export_json(exchange.match_documents(other_user.personal_circle)) == exported


def test_abandoned_and_first_dealer_survive_export_and_import(user, other_user, players):
    ana, ben, cy, dee = players
    stopped = services.match_start(
        circle=user.personal_circle,
        rules=Rules.make("royal"),
        sides=[[ana], [ben]],
        first_dealer_seat=1,
    )
    services.hand_record(match=stopped, number=1, tallies=FIRST_8)
    services.match_abandon(match=stopped)
    partners = services.match_start(
        circle=user.personal_circle,
        rules=Rules.make("dominican"),
        sides=[[ana, cy], [ben, dee]],
        first_dealer_seat=2,
    )
    services.hand_record(match=partners, number=1, tallies=FIRST_8)
    services.hand_record(match=partners, number=2, tallies=SECOND_8)

    exported = exchange.export_json(exchange.match_documents(user.personal_circle))
    assert [(d["abandoned"], d["first_dealer"]) for d in exported] == [(True, 1), (False, 2)]
    first, second = exchange.matches_import(
        circle=other_user.personal_circle, text=json.dumps(exported)
    ).matches
    assert (first.status, first.first_dealer_seat) == (Match.Status.ABANDONED, 1)
    assert first.finished_at is not None and first.winner_position is None
    assert (second.status, second.first_dealer_seat) == (Match.Status.PLAYING, 2)
    assert list(second.hands.order_by("number").values_list("dealer_seat", flat=True)) == list(
        partners.hands.order_by("number").values_list("dealer_seat", flat=True)
    )
    assert exchange.export_json(exchange.match_documents(other_user.personal_circle)) == exported


def test_a_match_starting_tied_imports_as_tied(user):
    (match,) = import_text(user, json.dumps(document([], start_totals=[21, 21]))).matches
    assert match.status == Match.Status.TIED
    before = snapshot()
    with pytest.raises(exchange.ImportRefused) as refused:
        import_text(user, json.dumps(document([], start_totals=[21, 20])))
    assert refused.value.messages == [
        "start_totals: side 1 alone holds the top total, 21, at or past the target (21): "
        "that game is already won"
    ]
    assert snapshot() == before


def test_input_that_used_to_crash_the_import_is_refused(user):
    from test_matchdoc import CRASHES

    before = snapshot()
    for _name, text, lines in CRASHES:
        with pytest.raises(exchange.ImportRefused) as refused:
            import_text(user, text)
        assert refused.value.messages == lines
    assert snapshot() == before
