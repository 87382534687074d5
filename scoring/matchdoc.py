"""The match JSON format ("casino-score/1", docs/MATCH_FORMAT.md): parse, check and render.

Pure Python like `rules`: the `score`, `export_matches` and `import_matches` commands and the web
import/export are thin layers over `load_document`, `check_match` and `result_json`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scoring import rules
from scoring.rules import Problem, Rules, Tally, gettext_noop

FORMAT = "casino-score/1"
RULE_KEYS = ("variant", "target", "sweeps", "several_reach", "scoring", "twenty_needs")
TALLY_KEYS = ("cards", "spades", "big_casino", "little_casino", "aces", "sweeps")
MATCH_KEYS = ("format", "rules", "sides", "start_totals", "hands", "result")
OPTION_VALUES: dict[str, tuple[str, ...]] = {
    "variant": tuple(rules.Variant),
    "sweeps": tuple(rules.SweepRule),
    "several_reach": tuple(rules.SeveralReach),
    "scoring": tuple(rules.Scoring),
    "twenty_needs": tuple(rules.TwentyNeeds),
}

MESSAGES = {
    "not_json": gettext_noop("the file is not valid JSON (line %(line)d, column %(column)d)"),
    "too_deep": gettext_noop("the file is nested too deeply to be a match document"),
    "not_match": gettext_noop("a match must be a JSON object"),
    "no_matches": gettext_noop("the list holds no match"),
    "format": gettext_noop('format must be "casino-score/1", not %(value)s'),
    "missing": gettext_noop("%(key)s is missing"),
    "unknown_key": gettext_noop("unknown key %(key)s"),
    "not_one_of": gettext_noop("%(key)s: %(value)s is not one of %(allowed)s"),
    "not_integer": gettext_noop("%(key)s must be a whole number, not %(value)s"),
    "not_boolean": gettext_noop("%(key)s must be true or false, not %(value)s"),
    "not_list": gettext_noop("%(key)s must be a list"),
    "not_object": gettext_noop("%(key)s must be an object"),
    "target_low": gettext_noop("target must be at least 1, not %(value)s"),
    "sides_count": gettext_noop("a match has 2 to 4 sides, not %(count)d"),
    "side_players": gettext_noop(
        "side %(side)d: a side is 1 player, or 2 partners when there are two sides of two"
    ),
    "player_name": gettext_noop(
        "side %(side)d: a player's name must be text of 1 to 60 characters"
    ),
    "player_twice": gettext_noop("%(name)s plays on more than one side"),
    "start_totals_count": gettext_noop("start_totals has %(count)d numbers for %(sides)d sides"),
    "start_total_negative": gettext_noop("start_totals cannot be negative (%(value)d)"),
    "difference_sides": gettext_noop("difference scoring needs exactly 2 sides"),
    "aces": gettext_noop(
        "%(key)s must be letters from S, C, H, D, each at most once, not %(value)s"
    ),
    "at_match": gettext_noop("match %(match)d: %(message)s"),
    "at_hand": gettext_noop("hand %(hand)d: %(message)s"),
}
MAX_NAME = 60
MAX_VALUE = 10_000


@dataclass(frozen=True, slots=True)
class DocProblem:
    """A problem with a match document, with where it is (0-based match and hand, if any)."""

    code: str
    params: Mapping[str, object] = field(default_factory=dict)
    match: int | None = None
    hand: int | None = None
    problem: Problem | None = None  # a hand that does not add up: the engine's own problem
    side_names: tuple[str, ...] = ()

    def describe(self, translate: Callable[[str], str] = gettext_noop) -> str:
        if self.problem is not None:
            text = self.problem.describe(self.side_names, translate)
        else:
            text = translate(MESSAGES[self.code]) % dict(self.params)
        if self.hand is not None:
            text = translate(MESSAGES["at_hand"]) % {"hand": self.hand + 1, "message": text}
        if self.match is not None:
            text = translate(MESSAGES["at_match"]) % {"match": self.match + 1, "message": text}
        return text


@dataclass(frozen=True, slots=True)
class MatchDoc:
    """A parsed, checked match document."""

    rules: Rules
    sides: tuple[tuple[str, ...], ...]
    start_totals: tuple[int, ...]
    hands: tuple[tuple[Tally, ...], ...]

    @property
    def side_names(self) -> tuple[str, ...]:
        return tuple(" & ".join(players) for players in self.sides)


class DocumentError(ValueError):
    """The document is malformed or a hand does not add up; `problems` says what and where."""

    def __init__(self, problems: Sequence[DocProblem]) -> None:
        super().__init__("; ".join(p.describe() for p in problems))
        self.problems = list(problems)


def _show(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


class _Reader:
    """Collects problems while reading one match object."""

    def __init__(self, match: int | None) -> None:
        self.match = match
        self.problems: list[DocProblem] = []

    def add(self, code: str, hand: int | None = None, **params: object) -> None:
        self.problems.append(DocProblem(code, params, self.match, hand))

    def keys(self, obj: Mapping[str, Any], allowed: Sequence[str], where: str, hand=None) -> None:
        for key in obj:
            if key not in allowed:
                self.add("unknown_key", hand, key=f"{where}{key}")

    def integer(self, value: Any, key: str, hand: int | None = None) -> int | None:
        if isinstance(value, bool) or not isinstance(value, int) or abs(value) > MAX_VALUE:
            self.add("not_integer", hand, key=key, value=_show(value))
            return None
        return value

    def boolean(self, value: Any, key: str, hand: int | None = None) -> bool | None:
        if not isinstance(value, bool):
            self.add("not_boolean", hand, key=key, value=_show(value))
            return None
        return value


def _read_rules(reader: _Reader, raw: Any) -> Rules | None:
    if not isinstance(raw, dict):
        reader.add("not_object" if raw is not None else "missing", key="rules")
        return None
    reader.keys(raw, RULE_KEYS, "rules.")
    options: dict[str, Any] = {}
    ok = True
    for key, allowed in OPTION_VALUES.items():
        if key not in raw:
            if key == "variant":
                reader.add("missing", key="rules.variant")
                ok = False
            continue
        value = raw[key]
        if value not in allowed:
            reader.add(
                "not_one_of", key=f"rules.{key}", value=_show(value), allowed=", ".join(allowed)
            )
            ok = False
        else:
            options[key] = value
    if "target" in raw:
        target = reader.integer(raw["target"], "rules.target")
        if target is None:
            ok = False
        elif target < 1:
            reader.add("target_low", value=target)
            ok = False
        else:
            options["target"] = target
    if not ok:
        return None
    return Rules.make(options.pop("variant"), **options)


def _read_sides(reader: _Reader, raw: Any) -> tuple[tuple[str, ...], ...] | None:
    if not isinstance(raw, list):
        reader.add("not_list" if raw is not None else "missing", key="sides")
        return None
    if not 2 <= len(raw) <= 4:
        reader.add("sides_count", count=len(raw))
        return None
    sides = []
    seen: dict[str, int] = {}
    ok = True
    for index, side in enumerate(raw):
        players = side.get("players") if isinstance(side, dict) else None
        partnership = len(raw) == 2
        if not isinstance(players, list) or not players or len(players) > (2 if partnership else 1):
            reader.add("side_players", side=index + 1)
            ok = False
            continue
        reader.keys(side, ("players",), f"sides[{index}].")
        names = []
        for name in players:
            if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_NAME:
                reader.add("player_name", side=index + 1)
                ok = False
                continue
            name = name.strip()
            if name.casefold() in seen:
                reader.add("player_twice", name=name)
                ok = False
            seen[name.casefold()] = index
            names.append(name)
        sides.append(tuple(names))
    if ok and len({len(players) for players in sides}) > 1:
        reader.add("side_players", side=2)
        ok = False
    return tuple(sides) if ok else None


def _read_tally(reader: _Reader, raw: Any, hand: int, key: str) -> Tally | None:
    if not isinstance(raw, dict):
        reader.add("not_object", hand, key=key)
        return None
    reader.keys(raw, TALLY_KEYS, f"{key}.", hand)
    values: dict[str, Any] = {}
    ok = True
    for name in ("cards", "spades", "sweeps"):
        if name not in raw:
            if name == "sweeps":
                values[name] = 0
                continue
            reader.add("missing", hand, key=f"{key}.{name}")
            ok = False
            continue
        values[name] = reader.integer(raw[name], f"{key}.{name}", hand)
        ok = ok and values[name] is not None
    for name in ("big_casino", "little_casino"):
        values[name] = reader.boolean(raw.get(name, False), f"{key}.{name}", hand)
        ok = ok and values[name] is not None
    aces = raw.get("aces", "")
    if (
        not isinstance(aces, str)
        or len(set(aces.upper())) != len(aces)
        or not set(aces.upper()) <= set(rules.ACE_SUITS)
    ):
        reader.add("aces", hand, key=f"{key}.aces", value=_show(aces))
        ok = False
    if not ok:
        return None
    return Tally.make(aces=aces, **values)


def read_match(raw: Any, match: int | None = None) -> MatchDoc:
    """Parse and check one match object; raise DocumentError listing every problem found.

    Each hand is checked against the deck, and a hand after the deciding one is refused.
    """
    reader = _Reader(match)
    if not isinstance(raw, dict):
        raise DocumentError([DocProblem("not_match", {}, match)])
    if raw.get("format") != FORMAT:
        reader.add("format", value=_show(raw.get("format")))
    reader.keys(raw, MATCH_KEYS, "")
    match_rules = _read_rules(reader, raw.get("rules"))
    sides = _read_sides(reader, raw.get("sides"))
    side_count = len(sides) if sides else 0
    start_totals: tuple[int, ...] = (0,) * side_count
    if raw.get("start_totals") is not None:
        given = raw["start_totals"]
        if not isinstance(given, list):
            reader.add("not_list", key="start_totals")
        else:
            parsed = [reader.integer(value, "start_totals") for value in given]
            if sides and len(given) != side_count:
                reader.add("start_totals_count", count=len(given), sides=side_count)
            for value in parsed:
                if value is not None and value < 0:
                    reader.add("start_total_negative", value=value)
            if all(value is not None for value in parsed):
                start_totals = tuple(parsed)  # type: ignore[arg-type]
    difference = match_rules is not None and match_rules.scoring is rules.Scoring.DIFFERENCE
    if difference and sides and side_count != 2:
        reader.add("difference_sides")

    hands_raw = raw.get("hands", [])
    hands: list[tuple[Tally, ...]] = []
    if not isinstance(hands_raw, list):
        reader.add("not_list", key="hands")
        hands_raw = []
    for index, hand in enumerate(hands_raw):
        tallies_raw = hand.get("tallies") if isinstance(hand, dict) else None
        if not isinstance(tallies_raw, list):
            reader.add("not_list", index, key="tallies")
            continue
        if isinstance(hand, dict):
            reader.keys(hand, ("tallies",), "", index)
        tallies = [
            _read_tally(reader, tally, index, f"tallies[{position}]")
            for position, tally in enumerate(tallies_raw)
        ]
        if all(tally is not None for tally in tallies):
            hands.append(tuple(tallies))  # type: ignore[arg-type]

    if reader.problems:
        raise DocumentError(reader.problems)
    assert match_rules is not None and sides is not None
    doc = MatchDoc(match_rules, sides, start_totals, tuple(hands))
    problems = check_hands(doc)
    if problems:
        raise DocumentError(problems)
    return doc


def check_hands(doc: MatchDoc) -> list[DocProblem]:
    """Problems of the hands: each must add up, and none may follow the deciding hand."""
    problems = []
    names = doc.side_names
    for index, tallies in enumerate(doc.hands):
        for problem in rules.validate(tallies, len(doc.sides)):
            problems.append(DocProblem(problem.code, {}, None, index, problem, names))
    if problems:
        return problems
    try:
        rules.score_match(doc.rules, doc.hands, doc.start_totals)
    except rules.MatchOverError as error:
        after = Problem("after_win")
        return [DocProblem("after_win", {}, None, error.hand_index, after, names)]
    return []


def load_document(text: str) -> tuple[list[MatchDoc], bool]:
    """Parse a file's text: one match object or a list of them.

    Returns the matches and whether the file held a list. Raises DocumentError.
    """
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as error:
        problem = DocProblem("not_json", {"line": error.lineno, "column": error.colno})
        raise DocumentError([problem]) from None
    except RecursionError:
        raise DocumentError([DocProblem("too_deep")]) from None
    if isinstance(raw, list):
        if not raw:
            raise DocumentError([DocProblem("no_matches")])
        docs, problems = [], []
        for index, item in enumerate(raw):
            try:
                docs.append(read_match(item, index))
            except DocumentError as error:
                problems.extend(
                    p if p.match is not None else _at_match(p, index) for p in error.problems
                )
        if problems:
            raise DocumentError(problems)
        return docs, True
    return [read_match(raw)], False


def _at_match(problem: DocProblem, index: int) -> DocProblem:
    return DocProblem(
        problem.code,
        problem.params,
        index,
        problem.hand,
        problem.problem,
        problem.side_names,
    )


def tally_json(tally: Tally) -> dict[str, Any]:
    return {
        "cards": tally.cards,
        "spades": tally.spades,
        "big_casino": tally.big_casino,
        "little_casino": tally.little_casino,
        "aces": tally.aces,
        "sweeps": tally.sweeps,
    }


def result_json(score: rules.MatchScore) -> dict[str, Any]:
    """The `result` object of the format for a scored match."""
    return {
        "hands": [
            {
                "points": list(hand.points),
                "breakdown": [b._asdict() for b in hand.breakdown],
                "totals": list(hand.totals),
            }
            for hand in score.hands
        ],
        "totals": list(score.totals),
        "status": str(score.status),
        "winner": score.winner,
    }


def match_json(doc: MatchDoc) -> dict[str, Any]:
    """The whole document for a match, `result` included."""
    match_rules = doc.rules
    document: dict[str, Any] = {
        "format": FORMAT,
        "rules": {
            "variant": str(match_rules.variant),
            "target": match_rules.target,
            "sweeps": str(match_rules.sweeps),
            "several_reach": str(match_rules.several_reach),
            "scoring": str(match_rules.scoring),
        },
        "sides": [{"players": list(players)} for players in doc.sides],
        "start_totals": list(doc.start_totals),
        "hands": [{"tallies": [tally_json(t) for t in hand]} for hand in doc.hands],
    }
    if match_rules.variant is rules.Variant.DOMINICAN:
        document["rules"]["twenty_needs"] = str(match_rules.twenty_needs)
    document["result"] = result_json(score_doc(doc))
    return document


def score_doc(doc: MatchDoc) -> rules.MatchScore:
    return rules.score_match(doc.rules, doc.hands, doc.start_totals)
