"""The phone's scoring engine (scoring/static/scoring/engine.js) scores exactly as scoring/engine/rules.py.

A differential test: random matches (every variant, every value of every option, 2, 3 and 4 sides
and two partnerships, start totals, any first dealer, now and then a timed round (`last_hand`, the
event rule "time"); valid hands dealt from the 52 real cards, and broken ones) are scored here
by rules.py and, all at once, by engine.js in one node process (tests/engine/engine_diff.js). Every
field of every result is compared: each hand's breakdown, points, totals, status, winner, outcome
and Finnish pots, the match's, the table's turn before every hand, each side's Dominican condition
before every hand, validate's problems (and their texts), the error for a hand after the win. Both
halves turn results into plain JSON the same way (`plain` here, its mirror in engine_diff.js), so
a difference names its field.

Then random setups of the new-match form (every variant, layout and option, names in the seats
(case-folded alike, blank, repeated), any first dealer, targets and start totals as ints and as
typed text, in range or not) through setup_problems, and random posted hand forms (counts left
blank for the deck to fill in, cards given to no one) through tallies_of and validate: the checks
and the tallies the phone shares with the server, compared field for field.

The seed is fixed (CI reproduces a red run); set ENGINE_SEED to explore others. Without node the
test is skipped, unless CI is set: then it fails (CI must run it).
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import shutil
import subprocess
import time
from collections.abc import Mapping, Sequence
from enum import Enum
from pathlib import Path
from typing import Any

import pytest

from scoring.engine import rules
from scoring.engine.rules import (
    Breakdown,
    Card,
    Lineup,
    MatchOverError,
    Rules,
    Scoring,
    SeveralReach,
    Status,
    SweepFreeze,
    SweepRule,
    Tally,
    Ties,
    TwentyNeeds,
    Variant,
)

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "scoring" / "static" / "scoring" / "engine.js"
DIFF = ROOT / "tests" / "engine" / "engine_diff.js"
SEED = int(os.environ.get("ENGINE_SEED", "20240521"))
MATCHES = 20_000
SETUPS = 20_000
POSTED = 10_000
NAMES = ("Ana", "Ben", "Cleo", "Dan")


def node_or_skip() -> str:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail("node is not installed, and CI must run the JavaScript engine's tests")
        pytest.skip("node is not installed (CI installs it: .ci/run)")
    return node


# --- results as plain JSON, the same way engine_diff.js does ------------------------------------

# Properties added to an object's fields (engine_diff.js has the same list).
EXTRA: dict[type, tuple[str, ...]] = {
    Rules: ("clockwise", "endgame_from"),
    Breakdown: ("points",),
    Card: ("red", "spade", "category"),
    Lineup: ("seat_count",),
}


def plain(value: Any) -> Any:
    """NamedTuples and dataclasses as dicts of their fields (plus EXTRA), enums by value, tuples
    as lists, sets sorted: what JSON.stringify makes of engine.js's objects."""
    kind = type(value)
    if kind in SCALARS:
        return value
    convert = PLAIN.get(kind)
    if convert is None:
        convert = PLAIN[kind] = converter(kind)
    return convert(value)


SCALARS = frozenset((type(None), bool, int, str))


def flat(value: Any) -> Any:
    """`plain`, with the test for the most frequent values (numbers) made before the call."""
    return value if type(value) in SCALARS else plain(value)


def converter(kind: type) -> Any:
    """How `plain` turns a value of this type into JSON's (worked out once per type)."""
    if issubclass(kind, Enum):
        return lambda value: value.value
    extra = EXTRA.get(kind, ())
    if issubclass(kind, tuple) and hasattr(kind, "_fields"):
        names = (*kind._fields, *extra)
        return lambda value: {name: flat(getattr(value, name)) for name in names}
    if dataclasses.is_dataclass(kind):
        names = (*(f.name for f in dataclasses.fields(kind)), *extra)
        return lambda value: {name: flat(getattr(value, name)) for name in names}
    if issubclass(kind, Mapping):
        return lambda value: {str(plain(key)): plain(item) for key, item in value.items()}
    if issubclass(kind, list | tuple):
        return lambda value: [item if type(item) in SCALARS else plain(item) for item in value]
    if issubclass(kind, set | frozenset):
        return lambda value: sorted(plain(item) for item in value)
    raise TypeError(f"no plain form for {kind}")


PLAIN: dict[type, Any] = {}


def failure(error: Exception) -> dict[str, Any]:
    out: dict[str, Any] = {"error": type(error).__name__, "message": str(error)}
    if isinstance(error, MatchOverError):
        out["hand_index"] = error.hand_index
    return out


def first_difference(expected: Any, actual: Any, where: str = "") -> str | None:
    """The path of the first field where the two differ (types count: 1 is not true), or None."""
    if type(expected) is not type(actual):
        return f"{where or '.'}: Python {expected!r}, JavaScript {actual!r}"
    if isinstance(expected, dict):
        for key in sorted(set(expected) | set(actual)):
            if key not in expected or key not in actual:
                side = "JavaScript" if key not in actual else "Python"
                return f"{where}.{key}: missing in {side}"
            found = first_difference(expected[key], actual[key], f"{where}.{key}")
            if found:
                return found
        return None
    if isinstance(expected, list):
        for index, (one, other) in enumerate(zip(expected, actual, strict=False)):
            found = first_difference(one, other, f"{where}[{index}]")
            if found:
                return found
        if len(expected) != len(actual):
            return f"{where}: {len(expected)} items in Python, {len(actual)} in JavaScript"
        return None
    if expected != actual:
        return f"{where or '.'}: Python {expected!r}, JavaScript {actual!r}"
    return None


# --- random matches -----------------------------------------------------------------------------

OPTIONS: dict[str, tuple[Any, ...]] = {
    "sweeps": tuple(SweepRule),
    "several_reach": tuple(SeveralReach),
    "scoring": tuple(Scoring),
    "twenty_needs": tuple(TwentyNeeds),
    "ties": tuple(Ties),
    "sweep_freeze": tuple(SweepFreeze),
}
TARGETS = (1, 2, 3, 4, 5, 7, 11, 16, 21, 22, 31, 61, 100)
# Targets Rules.make takes (int() of them) or refuses.
ODD_TARGETS = ("16", " 21 ", "1_1", True, 12.0, 12.7, 0, -5, "x", "3.5", "", "+7")
ODD_VALUES = ("bogus", "", "COUNT", 10, "Highest")
TABLE_SHAPES = ((2, 1), (2, 1), (3, 1), (4, 1), (2, 2))
SPADE_SPECIALS = ("2S", "AS", "JS")
OTHER_SPECIALS = ("10D", "AC", "AH", "AD")


def random_options(rng: random.Random) -> tuple[str, dict[str, Any]]:
    """A variant and Rules.make options: each left out, a valid value, or (rarely) a wrong one."""
    variant: Any = rng.choice(tuple(Variant))
    if rng.random() < 0.01:
        variant = rng.choice(("bogus", "Casino", ""))
    options: dict[str, Any] = {}
    roll = rng.random()
    if roll < 0.35:
        options["target"] = rng.choice(TARGETS)
    elif roll < 0.5:
        options["target"] = rng.randint(1, 80)
    elif roll < 0.53:
        options["target"] = rng.choice(ODD_TARGETS)
    elif roll < 0.56:
        options["target"] = None
    for name, values in OPTIONS.items():
        roll = rng.random()
        if name == "sweeps" and variant == Variant.FINNISH and roll < 0.9:
            continue  # mostly the default: other values are refused
        if roll < 0.5:
            options[name] = rng.choice(values).value
        elif roll < 0.52:
            options[name] = rng.choice(ODD_VALUES)
        elif roll < 0.55:
            options[name] = None
    return str(variant), options


def split(rng: random.Random, total: int, capacities: Sequence[int]) -> list[int] | None:
    """`total` shared out among sides, each within its capacity, in one of a few shapes: random,
    a tie at the top, lopsided; None when the shape does not fit."""
    sides = len(capacities)
    shape = rng.random()
    if shape < 0.35:  # a tie at the top between `tied` sides
        tied = rng.randint(2, sides)
        tops = [
            t for t in range(1, total // tied + 1) if total - tied * t <= (sides - tied) * (t - 1)
        ]
        if not tops:
            return None
        top = rng.choice(tops)
        rest = random_split(rng, total - tied * top, [top - 1] * (sides - tied))
        counts = [top] * tied + (rest or [])
        rng.shuffle(counts)
    elif shape < 0.5:  # one side takes most of it
        big = rng.randint(total * 3 // 4, total)
        counts = [big, *random_split(rng, total - big, [total] * (sides - 1))]
        rng.shuffle(counts)
    else:
        weights = [rng.random() + 0.05 for _ in range(sides)]
        counts = [0] * sides
        for side in rng.choices(range(sides), weights, k=total):
            counts[side] += 1
    if any(count > cap for count, cap in zip(counts, capacities, strict=True)):
        return None
    return counts


def random_split(rng: random.Random, total: int, capacities: Sequence[int]) -> list[int]:
    counts = [0] * len(capacities)
    for _ in range(total):
        open_sides = [side for side, cap in enumerate(capacities) if counts[side] < cap]
        counts[rng.choice(open_sides)] += 1
    return counts


def deal(rng: random.Random, variant: str, sides: int) -> list[dict[str, Any]]:
    """A valid hand: the 52 cards shared out among the sides (cards, spades and who took each
    special card follow from the deal), a few sweeps within §7.4, Swedish Kasino's last capture
    and Spade Casino's J♠; the fields written the many ways Tally.make takes them."""
    cards = None
    while cards is None:
        cards = split(rng, rules.PACK, [rules.PACK] * sides)
    spades = None
    for _ in range(3):
        spades = split(rng, rules.SPADES, cards)
        if spades is not None:
            break
    if spades is None:
        spades = random_split(rng, rules.SPADES, cards)
    spade_slots = [side for side in range(sides) for _ in range(spades[side])]
    other_slots = [side for side in range(sides) for _ in range(cards[side] - spades[side])]
    holder = dict(zip(SPADE_SPECIALS, rng.sample(spade_slots, 3), strict=True))
    holder.update(zip(OTHER_SPECIALS, rng.sample(other_slots, 4), strict=True))
    heavy = rng.random() < 0.25
    budget = rules.MAX_SWEEPS
    last = rng.choice([side for side in range(sides) if cards[side] > 0])
    hand = []
    for side in range(sides):
        sweeps = rng.randint(0, 9) if heavy else rng.choice((0, 0, 0, 1, 1, 2, 3))
        sweeps = min(sweeps, cards[side] // 2, budget)
        budget -= sweeps
        aces = [code[1] for code in ("AS", "AC", "AH", "AD") if holder[code] == side]
        hand.append(
            raw_tally(
                rng,
                cards=cards[side],
                spades=spades[side],
                big_casino=holder["10D"] == side,
                little_casino=holder["2S"] == side,
                aces=aces,
                sweeps=sweeps,
                last_capture=variant == Variant.SWEDISH and side == last,
                jack_of_spades=variant == Variant.SPADE and holder["JS"] == side,
            )
        )
    return hand


def raw_tally(rng: random.Random, **fields: Any) -> dict[str, Any]:
    """Tally.make's keywords: aces as a string or a list, any case, repeated; defaults left out."""
    aces = list(fields["aces"])
    if aces and rng.random() < 0.3:
        aces.append(rng.choice(aces))
    rng.shuffle(aces)
    if rng.random() < 0.3:
        aces = [letter.lower() if rng.random() < 0.5 else letter for letter in aces]
    fields["aces"] = aces if rng.random() < 0.3 else "".join(aces)
    defaults = {"big_casino": False, "little_casino": False, "aces": "", "sweeps": 0}
    defaults.update(last_capture=False, jack_of_spades=False)
    for name, default in defaults.items():
        if fields[name] == default and rng.random() < 0.4:
            del fields[name]
    return fields


def make(raw: Sequence[dict[str, Any]]) -> tuple[Tally, ...]:
    return tuple(Tally.make(**fields) for fields in raw)


def aces_of(fields: dict[str, Any]) -> str:
    return "".join(str(letter) for letter in fields.get("aces", "")).upper()


def broken(rng: random.Random, variant: str, sides: int) -> list[dict[str, Any]]:
    """A valid hand with one to three things wrong with it."""
    hand = deal(rng, variant, sides)
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        side = rng.randrange(len(hand))
        t = hand[side]
        kind = rng.randrange(15)
        if kind == 0:
            t["cards"] += rng.choice((-3, -1, 1, 2, 5))
        elif kind == 1:
            t["spades"] += rng.choice((-2, -1, 1, 3))
        elif kind == 2:
            t["cards"] = rng.randint(-3, -1)
        elif kind == 3:
            t["spades"] = rng.randint(-3, -1)
        elif kind == 4:
            t["spades"] = t["cards"] + rng.randint(1, 3)
        elif kind in (5, 6, 13):
            name = {5: "big_casino", 6: "little_casino", 13: "jack_of_spades"}[kind]
            if rng.random() < 0.3:
                for other in hand:  # everybody holds it
                    other[name] = True
            else:
                t[name] = not t.get(name, False)
        elif kind == 7:
            letter = rng.choice("SCHD")
            held = aces_of(t)
            t["aces"] = held.replace(letter, "") if letter in held else held + letter
        elif kind == 8:
            letter = rng.choice("SCHD")
            for other in hand:
                other["aces"] = aces_of(other) + letter
        elif kind == 9:
            t["sweeps"] = rng.randint(-2, -1)
        elif kind == 10:
            t["sweeps"] = t["cards"] // 2 + rng.randint(1, 3)
        elif kind == 11:
            for other in hand:
                other["sweeps"] = max(other["cards"] // 2, 0)
        elif kind == 12:
            if rng.random() < 0.5:
                t["last_capture"] = not t.get("last_capture", False)
            else:
                t["cards"], t["spades"], t["last_capture"] = 0, 0, True
        elif kind == 14:
            if rng.random() < 0.5 and len(hand) > 1:
                hand.pop(side)
            else:
                hand.append(deal(rng, variant, 2)[0])
    if rng.random() < 0.03:
        hand[0]["aces"] = aces_of(hand[0]) + rng.choice("XZ")  # Tally.make refuses it
    return hand


def start_totals(rng: random.Random, target: int, sides: int) -> list[int] | None:
    """Start totals a match may have (start_leader None): below the target, near it, or several
    sides tied at the top past it (the match starts tied)."""
    for _ in range(10):
        roll = rng.random()
        if roll < 0.4:
            totals = [rng.randint(0, max(target - 1, 0)) for _ in range(sides)]
        elif roll < 0.65:
            totals = [max(target - rng.randint(1, 4), 0) for _ in range(sides)]
        else:  # the others often just below: one of them may overtake the tied sides
            top = target + rng.choice((0, 0, 1, 2, 5))
            totals = [max(top - rng.randint(1, 4), 0) for _ in range(sides)]
            for side in rng.sample(range(sides), rng.randint(2, sides)):
                totals[side] = top
        if rules.start_leader(target, totals) is None:
            return totals
    return None


def probe_starts(rng: random.Random, target: int, sides: int) -> list[list[int]]:
    probes: list[list[int]] = [[]]
    for _ in range(2):
        probes.append([rng.randint(0, target + 3) for _ in range(sides)])
    probes.append([target] * sides)
    return probes


def random_match(rng: random.Random, match_rules: Rules, variant: str, options: dict) -> dict:
    """A match's input for both halves: a table, a first dealer, maybe start totals, hands until
    the match is won or for a while (sometimes one past the win), and a few broken hands."""
    sides, per_side = rng.choice(TABLE_SHAPES)
    seats = sides * per_side
    players = [[NAMES[side + index * sides] for index in range(per_side)] for side in range(sides)]
    first_dealer = rng.randrange(seats) if rng.random() < 0.9 else rng.randint(-3, 9)
    start = start_totals(rng, match_rules.target, sides) if rng.random() < 0.3 else None
    limit = rng.choice((0, 1, 2, 3, 5, 8, 12, 20, 40))  # no hands: the start alone
    # A timed round (the event rule "time"): mostly not; else the hand in progress when time was
    # called, anywhere from the first hand to one past the last the match may have.
    last_hand = rng.randint(1, limit + 1) if rng.random() < 0.3 else None
    hands: list[list[dict[str, Any]]] = []
    totals = tuple(start) if start is not None else (0,) * sides
    top = max(totals)
    status = Status.TIED if top >= match_rules.target and totals.count(top) > 1 else Status.PLAYING
    pots = rules.NO_POTS
    while len(hands) < limit and status is not Status.WON:
        raw = deal(rng, variant, sides)
        hand = rules.score_hand(
            match_rules,
            make(raw),
            totals,
            tied_before=status is Status.TIED,
            pots=pots,
            time_up=last_hand is not None and len(hands) + 1 >= last_hand,
        )
        hands.append(raw)
        totals, status, pots = hand.totals, hand.status, hand.pots
    extra = deal(rng, variant, sides) if status is Status.WON and rng.random() < 0.15 else None
    invalid = []
    for _ in range(rng.choice((0, 1, 1, 2))):
        raw = broken(rng, variant, sides)
        if rng.random() < 0.3:  # everybody as near the target (Dominican conditions)
            before = [max(match_rules.target - rng.randint(1, 3), 0)] * len(raw)
        else:
            before = [rng.randint(0, match_rules.target + 2) for _ in raw]
        invalid.append({"tallies": raw, "before": before})
    return {
        "variant": variant,
        "options": options,
        "players": players,
        "first_dealer": first_dealer,
        "start_totals": start,
        "last_hand": last_hand,
        "probe_start": probe_starts(rng, match_rules.target, sides),
        "hands": hands,
        "extra": extra,
        "invalid": invalid,
        "other_variant": rng.choice(tuple(Variant)).value,
    }


# --- the Python half ------------------------------------------------------------------------------


def expected_invalid(
    match_rules: Rules, raw: dict, sides: int, other: str, names: list[str]
) -> dict:
    """A broken hand: Tally.make's refusal, or validate's problems (with the match's sides and
    variant, with neither, with another variant) and their texts, and what score_hand makes of
    it all the same."""
    try:
        hand = make(raw["tallies"])
    except ValueError as error:
        return {"tally_error": failure(error)}
    problems = rules.validate(hand, sides, match_rules.variant)
    bare = rules.validate(hand)
    try:
        score: Any = plain(rules.score_hand(match_rules, hand, raw["before"]))
    except Exception:  # what Python refuses, JavaScript must refuse too (by any error)
        score = {"error": True}
    return {
        "tallies": plain(hand),
        "problems": plain(problems),
        "bare": plain(bare),
        "other": plain(rules.validate(hand, None, other)),
        "described": [[p.describe(names), rules.describe_problem(p)] for p in problems + bare],
        "score": score,
    }


def expected_match(m: dict) -> dict:
    """What rules.py says about a match, in the shape engine_diff.js writes."""
    match_rules = Rules.make(m["variant"], **m["options"])
    sides = len(m["players"])
    seats = sum(len(side) for side in m["players"])
    hands = [make(raw) for raw in m["hands"]]
    score = rules.score_match(
        match_rules, hands, m["start_totals"], sides=sides, last_hand=m["last_hand"]
    )
    totals_before = [
        tuple(m["start_totals"]) if m["start_totals"] is not None else (0,) * sides,
        *(hand.totals for hand in score.hands[:-1]),
    ]
    problems = [plain(rules.validate(hand, sides, m["variant"])) for hand in hands]
    assert not any(problems), f"the generator dealt a hand that does not add up: {m}"
    lineup = Lineup.of(m["players"])
    names = lineup.names()
    expected = {
        "rules": plain(match_rules),
        "tallies": plain(hands),
        "problems": problems,
        "base_points": [rules.hand_base_points(hand) for hand in hands],
        "held": [
            [[card.held(tally) for tally in hand] for card in rules.CARDS.values()]
            for hand in hands[:1]
        ],
        "score": plain(score),
        "by_hand": [],
        "conditions_before": [
            [rules.endgame_condition(match_rules, total) for total in before]
            for before in totals_before[: len(hands)]
        ],
        "turns": [
            plain(
                rules.table_turn(
                    match_rules, players=seats, first_dealer=m["first_dealer"], hand_index=index
                )
            )
            for index in range(len(hands) + 1)
        ],
        "seat_sides": [rules.seat_side(seat, sides) for seat in range(-1, seats + 1)],
        "start_leader": [rules.start_leader(match_rules.target, t) for t in m["probe_start"]],
        "time_stage": [
            rules.time_stage(m["last_hand"], played) for played in range(len(hands) + 2)
        ],
        "lineup": {
            "names": names,
            "side_names": [rules.side_name(players) for players in m["players"]],
            "seats": plain(lineup.seats()),
            "seat_count": lineup.seat_count,
            "problem": lineup.problem(match_rules.scoring),
            "reseated": plain(Lineup.from_seats(reversed(lineup.seats())).sides),
            "table_problem": rules.table_problem(
                [len(players) for players in m["players"]], match_rules.scoring
            ),
        },
        "over": None,
        "invalid": [
            expected_invalid(match_rules, raw, sides, m["other_variant"], names)
            for raw in m["invalid"]
        ],
    }
    if m["extra"] is not None:
        try:
            over = rules.score_match(
                match_rules, [*hands, make(m["extra"])], m["start_totals"], last_hand=m["last_hand"]
            )
            expected["over"] = {"value": plain(over)}
        except ValueError as error:
            expected["over"] = failure(error)
    return expected


def expected_constants() -> dict:
    names = [
        "PACK",
        "SPADES",
        "MAX_SWEEPS",
        "DEFAULT_TARGET",
        "COUNT_OUT_ORDER",
        "POINT_CARDS",
        "PEGGED",
        "FINNISH_CARDS",
        "FINNISH_SPADES",
        "FINNISH_FREEZE",
        "NO_POTS",
        "DEALS_PER_HAND",
        "TARGETS",
        "SPECIAL_CARDS",
        "CARDS",
        "ACES",
        "BIG_CASINO",
        "LITTLE_CASINO",
        "JACK_OF_SPADES",
        "ACE_SUITS",
        "PARTNERS",
        "TABLES",
        "TABLE_PROBLEMS",
        "MESSAGES",
        "SPADE_CARDS",
        "NON_SPADE_CARDS",
        "VARIANT_FIELDS",
        "CANCELLING",
        "COUNTING_OUT",
        "MAX_TARGET",
        "MIN_DOMINICAN_TARGET",
        "MAX_START_TOTAL",
        "LAYOUTS",
        "SETUP_PROBLEMS",
    ]
    out = {name: plain(getattr(rules, name)) for name in names}
    for enum in (Variant, SweepRule, SeveralReach, Scoring, TwentyNeeds, Ties, SweepFreeze, Status):
        out[enum.__name__] = {member.name: member.value for member in enum}
    out["variant_defaults"] = [plain(rules.variant_defaults(variant)) for variant in Variant]
    out["layout_names"] = [rules.layout_name(*table) for table in rules.TABLES]
    return out


# --- random setups and posted hand forms -----------------------------------------------------------

# Names as typed in the seats: some the same but for case (ß and ss, İ and i, Σ, ς and σ alike,
# the dotless ı apart from i), as Python's casefold has them.
SEAT_NAMES = (
    ("Ana", "ana", "ANA"),
    ("Ben", "BEN"),
    ("Cleo",),
    ("Dan", "dAN"),
    ("Straße", "STRASSE", "strasse", "STRAẞE"),
    ("İris", "i̇ris"),
    ("Iris", "iris", "IRIS"),
    ("ıris",),
    ("Σοφίας", "ΣΟΦΊΑΣ", "σοφίασ"),
    ("Zoë", "ZOË"),
    ("Ana Lu",),
    ("ǅemal", "ǆemal", "Ǆemal"),
)
BAD_LAYOUTS = ("5", "", "Teams", "toString", "constructor")
# Numbers as a phone's form posts them: typed text, spaces around it, a sign, zeros in front, and
# text that is no whole number.
ODD_NUMBERS = (
    "",
    " ",
    "abc",
    "12.0",
    "1_1",
    "1e3",
    "٣",
    "+",
    "-",
    "-0",
    "+-3",
    "9" * 12,
    "-" + "9" * 12,
)


def random_number(rng: random.Random, near: int, low: int, high: int) -> Any:
    """A number field's value: None, an int (in range, at its edges, or out of it), or text."""
    roll = rng.random()
    if roll < 0.1:
        return None
    number = rng.choice((near, near, near - 1, near + 1, low, high, rng.randint(low, high)))
    if roll < 0.15:
        number = rng.choice((low - 1, high + 1, -5, 5000))
    if roll < 0.5:
        return number
    if roll < 0.9:
        shape = rng.choice(
            ("{}", " {} ", "\t{}\n", "+{}", "00{}", "\u00a0{}\u3000", "\x1c{}", "{}\ufeff")
        )
        return shape.format(number)
    return rng.choice(ODD_NUMBERS)


def random_seats(rng: random.Random, count: int) -> list[str]:
    roll = rng.random()
    if roll < 0.5:  # everyone once
        return [rng.choice(group) for group in rng.sample(SEAT_NAMES, count)]
    names = [rng.choice(rng.choice(SEAT_NAMES)) for _ in range(count)]
    for seat in range(count):
        if rng.random() < 0.1:
            names[seat] = ""
    return names


def random_setup(rng: random.Random) -> dict[str, Any]:
    """What a new-match form posts, read: a game, a table, its seats, a first dealer, a target,
    options and start totals, any of them wrong."""
    variant = rng.choice(tuple(Variant)).value if rng.random() > 0.01 else "bogus"
    layout = rng.choice(tuple(rules.LAYOUTS)) if rng.random() > 0.02 else rng.choice(BAD_LAYOUTS)
    sides, per_side = rules.LAYOUTS.get(layout, (2, 1))
    seat_count = sides * per_side
    count = seat_count if rng.random() < 0.85 else rng.randint(0, 5)
    roll = rng.random()
    first_dealer = rng.randrange(seat_count) if roll < 0.85 else None
    if roll > 0.9:
        first_dealer = rng.choice((-1, seat_count, 3, 4, 5))
    target = (
        None if rng.random() < 0.35 else random_number(rng, rng.choice((1, 3, 4, 11, 21)), 1, 999)
    )
    aim = 21 if not isinstance(target, int) or not 1 <= target <= 999 else target
    options: dict[str, Any] = {}
    for name, values in OPTIONS.items():
        roll = rng.random()
        if roll < 0.5:
            options[name] = rng.choice(values).value
        elif roll < 0.6:
            options[name] = rng.choice(("", None, "bogus", 10))
    roll = rng.random()
    starts = [] if roll < 0.3 else [random_number(rng, aim, 0, 999) for _ in range(sides)]
    if roll < 0.6:  # below the target, or none
        starts = [rng.choice((None, "", 0, "3", aim - 1)) for _ in range(rng.choice((0, sides, 4)))]
    return {
        "variant": variant,
        "layout": layout,
        "seats": random_seats(rng, count),
        "first_dealer": first_dealer,
        "target": target,
        "options": options,
        "start_totals": starts,
    }


def blank(rng: random.Random, posted: dict[str, Any], name: str) -> None:
    """A field left blank, as a form posts it: None, "" or not at all."""
    roll = rng.random()
    if roll < 0.4:
        del posted[name]
    else:
        posted[name] = None if roll < 0.7 else ""


def random_posted(rng: random.Random) -> dict[str, Any]:
    """A hand form's numbers, posted: a real hand's counts with the last side's left blank for
    the deck to fill in, cards given to no one (the last side's), now and then a count changed,
    a card given to a side that is not there, a last capture where the game has none."""
    variant = rng.choice(tuple(Variant)).value if rng.random() > 0.01 else "bogus"
    sides = rng.choice((2, 2, 3, 4))
    hand = make(deal(rng, variant if variant != "bogus" else "casino", sides))
    last = sides - 1
    posted: dict[str, Any] = {"number": rng.randint(1, 40)}
    for side, tally in enumerate(hand):
        posted.update(
            {f"{kind}_{side}": getattr(tally, kind) for kind in ("cards", "spades", "sweeps")}
        )
    for code, card in rules.CARDS.items():
        holders = [side for side, tally in enumerate(hand) if card.held(tally)]
        posted[f"card_{code}"] = holders[0] if holders else None
    posted["last_capture"] = next((side for side, t in enumerate(hand) if t.last_capture), None)
    for name in list(posted):
        side = posted[name] if name.startswith("card_") or name == "last_capture" else None
        at_last = name.endswith(f"_{last}") and name.split("_")[0] in ("cards", "spades")
        if ((at_last or side == last) and rng.random() < 0.6) or rng.random() < 0.03:
            blank(rng, posted, name)
        elif isinstance(posted[name], int) and rng.random() < 0.03:
            posted[name] += rng.choice((-2, -1, 1, 3, sides))
    if rng.random() < 0.3:
        quick(rng, posted, hand)
    return {"posted": posted, "sides": sides, "variant": variant}


def quick(rng: random.Random, posted: dict[str, Any], hand: list[rules.Tally]) -> None:
    """The same hand in quick entry: who took most cards (or a tie) and most spades, mostly
    true, blank (the last side's), now and then a side that is not there; counts left behind
    or not (quick entry ignores them, and applies only where `quick_entry` allows)."""
    posted["mode"] = rules.QUICK if rng.random() < 0.95 else rng.choice(("exact", ""))
    for kind in ("cards", "spades"):
        counts = [getattr(tally, kind) for tally in hand]
        most = rules._most(counts)
        posted[f"most_{kind}"] = rules.TIE if most is None else most
        if rng.random() < 0.3:
            blank(rng, posted, f"most_{kind}")
        elif rng.random() < 0.05:
            posted[f"most_{kind}"] = rng.choice((0, 1, rules.TIE))
        if rng.random() < 0.5:
            for side in range(len(hand)):
                posted.pop(f"{kind}_{side}", None)


def expected_setup(case: dict) -> dict:
    try:
        problems = rules.setup_problems(
            case["variant"],
            case["layout"],
            case["seats"],
            first_dealer=case["first_dealer"],
            target=case["target"],
            options=case["options"],
            start_totals=case["start_totals"],
        )
    except ValueError as error:
        return failure(error)
    return {"value": plain(problems)}


def expected_posted(case: dict) -> dict:
    try:
        tallies = rules.tallies_of(case["posted"], case["sides"], case["variant"])
    except ValueError as error:
        return failure(error)
    problems = rules.validate(tallies, case["sides"], case["variant"])
    return {"tallies": plain(tallies), "problems": plain(problems)}


def generate(seed: int, count: int) -> dict:
    """The cases: `count` matches with valid rules, every refused Rules.make met on the way,
    tables of every shape, SETUPS setups and POSTED posted hand forms."""
    rng = random.Random(seed)
    matches, refused = [], []
    while len(matches) < count:
        variant, options = random_options(rng)
        try:
            match_rules = Rules.make(variant, **options)
        except ValueError:
            refused.append({"variant": variant, "options": options})
            continue
        matches.append(random_match(rng, match_rules, variant, options))
    tables = [
        {"sizes": sizes, "scoring": scoring}
        for sizes in (
            [],
            [1],
            [1, 1],
            [2, 2],
            [1, 2],
            [1, 1, 1],
            [2, 2, 2],
            [1] * 4,
            [1] * 5,
            [3, 3],
        )
        for scoring in (None, "cumulative", "difference")
    ]
    setups = [random_setup(rng) for _ in range(SETUPS)]
    posted = [random_posted(rng) for _ in range(POSTED)]
    return {
        "rules": refused,
        "tables": tables,
        "matches": matches,
        "setups": setups,
        "posted": posted,
    }


def expected_rules(case: dict) -> dict:
    try:
        return {"value": plain(Rules.make(case["variant"], **case["options"]))}
    except ValueError as error:
        return failure(error)


def canonical(value: Any) -> str:
    """The JSON text engine_diff.js writes for the same value (keys sorted, no spaces)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@pytest.mark.slow
def test_engine_js_scores_every_random_match_as_rules_py(tmp_path: Path) -> None:
    node = node_or_skip()
    started = time.perf_counter()
    cases = generate(SEED, MATCHES)
    given, got = tmp_path / "cases.json", tmp_path / "engine.txt"
    given.write_text(json.dumps(cases))
    generated = time.perf_counter()
    # node scores while Python does (two cores): one process for every match.
    with subprocess.Popen([node, str(DIFF), str(given), str(got)]) as engine:
        expected = [canonical(expected_match(match)) for match in cases["matches"]]
        scored = time.perf_counter()
        setups = [canonical(expected_setup(case)) for case in cases["setups"]]
        posted = [canonical(expected_posted(case)) for case in cases["posted"]]
        checked = time.perf_counter()
        assert engine.wait(timeout=300) == 0, "engine_diff.js failed"
    waited = time.perf_counter()
    head, *lines = got.read_text().splitlines()
    lines, setup_lines = lines[:MATCHES], lines[MATCHES:]
    setup_lines, posted_lines = setup_lines[:SETUPS], setup_lines[SETUPS:]
    actual = json.loads(head)
    seed = f"seed {SEED} (ENGINE_SEED={SEED} to rerun)"

    found = first_difference(expected_constants(), actual["constants"], "constants")
    assert found is None, f"{seed}: {found}"
    for case, answer in zip(cases["rules"], actual["rules"], strict=True):
        found = first_difference(expected_rules(case), answer)
        assert found is None, f"{seed}: Rules.make{case}: {found}"
    for case, answer in zip(cases["tables"], actual["tables"], strict=True):
        scoring = None if case["scoring"] is None else Scoring(case["scoring"])
        assert rules.table_problem(case["sizes"], scoring) == answer, f"table_problem{case}"

    assert len(lines) == len(expected) == MATCHES
    for index, (match, python, javascript) in enumerate(
        zip(cases["matches"], expected, lines, strict=True)
    ):
        if python != javascript:
            found = first_difference(json.loads(python), json.loads(javascript))
            shown = json.dumps(match)
            raise AssertionError(f"{seed}, match {index}: {found}\nthe match: {shown}")
    for what, cases_of, python_lines, javascript_lines in (
        ("setup_problems", cases["setups"], setups, setup_lines),
        ("tallies_of", cases["posted"], posted, posted_lines),
    ):
        assert len(python_lines) == len(javascript_lines) == len(cases_of)
        for index, (case, python, javascript) in enumerate(
            zip(cases_of, python_lines, javascript_lines, strict=True)
        ):
            if python != javascript:
                found = first_difference(json.loads(python), json.loads(javascript))
                raise AssertionError(f"{seed}, {what} case {index}: {found}\n{json.dumps(case)}")
    refused_setups = sum('"code"' in line for line in setups)
    valid_posted = sum('"problems":[]' in line for line in posted)
    # Both halves must have met refused setups and hands that add up often enough.
    assert (
        refused_setups > SETUPS // 2
        and sum(line == '{"value":[]}' for line in setups) > SETUPS // 20
    )
    assert valid_posted > POSTED // 4, f"only {valid_posted} posted hands add up"
    quick_posted = [
        line
        for case, line in zip(cases["posted"], posted, strict=True)
        if case["posted"].get("mode") == rules.QUICK and case["sides"] == 2
    ]
    # Quick entry met often, mostly adding up.
    assert sum('"problems":[]' in line for line in quick_posted) > POSTED // 20
    hands = sum(len(match["hands"]) for match in cases["matches"])
    timed = sum(match["last_hand"] is not None for match in cases["matches"])
    time_wins = sum('"kind":"time"' in line for line in expected)
    # The time rule must have been met often enough to prove the engines agree on it.
    assert time_wins > MATCHES // 50, f"only {time_wins} matches won on time"
    broken_hands = sum(len(match["invalid"]) for match in cases["matches"])
    print(
        f"\nengine.js: {MATCHES} matches, {hands} hands played, {broken_hands} broken hands, "
        f"{len(cases['rules'])} refused rules, {timed} timed rounds ({time_wins} won on time): "
        f"generated in {generated - started:.1f} s, rules.py {scored - generated:.1f} s, "
        f"node {actual['milliseconds'] / 1000:.1f} s (waited {waited - checked:.1f} s more), "
        f"compared in {time.perf_counter() - waited:.1f} s; {SETUPS} setups "
        f"({refused_setups} refused) and {POSTED} posted hands ({valid_posted} adding up): "
        f"Python {checked - scored:.1f} s, node {actual['setup_milliseconds'] / 1000:.1f} s"
    )


# --- a few matches by hand: how engine.js is called, and what it answers -------------------------


def run_js(body: str) -> Any:
    """Run `body` (a function body that may use `engine`, engine.js's exports, and returns
    something JSON can hold) in node, and return what it returned."""
    node = node_or_skip()
    script = (
        f"const engine = require({json.dumps(str(ENGINE))});\n"
        f"const t = (fields) => engine.Tally.make(fields);\n"
        f"process.stdout.write(JSON.stringify((function () {{ {body} }})()));"
    )
    done = subprocess.run([node, "-e", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def tallies(*hand: dict[str, Any]) -> tuple[Tally, ...]:
    return tuple(Tally.make(**fields) for fields in hand)


# Finnish Kasino: most cards tie 26-26 (its 1 point goes to the pot), then Ben takes most cards
# and the pot: 2 points.
FINNISH_TIE = (
    {"cards": 26, "spades": 7, "big_casino": True, "aces": "SC"},
    {"cards": 26, "spades": 6, "little_casino": True, "aces": "hd"},
)
FINNISH_BEN = (
    {"cards": 22, "spades": 4},
    {"cards": 30, "spades": 9, "big_casino": True, "little_casino": True, "aces": "SCHD"},
)


def test_a_finnish_pot_is_carried_to_the_next_outright_winner() -> None:
    got = run_js(
        f"""
        const rules = engine.Rules.make("finnish");
        const hands = [{json.dumps(FINNISH_TIE)}, {json.dumps(FINNISH_BEN)}];
        const match = engine.scoreMatch(rules, hands.map((hand) => hand.map(t)));
        return {{
          pots: match.hands.map((hand) => hand.pots),
          points: match.hands.map((hand) => hand.points),
          ben_cards: match.hands[1].breakdown[1].cards,
          totals: match.totals, status: match.status, pots_after: match.pots,
        }};
        """
    )
    assert got == {
        "pots": [[1, 0], [0, 0]],
        "points": [[6, 3], [0, 11]],
        "ben_cards": 2,
        "totals": [6, 14],
        "status": "playing",
        "pots_after": [0, 0],
    }
    python = rules.score_match(
        Rules.make("finnish"), [tallies(*FINNISH_TIE), tallies(*FINNISH_BEN)]
    )
    assert got["pots"] == plain([hand.pots for hand in python.hands])
    assert got["totals"] == list(python.totals)


# Dominican Royal Casino from 20-15: Ana (at 20) needs the little casino and misses it, so her 8
# points leave her at 20; then Ana (20) takes the little casino and Ben (18) most cards: both met
# their condition, and most cards comes first in the count-out order.
DOMINICAN_ANA = (
    {"cards": 29, "spades": 8, "big_casino": True, "aces": "SH"},
    {"cards": 23, "spades": 5, "little_casino": True, "aces": "CD"},
)
DOMINICAN_BOTH = tuple(reversed(DOMINICAN_ANA))


def test_a_dominican_endgame_holds_a_side_at_20_then_decides_by_the_count_out_order() -> None:
    got = run_js(
        f"""
        const rules = engine.Rules.make("dominican");
        const first = {json.dumps(DOMINICAN_ANA)}.map(t);
        const second = {json.dumps(DOMINICAN_BOTH)}.map(t);
        const after_one = engine.scoreMatch(rules, [first], [20, 15]);
        const match = engine.scoreMatch(rules, [first, second], [20, 15]);
        let over = null;
        try {{ engine.scoreMatch(rules, [first, second, first], [20, 15]); }}
        catch (error) {{ over = [error.name, error.handIndex, error instanceof engine.ValueError]; }}
        return {{
          before: [20, 15].map((total) => engine.endgameCondition(rules, total)),
          one: [after_one.hands[0].points, after_one.totals, after_one.conditions],
          outcome: match.outcome, winner: match.winner, conditions: match.conditions,
          over: over,
          turn: engine.tableTurn(rules, {{players: 4, first_dealer: 0, hand_index: 1}}),
        }};
        """
    )
    assert got == {
        "before": ["little_casino", None],
        "one": [[8, 3], [20, 18], ["little_casino", "cards"]],
        "outcome": {"kind": "conditions", "side": 1, "category": "cards", "total": 26},
        "winner": 1,
        "conditions": None,
        "over": ["MatchOverError", 2, True],
        # Counter-clockwise: the dealer after seat 0 is seat 3, and seat 2 leads.
        "turn": {
            "hand_number": 2,
            "dealer_seat": 3,
            "leader_seat": 2,
            "deals": 3,
            "clockwise": False,
        },
    }
    python = rules.score_match(
        Rules.make("dominican"), [tallies(*DOMINICAN_ANA), tallies(*DOMINICAN_BOTH)], [20, 15]
    )
    assert got["outcome"] == plain(python.outcome)


# Royal Casino from 18-19: Ana's most cards (the count-out's first step) takes her to 21 before
# Ben's big casino, little casino and aces, though he ends higher, 26 to 22.
ROYAL_COUNT_OUT = (
    {"cards": 29, "spades": 8},
    {"cards": 23, "spades": 5, "big_casino": True, "little_casino": True, "aces": "SCHD"},
)


def test_a_royal_count_out_goes_to_the_first_side_to_reach_the_target() -> None:
    got = run_js(
        f"""
        const hand = {json.dumps(ROYAL_COUNT_OUT)}.map(t);
        return ["count-out", "highest"].map((several_reach) => {{
          const rules = engine.Rules.make("royal", {{several_reach: several_reach}});
          const match = engine.scoreMatch(rules, [hand], [18, 19]);
          return [match.totals, match.status, match.outcome];
        }});
        """
    )
    assert got == [
        [[22, 26], "won", {"kind": "count-out", "side": 0, "category": "cards", "total": 22}],
        [[22, 26], "won", {"kind": "highest", "side": 1, "category": None, "total": 26}],
    ]
    python = rules.score_match(Rules.make("royal"), [tallies(*ROYAL_COUNT_OUT)], [18, 19])
    assert got[0][2] == plain(python.outcome)


def test_validate_answers_problems_as_data_and_describes_them() -> None:
    hand = (
        {"cards": 26, "spades": 7, "big_casino": True, "aces": "SC"},
        {"cards": 26, "spades": 6, "big_casino": True, "little_casino": True, "aces": "HD"},
    )
    got = run_js(
        f"""
        const problems = engine.validate({json.dumps(hand)}.map(t), 2, "casino");
        return [problems, problems.map((problem) => problem.describe(["Ana", "Ben"]))];
        """
    )
    assert got == [
        [{"code": "card_both", "params": {"card": "10D", "holders": [0, 1]}, "side": None}],
        ["both Ana and Ben hold the big casino (10♦)"],
    ]
    assert got[0] == plain(rules.validate(tallies(*hand), 2, "casino"))


def test_engine_js_loads_as_a_classic_script_with_one_global() -> None:
    """In a page (no `module`), the file sets window.casinoEngine and nothing else, and it
    needs neither eval nor new Function (the CSP allows neither)."""
    source = ENGINE.read_text()
    assert "eval(" not in source
    assert "Function(" not in source
    got = run_js(
        f"""
        const vm = require("vm");
        const window = {{}};
        window.self = window;
        vm.createContext(window);
        const before = Object.keys(window);
        vm.runInContext(require("fs").readFileSync({json.dumps(str(ENGINE))}, "utf8"), window);
        const page = window.casinoEngine;
        return {{
          added: Object.keys(window).filter((name) => !before.includes(name)),
          same_api: Object.keys(page).join() === Object.keys(engine).join(),
          scores: page.scoreMatch(page.Rules.make("casino"), []).status,
        }};
        """
    )
    assert got == {"added": ["casinoEngine"], "same_api": True, "scores": "playing"}
