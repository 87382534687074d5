"""The match format's `last_hand` (scoring/engine/matchdoc.py, docs/MATCH_FORMAT.md): a timed round's
hand in progress when time was called (the event rule "time", docs/RULES.md). Read, checked,
written when set, and passed to the engine wherever a document is scored."""

from __future__ import annotations

import json
from typing import Any

import pytest
from helpers import tally_doc as tally
from test_matchdoc import PLAIN, document, refused, scored

from scoring.engine import matchdoc, rules
from scoring.engine.rules import Status

# Ana 3, Ben 8: PLAIN the other way round.
BENS = list(reversed(PLAIN))
# Cards 26-26 score nobody: 4-4.
LEVEL = [tally(26, 7, little=True, aces="SC"), tally(26, 6, big=True, aces="HD")]


def timed(hands: list[list[dict[str, Any]]], last_hand: Any, **kwargs: Any) -> dict[str, Any]:
    return {**document(hands, **kwargs), "last_hand": last_hand}


def test_last_hand_is_read_and_the_document_scored_with_it() -> None:
    doc, score = matchdoc.read_scored_match(timed([PLAIN, BENS, PLAIN], 3))
    assert doc.last_hand == 3
    assert (score.status, score.winner, score.totals) == (Status.WON, 0, (19, 14))
    assert score.outcome == rules.Outcome("time", 0, None, 19)
    assert matchdoc.score_doc(doc) == score


def test_without_last_hand_nothing_changes() -> None:
    for raw in (document([PLAIN, BENS, PLAIN]), timed([PLAIN, BENS, PLAIN], None)):
        doc = matchdoc.read_match(raw)
        assert doc.last_hand is None
        assert matchdoc.score_doc(doc).status is Status.PLAYING
        assert "last_hand" not in matchdoc.match_json(doc)


def test_last_hand_is_written_when_set_and_round_trips() -> None:
    doc = matchdoc.read_match(timed([LEVEL, PLAIN], 1))
    written = matchdoc.match_json(doc)
    assert written["last_hand"] == 1
    # After start_totals, before the hands.
    keys = list(written)
    assert keys.index("start_totals") < keys.index("last_hand") < keys.index("hands")
    assert written["result"]["status"] == "won" and written["result"]["winner"] == 0
    assert matchdoc.read_match(json.loads(json.dumps(written))) == doc


def test_score_command_scores_a_timed_round() -> None:
    out = scored(timed([LEVEL, LEVEL], 2))
    assert out["last_hand"] == 2
    assert (out["result"]["status"], out["result"]["winner"]) == ("playing", None)
    out = scored(timed([LEVEL, PLAIN], 2))
    assert (out["result"]["status"], out["result"]["winner"]) == ("won", 0)


def test_a_hand_after_a_win_on_time_is_refused() -> None:
    lines = refused(timed([PLAIN, PLAIN, LEVEL], 2))
    assert lines == ["hand 3: the match was already won before this hand"]
    doc = matchdoc.MatchDoc(
        rules.Rules.make("casino"),
        (("Ana",), ("Ben",)),
        (0, 0),
        tuple(tuple(rules.Tally.make(**t) for t in hand) for hand in (PLAIN, PLAIN, LEVEL)),
        last_hand=2,
    )
    (problem,) = matchdoc.check_hands(doc)
    assert (problem.code, problem.hand) == ("after_win", 2)


def test_an_abandoned_match_won_on_time_is_refused() -> None:
    lines = refused({**timed([PLAIN], 1), "abandoned": True})
    assert lines == ["abandoned is true, but hand 1 won the match"]


@pytest.mark.parametrize(
    "value",
    [0, -1, 1001, True, False, "3", 2.0, 2.5, [], {}, 10**30],
)
def test_a_bad_last_hand_is_refused_with_its_range(value: Any) -> None:
    with pytest.raises(matchdoc.DocumentError) as error:
        matchdoc.read_match(timed([PLAIN], value))
    (problem,) = error.value.problems
    assert problem.code == "number"
    assert problem.describe().startswith("last_hand must be a whole number from 1 to 1000, not ")


def test_a_bad_last_hand_is_reported_with_the_other_problems() -> None:
    raw = timed([PLAIN], 0)
    raw["first_dealer"] = 9
    lines = refused(raw)
    assert lines == [
        "first_dealer must be a whole number from 0 to 1, not 9",
        "last_hand must be a whole number from 1 to 1000, not 0",
    ]


def test_a_huge_last_hand_is_refused_unconverted() -> None:
    text = json.dumps(timed([PLAIN], 1)).replace('"last_hand": 1', '"last_hand": ' + "9" * 5000)
    with pytest.raises(matchdoc.DocumentError) as error:
        matchdoc.load_document(text)
    (problem,) = error.value.problems
    assert problem.describe() == (
        "last_hand must be a whole number from 1 to 1000, not " + "9" * 37 + "..."
    )


def test_last_hand_in_every_match_of_a_list() -> None:
    docs, is_list = matchdoc.load_document(
        json.dumps([timed([PLAIN], 1), document([PLAIN]), timed([LEVEL], 1)])
    )
    assert is_list
    assert [doc.last_hand for doc in docs] == [1, None, 1]
    scores, _ = matchdoc.score_documents([timed([PLAIN], 1), document([PLAIN]), timed([LEVEL], 1)])
    assert [score.status for score in scores] == [Status.WON, Status.PLAYING, Status.PLAYING]
