"""Tests for the match JSON layer (scoring/engine/matchdoc.py) and `manage.py score`."""

from __future__ import annotations

import copy
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from django.core.management import call_command
from helpers import tally_doc as tally

from scoring.engine import matchdoc, rules
from scoring.engine.rules import Rules, Tally

ROOT = Path(__file__).resolve().parents[2]
CASES_FILE = Path(__file__).resolve().parents[1] / "data" / "scoring_examples.json"
CASES: list[dict[str, Any]] = json.loads(CASES_FILE.read_text())


def run_score(document: object, *, path: str = "-") -> tuple[int, str, str]:
    """Run `score` in-process; a str is passed as raw text. Returns (exit code, stdout, stderr)."""
    text = document if isinstance(document, str) else json.dumps(document)
    out, err = io.StringIO(), io.StringIO()
    with mock.patch("sys.stdin", io.StringIO(text)):
        try:
            call_command("score", path, stdout=out, stderr=err)
            code = 0
        except SystemExit as stop:
            code = stop.code  # type: ignore[assignment]
    return code, out.getvalue(), err.getvalue()


def run_score_process(text: str, *args: str) -> subprocess.CompletedProcess[str]:
    """`manage.py score` in a fresh process with no environment but PATH."""
    return subprocess.run(
        [sys.executable, "manage.py", "score", *(args or ("-",))],
        input=text,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")},
        timeout=60,
    )


def scored(document: object) -> Any:
    """The output of a document that must be accepted."""
    code, out, err = run_score(document)
    assert (code, err) == (0, "")
    return json.loads(out)


def refused(document: object) -> list[str]:
    """The stderr lines of a refused document, after checking exit 2 and an empty stdout."""
    code, out, err = run_score(document)
    assert code == 2, out
    assert out == ""
    lines = err.splitlines()
    assert lines and all(line.strip() for line in lines)
    assert "Traceback" not in err
    return lines


# A 8 (cards, spades, big casino, A♠ A♥), B 3 (little casino, A♣ A♦).
PLAIN = [tally(29, 8, big=True, aces="SH"), tally(23, 5, little=True, aces="CD")]


def document(
    hands: list[list[dict[str, Any]]] | None = None,
    *,
    variant: str = "casino",
    players: list[list[str]] | None = None,
    start_totals: list[int] | None = None,
    **options: Any,
) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "format": "casino-score/1",
        "rules": {"variant": variant, **options},
        "sides": [{"players": names} for names in (players or [["Ana"], ["Ben"]])],
        "hands": [
            {"tallies": copy.deepcopy(tallies)}
            for tallies in (hands if hands is not None else [PLAIN])
        ],
    }
    if start_totals is not None:
        doc["start_totals"] = start_totals
    return doc


# --- the shared scoring examples -----------------------------------------------------------------


def test_parametrized_cases_are_the_shared_examples(scoring_examples: list[dict]) -> None:
    assert [case["id"] for case in CASES] == [case["id"] for case in scoring_examples]
    assert len({case["id"] for case in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_scoring_example(case: dict[str, Any]) -> None:
    expect = case["expect"]
    if expect == "refused":
        lines = refused(case["match"])
        assert all(line.startswith("hand ") for line in lines), lines
        return
    output = scored(case["match"])
    result = output.pop("result")
    assert output == case["match"]  # the document comes back as it was, plus `result`
    if "hands" in expect:
        got = [{"points": h["points"], "totals": h["totals"]} for h in result["hands"]]
        assert got == expect["hands"]
    else:
        assert len(result["hands"]) == 1
        assert result["hands"][0]["points"] == expect["points"]
    assert result["totals"] == expect["totals"]
    assert result["status"] == expect["status"]
    assert result["winner"] == expect["winner"]
    for hand in result["hands"]:
        assert hand["points"] == [sum(b.values()) for b in hand["breakdown"]]


def test_example_refusals_say_what_is_off() -> None:
    by_id = {case["id"]: case for case in CASES}
    assert refused(by_id["SB01"]["match"]) == ["hand 1: cards add up to 50, not 52"]
    assert refused(by_id["SB03"]["match"]) == [
        "hand 1: both A and B hold the ace of hearts",
        "hand 1: nobody holds the ace of diamonds",
    ]


# --- the command in a fresh process --------------------------------------------------------------


@pytest.mark.slow
def test_score_stdin_in_a_process_without_environment() -> None:
    process = run_score_process(json.dumps(document()))
    assert process.returncode == 0, process.stderr
    assert process.stderr == ""
    result = json.loads(process.stdout)["result"]
    assert result["hands"][0]["points"] == [8, 3]
    assert result["totals"] == [8, 3]
    assert result["status"] == "playing"


@pytest.mark.slow
def test_score_refusal_in_a_process_without_environment() -> None:
    bad = document([[tally(25, 6, big=True, aces="SC"), tally(25, 7, little=True, aces="HD")]])
    process = run_score_process(json.dumps(bad))
    assert process.returncode == 2
    assert process.stdout == ""
    assert process.stderr.splitlines() == ["hand 1: cards add up to 50, not 52"]


@pytest.mark.slow
def test_score_file_in_a_process(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    path.write_text(json.dumps([document(), document(variant="royal")]), encoding="utf-8")
    process = run_score_process("", str(path))
    assert process.returncode == 0, process.stderr
    output = json.loads(process.stdout)
    assert [m["rules"]["variant"] for m in output] == ["casino", "royal"]
    assert all(m["result"]["totals"] == [8, 3] for m in output)


# --- valid input ---------------------------------------------------------------------------------


def test_score_reads_a_file(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    path.write_text(json.dumps(document()), encoding="utf-8")
    code, out, err = run_score("", path=str(path))
    assert (code, err) == (0, "")
    assert json.loads(out)["result"]["totals"] == [8, 3]


def test_missing_file_exits_2() -> None:
    code, out, err = run_score("", path="/nonexistent/match.json")
    assert (code, out) == (2, "")
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("/nonexistent/match.json: ")


def test_list_in_list_out() -> None:
    second = document(
        [[tally(27, 5, aces="HD"), tally(25, 8, big=True, little=True, aces="SC")]],
        start_totals=[18, 19],
        several_reach="count-out",
    )
    output = scored([document(), second])
    assert isinstance(output, list) and len(output) == 2
    assert output[0]["result"]["totals"] == [8, 3]
    # Count-out: A reaches 21 on cards first although B ends higher.
    assert output[1]["result"]["totals"] == [23, 25]
    assert output[1]["result"]["winner"] == 0
    assert output[1]["result"]["status"] == "won"


def test_single_match_in_single_match_out() -> None:
    output = scored(document())
    assert isinstance(output, dict)


def test_defaults_apply_for_missing_options_and_fields() -> None:
    # Dominican defaults to cancelling sweeps: 3 v 1 nets 2 v 0. Sweeps may be left out.
    hand = [
        tally(30, 5, aces="H", sweeps=3),
        tally(22, 8, big=True, little=True, aces="SCD", sweeps=1),
    ]
    doc = {
        "format": "casino-score/1",
        "rules": {"variant": "dominican"},
        "sides": [{"players": ["Ana"]}, {"players": ["Ben"]}],
        "hands": [{"tallies": hand}],
    }
    output = scored(doc)
    result = output["result"]
    assert [b["sweeps"] for b in result["hands"][0]["breakdown"]] == [2, 0]
    assert result["totals"] == [6, 7]
    no_sweeps = copy.deepcopy(doc)
    for entry in no_sweeps["hands"][0]["tallies"]:
        del entry["sweeps"]
    output = scored(no_sweeps)
    assert output["result"]["totals"] == [4, 7]


def test_lower_case_aces_are_accepted() -> None:
    hand = [tally(29, 8, big=True, aces="sh"), tally(23, 5, little=True, aces="dc")]
    output = scored(document([hand]))
    assert output["result"]["hands"][0]["points"] == [8, 3]


def test_incoming_result_is_replaced() -> None:
    doc = document()
    doc["result"] = {"totals": [99, 99], "status": "won", "winner": 1}
    output = scored(doc)
    assert output["result"]["totals"] == [8, 3]


def test_result_shape_follows_the_format() -> None:
    output = scored(document([PLAIN, PLAIN], start_totals=[2, 1]))
    result = output["result"]
    assert set(result) == {"hands", "totals", "status", "winner"}
    assert [h["totals"] for h in result["hands"]] == [[10, 4], [18, 7]]
    # Every variant's breakdown has the keys of RULES.md §9 too, 0 where they do not apply.
    zero = {"last_capture": 0, "jack_of_spades": 0}
    assert result["hands"][0]["breakdown"] == [
        {
            "cards": 3,
            "spades": 1,
            "big_casino": 2,
            "little_casino": 0,
            "aces": 2,
            "sweeps": 0,
            **zero,
        },
        {
            "cards": 0,
            "spades": 0,
            "big_casino": 0,
            "little_casino": 1,
            "aces": 2,
            "sweeps": 0,
            **zero,
        },
    ]
    assert "pots" not in result["hands"][0]


def test_match_with_no_hands_reports_start_totals() -> None:
    output = scored(document([], start_totals=[3, 4]))
    result = output["result"]
    assert result == {"hands": [], "totals": [3, 4], "status": "playing", "winner": None}


def test_tied_match_reports_tied_and_accepts_another_hand() -> None:
    tie = [tally(26, 6, little=True, aces="HD"), tally(26, 7, big=True, aces="SC")]
    output = scored(document([tie], start_totals=[19, 17]))
    result = output["result"]
    assert (result["totals"], result["status"], result["winner"]) == ([22, 22], "tied", None)
    output = scored(document([tie, PLAIN], start_totals=[19, 17]))
    result = output["result"]
    assert (result["totals"], result["status"], result["winner"]) == ([30, 25], "won", 0)


def test_partnership_of_two_sides_of_two() -> None:
    doc = document(players=[["N", "S"], ["E", "W"]])
    output = scored(doc)
    assert output["result"]["totals"] == [8, 3]


def test_four_individual_players() -> None:
    hand = [
        tally(14, 4, big=True, aces="S"),
        tally(13, 3, little=True, aces="C"),
        tally(13, 3, aces="H"),
        tally(12, 3, aces="D"),
    ]
    doc = document([hand], players=[["Ana"], ["Ben"], ["Cy"], ["Dee"]])
    output = scored(doc)
    assert output["result"]["totals"] == [7, 2, 1, 1]


def test_match_format_example_scores_as_its_breakdown_says() -> None:
    """MATCH_FORMAT.md's example prints points [8, 3] but a breakdown and totals of 8 and 4.

    B's uncancelled sweep is worth 1 (A has none to cancel it), so the points are [8, 4].
    """
    doc = document(
        [
            [
                tally(29, 8, big=True, aces="SH"),
                tally(23, 5, little=True, aces="CD", sweeps=1),
            ]
        ],
        variant="dominican",
        target=21,
        sweeps="cancel",
        several_reach="highest",
        scoring="cumulative",
        twenty_needs="little-casino",
        start_totals=[0, 0],
    )
    output = scored(doc)
    hand = output["result"]["hands"][0]
    assert hand["points"] == [8, 4]
    assert hand["totals"] == [8, 4]


# --- refusals ------------------------------------------------------------------------------------


def with_rules(**changes: Any) -> dict[str, Any]:
    doc = document()
    doc["rules"].update(changes)
    return doc


def with_tally(changes: dict[str, Any], *, position: int = 0) -> dict[str, Any]:
    doc = document()
    doc["hands"][0]["tallies"][position].update(changes)
    return doc


def without(doc: dict[str, Any], key: str) -> dict[str, Any]:
    del doc[key]
    return doc


REFUSALS: list[tuple[str, object, list[str]]] = [
    (
        "malformed_json",
        '{"format": "casino-score/1",\n  "rules": }',
        ["the file is not valid JSON (line 2, column 12)"],
    ),
    ("empty_input", "", ["the file is not valid JSON (line 1, column 1)"]),
    ("deeply_nested", "[" * 100_000, ["the file is nested too deeply to be a match document"]),
    ("not_an_object", 42, ["a match must be a JSON object"]),
    ("empty_list", [], ["the list holds no match"]),
    (
        "wrong_format",
        {**document(), "format": "casino-score/2"},
        ['format must be "casino-score/1", not "casino-score/2"'],
    ),
    (
        "missing_format",
        without(document(), "format"),
        ['format must be "casino-score/1", not null'],
    ),
    ("unknown_key", {**document(), "colour": "red"}, ["unknown key colour"]),
    ("unknown_rules_key", with_rules(colour="red"), ["unknown key rules.colour"]),
    ("unknown_tally_key", with_tally({"jokers": 1}), ["hand 1: unknown key tallies[0].jokers"]),
    ("missing_rules", without(document(), "rules"), ["rules is missing"]),
    ("missing_variant", {**document(), "rules": {"target": 21}}, ["rules.variant is missing"]),
    (
        "unknown_variant",
        with_rules(variant="poker"),
        ['rules.variant: "poker" is not one of casino, royal, dominican, swedish, finnish, spade'],
    ),
    (
        "unknown_sweeps",
        with_rules(sweeps="sometimes"),
        ['rules.sweeps: "sometimes" is not one of off, count, cancel'],
    ),
    (
        "unknown_several_reach",
        with_rules(several_reach="first"),
        ['rules.several_reach: "first" is not one of highest, count-out'],
    ),
    (
        "unknown_scoring",
        with_rules(scoring="golf"),
        ['rules.scoring: "golf" is not one of cumulative, difference'],
    ),
    (
        "unknown_twenty_needs",
        with_rules(variant="dominican", twenty_needs="luck"),
        ['rules.twenty_needs: "luck" is not one of little-casino, most-spades'],
    ),
    (
        "target_zero",
        with_rules(target=0),
        ["rules.target must be a whole number from 1 to 999, not 0"],
    ),
    (
        "target_text",
        with_rules(target="21"),
        ['rules.target must be a whole number from 1 to 999, not "21"'],
    ),
    ("missing_sides", without(document(), "sides"), ["sides is missing"]),
    (
        "one_side",
        {**document(), "sides": [{"players": ["Ana"]}]},
        ["a match has 2 to 4 sides, not 1"],
    ),
    (
        "three_sides_of_two",
        document(players=[["A", "B"], ["C"], ["D"]]),
        ["side 1: a side is 1 player, or 2 partners when there are two sides of two"],
    ),
    (
        "uneven_partnership",
        document(players=[["A", "B"], ["C"]]),
        ["the two sides must have as many players: 1 each, or 2 partners each"],
    ),
    ("player_twice", document(players=[["Ana"], ["ana"]]), ["ana plays on more than one side"]),
    (
        "blank_name",
        document(players=[["Ana"], ["  "]]),
        ["side 2: a player's name must be text of 1 to 60 characters"],
    ),
    (
        "start_totals_count",
        document(start_totals=[1, 2, 3]),
        ["start_totals has 3 numbers for 2 sides"],
    ),
    (
        "start_total_negative",
        document(start_totals=[-1, 0]),
        ["start_totals[0] must be a whole number from 0 to 999, not -1"],
    ),
    (
        "difference_with_three_sides",
        document(
            [
                [
                    tally(20, 5, big=True, aces="S"),
                    tally(18, 5, little=True, aces="HD"),
                    tally(14, 3, aces="C"),
                ]
            ],
            players=[["A"], ["B"], ["C"]],
            scoring="difference",
        ),
        ["difference scoring needs exactly 2 sides"],
    ),
    (
        "cards_text",
        with_tally({"cards": "29"}),
        ['hand 1: tallies[0].cards must be a whole number from 0 to 52, not "29"'],
    ),
    (
        "cards_float",
        with_tally({"cards": 29.5}),
        ["hand 1: tallies[0].cards must be a whole number from 0 to 52, not 29.5"],
    ),
    (
        "cards_bool",
        with_tally({"cards": True}),
        ["hand 1: tallies[0].cards must be a whole number from 0 to 52, not true"],
    ),
    (
        "cards_null",
        with_tally({"cards": None}),
        ["hand 1: tallies[0].cards must be a whole number from 0 to 52, not null"],
    ),
    (
        "big_casino_text",
        with_tally({"big_casino": "yes"}),
        ['hand 1: tallies[0].big_casino must be true or false, not "yes"'],
    ),
    (
        "aces_twice",
        with_tally({"aces": "SS"}),
        ['hand 1: tallies[0].aces must be letters from S, C, H, D, each at most once, not "SS"'],
    ),
    (
        "aces_unknown",
        with_tally({"aces": "SX"}),
        ['hand 1: tallies[0].aces must be letters from S, C, H, D, each at most once, not "SX"'],
    ),
    (
        "tallies_not_list",
        {**document(), "hands": [{"tallies": {}}]},
        ["hand 1: tallies must be a list"],
    ),
    (
        "wrong_number_of_tallies",
        document([[*PLAIN, tally(0, 0)]]),
        ["hand 1: 3 tallies for 2 sides"],
    ),
    (
        "hand_does_not_add_up",
        document(
            [
                PLAIN,
                [tally(47, 10, big=True, aces="SH"), tally(5, 3, little=True, aces="CD", sweeps=3)],
            ]
        ),
        ["hand 2: Ben: 3 sweeps need at least 6 cards"],
    ),
    (
        "partnership_named_in_problem",
        document(
            [[tally(47, 10, big=True, aces="SH"), tally(5, 3, little=True, aces="CD", sweeps=3)]],
            players=[["N", "S"], ["E", "W"]],
        ),
        ["hand 1: E & W: 3 sweeps need at least 6 cards"],
    ),
    (
        "hand_after_win",
        document([PLAIN, PLAIN], start_totals=[15, 0]),
        ["hand 2: the match was already won before this hand"],
    ),
    (
        "bad_match_in_list",
        [
            document(),
            document([[tally(25, 6, big=True, aces="SC"), tally(25, 7, little=True, aces="HD")]]),
        ],
        ["match 2: hand 1: cards add up to 50, not 52"],
    ),
    ("not_an_object_in_list", [document(), 7], ["match 2: a match must be a JSON object"]),
    (
        "several_problems",
        {**with_rules(variant="poker", target=-3), "colour": 1},
        [
            "unknown key colour",
            'rules.variant: "poker" is not one of casino, royal, dominican, swedish, finnish, spade',
            "rules.target must be a whole number from 1 to 999, not -3",
        ],
    ),
]


@pytest.mark.parametrize(
    ("given", "lines"), [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS]
)
def test_refused_document(given: object, lines: list[str]) -> None:
    assert refused(given) == lines


def test_missing_tally_field_is_named() -> None:
    doc = document()
    del doc["hands"][0]["tallies"][1]["spades"]
    assert refused(doc) == ["hand 1: tallies[1].spades is missing"]


# --- the output of `score`: parsed once, scored once, written a match at a time ----------------


def test_score_writes_one_line_by_default_and_indents_on_request() -> None:
    docs = [document(), document(players=[["Émile"], ["Zoë"]], variant="royal")]
    code, compact, err = run_score(docs)
    assert (code, err) == (0, "")
    assert compact.count("\n") == 1 and compact.endswith("]\n") and "Émile" in compact
    out = io.StringIO()
    with mock.patch("sys.stdin", io.StringIO(json.dumps(docs))):
        call_command("score", "-", "--indent", "2", stdout=out, stderr=io.StringIO())
    # --indent 2 is the text `score` wrote before it was streamed.
    assert out.getvalue() == json.dumps(json.loads(compact), indent=2, ensure_ascii=False) + "\n"
    assert json.loads(out.getvalue()) == json.loads(compact)


def test_score_of_one_match_indented_is_one_object() -> None:
    out = io.StringIO()
    with mock.patch("sys.stdin", io.StringIO(json.dumps(document()))):
        call_command("score", "-", "--indent", "4", stdout=out, stderr=io.StringIO())
    written = json.loads(out.getvalue())
    assert out.getvalue() == json.dumps(written, indent=4, ensure_ascii=False) + "\n"
    assert written["result"]["totals"] == [8, 3]


def test_score_keeps_the_place_of_a_result_given_in_the_file() -> None:
    given = {"result": {"anything": [1, 2]}, **document()}
    output = scored([given, document()])
    assert list(output[0]) == ["result", "format", "rules", "sides", "hands"]
    assert list(output[1])[-1] == "result"
    assert output[0]["result"] == output[1]["result"]


def test_a_problem_in_the_last_match_means_no_output_at_all() -> None:
    short = [tally(29, 8, big=True, aces="SH"), tally(22, 5, little=True, aces="CD")]
    lines = refused([document()] * 200 + [document([PLAIN, short])])
    assert lines == ["match 201: hand 2: cards add up to 51, not 52"]


def test_every_match_is_scored_once() -> None:
    with mock.patch("scoring.engine.rules.score_match", wraps=rules.score_match) as score:
        scored([document(), document(), document()])
    assert score.call_count == 3


def test_score_skips_the_system_checks() -> None:
    from scoring.management.commands.score import Command

    assert Command.requires_system_checks == []


def test_score_documents_returns_the_scores_of_a_list_or_a_match() -> None:
    scores, is_list = matchdoc.score_documents([document(), document(start_totals=[1, 2])])
    assert is_list and [score.totals for score in scores] == [(8, 3), (9, 5)]
    scores, is_list = matchdoc.score_documents(document())
    assert not is_list and scores[0].totals == (8, 3)
    with pytest.raises(matchdoc.DocumentError) as error:
        matchdoc.score_documents([document(), {"format": "casino-score/1"}, 3])
    assert [p.describe() for p in error.value.problems] == [
        "match 2: rules is missing",
        "match 2: sides is missing",
        "match 3: a match must be a JSON object",
    ]


def test_the_benchmarks_random_files_are_valid_match_files() -> None:
    import random

    from scoring.management.commands.bench_files import random_matches

    documents = random_matches(random.Random(3), 400)
    assert sum(len(doc["hands"]) for doc in documents) == 400
    scores, is_list = matchdoc.score_documents(json.loads(json.dumps(documents)))
    assert is_list and len(scores) == len(documents)
    assert {score.status for score in scores} >= {rules.Status.WON}


@pytest.mark.parametrize("indent", [None, 0, 2, 4])
@pytest.mark.parametrize("count", [0, 1, 3])
def test_json_chunks_write_what_json_dumps_writes(indent: int | None, count: int) -> None:
    documents = [
        {"name": f"Zoë {index}", "line": "two\nlines", "nested": {"a": [1, {"b": []}], "c": {}}}
        for index in range(count)
    ]
    separators = (",", ":") if indent is None else None
    expected = json.dumps(documents, indent=indent, ensure_ascii=False, separators=separators)
    chunks = list(matchdoc.json_chunks(iter(documents), indent=indent))
    assert "".join(chunks) == expected + "\n"
    assert len(chunks) == count + 1  # a document at a time, then the end of the list
    if count == 1:
        one = "".join(matchdoc.json_chunks(documents, as_list=False, indent=indent))
        assert (
            one
            == json.dumps(documents[0], indent=indent, ensure_ascii=False, separators=separators)
            + "\n"
        )


# --- the matchdoc API ----------------------------------------------------------------------------


def test_load_document_tells_a_list_from_a_match() -> None:
    docs, is_list = matchdoc.load_document(json.dumps(document()))
    assert not is_list and len(docs) == 1
    docs, is_list = matchdoc.load_document(json.dumps([document(), document()]))
    assert is_list and len(docs) == 2


def test_read_match_builds_rules_sides_and_tallies() -> None:
    doc = matchdoc.read_match(document(players=[["N", "S"], ["E", "W"]], target=11))
    assert doc.rules == Rules.make("casino", target=11)
    assert doc.sides == (("N", "S"), ("E", "W"))
    assert doc.side_names == ("N & S", "E & W")
    assert doc.start_totals == (0, 0)
    assert doc.hands == (
        (
            Tally(29, 8, True, False, "SH", 0),
            Tally(23, 5, False, True, "CD", 0),
        ),
    )


def test_match_json_round_trips() -> None:
    doc = matchdoc.read_match(
        document([PLAIN], variant="dominican", start_totals=[3, 4], twenty_needs="most-spades")
    )
    written = matchdoc.match_json(doc)
    assert written["rules"] == {
        "variant": "dominican",
        "target": 21,
        "sweeps": "cancel",
        "several_reach": "highest",
        "scoring": "cumulative",
        "twenty_needs": "most-spades",
    }
    assert written["result"]["totals"] == [11, 7]
    assert matchdoc.read_match(json.loads(json.dumps(written))) == doc


def test_document_error_lists_every_problem() -> None:
    with pytest.raises(matchdoc.DocumentError) as error:
        matchdoc.load_document(json.dumps(with_rules(variant="poker", sweeps="never")))
    assert [p.code for p in error.value.problems] == ["not_one_of", "not_one_of"]
    assert str(error.value).count(";") == 1


def test_doc_problem_text_is_translated() -> None:
    problem = matchdoc.DocProblem("sides_count", {"count": 5}, match=1, hand=None)
    german = {
        "a match has 2 to 4 sides, not %(count)d": "ein Spiel hat 2 bis 4 Seiten, nicht %(count)d",
        "match %(match)d: %(message)s": "Spiel %(match)d: %(message)s",
    }
    assert problem.describe(lambda text: german.get(text, text)) == (
        "Spiel 2: ein Spiel hat 2 bis 4 Seiten, nicht 5"
    )


def test_check_hands_refuses_a_hand_after_the_win() -> None:
    doc = matchdoc.MatchDoc(
        Rules.make("casino"),
        (("Ana",), ("Ben",)),
        (15, 0),
        tuple(tuple(Tally.make(**t) for t in PLAIN) for _ in range(3)),
    )
    (problem,) = matchdoc.check_hands(doc)
    assert (problem.code, problem.hand) == ("after_win", 1)
    assert rules.score_match(doc.rules, doc.hands[:1], doc.start_totals).winner == 0


# --- input that used to crash the command (a traceback and exit 1) -------------------------------

BIG = "9" * 5000  # more digits than Python turns into an int by default (4,300)


def _text_with(old: str, new: str, doc: object | None = None) -> str:
    """A document's JSON text with `old` replaced by `new` (for what json.dumps cannot write)."""
    text = json.dumps(document() if doc is None else doc)
    assert old in text
    return text.replace(old, new, 1)


CRASHES: list[tuple[str, str, list[str]]] = [
    (
        "number_of_5000_digits",
        _text_with('"cards": 29', f'"cards": {BIG}'),
        [f"hand 1: tallies[0].cards must be a whole number from 0 to 52, not {'9' * 37}..."],
    ),
    (
        "negative_number_of_5000_digits",
        _text_with('"target": 21', f'"target": -{BIG}', with_rules(target=21)),
        [f"rules.target must be a whole number from 1 to 999, not -{'9' * 36}..."],
    ),
    (
        "lone_surrogate_in_a_name",
        _text_with('"Ana"', '"A\\ud800na"'),
        [
            "side 1: a player's name cannot hold a NUL, a lone surrogate or U+FFFD, "
            'not "A\\ud800na"'
        ],
    ),
    (
        "nul_in_a_name",
        _text_with('"Ben"', '"B\\u0000en"'),
        [
            "side 2: a player's name cannot hold a NUL, a lone surrogate or U+FFFD, "
            'not "B\\u0000en"'
        ],
    ),
    (
        "aces_with_sharp_s",  # "ß".upper() is "SS"
        _text_with('"aces": "SH"', '"aces": "\\u00dfH"'),
        ['hand 1: tallies[0].aces must be letters from S, C, H, D, each at most once, not "ßH"'],
    ),
    (
        "aces_with_long_s",  # "ſ".upper() is "S"
        _text_with('"aces": "SH"', '"aces": "\\u017fH"'),
        ['hand 1: tallies[0].aces must be letters from S, C, H, D, each at most once, not "ſH"'],
    ),
    (
        "lone_surrogate_in_a_key",
        _text_with('"format"', '"x\\udc80": 1, "format"'),
        ["unknown key x\\udc80"],
    ),
    (
        "nul_in_format",
        _text_with('"casino-score/1"', '"casino-score/1\\u0000"'),
        ['format must be "casino-score/1", not "casino-score/1\\u0000"'],
    ),
    (
        "lone_surrogate_in_variant",
        _text_with('"variant": "casino"', '"variant": "\\ud83d"'),
        [
            'rules.variant: "\\ud83d" is not one of casino, royal, dominican, swedish, finnish, spade'
        ],
    ),
]


@pytest.mark.parametrize(("text", "lines"), [c[1:] for c in CRASHES], ids=[c[0] for c in CRASHES])
def test_input_that_used_to_crash_is_refused_with_a_line(text: str, lines: list[str]) -> None:
    assert refused(text) == lines


def test_a_huge_number_in_the_ignored_result_does_not_matter() -> None:
    text = _text_with('"format"', f'"result": {{"totals": [{BIG}]}}, "format"')
    output = scored(text)
    assert output["result"]["totals"] == [8, 3]


@pytest.mark.slow
def test_crashing_input_in_a_real_process_exits_2_without_a_traceback() -> None:
    text = "[" + ", ".join(text for _, text, _ in CRASHES) + "]"
    process = run_score_process(text)
    assert process.returncode == 2, process.stderr
    assert process.stdout == ""
    assert "Traceback" not in process.stderr
    lines = process.stderr.splitlines()
    assert len(lines) == len(CRASHES)
    assert lines[0].startswith("match 1: hand 1: tallies[0].cards must be a whole number")
    assert lines[2] == (
        "match 3: side 1: a player's name cannot hold a NUL, a lone surrogate or U+FFFD, "
        'not "A\\ud800na"'
    )


@pytest.mark.slow
def test_standard_input_that_is_not_utf8_is_refused_in_a_process() -> None:
    raw = json.dumps(document()).encode().replace(b'"Ana"', b'"A\xed\xa0\x80na"')
    process = subprocess.run(
        [sys.executable, "manage.py", "score", "-"],
        input=raw,
        capture_output=True,
        cwd=ROOT,
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")},
        timeout=60,
    )
    assert process.returncode == 2
    assert process.stdout == b""
    err = process.stderr.decode()
    assert "Traceback" not in err
    assert err.splitlines() == ["-: the file is not text (UTF-8): it cannot be a match file"]


# --- format gaps ---------------------------------------------------------------------------------

GAPS: list[tuple[str, object, list[str]]] = [
    (
        "start_total_alone_at_the_target",
        document(start_totals=[21, 5]),
        [
            "start_totals: side 1 alone holds the top total, 21, at or past the target (21): "
            "that game is already won"
        ],
    ),
    (
        "start_total_alone_on_top_past_the_target",
        document([], start_totals=[22, 25]),
        [
            "start_totals: side 2 alone holds the top total, 25, at or past the target (21): "
            "that game is already won"
        ],
    ),
    (
        "start_total_too_high",
        document(start_totals=[1000, 1000]),
        [
            "start_totals[0] must be a whole number from 0 to 999, not 1000",
            "start_totals[1] must be a whole number from 0 to 999, not 1000",
        ],
    ),
    (
        "target_too_high",
        with_rules(target=1000),
        ["rules.target must be a whole number from 1 to 999, not 1000"],
    ),
    (
        "dominican_target_below_4",
        with_rules(variant="dominican", target=3),
        ["rules.target must be a whole number from 4 to 999 for dominican, not 3"],
    ),
    (
        "twenty_needs_on_casino",
        with_rules(twenty_needs="little-casino"),
        ["rules.twenty_needs is for dominican only, not casino"],
    ),
    (
        "twenty_needs_on_royal",
        with_rules(variant="royal", twenty_needs="most-spades"),
        ["rules.twenty_needs is for dominican only, not royal"],
    ),
    (
        "cards_above_the_pack",
        with_tally({"cards": 53}),
        ["hand 1: tallies[0].cards must be a whole number from 0 to 52, not 53"],
    ),
    (
        "negative_cards",
        with_tally({"cards": -1}),
        ["hand 1: tallies[0].cards must be a whole number from 0 to 52, not -1"],
    ),
    (
        "spades_above_13",
        with_tally({"spades": 14}, position=1),
        ["hand 1: tallies[1].spades must be a whole number from 0 to 13, not 14"],
    ),
    (
        "sweeps_above_24",
        with_tally({"sweeps": 25}),
        ["hand 1: tallies[0].sweeps must be a whole number from 0 to 24, not 25"],
    ),
    (
        "first_dealer_off_the_table",
        {**document(), "first_dealer": 2},
        ["first_dealer must be a whole number from 0 to 1, not 2"],
    ),
    (
        "first_dealer_text",
        {**document(players=[["N", "S"], ["E", "W"]]), "first_dealer": "E"},
        ['first_dealer must be a whole number from 0 to 3, not "E"'],
    ),
    (
        "abandoned_not_a_boolean",
        {**document(), "abandoned": "yes"},
        ['abandoned must be true or false, not "yes"'],
    ),
    (
        "abandoned_but_won",
        {**document([PLAIN], start_totals=[15, 0]), "abandoned": True},
        ["abandoned is true, but hand 1 won the match"],
    ),
    (
        "hand_given_as_a_list",
        {**document(), "hands": [PLAIN]},
        ['hand 1: a hand must be an object, {"tallies": [...]}, not a list'],
    ),
    (
        "hand_given_as_a_number",
        {**document(), "hands": [7]},
        ['hand 1: a hand must be an object, {"tallies": [...]}, not 7'],
    ),
    (
        "name_too_long_once_case_folded",
        document(players=[["ß" * 31], ["Ben"]]),
        ["side 1: a player's name is at most 60 characters with ß counted as ss, not 62"],
    ),
    (
        "player_twice_on_one_side",
        document(players=[["Ana", "ana"], ["Ben", "Cy"]]),
        ["side 1: ana is named twice"],
    ),
    (
        "too_many_hands",
        document([PLAIN] * 1001),
        ["a match has at most 1000 hands, not 1001"],
    ),
    (
        "every_problem_not_only_the_first",
        {
            **document(
                [PLAIN, [tally(25, 6, big=True, aces="SC"), tally(25, 7, little=True, aces="HD")]]
            ),
            "colour": "red",
        },
        ["unknown key colour", "hand 2: cards add up to 50, not 52"],
    ),
    (
        "every_problem_across_hands_and_sides",
        {
            **document(
                [
                    [tally(30, 8, big=True, aces="SH"), tally(23, 5, little=True, aces="CD")],
                    [tally(29, 8, big=True, aces="SH"), tally(60, 5, little=True, aces="CD")],
                ]
            ),
            "sides": [{"players": ["Ana"]}, {"players": []}],
        },
        [
            "side 2: a side is 1 player, or 2 partners when there are two sides of two",
            "hand 1: cards add up to 53, not 52",
            "hand 2: tallies[1].cards must be a whole number from 0 to 52, not 60",
        ],
    ),
]


@pytest.mark.parametrize(("given", "lines"), [g[1:] for g in GAPS], ids=[g[0] for g in GAPS])
def test_format_gap_is_refused(given: object, lines: list[str]) -> None:
    assert refused(given) == lines


def test_shared_top_at_the_target_starts_the_match_tied() -> None:
    result = scored(document([], start_totals=[21, 21]))["result"]
    assert (result["status"], result["winner"], result["totals"]) == ("tied", None, [21, 21])
    # The first hand after which one side alone holds the top total decides, without count-out.
    result = scored(document([PLAIN], start_totals=[22, 22], several_reach="count-out"))["result"]
    assert (result["status"], result["winner"], result["totals"]) == ("won", 0, [30, 25])
    # Three sides, two tied on top past the target: the third, below it, may still play.
    hand = [
        tally(20, 5, big=True, aces="SC"),
        tally(18, 5, little=True, aces="H"),
        tally(14, 3, aces="D"),
    ]
    doc = document([hand], players=[["A"], ["B"], ["C"]], start_totals=[23, 23, 4])
    result = scored(doc)["result"]
    assert (result["status"], result["winner"], result["totals"]) == ("won", 0, [30, 25, 5])


def test_tied_start_in_the_engine() -> None:
    casino = Rules.make("casino")
    assert rules.score_match(casino, [], (21, 21)).status is rules.Status.TIED
    assert rules.score_match(casino, [], (22, 21)).status is rules.Status.PLAYING
    assert rules.score_match(casino, [], (20, 20)).status is rules.Status.PLAYING
    assert rules.start_leader(21, (22, 21)) == 0
    assert rules.start_leader(21, (5, 30, 30)) is None
    assert rules.start_leader(21, (5, 21, 3)) == 1
    assert rules.start_leader(21, (20, 20)) is None
    assert rules.start_leader(11, (0, 11)) == 1


def test_abandoned_and_first_dealer_are_read_and_written() -> None:
    raw = {**document([PLAIN], players=[["N", "S"], ["E", "W"]]), "abandoned": True}
    raw["first_dealer"] = 3
    doc = matchdoc.read_match(raw)
    assert (doc.abandoned, doc.first_dealer) == (True, 3)
    written = matchdoc.match_json(doc)
    assert (written["abandoned"], written["first_dealer"]) == (True, 3)
    assert matchdoc.read_match(json.loads(json.dumps(written))) == doc
    plain = matchdoc.read_match(document())
    assert (plain.abandoned, plain.first_dealer) == (False, 0)
    assert (
        matchdoc.match_json(plain)["abandoned"],
        matchdoc.match_json(plain)["first_dealer"],
    ) == (
        False,
        0,
    )


def test_a_match_of_1000_hands_is_scored() -> None:
    tie = [tally(26, 6, big=True, aces="SC"), tally(26, 7, little=True, aces="HD")]
    result = scored(document([tie] * 1000, scoring="difference"))["result"]
    assert len(result["hands"]) == 1000 and result["totals"] == [0, 0]


def test_load_document_limits_matches_and_hands_per_file_before_reading() -> None:
    text = json.dumps([document()] * 3)
    with mock.patch("scoring.engine.matchdoc.read_scored_match") as read:
        with pytest.raises(matchdoc.DocumentError) as error:
            matchdoc.load_document(text, max_matches=2)
        assert [p.describe() for p in error.value.problems] == [
            "one import takes at most 2 matches, not 3"
        ]
        with pytest.raises(matchdoc.DocumentError) as error:
            matchdoc.load_document(text, max_hands=2)
        assert [p.describe() for p in error.value.problems] == [
            "one import takes at most 2 hands, not 3"
        ]
        read.assert_not_called()
    docs, _ = matchdoc.load_document(text, max_matches=3, max_hands=3)
    assert len(docs) == 3
