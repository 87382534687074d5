// The JavaScript half of tests/engine/test_engine_js.py: `node tests/engine/engine_diff.js <in.json> <out.json>`.
//
// It reads the cases the test generated (matches, Rules.make calls, tables, setups of the
// new-match form, posted hand forms), runs each through scoring/static/scoring/engine.js, and
// writes what it got as plain JSON in the same shape as the test's Python half (`plain` below
// mirrors the test's `plain`: results as objects of their fields, plus the properties both sides
// list in EXTRA; errors as {error, message}). The test compares the two field by field. It judges
// nothing itself. Output: a first line of JSON (the constants, Rules.make's answers, the tables,
// node's times), then one line per match, one per setup (setupProblems) and one per posted hand
// form (talliesOf, and validate's problems with them), each with its keys sorted (`canonical`) so
// that the test compares it as text, and reads it only if it differs.
"use strict";

const fs = require("fs");
const path = require("path");
const engine = require(path.join(__dirname, "..", "..", "scoring", "static", "scoring", "engine.js"));

// Properties (getters) that plain() adds to an object's own fields, as the test's EXTRA does.
const EXTRA = new Map([
  [engine.Rules, ["clockwise", "endgame_from"]],
  [engine.Breakdown, ["points"]],
  [engine.Card, ["red", "spade", "category"]],
  [engine.Lineup, ["seat_count"]],
]);

function plain(value) {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(plain);
  if (value instanceof Map) {
    const mapped = {};
    value.forEach(function (item, key) { mapped[String(key)] = plain(item); });
    return mapped;
  }
  const out = {};
  Object.keys(value).forEach(function (key) { out[key] = plain(value[key]); });
  (EXTRA.get(value.constructor) || []).forEach(function (name) { out[name] = plain(value[name]); });
  return out;
}

// What a call threw, as the Python half records it.
function failure(error) {
  const out = { error: error.name, message: error.message };
  if (error instanceof engine.MatchOverError) out.hand_index = error.hand_index;
  return out;
}

function attempt(call) {
  try {
    return { value: call() };
  } catch (error) {
    return failure(error);
  }
}

function tallies(raw) {
  return raw.map(function (fields) { return engine.Tally.make(fields); });
}

function constants() {
  const names = [
    "PACK", "SPADES", "MAX_SWEEPS", "DEFAULT_TARGET", "COUNT_OUT_ORDER", "POINT_CARDS", "PEGGED",
    "FINNISH_CARDS", "FINNISH_SPADES", "FINNISH_FREEZE", "NO_POTS", "DEALS_PER_HAND", "TARGETS",
    "SPECIAL_CARDS", "CARDS", "ACES", "BIG_CASINO", "LITTLE_CASINO", "JACK_OF_SPADES", "ACE_SUITS",
    "PARTNERS", "TABLES", "TABLE_PROBLEMS", "MESSAGES", "SPADE_CARDS", "NON_SPADE_CARDS",
    "VARIANT_FIELDS", "MAX_TARGET", "MIN_DOMINICAN_TARGET", "MAX_START_TOTAL", "LAYOUTS", "SETUP_PROBLEMS",
  ];
  const out = {};
  names.forEach(function (name) { out[name] = plain(engine[name]); });
  out.CANCELLING = engine.CANCELLING.slice().sort();
  out.COUNTING_OUT = engine.COUNTING_OUT.slice().sort();
  ["Variant", "SweepRule", "SeveralReach", "Scoring", "TwentyNeeds", "Ties", "SweepFreeze",
    "Status"].forEach(function (name) { out[name] = Object.assign({}, engine[name]); });
  out.variant_defaults = Object.values(engine.Variant).map(function (variant) {
    return plain(engine.variantDefaults(variant));
  });
  out.layout_names = engine.TABLES.map(function (table) { return engine.layoutName(table[0], table[1]); });
  return out;
}

function scoreInvalid(rules, raw, sides, otherVariant, names) {
  const made = attempt(function () { return tallies(raw.tallies); });
  if (made.error) return { tally_error: made };
  const hand = made.value;
  const problems = engine.validate(hand, sides, rules.variant);
  const bare = engine.validate(hand);
  const other = engine.validate(hand, null, otherVariant);
  const scored = attempt(function () { return engine.scoreHand(rules, hand, raw.before); });
  return {
    tallies: plain(hand),
    problems: plain(problems),
    bare: plain(bare),
    other: plain(other),
    described: problems.concat(bare).map(function (problem) {
      return [problem.describe(names), engine.describeProblem(problem)];
    }),
    score: scored.error ? { error: true } : plain(scored.value),
  };
}

function runMatch(m) {
  const rules = engine.Rules.make(m.variant, m.options);
  const sides = m.players.length;
  const seats = m.players.reduce(function (n, side) { return n + side.length; }, 0);
  const hands = m.hands.map(tallies);
  const score = engine.scoreMatch(rules, hands, m.start_totals, {
    sides: sides,
    last_hand: m.last_hand,
  });

  // Each hand again through scoreBreakdown and scoreHand: the hands scoreMatch returned.
  const byHand = [];
  const conditionsBefore = [];
  let before = m.start_totals || score.totals.map(function () { return 0; });
  let tied = false;
  let pots = engine.NO_POTS;
  if (m.start_totals) {
    const top = Math.max.apply(null, before);
    tied = top >= rules.target && before.filter(function (t) { return t === top; }).length > 1;
  }
  hands.forEach(function (hand, index) {
    conditionsBefore.push(before.map(function (t) { return engine.endgameCondition(rules, t); }));
    const broken = engine.scoreBreakdown(rules, hand, before, pots);
    const scored = engine.scoreHand(rules, hand, before, {
      tied_before: tied,
      pots: pots,
      time_up: m.last_hand !== null && index + 1 >= m.last_hand,
    });
    const expected = JSON.stringify(plain(score.hands[index]));
    if (
      JSON.stringify(plain(scored)) !== expected ||
      JSON.stringify(plain(broken[0])) !== JSON.stringify(plain(scored.breakdown)) ||
      JSON.stringify(broken[1]) !== JSON.stringify(scored.pots)
    ) {
      byHand.push(index);
    }
    before = scored.totals;
    tied = scored.status === engine.Status.TIED;
    pots = scored.pots;
  });

  const turns = [];
  for (let index = 0; index <= hands.length; index++) {
    turns.push(plain(engine.tableTurn(rules, {
      players: seats,
      first_dealer: m.first_dealer,
      hand_index: index,
    })));
  }
  const seatSides = [];
  for (let seat = -1; seat <= seats; seat++) seatSides.push(engine.seatSide(seat, sides));

  const lineup = engine.Lineup.of(m.players);
  const reseated = engine.Lineup.fromSeats(lineup.seats().slice().reverse());
  const names = lineup.names();

  const out = {
    rules: plain(rules),
    tallies: plain(hands),
    problems: hands.map(function (hand) { return plain(engine.validate(hand, sides, m.variant)); }),
    base_points: hands.map(engine.handBasePoints),
    held: hands.slice(0, 1).map(function (hand) {
      return Object.values(engine.CARDS).map(function (card) {
        return hand.map(function (tally) { return card.held(tally); });
      });
    }),
    score: plain(score),
    by_hand: byHand,
    conditions_before: conditionsBefore,
    turns: turns,
    seat_sides: seatSides,
    start_leader: m.probe_start.map(function (totals) {
      return engine.startLeader(rules.target, totals);
    }),
    time_stage: Array.from({ length: hands.length + 2 }, function (_, played) {
      return engine.timeStage(m.last_hand, played);
    }),
    lineup: {
      names: names,
      side_names: m.players.map(engine.sideName),
      seats: plain(lineup.seats()),
      seat_count: lineup.seat_count,
      problem: lineup.problem(rules.scoring),
      reseated: plain(reseated.sides),
      table_problem: engine.tableProblem(m.players.map(function (p) { return p.length; }), rules.scoring),
    },
    over: null,
    invalid: m.invalid.map(function (raw) {
      return scoreInvalid(rules, raw, sides, m.other_variant, names);
    }),
  };
  if (m.extra) {
    const over = attempt(function () {
      return engine.scoreMatch(rules, hands.concat([tallies(m.extra)]), m.start_totals, {
        last_hand: m.last_hand,
      });
    });
    out.over = over.error ? over : { value: plain(over.value) };
  }
  return out;
}

// JSON with every object's keys sorted, as Python's json.dumps(sort_keys=True) writes it.
function canonical(value) {
  return JSON.stringify(value, function (key, item) {
    if (item === null || typeof item !== "object" || Array.isArray(item)) return item;
    const sorted = {};
    Object.keys(item).sort().forEach(function (name) { sorted[name] = item[name]; });
    return sorted;
  });
}

// The first line: the constants, Rules.make's answers, the tables and the time taken; then one
// line per match.
function main() {
  const cases = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
  const started = process.hrtime.bigint();
  const head = {
    constants: constants(),
    rules: cases.rules.map(function (c) {
      const made = attempt(function () { return engine.Rules.make(c.variant, c.options); });
      return made.error ? made : { value: plain(made.value) };
    }),
    tables: cases.tables.map(function (c) { return engine.tableProblem(c.sizes, c.scoring); }),
  };
  const lines = cases.matches.map(function (m) {
    const run = attempt(function () { return runMatch(m); });
    return canonical(run.error ? run : run.value);
  });
  head.milliseconds = Number(process.hrtime.bigint() - started) / 1e6;
  const setups = cases.setups.map(function (c) {
    const got = attempt(function () {
      return engine.setupProblems(c.variant, c.layout, c.seats, {
        first_dealer: c.first_dealer, target: c.target, options: c.options, start_totals: c.start_totals,
      });
    });
    return canonical(got.error ? got : { value: plain(got.value) });
  });
  const posted = cases.posted.map(function (c) {
    const got = attempt(function () { return engine.talliesOf(c.posted, c.sides, c.variant); });
    if (got.error) return canonical(got);
    return canonical({ tallies: plain(got.value), problems: plain(engine.validate(got.value, c.sides, c.variant)) });
  });
  head.setup_milliseconds = Number(process.hrtime.bigint() - started) / 1e6 - head.milliseconds;
  const all = [JSON.stringify(head)].concat(lines, setups, posted);
  fs.writeFileSync(process.argv[3], all.join("\n") + "\n");
}

main();
