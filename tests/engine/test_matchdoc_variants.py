"""Swedish Kasino, Finnish Kasino and Spade Casino in the match JSON format (docs/RULES.md §9,
docs/MATCH_FORMAT.md): scored by `score`, refused in words, and exported and imported unchanged.

Every expected number below is worked out by hand in the comments, from RULES.md §9.
"""

from __future__ import annotations

import copy
import csv
import io
import json
from typing import Any

import pytest
from django.urls import reverse
from helpers import run_command
from helpers import tally_doc as tally
from test_matchdoc import refused, scored

from scoring.engine import matchdoc, rules
from scoring.models import Match
from scoring.sharing import exchange


def document(variant: str, hands, *, start_totals=(0, 0), **options: Any) -> dict[str, Any]:
    """A whole document as export writes it: every key, the variant's defaults spelled out."""
    defaults = rules.variant_defaults(variant)
    match_rules = {
        "variant": variant,
        "target": defaults.target,
        "sweeps": str(defaults.sweeps),
        "several_reach": str(defaults.several_reach),
        "scoring": "cumulative",
    }
    if variant == "finnish":
        match_rules |= {"ties": "carry", "sweep_freeze": "10"}
    match_rules |= options
    return {
        "format": "casino-score/1",
        "rules": match_rules,
        "sides": [{"players": ["Ana"]}, {"players": ["Ben"]}],
        "abandoned": False,
        "first_dealer": 0,
        "start_totals": list(start_totals),
        "hands": [{"tallies": copy.deepcopy(list(hand))} for hand in hands],
    }


def breakdown(
    cards=0,
    spades=0,
    big_casino=0,
    little_casino=0,
    aces=0,
    sweeps=0,
    last_capture=0,
    jack_of_spades=0,
) -> dict[str, int]:
    return {
        "cards": cards,
        "spades": spades,
        "big_casino": big_casino,
        "little_casino": little_casino,
        "aces": aces,
        "sweeps": sweeps,
        "last_capture": last_capture,
        "jack_of_spades": jack_of_spades,
    }


# --- Swedish Kasino: most cards 1, most spades 2, last capture 1; target 16 ----------------------

SWEDISH = document(
    "swedish",
    [
        # Cards tie 26-26: nobody scores them, nothing carries. Sweeps count (2 and 1).
        # Ana: spades 2, 10♦ 2, A♠ 1, sweeps 2, last capture 1 = 8.
        # Ben: 2♠ 1, A♣ A♥ A♦ 3, sweep 1 = 5.                                    Totals 8, 5.
        [
            tally(26, 7, big=True, aces="S", sweeps=2, last_capture=True),
            tally(26, 6, little=True, aces="CHD", sweeps=1, last_capture=False),
        ],
        # Ana: spades 2, 2♠ 1, A♠ A♣ 2, sweeps 3 = 8 -> 16.
        # Ben: cards 1, 10♦ 2, A♥ A♦ 2, last capture 1, sweeps 5 = 11 -> 16.
        # Both reach 16 on 16: Ana took more spades this hand (7 to 6) and wins.
        [
            tally(22, 7, little=True, aces="SC", sweeps=3, last_capture=False),
            tally(30, 6, big=True, aces="HD", sweeps=5, last_capture=True),
        ],
    ],
)


def test_swedish_scores_last_capture_and_breaks_equal_totals_by_spades():
    result = scored(SWEDISH)["result"]
    first, second = result["hands"]
    assert first["breakdown"] == [
        breakdown(spades=2, big_casino=2, aces=1, sweeps=2, last_capture=1),
        breakdown(little_casino=1, aces=3, sweeps=1),
    ]
    assert (first["points"], first["totals"]) == ([8, 5], [8, 5])
    assert second["breakdown"] == [
        breakdown(spades=2, little_casino=1, aces=2, sweeps=3),
        breakdown(cards=1, big_casino=2, aces=2, sweeps=5, last_capture=1),
    ]
    assert (second["points"], second["totals"]) == ([8, 11], [16, 16])
    assert (result["totals"], result["status"], result["winner"]) == ([16, 16], "won", 0)
    assert "pots" not in first  # only finnish has pots


def test_swedish_defaults_come_from_the_variant():
    doc = matchdoc.read_match({**SWEDISH, "rules": {"variant": "swedish"}})
    assert (doc.rules.target, doc.rules.sweeps, doc.rules.several_reach) == (
        16,
        rules.SweepRule.COUNT,
        rules.SeveralReach.HIGHEST,
    )
    assert doc.hands[0][0].last_capture and not doc.hands[0][1].last_capture


# --- Finnish Kasino: ties carry in pots, sweeps cancel and freeze at 10; target 16 ---------------

FINNISH = document(
    "finnish",
    [
        # Cards tie 26-26: the 1 point goes into the cards pot. Sweeps 2 and 1 cancel to 1 and 0.
        # Ana: spades 2, 10♦ 2, A♠ A♥ 2, sweep 1 = 7.  Ben: 2♠ 1, A♣ A♦ 2 = 3.  Pots 1, 0.
        [
            tally(26, 8, big=True, aces="SH", sweeps=2),
            tally(26, 5, little=True, aces="CD", sweeps=1),
        ],
        # Ana takes most cards: 1 + the pot's 1 = 2; spades 2, 10♦ 2, A♠ 1 = 7 -> 14.
        # Ben: 2♠ 1, three aces 3, sweep 1 (nothing to cancel; nobody had 10) = 5 -> 8. Pots 0, 0.
        [
            tally(30, 9, big=True, aces="S"),
            tally(22, 4, little=True, aces="CHD", sweeps=1),
        ],
        # Ana had 14 (10 or more) before the hand: sweeps score nothing. Cards tie: pot 1 again.
        # Ana: spades 2, 2♠ 1, A♠ 1 = 4 -> 18 (wins).  Ben: 10♦ 2, three aces 3 = 5 -> 13.
        # The cards pot is still open when the match ends: lost.
        [
            tally(26, 7, little=True, aces="S", sweeps=3),
            tally(26, 6, big=True, aces="CHD"),
        ],
    ],
)


def test_finnish_carries_ties_in_pots_cancels_and_freezes_sweeps():
    result = scored(FINNISH)["result"]
    hands = result["hands"]
    assert hands[0]["breakdown"] == [
        breakdown(spades=2, big_casino=2, aces=2, sweeps=1),
        breakdown(little_casino=1, aces=2),
    ]
    assert [hand["points"] for hand in hands] == [[7, 3], [7, 5], [4, 5]]
    assert [hand["totals"] for hand in hands] == [[7, 3], [14, 8], [18, 13]]
    assert hands[1]["breakdown"][0]["cards"] == 2  # 1 + the pot
    assert [b["sweeps"] for b in hands[2]["breakdown"]] == [0, 0]  # frozen
    assert [hand["pots"] for hand in hands] == [
        {"cards": 1, "spades": 0},
        {"cards": 0, "spades": 0},
        {"cards": 1, "spades": 0},
    ]
    assert (result["totals"], result["status"], result["winner"]) == ([18, 13], "won", 0)


def test_finnish_without_carrying_ties_or_freezing_sweeps():
    doc = copy.deepcopy(FINNISH)
    doc["rules"] |= {"ties": "none", "sweep_freeze": "off"}
    hands = scored(doc)["result"]["hands"]
    # Hand 1 as before (7, 3) but no pot. Hand 2: Ana's cards 1 alone: 6 -> 13; Ben 5 -> 8.
    # Hand 3: sweeps 3 and 0 now count, Ana: 4 + 3 = 7 -> 20; Ben 5 -> 13.
    assert [hand["totals"] for hand in hands] == [[7, 3], [13, 8], [20, 13]]
    assert all(hand["pots"] == {"cards": 0, "spades": 0} for hand in hands)


def test_finnish_count_out_counts_point_cards_first():
    # From 13 and 12: Ana's four aces (point cards) take her to 17 at the first step; Ben's
    # 10♦ and 2♠ take him to 15, most cards to 16, most spades to 18. Ana got there first.
    hand = [tally(20, 4, aces="SCHD"), tally(32, 9, big=True, little=True)]
    doc = document("finnish", [hand], start_totals=(13, 12))
    result = scored(doc)["result"]
    assert (result["totals"], result["status"], result["winner"]) == ([17, 18], "won", 0)
    doc["rules"]["several_reach"] = "highest"
    assert scored(doc)["result"]["winner"] == 1


def test_finnish_two_way_spades_tie_of_three_sides_splits_and_leaves_the_pot():
    doc = document(
        "finnish",
        [
            # Cards 20 / 16 / 16: Ana. Spades 5 / 5 / 3: Ana and Ben 1 each, the pot stays 0.
            [
                tally(20, 5, big=True, aces="S"),
                tally(16, 5, little=True, aces="C"),
                tally(16, 3, aces="HD"),
            ]
        ],
        start_totals=(0, 0, 0),
    )
    doc["sides"].append({"players": ["Cy"]})
    (hand,) = scored(doc)["result"]["hands"]
    assert [b["spades"] for b in hand["breakdown"]] == [1, 1, 0]
    assert hand["points"] == [5, 3, 2]  # Ana 1+1+2+1, Ben 1+1+1, Cy 2
    assert hand["pots"] == {"cards": 0, "spades": 0}


# --- Spade Casino: every spade 1, J♠ +1, 2♠ +1; target 61 ------------------------------------------

SPADE = document(
    "spade",
    [
        # Ana: most cards 3, 8 spades 8, 10♦ 2, A♠ A♥ 2, sweep 1, J♠ 1 = 17 -> 50.
        # Ben: 5 spades 5, 2♠ 1, A♣ A♦ 2 = 8 -> 49.                    (24 + 1 sweep = 25)
        [
            tally(29, 8, big=True, aces="SH", sweeps=1, jack_of_spades=True),
            tally(23, 5, little=True, aces="CD", jack_of_spades=False),
        ],
        # Pegged first: Ana 7 spades + J♠ 1 + 2♠ 1 + A♠ A♣ 2 = 11 -> 61 (reached).
        # Ben 6 spades + 10♦ 2 + A♥ A♦ 2 = 10 -> 59, then most cards 3 -> 62.
        # Ben ends higher, but Ana reached 61 first: she wins the count-out.
        [
            tally(20, 7, little=True, aces="SC", jack_of_spades=True),
            tally(32, 6, big=True, aces="HD", jack_of_spades=False),
        ],
    ],
    start_totals=(33, 41),
)


def test_spade_casino_scores_every_spade_and_counts_out_pegged_points_first():
    result = scored(SPADE)["result"]
    first, second = result["hands"]
    assert first["breakdown"] == [
        breakdown(cards=3, spades=8, big_casino=2, aces=2, sweeps=1, jack_of_spades=1),
        breakdown(spades=5, little_casino=1, aces=2),
    ]
    assert (first["points"], first["totals"]) == ([17, 8], [50, 49])
    assert (second["points"], second["totals"]) == ([11, 13], [61, 62])
    assert (result["totals"], result["status"], result["winner"]) == ([61, 62], "won", 0)
    doc = copy.deepcopy(SPADE)
    doc["rules"]["several_reach"] = "highest"
    assert scored(doc)["result"]["winner"] == 1


def test_the_matchdoc_api_scores_as_the_command_does():
    for source in (SWEDISH, FINNISH, SPADE):
        doc, score = matchdoc.read_scored_match(copy.deepcopy(source))
        written = matchdoc.match_json(doc, score)
        assert written["result"] == scored(source)["result"]
        assert {k: v for k, v in written.items() if k != "result"} == source


# --- refusals ------------------------------------------------------------------------------------

CASINO_HAND = [
    tally(29, 8, big=True, aces="SH"),
    tally(23, 5, little=True, aces="CD"),
]


def plain(variant: str, hands=(), **rule_options: Any) -> dict[str, Any]:
    return {
        "format": "casino-score/1",
        "rules": {"variant": variant, **rule_options},
        "sides": [{"players": ["Ana"]}, {"players": ["Ben"]}],
        "hands": [{"tallies": copy.deepcopy(list(hand))} for hand in hands],
    }


@pytest.mark.parametrize(
    ("doc", "lines"),
    [
        (plain("casino", ties="carry"), ["rules.ties is for finnish only, not casino"]),
        (plain("casino", ties="none"), ["rules.ties is for finnish only, not casino"]),
        (
            plain("royal", sweep_freeze="10"),
            ["rules.sweep_freeze is for finnish only, not royal"],
        ),
        (
            plain("swedish", sweep_freeze="off", ties="carry"),
            [
                "rules.ties is for finnish only, not swedish",
                "rules.sweep_freeze is for finnish only, not swedish",
            ],
        ),
        (
            plain("spade", twenty_needs="little-casino"),
            ["rules.twenty_needs is for dominican only, not spade"],
        ),
        (
            plain("finnish", sweeps="count"),
            ['rules.sweeps must be cancel for finnish (its sweeps always cancel), not "count"'],
        ),
        (
            plain("finnish", sweeps="off"),
            ['rules.sweeps must be cancel for finnish (its sweeps always cancel), not "off"'],
        ),
        (
            plain("finnish", sweep_freeze=10),
            ['rules.sweep_freeze must be the text "10" or "off", not 10'],
        ),
        (
            plain("finnish", ties="split"),
            ['rules.ties: "split" is not one of carry, none'],
        ),
        (
            plain("casino", [[{**CASINO_HAND[0], "last_capture": True}, CASINO_HAND[1]]]),
            ["hand 1: tallies[0].last_capture is true, but only swedish records it, not casino"],
        ),
        (
            plain(
                "swedish",
                [
                    [
                        {**CASINO_HAND[0], "last_capture": True},
                        {**CASINO_HAND[1], "jack_of_spades": True},
                    ]
                ],
            ),
            ["hand 1: tallies[1].jack_of_spades is true, but only spade records it, not swedish"],
        ),
        (
            plain(
                "swedish",
                [[{**t, "last_capture": True} for t in CASINO_HAND]],
            ),
            ["hand 1: 2 sides made the last capture; exactly one side makes it"],
        ),
        (
            plain("swedish", [CASINO_HAND]),
            ["hand 1: 0 sides made the last capture; exactly one side makes it"],
        ),
        (
            plain("spade", [CASINO_HAND]),
            ["hand 1: nobody holds the jack of spades (J♠)"],
        ),
        (
            plain("spade", [[{**t, "jack_of_spades": True} for t in CASINO_HAND]]),
            ["hand 1: both Ana and Ben hold the jack of spades (J♠)"],
        ),
        (
            plain("swedish", [[{**CASINO_HAND[0], "last_capture": "yes"}, CASINO_HAND[1]]]),
            ['hand 1: tallies[0].last_capture must be true or false, not "yes"'],
        ),
    ],
)
def test_refused_with_one_line_per_problem(doc, lines):
    assert refused(doc) == lines


def test_every_problem_of_a_variant_document_is_reported():
    doc = plain(
        "finnish",
        [[{**CASINO_HAND[0], "last_capture": True}, {**CASINO_HAND[1], "jack_of_spades": True}]],
        sweeps="count",
    )
    assert refused(doc) == [
        'rules.sweeps must be cancel for finnish (its sweeps always cancel), not "count"',
        "hand 1: tallies[0].last_capture is true, but only swedish records it, not finnish",
        "hand 1: tallies[1].jack_of_spades is true, but only spade records it, not finnish",
    ]


def test_a_false_variant_field_is_accepted_on_any_variant_and_not_written_back():
    hand = [{**t, "last_capture": False, "jack_of_spades": False} for t in CASINO_HAND]
    output = scored(plain("casino", [hand]))
    assert output["result"]["totals"] == [8, 3]
    doc = matchdoc.read_match(plain("casino", [hand]))
    assert set(matchdoc.match_json(doc)["hands"][0]["tallies"][0]) == set(matchdoc.TALLY_KEYS)


def test_tally_json_writes_a_variant_field_for_its_variant_only():
    swedish = rules.Tally(26, 7, True, False, "S", 2, last_capture=True)
    spade = rules.Tally(29, 8, True, False, "SH", 1, jack_of_spades=True)
    assert matchdoc.tally_json(swedish, "swedish")["last_capture"] is True
    assert "jack_of_spades" not in matchdoc.tally_json(swedish, "swedish")
    assert matchdoc.tally_json(spade, rules.Variant.SPADE)["jack_of_spades"] is True
    assert set(matchdoc.tally_json(spade, "casino")) == set(matchdoc.TALLY_KEYS)
    # Without a variant (a hand's stored revisions), a true field is kept, a false one left out.
    assert rules.Tally.make(**matchdoc.tally_json(swedish)) == swedish
    assert rules.Tally.make(**matchdoc.tally_json(spade)) == spade
    plain_tally = rules.Tally(29, 8, True, False, "SH", 0)
    assert set(matchdoc.tally_json(plain_tally)) == set(matchdoc.TALLY_KEYS)


# --- export and import ---------------------------------------------------------------------------


def _import(user, docs) -> list[Match]:
    result = exchange.matches_import(circle=user.personal_circle, text=json.dumps(docs))
    return result.matches


def _without_result(document: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in document.items() if key != "result"}


@pytest.mark.django_db
def test_export_import_round_trip_keeps_the_variants_options_and_fields(user, other_user):
    finnish_none = copy.deepcopy(FINNISH)
    finnish_none["rules"] |= {"ties": "none", "sweep_freeze": "off"}
    sources = [SWEDISH, FINNISH, SPADE, finnish_none]
    matches = _import(user, sources)
    assert [(m.variant, m.ties, m.sweep_freeze) for m in matches] == [
        ("swedish", "carry", "10"),
        ("finnish", "carry", "10"),
        ("spade", "carry", "10"),
        ("finnish", "none", "off"),
    ]
    finnish = matches[1]
    assert list(finnish.hands.order_by("number").values_list("pot_cards", "pot_spades")) == [
        (1, 0),
        (0, 0),
        (1, 0),
    ]
    exported = exchange.export_json(exchange.match_documents(user.personal_circle))
    assert [_without_result(doc) for doc in exported] == sources
    assert [doc["result"] for doc in exported] == [scored(doc)["result"] for doc in sources]
    # Into another account, and out again: the same documents.
    _import(other_user, exported)
    assert exchange.export_json(exchange.match_documents(other_user.personal_circle)) == exported


@pytest.mark.django_db
def test_export_command_writes_the_variant_documents(user):
    _import(user, [SWEDISH, FINNISH, SPADE])
    code, out, err = run_command("export_matches", "--owner", "ana")
    assert (code, err) == (0, "")
    exported = json.loads(out)
    assert [_without_result(doc) for doc in exported] == [SWEDISH, FINNISH, SPADE]
    assert exported[1]["result"]["hands"][0]["pots"] == {"cards": 1, "spades": 0}


@pytest.mark.django_db
def test_import_command_refuses_a_variant_field_on_another_variant(user, tmp_path):
    bad = plain("casino", [[{**CASINO_HAND[0], "jack_of_spades": True}, CASINO_HAND[1]]])
    path = tmp_path / "bad.json"
    path.write_text(json.dumps([SWEDISH, bad]))
    code, _out, err = run_command("import_matches", str(path), "--owner", "ana")
    assert code == 2 and Match.objects.count() == 0
    assert (
        "match 2: hand 1: tallies[0].jack_of_spades is true, but only spade records it, "
        "not casino" in err
    )


@pytest.mark.django_db
def test_hands_csv_adds_the_variant_columns_at_the_end(user):
    _import(user, [SWEDISH, SPADE])
    text = exchange.hands_csv(user.personal_circle)
    header = next(csv.reader(io.StringIO(text)))
    assert header == [
        "match",
        "variant",
        "hand",
        "side",
        "players",
        "cards",
        "spades",
        "big_casino",
        "little_casino",
        "aces",
        "sweeps",
        "cards_points",
        "spades_points",
        "big_casino_points",
        "little_casino_points",
        "aces_points",
        "sweeps_points",
        "points",
        "total_after",
        "last_capture",
        "jack_of_spades",
        "last_capture_points",
        "jack_of_spades_points",
    ]
    rows = list(csv.DictReader(io.StringIO(text)))
    swedish = [row for row in rows if row["variant"] == "swedish"]
    spade = [row for row in rows if row["variant"] == "spade"]
    assert [(r["last_capture"], r["last_capture_points"]) for r in swedish] == [
        ("1", "1"),
        ("0", "0"),
        ("0", "0"),
        ("1", "1"),
    ]
    assert [(r["jack_of_spades"], r["jack_of_spades_points"]) for r in spade] == [
        ("1", "1"),
        ("0", "0"),
        ("1", "1"),
        ("0", "0"),
    ]
    assert [r["points"] for r in spade] == ["17", "8", "11", "13"]
    assert {r["jack_of_spades"] for r in swedish} == {"0"}


@pytest.mark.django_db
def test_web_export_and_csv_of_a_finnish_match(user_client, user):
    (match,) = _import(user, [FINNISH])
    response = user_client.get(reverse("scoring:export-match", args=[match.pk]))
    document_out = json.loads(response.content)
    assert _without_result(document_out) == FINNISH
    assert [hand["pots"] for hand in document_out["result"]["hands"]] == [
        {"cards": 1, "spades": 0},
        {"cards": 0, "spades": 0},
        {"cards": 1, "spades": 0},
    ]
    csv_text = user_client.get(reverse("scoring:export-match-hands", args=[match.pk]))
    rows = list(csv.DictReader(io.StringIO(csv_text.content.decode())))
    assert [(row["last_capture"], row["jack_of_spades"]) for row in rows] == [("0", "0")] * 6
