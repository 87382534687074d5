"""`manage.py export_matches` and `manage.py import_matches` (docs/MATCH_FORMAT.md)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from django.core.management import call_command
from helpers import FIRST_8, FIRST_11, run_command
from test_transfer import ALL_11, PLAIN, document, old_export_text, snapshot, tally

from scoring.engine.rules import Rules
from scoring.matches import services
from scoring.models import Match, Player

pytestmark = pytest.mark.django_db


def write(tmp_path: Path, content: Any, name: str = "matches.json") -> str:
    path = tmp_path / name
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return str(path)


@pytest.fixture
def played(casino_match: Match) -> Match:
    services.hand_record(match=casino_match, number=1, tallies=FIRST_8)
    services.hand_record(match=casino_match, number=2, tallies=FIRST_11)
    return casino_match


# --- export_matches ------------------------------------------------------------------------------


def test_export_prints_a_list_of_documents_with_results(played):
    code, out, err = run_command("export_matches")
    assert (code, err) == (0, "")
    (document_out,) = json.loads(out)
    assert document_out["sides"] == [{"players": ["Ana"]}, {"players": ["Ben"]}]
    assert document_out["result"]["totals"] == [19, 3]


def test_export_owner_keeps_to_that_users_matches(played, other_user):
    mo, zed = (
        services.player_create(circle=other_user.personal_circle, name=name)
        for name in ("Mo", "Zed")
    )
    services.match_start(
        circle=other_user.personal_circle, rules=Rules.make("royal"), sides=[[mo], [zed]]
    )
    assert len(json.loads(run_command("export_matches")[1])) == 2
    (only,) = json.loads(run_command("export_matches", "--owner", "mallory")[1])
    assert only["rules"]["variant"] == "royal"


def test_export_of_a_user_without_matches_is_an_empty_list(other_user):
    assert json.loads(run_command("export_matches", "--owner", "mallory")[1]) == []


def test_export_output_writes_the_file(played, tmp_path):
    target = tmp_path / "out.json"
    code, out, _ = run_command("export_matches", "--owner", "ana", "--output", str(target))
    assert (code, out) == (0, "")
    assert json.loads(target.read_text())[0]["result"]["totals"] == [19, 3]


def test_export_for_an_unknown_user_exits_2(played):
    code, out, err = run_command("export_matches", "--owner", "nobody")
    assert (code, out) == (2, "") and "nobody" in err


def test_export_text_is_what_it_was_before_it_was_streamed(played, tmp_path):
    emile = services.player_create(circle=played.circle, name="Émile")
    ben = Player.objects.get(circle=played.circle, name="Ben")
    services.match_start(
        circle=played.circle, rules=Rules.make("dominican"), sides=[[emile], [ben]]
    )
    expected = old_export_text(None)
    assert run_command("export_matches")[1] == expected
    target = tmp_path / "out.json"
    code, _, err = run_command("export_matches", "--output", str(target))
    assert code == 0 and err == f"2 matches written to {target}.\n"
    assert target.read_text(encoding="utf-8") == expected


class _Sink(io.StringIO):
    """A file that keeps what was written after it is closed."""

    def close(self) -> None:
        pass


@pytest.mark.parametrize("to_file", [False, True], ids=["stdout", "file"])
def test_export_writes_each_match_before_reading_the_next(played, tmp_path, to_file):
    from scoring.sharing import exchange

    docs = exchange.match_documents(None) * 3
    sink = _Sink()
    written_before: list[str] = []

    def documents(owner):
        for doc in docs:
            written_before.append(sink.getvalue())
            yield doc

    args = ["--output", str(tmp_path / "out.json")] if to_file else []
    with (
        mock.patch.object(exchange, "iter_match_documents", documents),
        mock.patch(
            "scoring.management.commands.export_matches.open", lambda *a, **k: sink, create=True
        ),
    ):
        call_command(
            "export_matches", *args, stdout=io.StringIO() if to_file else sink, stderr=io.StringIO()
        )
    assert written_before[0] == ""
    assert written_before[1].count('"format"') == 1 and written_before[2].count('"format"') == 2
    assert json.loads(sink.getvalue()) == json.loads(run_command("export_matches")[1]) * 3


# --- import_matches ------------------------------------------------------------------------------


def test_import_creates_the_matches_for_the_owner(user, tmp_path):
    path = write(
        tmp_path, [document([PLAIN]), document([PLAIN, ALL_11], players=[["Cy"], ["Ana"]])]
    )
    code, out, err = run_command("import_matches", path, "--owner", "ana")
    assert (code, err) == (0, "")
    assert "2 matches imported" in out and "3 new players" in out
    assert Match.objects.filter(circle=user.personal_circle).count() == 2
    assert set(
        Player.objects.filter(circle=user.personal_circle).values_list("name", flat=True)
    ) == {
        "Ana",
        "Ben",
        "Cy",
    }


def test_import_reads_standard_input(user):
    code, _, err = run_command(
        "import_matches", "-", "--owner", "ana", stdin=json.dumps(document())
    )
    assert (code, err) == (0, "")
    assert Match.objects.filter(circle=user.personal_circle).count() == 1


def test_import_ignores_result_and_recomputes_it(user, tmp_path):
    doc = document([PLAIN])
    doc["result"] = {"totals": [99, 0], "status": "won", "winner": 0, "hands": []}
    assert run_command("import_matches", write(tmp_path, doc), "--owner", "ana")[0] == 0
    match = Match.objects.get(circle=user.personal_circle)
    assert list(match.sides.values_list("total", flat=True)) == [8, 3]
    assert match.status == "playing"


def test_one_bad_match_imports_nothing_and_exits_2(user, tmp_path):
    bad = document([[tally(29, 8), tally(20, 5)]], players=[["Cy"], ["Dee"]])
    path = write(tmp_path, [document(), bad])
    before = snapshot()
    code, out, err = run_command("import_matches", path, "--owner", "ana")
    assert (code, out) == (2, "")
    assert "match 2: hand 1: cards add up to 49, not 52" in err
    assert "Traceback" not in err
    assert snapshot() == before


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json at all", "not valid JSON"),
        ({**document(), "format": "other/2"}, 'format must be "casino-score/1"'),
        (document(variant="bridge"), 'rules.variant: "bridge" is not one of'),
    ],
    ids=["not json", "wrong format tag", "unknown variant"],
)
def test_bad_file_exits_2_with_the_problem_on_stderr(user, tmp_path, content, message):
    before = snapshot()
    code, out, err = run_command("import_matches", write(tmp_path, content), "--owner", "ana")
    assert (code, out) == (2, "") and message in err
    assert snapshot() == before


def test_import_for_an_unknown_user_or_missing_file_exits_2(user, tmp_path):
    path = write(tmp_path, document())
    assert run_command("import_matches", path, "--owner", "nobody")[0] == 2
    code, _, err = run_command("import_matches", str(tmp_path / "missing.json"), "--owner", "ana")
    assert code == 2 and "missing.json" in err
    assert not Match.objects.exists()


def test_commands_round_trip_into_an_empty_account(played, other_user, tmp_path):
    first = tmp_path / "first.json"
    assert run_command("export_matches", "--owner", "ana", "--output", str(first))[0] == 0
    assert run_command("import_matches", str(first), "--owner", "mallory")[0] == 0
    code, again, _ = run_command("export_matches", "--owner", "mallory")
    assert code == 0
    assert json.loads(again) == json.loads(first.read_text())


# --- input that used to crash import_matches -----------------------------------------------------


def test_input_that_used_to_crash_exits_2_with_a_line_and_imports_nothing(user, tmp_path):
    from test_matchdoc import CRASHES

    before = snapshot()
    for name, text, lines in CRASHES:
        path = tmp_path / f"{name}.json"
        path.write_text(text, encoding="utf-8")
        code, out, err = run_command("import_matches", str(path), "--owner", "ana")
        assert (code, out) == (2, ""), name
        assert "Traceback" not in err
        assert err.splitlines() == ["Nothing was imported:", *lines]
    assert snapshot() == before


def test_a_file_that_is_not_utf8_exits_2(user, tmp_path):
    path = tmp_path / "latin1.json"
    path.write_bytes(json.dumps(document()).encode().replace(b'"Ana"', b'"A\xed\xa0\x80na"'))
    code, out, err = run_command("import_matches", str(path), "--owner", "ana")
    assert (code, out) == (2, "")
    assert err.splitlines() == [f"{path}: the file is not text (UTF-8): it cannot be a match file"]
    assert not Match.objects.exists()


def test_import_above_the_limits_exits_2_before_touching_the_database(user, tmp_path):
    from scoring.sharing import exchange

    minimal = {key: value for key, value in document().items() if key != "hands"}
    path = write(tmp_path, [minimal] * (exchange.MAX_IMPORT_MATCHES + 1))
    code, out, err = run_command("import_matches", path, "--owner", "ana")
    assert (code, out) == (2, "")
    assert err.splitlines()[1] == (
        f"one import takes at most {exchange.MAX_IMPORT_MATCHES} matches, "
        f"not {exchange.MAX_IMPORT_MATCHES + 1}"
    )
    assert not Match.objects.exists()


def test_abandoned_and_first_dealer_round_trip_through_the_commands(user, other_user, tmp_path):
    doc = {**document([PLAIN]), "abandoned": True, "first_dealer": 1}
    assert run_command("import_matches", write(tmp_path, [doc]), "--owner", "ana")[0] == 0
    match = Match.objects.get(circle=user.personal_circle)
    assert (match.status, match.first_dealer_seat) == ("abandoned", 1)
    code, out, _ = run_command("export_matches", "--owner", "ana")
    assert code == 0
    (exported,) = json.loads(out)
    assert (exported["abandoned"], exported["first_dealer"]) == (True, 1)
