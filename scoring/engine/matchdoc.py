"""The match JSON format ("casino-score/1", docs/MATCH_FORMAT.md): parse, check and render.

Pure Python like `rules`: the `score`, `export_matches` and `import_matches` commands and the web
import/export are thin layers over `load_document` (or `parse_json` and `read_documents`, or
`score_documents`), `read_match`, `match_json`, `result_json` and `json_chunks` (which writes a
long list of documents one at a time).

Every problem of a document is reported, not only the first: what cannot be read is named
(key, match, hand, side), and each hand that could be read is still checked against the deck.
Nothing a file holds can make this module raise anything but DocumentError: numbers of any
length, lone surrogates, NUL and letters whose capitals are other letters are refused in words.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scoring.engine import rules
from scoring.engine.rules import Lineup, Paper, Problem, Rules, Tally, gettext_noop

FORMAT = "casino-score/1"
RULE_KEYS = (
    "variant",
    "target",
    "sweeps",
    "several_reach",
    "scoring",
    "twenty_needs",
    "ties",
    "sweep_freeze",
)
TALLY_KEYS = ("cards", "spades", "big_casino", "little_casino", "aces", "sweeps")
# Tally keys only one variant records (RULES.md §9), and that variant. Elsewhere a true value is
# refused and a false one (what an older export or a tally's full field list holds) is accepted.
VARIANT_TALLY_KEYS = {"last_capture": rules.Variant.SWEDISH, "jack_of_spades": rules.Variant.SPADE}
# Options only one variant has: the variant that has them.
VARIANT_RULE_KEYS = {
    "twenty_needs": rules.Variant.DOMINICAN,
    "ties": rules.Variant.FINNISH,
    "sweep_freeze": rules.Variant.FINNISH,
}
MATCH_KEYS = (
    "format",
    "rules",
    "sides",
    "abandoned",
    "first_dealer",
    "start_totals",
    "last_hand",
    "hands",
    "paper",
    "result",
)
PAPER_KEYS = ("totals", "winner")
OPTION_VALUES: dict[str, tuple[str, ...]] = {
    "variant": tuple(rules.Variant),
    "sweeps": tuple(rules.SweepRule),
    "several_reach": tuple(rules.SeveralReach),
    "scoring": tuple(rules.Scoring),
    "twenty_needs": tuple(rules.TwentyNeeds),
    "ties": tuple(rules.Ties),
    "sweep_freeze": tuple(rules.SweepFreeze),
}

MAX_NAME = 60
MAX_TARGET = rules.MAX_TARGET
MIN_DOMINICAN_TARGET = rules.MIN_DOMINICAN_TARGET  # room for the near-target rules (RULES.md §6)
MAX_START_TOTAL = rules.MAX_START_TOTAL
MAX_HANDS = 1000  # hands in one match: hand numbers run 1 to 1,000, on the scoreboard too
TALLY_RANGES = {"cards": rules.PACK, "spades": rules.SPADES, "sweeps": rules.MAX_SWEEPS}
ACE_LETTERS = frozenset(rules.ACE_SUITS + rules.ACE_SUITS.lower())
# Longer integers are out of every range of the format; they are not converted at all (Python
# refuses to convert more than 4,300 digits, and converting is quadratic before that).
MAX_DIGITS = 20

MESSAGES = {
    "not_json": gettext_noop("the file is not valid JSON (line %(line)d, column %(column)d)"),
    "too_deep": gettext_noop("the file is nested too deeply to be a match document"),
    "not_match": gettext_noop("a match must be a JSON object"),
    "no_matches": gettext_noop("the list holds no match"),
    "too_many_matches": gettext_noop("one import takes at most %(limit)d matches, not %(count)d"),
    "too_many_hands_in_file": gettext_noop(
        "one import takes at most %(limit)d hands, not %(count)d"
    ),
    "too_many_hands": gettext_noop("a match has at most %(limit)d hands, not %(count)d"),
    "format": gettext_noop('format must be "casino-score/1", not %(value)s'),
    "missing": gettext_noop("%(key)s is missing"),
    "unknown_key": gettext_noop("unknown key %(key)s"),
    "not_one_of": gettext_noop("%(key)s: %(value)s is not one of %(allowed)s"),
    "number": gettext_noop(
        "%(key)s must be a whole number from %(low)d to %(high)d, not %(value)s"
    ),
    "dominican_target": gettext_noop(
        "%(key)s must be a whole number from %(low)d to %(high)d for dominican, not %(value)s"
    ),
    "dominican_only": gettext_noop("%(key)s is for dominican only, not %(variant)s"),
    "variant_only": gettext_noop("%(key)s is for %(owner)s only, not %(variant)s"),
    "finnish_sweeps": gettext_noop(
        "rules.sweeps must be cancel for finnish (its sweeps always cancel), not %(value)s"
    ),
    "sweep_freeze_text": gettext_noop(
        'rules.sweep_freeze must be the text "10" or "off", not %(value)s'
    ),
    "rules_refused": gettext_noop("rules: %(error)s"),
    "variant_tally_key": gettext_noop(
        "%(key)s is true, but only %(owner)s records it, not %(variant)s"
    ),
    "not_boolean": gettext_noop("%(key)s must be true or false, not %(value)s"),
    "not_list": gettext_noop("%(key)s must be a list"),
    "not_object": gettext_noop("%(key)s must be an object"),
    "hand_not_object": gettext_noop('a hand must be an object, {"tallies": [...]}, not %(value)s'),
    "hand_is_list": gettext_noop('a hand must be an object, {"tallies": [...]}, not a list'),
    "sides_count": gettext_noop("a match has 2 to 4 sides, not %(count)d"),
    "side_players": gettext_noop(
        "side %(side)d: a side is 1 player, or 2 partners when there are two sides of two"
    ),
    "sides_uneven": gettext_noop(
        "the two sides must have as many players: 1 each, or 2 partners each"
    ),
    "player_name": gettext_noop(
        "side %(side)d: a player's name must be text of 1 to 60 characters"
    ),
    "player_name_folded": gettext_noop(
        "side %(side)d: a player's name is at most 60 characters with ß counted as ss, "
        "not %(length)d"
    ),
    "player_name_text": gettext_noop(
        "side %(side)d: a player's name cannot hold a NUL, a lone surrogate or U+FFFD, "
        "not %(value)s"
    ),
    "player_twice": gettext_noop("%(name)s plays on more than one side"),
    "player_twice_on_side": gettext_noop("side %(side)d: %(name)s is named twice"),
    "start_totals_count": gettext_noop("start_totals has %(count)d numbers for %(sides)d sides"),
    "start_won": gettext_noop(
        "start_totals: side %(side)d alone holds the top total, %(total)d, at or past the "
        "target (%(target)d): that game is already won"
    ),
    "difference_sides": gettext_noop("difference scoring needs exactly 2 sides"),
    "aces": gettext_noop(
        "%(key)s must be letters from S, C, H, D, each at most once, not %(value)s"
    ),
    "abandoned_won": gettext_noop("abandoned is true, but hand %(number)d won the match"),
    "paper_hands": gettext_noop("paper is a result without hands: hands must be empty"),
    "quick_not_here": gettext_noop(
        "quick is true, but who took most is entered only with two sides, in a game other than"
        " spade: this is %(variant)s with %(sides)d sides"
    ),
    "paper_abandoned": gettext_noop("paper is a won match: abandoned must be false"),
    "paper_refused": gettext_noop("paper: %(error)s"),
    "at_match": gettext_noop("match %(match)d: %(message)s"),
    "at_hand": gettext_noop("hand %(hand)d: %(message)s"),
}


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
    abandoned: bool = False
    first_dealer: int = 0  # seat of the first hand's dealer (seats alternate sides)
    # A timed round (the event rule "time", RULES.md): the number of the hand in progress when
    # time was called (from it on, the side alone highest after a hand wins); None: no time.
    last_hand: int | None = None
    # A table played on paper: its final totals and winner, entered instead of its hands.
    paper: Paper | None = None
    # The numbers of the hands entered as who took most (RULES.md §7.1), not counted.
    quick: frozenset[int] = frozenset()

    @property
    def side_names(self) -> tuple[str, ...]:
        return tuple(Lineup(self.sides).names())


class DocumentError(ValueError):
    """The document is malformed or a hand does not add up; `problems` says what and where."""

    def __init__(self, problems: Sequence[DocProblem]) -> None:
        super().__init__("; ".join(p.describe() for p in problems))
        self.problems = list(problems)


# --- text that can be shown and stored -----------------------------------------------------------


class LongNumber:
    """A JSON integer with more than MAX_DIGITS digits, kept as its digits (never converted)."""

    __slots__ = ("digits",)

    def __init__(self, digits: str) -> None:
        self.digits = digits


def _parse_int(digits: str) -> int | LongNumber:
    return int(digits) if len(digits) <= MAX_DIGITS else LongNumber(digits)


# Lone surrogates cannot be written as UTF-8 (not to a page, a terminal or a database); NUL is
# refused by PostgreSQL; U+FFFD is what a decoder leaves of bytes that were not UTF-8.
_NOT_TEXT = re.compile("[\x00\ud800-\udfff\ufffd]")
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def bad_text(text: str) -> bool:
    """Whether `text` holds a NUL, a lone surrogate or U+FFFD: no name may."""
    return _NOT_TEXT.search(text) is not None


def _printable(text: str) -> str:
    """`text` with control characters and lone surrogates written as \\uXXXX escapes."""
    return _UNPRINTABLE.sub(lambda found: f"\\u{ord(found.group()):04x}", text)


def _clip(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "..."


def _show(value: object) -> str:
    """A value from the file, as a message shows it: JSON, printable, at most 40 characters."""
    if isinstance(value, LongNumber):
        return _clip(value.digits)
    try:
        text = json.dumps(value, ensure_ascii=False, default=lambda v: v.digits)
    except (RecursionError, ValueError):
        text = "..."
    return _clip(_printable(text))


# --- reading -------------------------------------------------------------------------------------


class _Reader:
    """Collects problems while reading one match object."""

    def __init__(self, match: int | None) -> None:
        self.match = match
        self.problems: list[DocProblem] = []
        # The match's variant once rules.variant is read (the hands are checked for it even when
        # other rules have problems), else None.
        self.variant: rules.Variant | None = None

    def add(self, code: str, hand: int | None = None, **params: object) -> None:
        self.problems.append(DocProblem(code, params, self.match, hand))

    def keys(self, obj: Mapping[str, Any], allowed: Sequence[str], where: str, hand=None) -> None:
        for key in obj:
            if key not in allowed:
                self.add("unknown_key", hand, key=_clip(_printable(f"{where}{key}")))

    def integer(
        self, value: Any, key: str, low: int, high: int, hand: int | None = None
    ) -> int | None:
        """`value` when it is a whole number from `low` to `high`; else a problem saying so."""
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            self.add("number", hand, key=key, low=low, high=high, value=_show(value))
            return None
        return value

    def boolean(self, value: Any, key: str, hand: int | None = None) -> bool | None:
        if not isinstance(value, bool):
            self.add("not_boolean", hand, key=key, value=_show(value))
            return None
        return value


def _read_rules(reader: _Reader, raw: Any) -> Rules | None:
    """The match's rules, or None when any option is wrong (each wrong one is reported)."""
    if not isinstance(raw, dict):
        reader.add("not_object" if raw is not None else "missing", key="rules")
        return None
    reader.keys(raw, RULE_KEYS, "rules.")
    options, ok = _read_options(reader, raw)
    variant = options.get("variant")
    if variant is not None:
        reader.variant = rules.Variant(variant)
        ok = _variant_options_fit(reader, raw, options) and ok
    ok = _read_target(reader, raw, variant, options) and ok
    if not ok:
        return None
    try:
        return Rules.make(options.pop("variant"), **options)
    except ValueError as error:  # every value was checked above: a safety net, not a traceback
        reader.add("rules_refused", error=str(error))
        return None


def _read_options(reader: _Reader, raw: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """The options given as words (variant, sweeps, ...) that are among their values, and
    whether all were (the variant must be given)."""
    options: dict[str, Any] = {}
    ok = True
    for key, allowed in OPTION_VALUES.items():
        if key not in raw:
            if key == "variant":
                reader.add("missing", key="rules.variant")
                ok = False
            continue
        value = raw[key]
        if key == "sweep_freeze" and value == int(rules.SweepFreeze.TEN):
            reader.add("sweep_freeze_text", value=_show(value))  # 10, not "10"
            ok = False
        elif not isinstance(value, str) or value not in allowed:
            reader.add(
                "not_one_of", key=f"rules.{key}", value=_show(value), allowed=", ".join(allowed)
            )
            ok = False
        else:
            options[key] = value
    return options, ok


def _variant_options_fit(reader: _Reader, raw: dict[str, Any], options: dict[str, Any]) -> bool:
    """Whether the options only one variant has are given only for it, and Finnish Kasino's
    sweeps cancel (each misfit is reported)."""
    variant = options["variant"]
    ok = True
    for key, owner in VARIANT_RULE_KEYS.items():
        if key in raw and variant != owner:
            code = "dominican_only" if owner is rules.Variant.DOMINICAN else "variant_only"
            reader.add(code, key=f"rules.{key}", owner=str(owner), variant=variant)
            ok = False
    sweeps = options.get("sweeps")
    if variant == rules.Variant.FINNISH and sweeps not in (None, rules.SweepRule.CANCEL):
        reader.add("finnish_sweeps", value=_show(sweeps))
        ok = False
    return ok


def _read_target(
    reader: _Reader, raw: dict[str, Any], variant: str | None, options: dict[str, Any]
) -> bool:
    """Put a given target into `options` if it is in range for the variant (Dominican Royal
    Casino needs room for its near-target rules); False, reported, if it is not."""
    if "target" not in raw:
        return True
    if variant == rules.Variant.DOMINICAN:
        low, code = MIN_DOMINICAN_TARGET, "dominican_target"
    else:
        low, code = 1, "number"
    target = raw["target"]
    if isinstance(target, bool) or not isinstance(target, int) or not low <= target <= MAX_TARGET:
        reader.add(code, key="rules.target", low=low, high=MAX_TARGET, value=_show(target))
        return False
    options["target"] = target
    return True


def _read_sides(reader: _Reader, raw: Any) -> tuple[tuple[str, ...], ...] | None:
    most = _most_per_side(reader, raw)
    if most is None:
        return None
    sides = []
    seen: dict[str, int] = {}
    ok = True
    for index, side in enumerate(raw):
        names, fine = _read_side(reader, side, index, most, seen)
        if names is not None:
            sides.append(names)
        ok = ok and fine
    if ok and len({len(players) for players in sides}) > 1:
        reader.add("sides_uneven")
        ok = False
    return tuple(sides) if ok else None


def _most_per_side(reader: _Reader, raw: Any) -> int | None:
    """The most players a side may have, for a list of as many sides as a table has; else None."""
    if not isinstance(raw, list):
        reader.add("not_list" if raw is not None else "missing", key="sides")
        return None
    sizes = {sides: per_side for sides, per_side in rules.TABLES}  # the most players a side has
    if len(raw) not in sizes:
        reader.add("sides_count", count=len(raw))
        return None
    return sizes[len(raw)]  # partners only as two sides of two


def _read_side(
    reader: _Reader, side: Any, index: int, most: int, seen: dict[str, int]
) -> tuple[tuple[str, ...] | None, bool]:
    """The names read of side `index` (None if it has no list of players that fits), and
    whether all were good; `seen` maps each name's key to its side."""
    players = side.get("players") if isinstance(side, dict) else None
    if not isinstance(players, list) or not 1 <= len(players) <= most:
        reader.add("side_players", side=index + 1)
        return None, False
    reader.keys(side, ("players",), f"sides[{index}].")
    names = []
    ok = True
    for name in players:
        kept, fine = _read_player(reader, name, index, seen)
        if kept is not None:
            names.append(kept)
        ok = ok and fine
    return tuple(names), ok


def _read_player(
    reader: _Reader, name: Any, index: int, seen: dict[str, int]
) -> tuple[str | None, bool]:
    """The stripped name (None if it cannot be one) and whether it is good: a name given
    twice is kept, to report each repeat, but is not good."""
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_NAME:
        reader.add("player_name", side=index + 1)
        return None, False
    if bad_text(name):
        reader.add("player_name_text", side=index + 1, value=_show(name))
        return None, False
    name = name.strip()
    key = name.casefold()  # as models.name_key compares names, in a 60-character column
    if len(key) > MAX_NAME:
        reader.add("player_name_folded", side=index + 1, length=len(key))
        return None, False
    first = key not in seen
    if not first:
        if seen[key] == index:
            reader.add("player_twice_on_side", side=index + 1, name=name)
        else:
            reader.add("player_twice", name=name)
    seen[key] = index
    return name, first


def _read_start_totals(reader: _Reader, raw: Any, sides: int | None) -> tuple[int, ...] | None:
    if raw is None:
        return (0,) * sides if sides else None
    if not isinstance(raw, list):
        reader.add("not_list", key="start_totals")
        return None
    parsed = [
        reader.integer(value, f"start_totals[{index}]", 0, MAX_START_TOTAL)
        for index, value in enumerate(raw)
    ]
    if sides and len(raw) != sides:
        reader.add("start_totals_count", count=len(raw), sides=sides)
        return None
    if any(value is None for value in parsed):
        return None
    return tuple(parsed)  # type: ignore[arg-type]


def _read_tally(reader: _Reader, raw: Any, hand: int, key: str) -> Tally | None:
    if not isinstance(raw, dict):
        reader.add("not_object", hand, key=key)
        return None
    reader.keys(raw, (*TALLY_KEYS, *VARIANT_TALLY_KEYS), f"{key}.", hand)
    values: dict[str, Any] = {}
    counted = _read_counts(reader, raw, hand, key, values)
    flagged = _read_flags(reader, raw, hand, key, values)
    _check_variant_flags(reader, values, hand, key)
    aces = raw.get("aces", "")
    if not (_aces_fit(reader, aces, hand, key) and counted and flagged):
        return None
    return Tally.make(aces=aces, **values)


def _read_counts(
    reader: _Reader, raw: dict[str, Any], hand: int, key: str, values: dict[str, Any]
) -> bool:
    """Put the tally's counts into `values`; whether all were given and in range (sweeps: 0)."""
    ok = True
    for name, high in TALLY_RANGES.items():
        if name not in raw:
            if name == "sweeps":
                values[name] = 0
                continue
            reader.add("missing", hand, key=f"{key}.{name}")
            ok = False
            continue
        values[name] = reader.integer(raw[name], f"{key}.{name}", 0, high, hand)
        ok = ok and values[name] is not None
    return ok


def _read_flags(
    reader: _Reader, raw: dict[str, Any], hand: int, key: str, values: dict[str, Any]
) -> bool:
    """Put the tally's true/false fields into `values` (absent: false); whether all were."""
    ok = True
    for name in ("big_casino", "little_casino", *VARIANT_TALLY_KEYS):
        values[name] = reader.boolean(raw.get(name, False), f"{key}.{name}", hand)
        ok = ok and values[name] is not None
    return ok


def _check_variant_flags(reader: _Reader, values: dict[str, Any], hand: int, key: str) -> None:
    """Report a true value where the variant records nothing; the hand is still checked."""
    for name, owner in VARIANT_TALLY_KEYS.items():
        if values[name] and reader.variant is not None and reader.variant is not owner:
            reader.add(
                "variant_tally_key",
                hand,
                key=f"{key}.{name}",
                owner=str(owner),
                variant=str(reader.variant),
            )


def _aces_fit(reader: _Reader, aces: Any, hand: int, key: str) -> bool:
    """Whether `aces` is a string of distinct suit letters; reported if not."""
    # Letter by letter: "ß".upper() is "SS" and "ſ".upper() is "S", so the whole string's
    # capitals say nothing about its letters.
    if (
        not isinstance(aces, str)
        or not set(aces) <= ACE_LETTERS
        or len(set(aces.upper())) != len(aces)
    ):
        reader.add("aces", hand, key=f"{key}.aces", value=_show(aces))
        return False
    return True


def _read_hands(
    reader: _Reader, raw: Any, sides: int | None, names: tuple[str, ...]
) -> tuple[list[tuple[Tally, ...]], frozenset[int]]:
    """The hands that could be read, and the numbers of those entered quickly; each is checked
    against the deck, even when other parts of the match have problems."""
    if not isinstance(raw, list):
        reader.add("not_list", key="hands")
        return [], frozenset()
    if len(raw) > MAX_HANDS:
        reader.add("too_many_hands", limit=MAX_HANDS, count=len(raw))
        return [], frozenset()
    hands: list[tuple[Tally, ...]] = []
    quick = set()
    for index, hand in enumerate(raw):
        tallies = _read_hand(reader, hand, index, sides, names)
        if tallies is not None:
            hands.append(tallies)
        if isinstance(hand, dict) and _read_quick(reader, hand, index, sides):
            quick.add(index + 1)
    return hands, frozenset(quick)


def _read_quick(reader: _Reader, hand: Mapping[str, Any], index: int, sides: int | None) -> bool:
    """Whether hand `index` says it was entered as who took most (where the game allows it)."""
    quick = reader.boolean(hand.get("quick", False), "quick", index)
    variant = reader.variant
    if (
        quick
        and sides is not None
        and variant is not None
        and not rules.quick_entry(variant, sides)
    ):
        reader.add("quick_not_here", index, variant=str(variant), sides=sides)
        return False
    return bool(quick)


def _read_hand(
    reader: _Reader, hand: Any, index: int, sides: int | None, names: tuple[str, ...]
) -> tuple[Tally, ...] | None:
    """Hand `index`'s tallies, or None when they cannot be read or do not add up (reported)."""
    if isinstance(hand, list):  # the tallies without their object
        reader.add("hand_is_list", index)
        return None
    if not isinstance(hand, dict):
        reader.add("hand_not_object", index, value=_show(hand))
        return None
    reader.keys(hand, ("tallies", "quick"), "", index)
    tallies_raw = hand.get("tallies")
    if not isinstance(tallies_raw, list):
        reader.add("not_list" if tallies_raw is not None else "missing", index, key="tallies")
        return None
    tallies = [
        _read_tally(reader, tally, index, f"tallies[{position}]")
        for position, tally in enumerate(tallies_raw)
    ]
    if any(tally is None for tally in tallies):
        return None
    problems = _hand_problems(tallies, sides, reader.variant)  # type: ignore[arg-type]
    for problem in problems:
        reader.problems.append(DocProblem(problem.code, {}, reader.match, index, problem, names))
    return None if problems else tuple(tallies)  # type: ignore[arg-type]


def _hand_problems(
    tallies: Sequence[Tally], sides: int | None, variant: rules.Variant | None
) -> list[Problem]:
    """The engine's problems with a hand (RULES.md §7, §9). A variant-only field marked in another
    variant is left out: the reader names it, with the side (the engine names only the field)."""
    return [
        problem
        for problem in rules.validate(tallies, sides, variant)
        if problem.code != "field_unused"
    ]


def read_match(raw: Any, match: int | None = None) -> MatchDoc:
    """Parse and check one match object; raise DocumentError listing every problem found.

    Each hand is checked against the deck, and a hand after the deciding one is refused.
    """
    return read_scored_match(raw, match)[0]


def read_scored_match(raw: Any, match: int | None = None) -> tuple[MatchDoc, rules.MatchScore]:
    """`read_match`, with the score it computed to check the order of events (scored once)."""
    reader = _Reader(match)
    if not isinstance(raw, dict):
        raise DocumentError([DocProblem("not_match", {}, match)])
    doc = _read_doc(reader, raw)
    return doc, _score_read(doc, match)


def _read_doc(reader: _Reader, raw: dict[str, Any]) -> MatchDoc:
    """Every part of the match object; raises DocumentError listing every problem found."""
    if raw.get("format") != FORMAT:
        reader.add("format", value=_show(raw.get("format")))
    reader.keys(raw, MATCH_KEYS, "")
    match_rules = _read_rules(reader, raw.get("rules"))
    sides = _read_sides(reader, raw.get("sides"))
    side_count = len(sides) if sides else None
    names = tuple(Lineup(sides).names()) if sides else ()
    start_totals = _read_start_totals(reader, raw.get("start_totals"), side_count)
    _check_start_leader(reader, match_rules, start_totals)
    abandoned = reader.boolean(raw.get("abandoned", False), "abandoned")
    first_dealer, last_hand = _read_dealing(reader, raw, sides)
    _check_table(reader, match_rules, sides)
    hands, quick = _read_hands(reader, raw.get("hands", []), side_count, names)
    paper = _read_paper(reader, raw, match_rules, start_totals, hands, abandoned)

    if reader.problems:
        raise DocumentError(reader.problems)
    assert match_rules is not None and sides is not None and start_totals is not None
    return MatchDoc(
        match_rules,
        sides,
        start_totals,
        tuple(hands),
        bool(abandoned),
        first_dealer or 0,
        last_hand,
        paper,
        quick,
    )


def _read_paper(
    reader: _Reader,
    raw: dict[str, Any],
    match_rules: Rules | None,
    start_totals: tuple[int, ...] | None,
    hands: Sequence[Any],
    abandoned: bool | None,
) -> rules.Paper | None:
    """A result from paper (`paper`), checked by the engine once the rest was read."""
    written = raw.get("paper")
    if written is None:
        return None
    if not isinstance(written, dict):
        reader.add("not_object", key="paper")
        return None
    reader.keys(written, PAPER_KEYS, "paper.")
    totals = written.get("totals")
    if not isinstance(totals, list):
        reader.add("not_list", key="paper.totals")
        return None
    read = [reader.integer(t, "paper.totals", 0, rules.MAX_PAPER_TOTAL) for t in totals]
    winner = reader.integer(written.get("winner"), "paper.winner", 0, 3)
    if hands or raw.get("hands"):
        reader.add("paper_hands")
    if abandoned:
        reader.add("paper_abandoned")
    if winner is None or None in read or match_rules is None or start_totals is None:
        return None
    paper = rules.Paper(tuple(t for t in read if t is not None), winner)
    problem = rules.paper_problem(match_rules, paper, start_totals)
    if problem is not None:
        error = rules.PAPER_PROBLEMS[problem] % paper_params(match_rules)
        reader.add("paper_refused", error=error)
    return paper


def paper_params(match_rules: Rules) -> dict[str, int]:
    """What the words of rules.PAPER_PROBLEMS take."""
    return {"most": rules.MAX_PAPER_TOTAL, "target": match_rules.target}


def _check_start_leader(
    reader: _Reader, match_rules: Rules | None, start_totals: tuple[int, ...] | None
) -> None:
    """Report start totals that have already won the match (once both were read)."""
    if match_rules is None or start_totals is None:
        return
    leader = rules.start_leader(match_rules.target, start_totals)
    if leader is not None:
        reader.add(
            "start_won",
            side=leader + 1,
            total=start_totals[leader],
            target=match_rules.target,
        )


def _check_table(
    reader: _Reader, match_rules: Rules | None, sides: tuple[tuple[str, ...], ...] | None
) -> None:
    """Report a table the scoring cannot have (once the rules and sides were read)."""
    if match_rules is None or not sides:
        return
    table = rules.table_problem([len(players) for players in sides], match_rules.scoring)
    if table == "difference_sides":
        reader.add("difference_sides")


def _read_dealing(
    reader: _Reader, raw: dict[str, Any], sides: tuple[tuple[str, ...], ...] | None
) -> tuple[int | None, int | None]:
    """The first dealer's seat (4 seats when the sides are unknown) and the timed round's hand."""
    seats = sum(len(players) for players in sides) if sides else 4
    first_dealer = reader.integer(raw.get("first_dealer", 0), "first_dealer", 0, seats - 1)
    last_hand = raw.get("last_hand")
    if last_hand is not None:
        last_hand = reader.integer(last_hand, "last_hand", 1, MAX_HANDS)
    return first_dealer, last_hand


def _score_read(doc: MatchDoc, match: int | None) -> rules.MatchScore:
    """The score of a match whose hands all add up; what is left to check is the order of events."""
    try:
        score = score_doc(doc)
    except rules.MatchOverError as error:
        after = Problem("after_win")
        raise DocumentError(
            [DocProblem("after_win", {}, match, error.hand_index, after, doc.side_names)]
        ) from None
    if doc.abandoned and score.status is rules.Status.WON:
        raise DocumentError([DocProblem("abandoned_won", {"number": len(doc.hands)}, match)])
    return score


def check_hands(doc: MatchDoc) -> list[DocProblem]:
    """Problems of the hands: each must add up, and none may follow the deciding hand."""
    problems = []
    names = doc.side_names
    for index, tallies in enumerate(doc.hands):
        for problem in _hand_problems(tallies, len(doc.sides), doc.rules.variant):
            problems.append(DocProblem(problem.code, {}, None, index, problem, names))
    if problems:
        return problems
    try:
        score_doc(doc)
    except rules.MatchOverError as error:
        after = Problem("after_win")
        return [DocProblem("after_win", {}, None, error.hand_index, after, names)]
    return []


def parse_json(text: str) -> Any:
    """The JSON value of a file's text; raises DocumentError when it is not JSON.

    Integers too long for any range of the format come back as LongNumber, unconverted.
    """
    try:
        return json.loads(text, parse_int=_parse_int)
    except json.JSONDecodeError as error:
        problem = DocProblem("not_json", {"line": error.lineno, "column": error.colno})
        raise DocumentError([problem]) from None
    except RecursionError:
        raise DocumentError([DocProblem("too_deep")]) from None


def _hand_count(raw: Any) -> int:
    hands = raw.get("hands") if isinstance(raw, dict) else None
    return len(hands) if isinstance(hands, list) else 0


def _match_items(
    raw: Any, max_matches: int | None = None, max_hands: int | None = None
) -> tuple[list[Any], bool]:
    """The match objects of a parsed file (one object or a list of them), and whether it held a
    list; a file above `max_matches` or `max_hands` is refused here, before any match is read."""
    items = raw if isinstance(raw, list) else [raw]
    if isinstance(raw, list) and not raw:
        raise DocumentError([DocProblem("no_matches")])
    if max_matches is not None and len(items) > max_matches:
        params = {"limit": max_matches, "count": len(items)}
        raise DocumentError([DocProblem("too_many_matches", params)])
    if max_hands is not None:
        hands = sum(_hand_count(item) for item in items)
        if hands > max_hands:
            params = {"limit": max_hands, "count": hands}
            raise DocumentError([DocProblem("too_many_hands_in_file", params)])
    return items, isinstance(raw, list)


def _read_items(items: Sequence[Any], is_list: bool) -> Iterator[tuple[MatchDoc, rules.MatchScore]]:
    """Each match read, checked and scored, in order; raises DocumentError at the end, listing
    every problem of every match, when any match has one."""
    if not is_list:
        yield read_scored_match(items[0])
        return
    problems: list[DocProblem] = []
    for index, item in enumerate(items):
        try:
            read = read_scored_match(item, index)
        except DocumentError as error:
            problems.extend(_at_match(p, index) for p in error.problems)
            continue
        if not problems:
            yield read
    if problems:
        raise DocumentError(problems)


def read_documents(
    raw: Any, *, max_matches: int | None = None, max_hands: int | None = None
) -> tuple[list[MatchDoc], bool]:
    """The matches of a parsed file: one match object or a list of them.

    Returns the matches and whether the file held a list. With `max_matches` or `max_hands`
    (hands in all the matches together), a file above them is refused before any match is read.
    Raises DocumentError.
    """
    items, is_list = _match_items(raw, max_matches, max_hands)
    return [doc for doc, _score in _read_items(items, is_list)], is_list


def score_documents(raw: Any) -> tuple[list[rules.MatchScore], bool]:
    """The score of each match of a parsed file (one object or a list of them), and whether it
    held a list: every match is read, checked and scored once, and only the scores are kept.

    Raises DocumentError listing every problem of the whole file (see `read_documents`).
    """
    items, is_list = _match_items(raw)
    return [score for _doc, score in _read_items(items, is_list)], is_list


def load_document(
    text: str, *, max_matches: int | None = None, max_hands: int | None = None
) -> tuple[list[MatchDoc], bool]:
    """Parse a file's text: one match object or a list of them (see `read_documents`)."""
    return read_documents(parse_json(text), max_matches=max_matches, max_hands=max_hands)


def load_scored_documents(
    text: str, *, max_matches: int | None = None, max_hands: int | None = None
) -> list[tuple[MatchDoc, rules.MatchScore]]:
    """Each match of a file's text with the engine's score of it, worked out while checking it
    (see `read_documents`, whose limits and errors these are)."""
    items, is_list = _match_items(parse_json(text), max_matches, max_hands)
    return list(_read_items(items, is_list))


def _at_match(problem: DocProblem, index: int | None) -> DocProblem:
    if problem.match is not None or index is None:
        return problem
    return DocProblem(
        problem.code,
        problem.params,
        index,
        problem.hand,
        problem.problem,
        problem.side_names,
    )


# --- writing -------------------------------------------------------------------------------------


def tally_json(tally: Tally, variant: rules.Variant | str | None = None) -> dict[str, Any]:
    """A tally as the format writes it: the six counts of every variant, then `last_capture` for
    swedish and `jack_of_spades` for spade (so documents of the other variants are as they always
    were). Without `variant`, a variant-only field is written when it is true."""
    written = {
        "cards": tally.cards,
        "spades": tally.spades,
        "big_casino": tally.big_casino,
        "little_casino": tally.little_casino,
        "aces": tally.aces,
        "sweeps": tally.sweeps,
    }
    for name, owner in VARIANT_TALLY_KEYS.items():
        if variant == owner or (variant is None and getattr(tally, name)):
            written[name] = getattr(tally, name)
    return written


def result_json(
    score: rules.MatchScore, variant: rules.Variant | str | None = None
) -> dict[str, Any]:
    """The `result` object of the format for a scored match; for finnish (`variant`) each hand
    has the pots it left."""
    pots = variant == rules.Variant.FINNISH
    return {
        "hands": [_hand_result(hand, pots) for hand in score.hands],
        "totals": list(score.totals),
        "status": str(score.status),
        "winner": score.winner,
    }


def _hand_result(hand: rules.HandScore, pots: bool) -> dict[str, Any]:
    written: dict[str, Any] = {
        "points": list(hand.points),
        "breakdown": [b._asdict() for b in hand.breakdown],
        "totals": list(hand.totals),
    }
    if pots:
        written["pots"] = {"cards": hand.pots[0], "spades": hand.pots[1]}
    return written


def rules_json(match_rules: Rules, *, every_option: bool = False) -> dict[str, Any]:
    """The rules as the format writes them: the options of every variant, then Dominican's and
    Finnish Kasino's own for those games (`every_option`: all of them, for the phone's engine)."""
    written: dict[str, Any] = {
        "variant": str(match_rules.variant),
        "target": match_rules.target,
        "sweeps": str(match_rules.sweeps),
        "several_reach": str(match_rules.several_reach),
        "scoring": str(match_rules.scoring),
    }
    if every_option or match_rules.variant is rules.Variant.DOMINICAN:
        written["twenty_needs"] = str(match_rules.twenty_needs)
    if every_option or match_rules.variant is rules.Variant.FINNISH:
        written["ties"] = str(match_rules.ties)
        written["sweep_freeze"] = str(match_rules.sweep_freeze)
    return written


def match_json(doc: MatchDoc, score: rules.MatchScore | None = None) -> dict[str, Any]:
    """The whole document for a match, `result` included (from `score`, if it is at hand)."""
    match_rules = doc.rules
    document: dict[str, Any] = {
        "format": FORMAT,
        "rules": rules_json(match_rules),
        "sides": [{"players": list(players)} for players in doc.sides],
        "abandoned": doc.abandoned,
        "first_dealer": doc.first_dealer,
        "start_totals": list(doc.start_totals),
    }
    if doc.last_hand is not None:
        document["last_hand"] = doc.last_hand
    if doc.paper is not None:
        document["paper"] = {"totals": list(doc.paper.totals), "winner": doc.paper.winner}
    document["hands"] = [
        {
            "tallies": [tally_json(t, match_rules.variant) for t in hand],
            **({"quick": True} if number in doc.quick else {}),
        }
        for number, hand in enumerate(doc.hands, 1)
    ]
    score = score if score is not None else score_doc(doc)
    document["result"] = result_json(score, match_rules.variant)
    return document


def json_chunks(
    documents: Iterable[Any], *, as_list: bool = True, indent: int | None = None
) -> Iterator[str]:
    """The text of a file of `documents` (a JSON list, or the one document when not `as_list`),
    one document at a time: what `json.dumps` writes for the whole of it, with `indent` or on one
    line without spaces, then a newline. Non-ASCII text is written as it is.

    Each document is encoded as soon as it comes, so a long list is never held whole, as
    documents or as text.
    """
    encoder = json.JSONEncoder(
        ensure_ascii=False,
        check_circular=False,
        indent=indent,
        separators=(",", ":") if indent is None else (",", ": "),
    )
    if not as_list:
        (document,) = documents
        yield encoder.encode(document) + "\n"
        return
    # In a list every line of a document is indented one level more; JSON text holds no line
    # breaks but the encoder's own (a line break in a string is written \n).
    newline = "" if indent is None else "\n" + " " * indent
    separator = "," + newline
    first = True
    for document in documents:
        text = encoder.encode(document)
        if newline:
            text = text.replace("\n", newline)
        yield ("[" + newline if first else separator) + text
        first = False
    yield ("[]" if first else "\n]" if newline else "]") + "\n"


def score_doc(doc: MatchDoc) -> rules.MatchScore:
    """The engine's score of a document (with its time rule, when `last_hand` is set; a table
    played on paper as its `paper` result says)."""
    if doc.paper is not None:
        return rules.paper_score(doc.rules, doc.paper, doc.start_totals)
    return rules.score_match(doc.rules, doc.hands, doc.start_totals, last_hand=doc.last_hand)
