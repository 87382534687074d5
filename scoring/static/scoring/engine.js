// The Casino scoring engine in plain JavaScript, for scoring a match offline on the phone.
//
// It MIRRORS scoring/engine/rules.py, the server's engine, function for function (docs/RULES.md says what
// the rules mean): a fix in one must be made in the other. tests/engine/test_engine_js.py proves that they
// agree: it plays tens of thousands of random matches (every variant, every option, 2 to 4 sides,
// partners, start totals, valid and invalid hands) through both and compares every field. No build
// step, no dependencies, ES2019. One file, loaded as a classic `<script defer>` (it sets one
// global, window.casinoEngine, and runs nothing else: no eval, fine under a strict CSP) or by node
// (`require`, module.exports).
//
// Python → JavaScript, the same way everywhere:
// - functions and methods: snake_case → camelCase (score_match → scoreMatch, Lineup.from_seats →
//   Lineup.fromSeats); private helpers lose the underscore too (_net_sweeps → netSweeps) and are
//   not exported. Classes, enums and constants keep their names (Rules, Tally, Variant.CASINO,
//   COUNT_OUT_ORDER); local variables keep Python's, so the two files read line by line.
// - data keeps Python's names: fields and properties (big_casino, hand_number, dealer_seat,
//   endgame_from, Breakdown's points), keyword arguments, which become one options object
//   (Rules.make("royal", {several_reach: "highest"}), scoreHand(rules, tallies, before,
//   {tied_before: true, pots: [1, 0]}), tableTurn(rules, {players: 4, first_dealer: 0,
//   hand_index: 2})), categories, kinds and codes ("little_casino", "count-out", "10D"). An
//   unknown option name is a TypeError, as an unknown keyword is in Python.
// - None → null; a tuple → a frozen array; a NamedTuple or frozen dataclass → a frozen instance
//   of the class of the same name (positional constructor arguments in the Python order); a
//   StrEnum → a frozen object whose values are the strings (Variant.of(x) is Python's
//   Variant(x)); the sets CANCELLING and COUNTING_OUT → frozen arrays; a dict keyed by an enum or
//   a code → a frozen object (TARGETS, CARDS, MESSAGES); DEALS_PER_HAND's keys are strings.
// - ValueError → casinoEngine.ValueError; MatchOverError is one and carries hand_index (and
//   handIndex). Python's % is floored (seat numbers): so is this engine's.
// - Scoring functions take any object with a tally's fields, like Python; build tallies with
//   Tally.make to get the aces normalised.
//
// The public names, in rules.py's order: Variant, SweepRule, SeveralReach, Scoring, TwentyNeeds,
// Ties, SweepFreeze, Status; PACK, SPADES, MAX_SWEEPS, DEFAULT_TARGET, COUNT_OUT_ORDER,
// POINT_CARDS, PEGGED, FINNISH_CARDS, FINNISH_SPADES, FINNISH_FREEZE, NO_POTS, DEALS_PER_HAND;
// Rules (Rules.make, .clockwise, .endgame_from), TARGETS, CANCELLING, COUNTING_OUT,
// variantDefaults; Card, BIG_CASINO, LITTLE_CASINO, ACES, JACK_OF_SPADES, SPECIAL_CARDS, CARDS,
// ACE_SUITS; Tally (Tally.make), Breakdown, Outcome, HandScore, Turn, MatchScore;
// endgameCondition, scoreBreakdown, scoreHand, MatchOverError, scoreMatch, startLeader,
// timeStage; PARTNERS, TABLES, TABLE_PROBLEMS, sideName, tableProblem, Lineup, tableTurn,
// seatSide; MESSAGES, SPADE_CARDS, NON_SPADE_CARDS, VARIANT_FIELDS, Problem, describeProblem, validate;
// handBasePoints; MAX_TARGET, MIN_DOMINICAN_TARGET, MAX_START_TOTAL, layoutName, LAYOUTS,
// SETUP_PROBLEMS, optionProblems, dominicanProblems, setupProblems, talliesOf; QUICK, TIE,
// quickEntry, quickCounts; and
// ValueError.
(function (root, factory) {
  "use strict";
  if (typeof module === "object" && module && module.exports) {
    module.exports = factory();
  } else {
    root.casinoEngine = factory();
  }
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  // --- Python's behaviour where JavaScript's differs ------------------------------------------

  class ValueError extends Error {
    constructor(message) {
      super(message);
      this.name = "ValueError";
    }
  }

  function freeze(value) {
    return Object.freeze(value);
  }

  function tuple(items) {
    return Object.freeze(Array.from(items));
  }

  function repr(value) {
    return typeof value === "string" ? "'" + value + "'" : String(value);
  }

  // A StrEnum: its members' values; `of` (not enumerable) is the lookup by value.
  function strEnum(name, members) {
    const values = Object.keys(members).map(function (key) { return members[key]; });
    Object.defineProperty(members, "of", {
      value: function (value) {
        if (values.indexOf(value) === -1) {
          throw new ValueError(repr(value) + " is not a valid " + name);
        }
        return value;
      },
    });
    return freeze(members);
  }

  // Python's int(): whole numbers, numbers truncated, booleans, and strings of digits.
  function pyInt(value) {
    if (typeof value === "boolean") return value ? 1 : 0;
    if (typeof value === "number") {
      if (!Number.isFinite(value)) throw new ValueError("cannot convert " + value + " to integer");
      return Math.trunc(value);
    }
    if (typeof value === "string") {
      if (/^\s*[+-]?\d+(_\d+)*\s*$/.test(value)) return Number(value.replace(/_/g, ""));
      throw new ValueError("invalid literal for int() with base 10: " + repr(value));
    }
    throw new TypeError("int() argument must be a string or a number, not " + repr(value));
  }

  // Python's a % b: the result takes the sign of b.
  function pyMod(a, b) {
    if (b === 0) throw new RangeError("integer modulo by zero");
    const r = a % b;
    return r !== 0 && (r < 0) !== (b < 0) ? r + b : r;
  }

  // Keyword arguments: an options object whose names must be among `allowed`.
  function keywords(where, options, allowed) {
    const given = options == null ? {} : options;
    Object.keys(given).forEach(function (key) {
      if (allowed.indexOf(key) === -1) {
        throw new TypeError(where + "() got an unexpected keyword argument " + repr(key));
      }
    });
    return given;
  }

  function required(where, options, name) {
    if (options[name] === undefined) {
      throw new TypeError(where + "() missing required keyword-only argument: " + repr(name));
    }
    return options[name];
  }

  function given(value, otherwise) {
    return value === undefined || value === null ? otherwise : value;
  }

  function maxOf(values) {
    if (!values.length) throw new ValueError("max() arg is an empty sequence");
    return Math.max.apply(null, values);
  }

  function minOf(values) {
    if (!values.length) throw new ValueError("min() arg is an empty sequence");
    return Math.min.apply(null, values);
  }

  function sum(values) {
    let total = 0;
    for (let i = 0; i < values.length; i++) total += values[i];
    return total;
  }

  function range(count) {
    const out = [];
    for (let i = 0; i < count; i++) out.push(i);
    return out;
  }

  function zeros(count) {
    return range(count).map(function () { return 0; });
  }

  // Python's `x in container` for the aces: a substring of a string, a member of an array.
  function has(container, item) {
    return container.indexOf(item) !== -1;
  }

  // Python's "%(name)s" / "%(name)d" formatting of a message (and "%%").
  function pyFormat(template, params) {
    return template.replace(/%(?:\(([^)]*)\))?([sd%])/g, function (whole, name, type) {
      if (type === "%") return "%";
      if (!Object.prototype.hasOwnProperty.call(params, name)) {
        throw new Error("KeyError: " + repr(name));
      }
      const value = params[name];
      if (type === "d") return String(Math.trunc(Number(value)));
      if (value === null) return "None";
      if (typeof value === "boolean") return value ? "True" : "False";
      return String(value);
    });
  }

  // --- the enums and the constants --------------------------------------------------------------

  const Variant = strEnum("Variant", {
    CASINO: "casino",
    ROYAL: "royal",
    DOMINICAN: "dominican",
    SWEDISH: "swedish",
    FINNISH: "finnish",
    SPADE: "spade",
  });
  const SweepRule = strEnum("SweepRule", { OFF: "off", COUNT: "count", CANCEL: "cancel" });
  const SeveralReach = strEnum("SeveralReach", { HIGHEST: "highest", COUNT_OUT: "count-out" });
  const Scoring = strEnum("Scoring", { CUMULATIVE: "cumulative", DIFFERENCE: "difference" });
  const TwentyNeeds = strEnum("TwentyNeeds", {
    LITTLE_CASINO: "little-casino",
    MOST_SPADES: "most-spades",
  });
  // Finnish Kasino: a tie for most cards or most spades goes into a pot (carry) or is lost.
  const Ties = strEnum("Ties", { CARRY: "carry", NONE: "none" });
  // Finnish Kasino: sweeps score nothing once a side had 10 or more before the hand.
  const SweepFreeze = strEnum("SweepFreeze", { TEN: "10", OFF: "off" });
  const Status = strEnum("Status", { PLAYING: "playing", WON: "won", TIED: "tied" });

  const PACK = 52;
  const SPADES = 13;
  const MAX_SWEEPS = 24;
  const DEFAULT_TARGET = 21;
  // Royal Casino's count-out order (RULES.md §5); last_capture is Swedish Kasino's (0 elsewhere).
  const COUNT_OUT_ORDER = tuple([
    "cards",
    "spades",
    "big_casino",
    "little_casino",
    "S",
    "C",
    "H",
    "D",
    "sweeps",
    "last_capture",
  ]);
  // The count-out steps of Finnish Kasino (point cards first) and Spade Casino (pegged first).
  const POINT_CARDS = tuple(["aces", "big_casino", "little_casino"]);
  const PEGGED = tuple(["spades", "jack_of_spades", "little_casino", "big_casino", "aces", "sweeps"]);
  // Finnish Kasino: the points a tie for most cards / most spades puts into its pot.
  const FINNISH_CARDS = 1;
  const FINNISH_SPADES = 2;
  const FINNISH_FREEZE = 10;
  const NO_POTS = tuple([0, 0]);
  const DEALS_PER_HAND = freeze({ 2: 6, 3: 4, 4: 3 });

  // --- the rules of a match -----------------------------------------------------------------

  const RULES_OPTIONS = [
    "target",
    "sweeps",
    "several_reach",
    "scoring",
    "twenty_needs",
    "ties",
    "sweep_freeze",
  ];

  // A match's variant and options. Build it with Rules.make to get the variant's defaults.
  class Rules {
    constructor(fields) {
      const f = keywords("Rules", fields, ["variant"].concat(RULES_OPTIONS));
      this.variant = required("Rules", f, "variant");
      this.target = given(f.target, DEFAULT_TARGET);
      this.sweeps = given(f.sweeps, SweepRule.COUNT);
      this.several_reach = given(f.several_reach, SeveralReach.HIGHEST);
      this.scoring = given(f.scoring, Scoring.CUMULATIVE);
      this.twenty_needs = given(f.twenty_needs, TwentyNeeds.LITTLE_CASINO);
      this.ties = given(f.ties, Ties.CARRY);
      this.sweep_freeze = given(f.sweep_freeze, SweepFreeze.TEN);
      freeze(this);
    }

    // Rules for `variant`, with every option left out (or null) taking the variant's default.
    // Throws ValueError for an unknown variant or option value, a target below 1, or sweeps
    // other than cancel in Finnish Kasino.
    static make(variant, options) {
      const o = keywords("make", options, RULES_OPTIONS);
      variant = Variant.of(variant);
      const defaults = variantDefaults(variant);
      const rules = new Rules({
        variant: variant,
        target: o.target == null ? defaults.target : pyInt(o.target),
        sweeps: o.sweeps == null ? defaults.sweeps : SweepRule.of(o.sweeps),
        several_reach:
          o.several_reach == null ? defaults.several_reach : SeveralReach.of(o.several_reach),
        scoring: o.scoring == null ? defaults.scoring : Scoring.of(o.scoring),
        twenty_needs:
          o.twenty_needs == null ? defaults.twenty_needs : TwentyNeeds.of(o.twenty_needs),
        ties: o.ties == null ? Ties.CARRY : Ties.of(o.ties),
        sweep_freeze: o.sweep_freeze == null ? SweepFreeze.TEN : SweepFreeze.of(o.sweep_freeze),
      });
      checkOptions(rules);
      return rules;
    }

    // Casino and Royal Casino go clockwise; Dominican Royal Casino counter-clockwise.
    get clockwise() {
      return this.variant !== Variant.DOMINICAN;
    }

    // The total from which Dominican near-target rules apply (target - 3), else null; only from
    // target 4 up.
    get endgame_from() {
      if (this.variant === Variant.DOMINICAN && this.target >= 4) return this.target - 3;
      return null;
    }
  }

  // Throw ValueError for the options no table plays with.
  function checkOptions(rules) {
    if (rules.target < 1) throw new ValueError("target must be at least 1");
    if (rules.variant === Variant.FINNISH && rules.sweeps !== SweepRule.CANCEL) {
      throw new ValueError("Finnish Kasino's sweeps always cancel");
    }
  }

  const TARGETS = freeze({ swedish: 16, finnish: 16, spade: 61 });
  const CANCELLING = tuple([Variant.DOMINICAN, Variant.FINNISH]);
  const COUNTING_OUT = tuple([Variant.ROYAL, Variant.FINNISH, Variant.SPADE]);

  // The options a variant is played with unless the table says otherwise (RULES.md §3, §9).
  function variantDefaults(variant) {
    variant = Variant.of(variant);
    return new Rules({
      variant: variant,
      target: Object.prototype.hasOwnProperty.call(TARGETS, variant)
        ? TARGETS[variant]
        : DEFAULT_TARGET,
      sweeps: has(CANCELLING, variant) ? SweepRule.CANCEL : SweepRule.COUNT,
      several_reach: has(COUNTING_OUT, variant) ? SeveralReach.COUNT_OUT : SeveralReach.HIGHEST,
    });
  }

  // --- the special cards -----------------------------------------------------------------------

  // A card that scores by itself, so a tally records who took it (RULES.md §2). `name` and
  // `taken` are the English texts (msgids of the server's translations).
  class Card {
    constructor(code, symbol, field, name, taken, suit) {
      this.code = code;
      this.symbol = symbol;
      this.field = field;
      this.name = name;
      this.taken = taken === undefined ? "" : taken;
      this.suit = suit === undefined ? "" : suit;
      freeze(this);
    }

    get red() {
      return has("♥♦", this.symbol.slice(-1));
    }

    get spade() {
      return this.symbol.slice(-1) === "♠";
    }

    // Its key in COUNT_OUT_ORDER and endgame conditions: the Tally field, or an ace's suit.
    get category() {
      return this.suit || this.field;
    }

    held(tally) {
      if (this.suit) return has(tally.aces, this.suit);
      return Boolean(tally[this.field]);
    }
  }

  const BIG_CASINO = new Card("10D", "10♦", "big_casino", "big casino (10♦)", "the big casino (10♦)");
  const LITTLE_CASINO = new Card(
    "2S",
    "2♠",
    "little_casino",
    "little casino (2♠)",
    "the little casino (2♠)"
  );
  const ACES = tuple([
    new Card("AS", "A♠", "aces", "ace of spades", "the ace of spades", "S"),
    new Card("AC", "A♣", "aces", "ace of clubs", "the ace of clubs", "C"),
    new Card("AH", "A♥", "aces", "ace of hearts", "the ace of hearts", "H"),
    new Card("AD", "A♦", "aces", "ace of diamonds", "the ace of diamonds", "D"),
  ]);
  // Spade Casino only (in the other variants it is a plain spade).
  const JACK_OF_SPADES = new Card("JS", "J♠", "jack_of_spades", "jack of spades (J♠)");
  // The six cards every variant records, in the order the hand form asks for them.
  const SPECIAL_CARDS = tuple([BIG_CASINO, LITTLE_CASINO].concat(ACES));
  // Every special card by its code (codes are not array indices: insertion order is kept).
  const CARDS = freeze(
    SPECIAL_CARDS.concat([JACK_OF_SPADES]).reduce(function (cards, card) {
      cards[card.code] = card;
      return cards;
    }, {})
  );
  const ACE_SUITS = ACES.map(function (ace) { return ace.suit; }).join(""); // "SCHD"

  // --- the results -------------------------------------------------------------------------------

  const TALLY_FIELDS = [
    "cards",
    "spades",
    "big_casino",
    "little_casino",
    "aces",
    "sweeps",
    "last_capture",
    "jack_of_spades",
  ];

  // What one side captured in one hand (partners' piles pooled); `aces` holds suit letters.
  class Tally {
    constructor(cards, spades, big_casino, little_casino, aces, sweeps, last_capture, jack_of_spades) {
      this.cards = cards;
      this.spades = spades;
      this.big_casino = big_casino;
      this.little_casino = little_casino;
      this.aces = aces;
      this.sweeps = sweeps;
      this.last_capture = last_capture === undefined ? false : last_capture;
      this.jack_of_spades = jack_of_spades === undefined ? false : jack_of_spades;
      freeze(this);
    }

    // Build a tally with the ace letters (a string, or an array of letters) upper-cased,
    // de-duplicated and in S C H D order. `cards` and `spades` are required.
    static make(fields) {
      const f = keywords("make", fields, TALLY_FIELDS);
      const cards = required("make", f, "cards");
      const spades = required("make", f, "spades");
      const held = new Set(Array.from(given(f.aces, "")).map(function (letter) {
        return letter.toUpperCase();
      }));
      const unknown = Array.from(held).filter(function (letter) {
        return !has(ACE_SUITS, letter) || letter.length !== 1;
      });
      if (unknown.length) {
        throw new ValueError("unknown ace suit(s): " + unknown.sort().join(""));
      }
      const normalized = Array.from(ACE_SUITS).filter(function (suit) {
        return held.has(suit);
      }).join("");
      return new Tally(
        cards,
        spades,
        Boolean(f.big_casino),
        Boolean(f.little_casino),
        normalized,
        f.sweeps === undefined ? 0 : f.sweeps,
        Boolean(f.last_capture),
        Boolean(f.jack_of_spades)
      );
    }
  }

  function orZero(value) {
    return value === undefined ? 0 : value;
  }

  // Points one side earned in one hand, per category (sweeps after cancelling and blocking).
  class Breakdown {
    constructor(cards, spades, big_casino, little_casino, aces, sweeps, last_capture, jack_of_spades) {
      this.cards = orZero(cards);
      this.spades = orZero(spades);
      this.big_casino = orZero(big_casino);
      this.little_casino = orZero(little_casino);
      this.aces = orZero(aces);
      this.sweeps = orZero(sweeps);
      this.last_capture = orZero(last_capture);
      this.jack_of_spades = orZero(jack_of_spades);
      freeze(this);
    }

    get points() {
      return (
        this.cards +
        this.spades +
        this.big_casino +
        this.little_casino +
        this.aces +
        this.sweeps +
        this.last_capture +
        this.jack_of_spades
      );
    }
  }

  // Why the match ended (or is tied) after a hand: kind "reached", "highest", "count-out",
  // "same-step", "condition", "conditions", "time" or "tied" (side null); see rules.py's Outcome.
  class Outcome {
    constructor(kind, side, category, total) {
      this.kind = kind;
      this.side = given(side, null);
      this.category = given(category, null);
      this.total = given(total, null);
      freeze(this);
    }
  }

  class HandScore {
    constructor(breakdown, points, totals, status, winner, outcome, pots, credited, held) {
      this.breakdown = breakdown;
      this.points = points;
      this.totals = totals;
      this.status = status;
      this.winner = winner;
      this.outcome = outcome;
      // Finnish Kasino: the points waiting in the most-cards and most-spades pots after the hand.
      this.pots = pots === undefined ? NO_POTS : pots;
      // What each side's total gained: its points, or with difference scoring the margin (or
      // nothing), and for a side held at target - 1 by the Dominican rules (§6) only up to it.
      this.credited = credited === undefined ? tuple([]) : credited;
      // Dominican (§6): the sides whose total was held at target - 1 (points above not counted).
      this.held = held === undefined ? tuple([]) : held;
      freeze(this);
    }
  }

  // Who is who at the table for one hand. Seats are numbered clockwise from 0; the dealer calls
  // "last" on deal number `deals`.
  class Turn {
    constructor(hand_number, dealer_seat, leader_seat, deals, clockwise) {
      this.hand_number = hand_number;
      this.dealer_seat = dealer_seat;
      this.leader_seat = leader_seat;
      this.deals = deals;
      this.clockwise = clockwise;
      freeze(this);
    }
  }

  class MatchScore {
    constructor(hands, totals, status, winner, outcome, conditions, pots) {
      this.hands = hands;
      this.totals = totals;
      this.status = status;
      this.winner = winner;
      this.outcome = outcome;
      // For the hand about to be played (null once the match is won):
      this.conditions = conditions;
      this.pots = pots === undefined ? NO_POTS : pots;
      freeze(this);
    }
  }

  // --- scoring ---------------------------------------------------------------------------------

  // Index of the strict plurality, or null when the top count is tied.
  function most(counts) {
    const top = maxOf(counts);
    let winner = null;
    for (let index = 0; index < counts.length; index++) {
      if (counts[index] === top) {
        if (winner !== null) return null;
        winner = index;
      }
    }
    return winner;
  }

  // The category a Dominican side must take to win this hand, or null if unrestricted (§6).
  function endgameCondition(rules, total_before) {
    const start = rules.endgame_from;
    if (start === null) return null;
    const short = rules.target - total_before;
    if (short === 3) return "cards";
    if (short === 2) return "big_casino";
    if (short === 1) {
      return rules.twenty_needs === TwentyNeeds.MOST_SPADES ? "spades" : "little_casino";
    }
    return null;
  }

  // Each side's sweeps after the variant's rule: off, counted, or cancelled (§4); Finnish sweeps
  // are void, and do not cancel, once any side had 10 or more before the hand (§9.2).
  function netSweeps(rules, tallies, before) {
    const sides = tallies.length;
    if (rules.sweeps === SweepRule.OFF) return zeros(sides);
    if (
      rules.variant === Variant.FINNISH &&
      rules.sweep_freeze === SweepFreeze.TEN &&
      maxOf(before) >= FINNISH_FREEZE
    ) {
      return zeros(sides);
    }
    let sweeps = tallies.map(function (t) { return t.sweeps; });
    if (rules.sweeps === SweepRule.CANCEL) {
      const least = minOf(sweeps);
      if (least) sweeps = sweeps.map(function (count) { return count - least; });
    }
    return sweeps;
  }

  // Finnish Kasino's most-cards and most-spades points per side, and the pots after the hand:
  // [cards, spades, [cards_pot, spades_pot]] (§9.2).
  function finnishMajorities(rules, tallies, pots) {
    const carry = rules.ties === Ties.CARRY;
    const cards = finnishCards(tallies, pots[0], carry);
    const spades = finnishSpades(tallies, pots[1], carry);
    return [cards[0], spades[0], tuple([cards[1], spades[1]])];
  }

  // Finnish most-cards points per side, and the cards pot after the hand: [cards, pot].
  function finnishCards(tallies, pot, carry) {
    const cards = zeros(tallies.length);
    const winner = most(tallies.map(function (t) { return t.cards; }));
    if (winner !== null) {
      cards[winner] = FINNISH_CARDS + pot;
      pot = 0;
    } else if (carry) {
      pot += FINNISH_CARDS;
    }
    return [cards, pot];
  }

  // Finnish most-spades points per side, and the spades pot after the hand: [spades, pot].
  function finnishSpades(tallies, pot, carry) {
    const sides = tallies.length;
    const spades = zeros(sides);
    const counts = tallies.map(function (t) { return t.spades; });
    const winner = most(counts);
    const top = range(sides).filter(function (side) { return counts[side] === maxOf(counts); });
    if (winner !== null) {
      spades[winner] = FINNISH_SPADES + pot;
      pot = 0;
    } else if (sides >= 3 && top.length === 2) {
      top.forEach(function (side) { spades[side] = Math.floor(FINNISH_SPADES / 2); });
    } else if (carry) {
      pot += FINNISH_SPADES;
    }
    return [spades, pot];
  }

  // Most-cards and most-spades points per side in the variants without pots (Spade Casino: every
  // spade scores, no point for most spades): [cards, spades].
  function majorities(variant, tallies) {
    const sides = tallies.length;
    const cards_winner = most(tallies.map(function (t) { return t.cards; }));
    const spades_winner = most(tallies.map(function (t) { return t.spades; }));
    let most_cards = 3;
    let most_spades = 1;
    if (variant === Variant.SWEDISH) {
      most_cards = 1;
      most_spades = 2;
    } else if (variant === Variant.SPADE) {
      most_cards = 3;
      most_spades = 0;
    }
    const cards = range(sides).map(function (side) {
      return side === cards_winner ? most_cards : 0;
    });
    let spades;
    if (variant === Variant.SPADE) { // every spade scores; no point for most spades
      spades = tallies.map(function (t) { return t.spades; });
    } else {
      spades = range(sides).map(function (side) {
        return side === spades_winner ? most_spades : 0;
      });
    }
    return [cards, spades];
  }

  // Points per category for each side of one hand, given the totals (and, for Finnish Kasino,
  // the pots) before the hand; and the pots after it: [breakdowns, pots].
  function scoreBreakdown(rules, tallies, before, pots) {
    pots = pots === undefined ? NO_POTS : pots;
    const variant = rules.variant;
    const sweeps = sweepPoints(rules, tallies, before);
    let cards;
    let spades;
    if (variant === Variant.FINNISH) {
      const finnish = finnishMajorities(rules, tallies, pots);
      cards = finnish[0];
      spades = finnish[1];
      pots = finnish[2];
    } else {
      const counted = majorities(variant, tallies);
      cards = counted[0];
      spades = counted[1];
      pots = NO_POTS;
    }
    const result = range(tallies.length).map(function (index) {
      return sideBreakdown(variant, tallies[index], cards[index], spades[index], sweeps[index]);
    });
    return [tuple(result), pots];
  }

  // The sweeps each side scores. Dominican: a side at target-3 or more scores none (its raw
  // sweeps still cancelled the others').
  function sweepPoints(rules, tallies, before) {
    const sweeps = netSweeps(rules, tallies, before);
    const blocked_from = rules.endgame_from;
    if (blocked_from === null) return sweeps;
    return sweeps.map(function (count, side) {
      return count && before[side] >= blocked_from ? 0 : count;
    });
  }

  // One side's points per category, from its majorities and sweeps and its own tally.
  function sideBreakdown(variant, tally, cards, spades, sweeps) {
    return new Breakdown(
      cards,
      spades,
      tally.big_casino ? 2 : 0,
      tally.little_casino ? 1 : 0,
      tally.aces.length,
      sweeps,
      variant === Variant.SWEDISH && tally.last_capture ? 1 : 0,
      variant === Variant.SPADE && tally.jack_of_spades ? 1 : 0
    );
  }

  function conditionMet(condition, breakdown) {
    return breakdown[condition] > 0;
  }

  // The count-out as [step name, categories counted together] in order.
  function countOutSteps(variant) {
    if (variant === Variant.FINNISH) {
      return [
        ["point_cards", POINT_CARDS],
        ["cards", ["cards"]],
        ["spades", ["spades"]],
        ["sweeps", ["sweeps"]],
      ];
    }
    if (variant === Variant.SPADE) return [["pegged", PEGGED], ["cards", ["cards"]]];
    return COUNT_OUT_ORDER.map(function (category) { return [category, [category]]; });
  }

  // Replay the hand onto `before`, step by step in the variant's count-out order: the first
  // candidate at the target wins; several reaching it at the same step are told apart by their
  // final totals.
  function countOut(rules, tallies, breakdown, before, totals, candidates) {
    const running = Array.from(before);
    const steps = countOutSteps(rules.variant);
    for (let s = 0; s < steps.length; s++) {
      const step = steps[s][0];
      countStep(tallies, breakdown, steps[s][1], candidates, running);
      const reached = candidates.filter(function (side) { return running[side] >= rules.target; });
      if (reached.length === 1) {
        return new Outcome("count-out", reached[0], step, totals[reached[0]]);
      }
      if (reached.length) return reachedTogether(rules, tallies, totals, reached, step);
    }
    return highest(rules, tallies, totals, candidates);
  }

  // Add one count-out step's categories to the candidates' `running` totals.
  function countStep(tallies, breakdown, categories, candidates, running) {
    candidates.forEach(function (side) {
      categories.forEach(function (category) {
        if (has(ACE_SUITS, category)) {
          running[side] += has(tallies[side].aces, category) ? 1 : 0;
        } else {
          running[side] += breakdown[side][category];
        }
      });
    });
  }

  // Several reached the target at the same step: the highest final total, else tied.
  function reachedTogether(rules, tallies, totals, reached, step) {
    const outcome = highest(rules, tallies, totals, reached);
    if (outcome.kind === "highest" && outcome.category === null) {
      return new Outcome("same-step", outcome.side, step, outcome.total);
    }
    return outcome;
  }

  // The candidate alone on the highest total; in Swedish Kasino equal top totals go to the one
  // of them that took more spades in the hand (§9.1); else tied.
  function highest(rules, tallies, totals, candidates) {
    const top = maxOf(candidates.map(function (side) { return totals[side]; }));
    const leaders = candidates.filter(function (side) { return totals[side] === top; });
    if (leaders.length === 1) return new Outcome("highest", leaders[0], null, top);
    if (rules.variant === Variant.SWEDISH) {
      const most_spades = maxOf(leaders.map(function (side) { return tallies[side].spades; }));
      const spades_leaders = leaders.filter(function (side) {
        return tallies[side].spades === most_spades;
      });
      if (spades_leaders.length === 1) {
        return new Outcome("highest", spades_leaders[0], "spades", top);
      }
    }
    return new Outcome("tied", null, null, top);
  }

  // Score one hand from the totals (and Finnish pots) before it; the tallies must be valid (see
  // validate). `tied_before`: the previous hand ended tied (RULES.md §5). `time_up`: time was
  // called in a timed round and this is the hand in progress or a later one: unless the game's
  // own rules won the match in this hand, the side alone on the highest total wins ("time").
  function scoreHand(rules, tallies, before, options) {
    const o = keywords("score_hand", options, ["tied_before", "pots", "time_up"]);
    const tied_before = Boolean(o.tied_before);
    const time_up = Boolean(o.time_up);
    const scored = scoreBreakdown(rules, tallies, before, o.pots === undefined ? NO_POTS : o.pots);
    const breakdown = scored[0];
    const pots = scored[1];
    const points = tuple(breakdown.map(function (b) { return b.points; }));
    const gains = credited(rules, points);
    if (before.length !== gains.length) {
      throw new ValueError("the totals before the hand and the tallies differ in length");
    }
    const totals = before.map(function (total, side) { return total + gains[side]; });
    const unheld = totals.slice();
    let outcome = handOutcome(rules, tallies, breakdown, before, totals, tied_before);
    if (time_up) outcome = timeOutcome(outcome, totals);
    const status_winner = statusOf(outcome);
    const status = status_winner[0];
    const winner = status_winner[1];
    const gained = tuple(totals.map(function (total, side) { return total - before[side]; }));
    const held = tuple(totals.map(function (total, side) { return total !== unheld[side]; }));
    return new HandScore(breakdown, points, tuple(totals), status, winner, outcome, pots, gained, held);
  }

  // How the hand ends the match by the game's rules: a Dominican condition, else the target.
  function handOutcome(rules, tallies, breakdown, before, totals, tied_before) {
    let outcome = null;
    if (rules.endgame_from !== null) outcome = endgameOutcome(rules, breakdown, before, totals);
    if (outcome === null) {
      outcome = targetOutcome(rules, tallies, breakdown, before, totals, tied_before);
    }
    return outcome;
  }

  // Time called: unless the rules won the match, the side alone on the highest total wins.
  function timeOutcome(outcome, totals) {
    if (outcome !== null && outcome.kind !== "tied") return outcome;
    const leader = most(totals);
    if (leader === null) return outcome;
    return new Outcome("time", leader, null, totals[leader]);
  }

  // The match's status and winner after a hand with this outcome: [status, winner].
  function statusOf(outcome) {
    if (outcome === null) return [Status.PLAYING, null];
    return [outcome.kind === "tied" ? Status.TIED : Status.WON, outcome.side];
  }

  // What each side adds to its total: its points, or with difference scoring (two sides) the
  // margin to the side ahead and nothing to the other.
  function credited(rules, points) {
    if (rules.scoring === Scoring.DIFFERENCE && points.length === 2) {
      const margin = points[0] - points[1];
      return margin > 0 ? [margin, 0] : [0, -margin];
    }
    return points;
  }

  // Dominican near-target rules (RULES.md §6): a side that met its condition wins (the first
  // condition in COUNT_OUT_ORDER if several did); a restricted side that missed its condition is
  // held at target - 1 in `totals`, which this updates.
  function endgameOutcome(rules, breakdown, before, totals) {
    let met = null; // [category rank, side], the least
    let several = false;
    before.forEach(function (total, side) {
      const condition = endgameCondition(rules, total);
      if (condition === null) return;
      if (conditionMet(condition, breakdown[side])) {
        const candidate = [COUNT_OUT_ORDER.indexOf(condition), side];
        if (met !== null) several = true;
        if (
          met === null ||
          candidate[0] < met[0] ||
          (candidate[0] === met[0] && candidate[1] < met[1])
        ) {
          met = candidate;
        }
      } else if (totals[side] >= rules.target) {
        totals[side] = rules.target - 1; // a restricted side that misses cannot win this hand
      }
    });
    if (met === null) return null;
    const kind = several ? "conditions" : "condition";
    return new Outcome(kind, met[1], COUNT_OUT_ORDER[met[0]], totals[met[1]]);
  }

  // Who reached the target after the hand: the only one, else the highest total or the count-out
  // (the highest always after a tied hand), or null while nobody has.
  function targetOutcome(rules, tallies, breakdown, before, totals, tied_before) {
    const reached = range(totals.length).filter(function (side) {
      return totals[side] >= rules.target;
    });
    if (reached.length === 1) return new Outcome("reached", reached[0], null, totals[reached[0]]);
    if (!reached.length) return null;
    if (tied_before || rules.several_reach === SeveralReach.HIGHEST) {
      return highest(rules, tallies, totals, reached);
    }
    return countOut(rules, tallies, breakdown, before, totals, reached);
  }

  // A hand was given after the hand that decided the match.
  class MatchOverError extends ValueError {
    constructor(hand_index) {
      super("hand " + (hand_index + 1) + " comes after the match was won");
      this.name = "MatchOverError";
      this.hand_index = hand_index;
      this.handIndex = hand_index;
    }
  }

  // Score a whole match, hand by hand, from `start_totals` (zeros by default; null or left out).
  // The tallies must be valid (see validate). Throws MatchOverError for a hand after the deciding
  // one. The option `sides` is needed only when there are no hands and no start totals. The
  // option `last_hand`: in a timed round, the number (1-based) of the hand in progress when time
  // was called; from that hand on each hand is scored with `time_up` (see scoreHand).
  function scoreMatch(rules, hands, start_totals, options) {
    const o = keywords("score_match", options, ["sides", "last_hand"]);
    const last_hand = o.last_hand === undefined ? null : o.last_hand;
    hands = Array.from(hands);
    let totals;
    if (start_totals !== undefined && start_totals !== null) {
      totals = tuple(start_totals);
    } else {
      const count = o.sides != null ? o.sides : hands.length ? hands[0].length : 2;
      totals = tuple(zeros(count));
    }
    let outcome = startTie(rules, totals);
    let status = outcome === null ? Status.PLAYING : Status.TIED;
    let winner = null;
    const scored = [];
    let pots = NO_POTS;
    hands.forEach(function (tallies, index) {
      if (status === Status.WON) throw new MatchOverError(index);
      const hand = scoreHand(rules, tallies, totals, {
        tied_before: status === Status.TIED,
        pots: pots,
        time_up: last_hand !== null && index + 1 >= last_hand,
      });
      scored.push(hand);
      totals = hand.totals;
      status = hand.status;
      winner = hand.winner;
      outcome = hand.outcome;
      pots = hand.pots;
    });
    const conditions = openConditions(rules, status, totals);
    return new MatchScore(tuple(scored), totals, status, winner, outcome, conditions, pots);
  }

  // Several sides share the top total at or past the target: the match starts tied (§5). (One
  // side alone there has already won: callers refuse such start totals, see startLeader.)
  function startTie(rules, totals) {
    if (!totals.length) return null;
    const top = maxOf(totals);
    if (top >= rules.target && totals.filter(function (t) { return t === top; }).length > 1) {
      return new Outcome("tied", null, null, top);
    }
    return null;
  }

  // Each side's Dominican condition for the next hand; null once the match is won.
  function openConditions(rules, status, totals) {
    if (status === Status.WON) return null;
    return tuple(totals.map(function (total) { return endgameCondition(rules, total); }));
  }

  // Where an open match of a timed round stands (scoreMatch's last_hand): "last" while the hand
  // numbered last_hand is played, "more" for a hand after it (the top totals were equal),
  // "ahead" for a hand before it (an ordinary hand); null when no time was called.
  function timeStage(last_hand, hands_played) {
    if (last_hand === null || last_hand === undefined) return null;
    const playing = hands_played + 1;
    if (playing === last_hand) return "last";
    return playing < last_hand ? "ahead" : "more";
  }

  // The side that has already won with these start totals, or null (RULES.md §5): a side alone
  // on the top total, at or past the target (such start totals are refused).
  function startLeader(target, start_totals) {
    if (!start_totals || !start_totals.length) return null;
    const top = maxOf(start_totals);
    const count = start_totals.filter(function (t) { return t === top; }).length;
    if (top < target || count > 1) return null;
    return start_totals.indexOf(top);
  }

  // --- the table: who sits where -------------------------------------------------------------------

  // How a partnership is named: "Ana & Cleo".
  const PARTNERS = " & ";
  // The tables a match may have, as [sides, players per side].
  const TABLES = tuple([tuple([2, 1]), tuple([3, 1]), tuple([4, 1]), tuple([2, 2])]);
  const TABLE_PROBLEMS = freeze({
    players: "A match has 2, 3 or 4 players, or two teams of two.",
    partners: "Partnerships are two teams of two.",
    difference_sides: "Difference scoring needs exactly two sides.",
  });

  // A side's name: the player, or "Ana & Cleo" for a partnership.
  function sideName(players) {
    return Array.from(players).join(PARTNERS);
  }

  // What is wrong with a table whose sides have these numbers of players (a key of
  // TABLE_PROBLEMS), or null for a table the game allows; `scoring` the match's, when known.
  function tableProblem(side_sizes, scoring) {
    const sizes = new Set(side_sizes);
    const count = side_sizes.length;
    const sizesOk = Array.from(sizes).every(function (size) { return size === 1 || size === 2; });
    if (!(count >= 2 && count <= 4) || sizes.size !== 1 || !sizesOk) return "players";
    const known = TABLES.some(function (table) {
      return table[0] === count && table[1] === side_sizes[0];
    });
    if (!known) return "partners";
    if (scoring === Scoring.DIFFERENCE && count !== 2) return "difference_sides";
    return null;
  }

  // Who sits where: each side's players (names, or any player object), in seat order. Seats
  // alternate sides, so seat s belongs to side s % sides and partners sit opposite.
  class Lineup {
    constructor(sides) {
      this.sides = sides;
      freeze(this);
    }

    static of(sides) {
      if (sides instanceof Lineup) return sides;
      return new Lineup(tuple(Array.from(sides).map(function (players) { return tuple(players); })));
    }

    // From [seat, side position, player] triples, in any order.
    static fromSeats(seats) {
      const by_side = new Map();
      Array.from(seats)
        .sort(function (a, b) { return a[0] - b[0]; })
        .forEach(function (seat) {
          if (!by_side.has(seat[1])) by_side.set(seat[1], []);
          by_side.get(seat[1]).push(seat[2]);
        });
      const order = Array.from(by_side.keys()).sort(function (a, b) { return a - b; });
      return new Lineup(tuple(order.map(function (side) { return tuple(by_side.get(side)); })));
    }

    get seat_count() {
      return sum(this.sides.map(function (players) { return players.length; }));
    }

    // [seat, side position, player] for every seat, in seat order.
    seats() {
      const count = this.sides.length;
      const out = [];
      this.sides.forEach(function (players, position) {
        players.forEach(function (player, index) {
          out.push(tuple([position + index * count, position, player]));
        });
      });
      return out.sort(function (a, b) { return a[0] - b[0]; });
    }

    // Each side's name ("Ana & Cleo" for partners), a player's name given by `name`.
    names(name) {
      const nameOf = name === undefined ? String : name;
      return this.sides.map(function (players) { return sideName(players.map(nameOf)); });
    }

    problem(scoring) {
      return tableProblem(this.sides.map(function (players) { return players.length; }), scoring);
    }
  }

  // Dealer, leader and number of deals for hand `hand_index` (0-based). RULES.md §8.
  function tableTurn(rules, options) {
    const o = keywords("table_turn", options, ["players", "first_dealer", "hand_index"]);
    const players = required("table_turn", o, "players");
    const first_dealer = required("table_turn", o, "first_dealer");
    const hand_index = required("table_turn", o, "hand_index");
    if (typeof players !== "number" || !Object.prototype.hasOwnProperty.call(DEALS_PER_HAND, players)) {
      throw new ValueError("a table has 2, 3 or 4 players");
    }
    const step = rules.clockwise ? 1 : -1;
    const dealer = pyMod(first_dealer + step * hand_index, players);
    return new Turn(
      hand_index + 1,
      dealer,
      pyMod(dealer + step, players),
      DEALS_PER_HAND[players],
      step > 0
    );
  }

  // The side a seat belongs to: seats alternate sides, so partners sit opposite each other.
  function seatSide(seat, sides) {
    return pyMod(seat, sides);
  }

  // --- validation ------------------------------------------------------------------------------

  // The English texts of the problems, by code (the server translates them).
  const MESSAGES = freeze({
    cards_total: "cards add up to %(total)d, not 52",
    spades_total: "spades add up to %(total)d, not 13",
    cards_negative: "%(side)s: cards cannot be negative (%(cards)d)",
    spades_negative: "%(side)s: spades cannot be negative (%(spades)d)",
    spades_over_cards: "%(side)s: %(spades)d spades but only %(cards)d cards",
    card_nobody: "nobody holds the %(card)s",
    card_both: "both %(first)s and %(second)s hold the %(card)s",
    card_several: "%(names)s all hold the %(card)s",
    special_spades:
      "%(side)s: holds %(cards)s but has only %(spades)d spades (needs at least %(needed)d)",
    special_non_spades:
      "%(side)s: holds %(cards)s but has only %(non_spades)d cards that are not spades " +
      "(needs at least %(needed)d)",
    sweeps_negative: "%(side)s: sweeps cannot be negative (%(sweeps)d)",
    sweeps_need_cards: "%(side)s: %(sweeps)d sweeps need at least %(needed)d cards",
    sweeps_total: "%(total)d sweeps in one hand; at most 24 are possible",
    tally_count: "%(count)d tallies for %(sides)d sides",
    after_win: "the match was already won before this hand",
    last_capture_count: "%(count)d sides made the last capture; exactly one side makes it",
    last_capture_no_cards: "%(side)s: made the last capture but has no cards",
    field_unused: "%(field)s is not recorded in this game",
  });

  // The special cards a side's spades must hold, and those its other cards must (RULES.md §7).
  const SPADE_CARDS = tuple(Object.keys(CARDS).filter(function (code) { return CARDS[code].spade; }));
  const NON_SPADE_CARDS = tuple(
    Object.keys(CARDS).filter(function (code) { return !CARDS[code].spade; })
  );
  // The tally fields only some variants record (RULES.md §9), and the variant that does.
  const VARIANT_FIELDS = freeze({ last_capture: Variant.SWEDISH, jack_of_spades: Variant.SPADE });

  // Something that keeps a hand (or a match) from adding up: `code` picks a text of MESSAGES,
  // `params` fill it in, `side` is the side it is about (or null).
  class Problem {
    constructor(code, params, side) {
      this.code = code;
      this.params = freeze(params === undefined ? {} : params);
      this.side = given(side, null);
      freeze(this);
    }

    describe(side_names, translate) {
      return describeProblem(this, side_names, translate);
    }
  }

  function sideLabel(side, side_names) {
    if (side_names && side < side_names.length) return side_names[side];
    return "#" + (side + 1);
  }

  // A problem's message in words, sides named from `side_names` ("#1" without them), messages
  // and card names run through `translate` (by default they stay English).
  function describeProblem(problem, side_names, translate) {
    const t = translate === undefined ? function (message) { return message; } : translate;
    const params = Object.assign({}, problem.params);
    if (problem.side !== null) params.side = sideLabel(problem.side, side_names);
    if ("card" in params) params.card = t(CARDS[String(params.card)].name);
    const holders = params.holders;
    delete params.holders;
    if (Array.isArray(holders)) {
      const labels = holders.map(function (side) { return sideLabel(side, side_names); });
      params.first = labels[0];
      params.second = labels[1];
      params.names = labels.join(", ");
    }
    return pyFormat(t(MESSAGES[problem.code]), params);
  }

  // Everything that keeps a hand from adding up against the known deck (RULES.md §7, §9): an
  // empty array means the hand is possible. With `sides`, a wrong number of tallies is a problem
  // too; with `variant`, the fields only some variants record are checked.
  function validate(tallies, sides, variant) {
    if (sides !== undefined && sides !== null && tallies.length !== sides) {
      return [new Problem("tally_count", { count: tallies.length, sides: sides })];
    }
    variant = variant === undefined || variant === null ? null : Variant.of(variant);
    const holders_of = holders(tallies, variant);
    let problems = countProblems(tallies);
    problems = problems.concat(variantFields(tallies, variant));
    problems = problems.concat(holderProblems(holders_of));
    tallies.forEach(function (tally, side) {
      problems = problems.concat(sideCardProblems(side, tally, holders_of));
      problems = problems.concat(sideSweepProblems(side, tally));
    });
    const sweeps_total = sum(tallies.map(function (t) { return Math.max(t.sweeps, 0); }));
    if (sweeps_total > MAX_SWEEPS) problems.push(new Problem("sweeps_total", { total: sweeps_total }));
    return problems;
  }

  // The pack's 52 cards and 13 spades, and each side's counts that cannot be.
  function countProblems(tallies) {
    const problems = [];
    const cards_total = sum(tallies.map(function (t) { return t.cards; }));
    if (cards_total !== PACK) problems.push(new Problem("cards_total", { total: cards_total }));
    const spades_total = sum(tallies.map(function (t) { return t.spades; }));
    if (spades_total !== SPADES) problems.push(new Problem("spades_total", { total: spades_total }));
    tallies.forEach(function (tally, side) {
      if (tally.cards < 0) problems.push(new Problem("cards_negative", { cards: tally.cards }, side));
      if (tally.spades < 0) {
        problems.push(new Problem("spades_negative", { spades: tally.spades }, side));
      } else if (tally.spades > tally.cards && tally.cards >= 0) {
        problems.push(
          new Problem("spades_over_cards", { spades: tally.spades, cards: tally.cards }, side)
        );
      }
    });
    return problems;
  }

  // Special card → the sides that say they took it (the J♠ only where the variant has it); a Map
  // in CARDS' order.
  function holders(tallies, variant) {
    const holders_of = new Map();
    holders_of.set(BIG_CASINO.code, sidesWhere(tallies, function (t) { return t.big_casino; }));
    holders_of.set(
      LITTLE_CASINO.code,
      sidesWhere(tallies, function (t) { return t.little_casino; })
    );
    ACES.forEach(function (ace) {
      holders_of.set(ace.code, sidesWhere(tallies, function (t) { return has(t.aces, ace.suit); }));
    });
    if (variant === Variant.SPADE) {
      holders_of.set(
        JACK_OF_SPADES.code,
        sidesWhere(tallies, function (t) { return t.jack_of_spades; })
      );
    }
    return holders_of;
  }

  // The sides whose tally passes `test`, in order.
  function sidesWhere(tallies, test) {
    const out = [];
    tallies.forEach(function (t, side) { if (test(t)) out.push(side); });
    return out;
  }

  // Each special card is taken by exactly one side.
  function holderProblems(holders_of) {
    const problems = [];
    holders_of.forEach(function (sides, card) {
      if (!sides.length) {
        problems.push(new Problem("card_nobody", { card: card }));
      } else if (sides.length === 2) {
        problems.push(new Problem("card_both", { card: card, holders: tuple(sides) }));
      } else if (sides.length > 2) {
        problems.push(new Problem("card_several", { card: card, holders: tuple(sides) }));
      }
    });
    return problems;
  }

  // A side's special cards fit in its spades and in its other cards.
  function sideCardProblems(side, tally, holders_of) {
    return specialSpadeProblems(side, tally, holders_of).concat(
      specialNonSpadeProblems(side, tally, holders_of)
    );
  }

  // The special spades a side says it took are more than its spades.
  function specialSpadeProblems(side, tally, holders_of) {
    const special_spades = SPADE_CARDS.filter(function (card) {
      return has(holders_of.get(card) || [], side);
    });
    if (tally.spades >= 0 && special_spades.length > tally.spades) {
      return [
        new Problem(
          "special_spades",
          { cards: symbols(special_spades), spades: tally.spades, needed: special_spades.length },
          side
        ),
      ];
    }
    return [];
  }

  // The special cards other than spades a side says it took are more than its other cards.
  function specialNonSpadeProblems(side, tally, holders_of) {
    const special_others = NON_SPADE_CARDS.filter(function (card) {
      return has(holders_of.get(card), side);
    });
    const non_spades = tally.cards - tally.spades;
    const fits = tally.cards < 0 || tally.spades < 0 || special_others.length <= non_spades;
    if (special_others.length && !fits) {
      return [
        new Problem(
          "special_non_spades",
          {
            cards: symbols(special_others),
            non_spades: Math.max(non_spades, 0),
            needed: special_others.length,
          },
          side
        ),
      ];
    }
    return [];
  }

  // A sweep takes at least two cards (the one played and one on the table).
  function sideSweepProblems(side, tally) {
    if (tally.sweeps < 0) return [new Problem("sweeps_negative", { sweeps: tally.sweeps }, side)];
    if (tally.cards >= 0 && tally.cards < 2 * tally.sweeps) {
      return [
        new Problem("sweeps_need_cards", { sweeps: tally.sweeps, needed: 2 * tally.sweeps }, side),
      ];
    }
    return [];
  }

  // Problems with the fields only some variants record (nothing to check without a variant).
  function variantFields(tallies, variant) {
    if (variant === null) return [];
    const problems = [];
    Object.keys(VARIANT_FIELDS).forEach(function (name) {
      const used = tallies.some(function (t) { return t[name]; });
      if (variant !== VARIANT_FIELDS[name] && used) {
        problems.push(new Problem("field_unused", { field: name }));
      }
    });
    if (variant === Variant.SWEDISH) return problems.concat(lastCaptureProblems(tallies));
    return problems;
  }

  // Swedish Kasino: exactly one side made the last capture, and it took cards.
  function lastCaptureProblems(tallies) {
    const problems = [];
    const last = [];
    tallies.forEach(function (t, side) { if (t.last_capture) last.push(side); });
    if (last.length !== 1) problems.push(new Problem("last_capture_count", { count: last.length }));
    last.forEach(function (side) {
      if (tallies[side].cards <= 0) problems.push(new Problem("last_capture_no_cards", {}, side));
    });
    return problems;
  }

  function symbols(cards) {
    return cards.map(function (card) { return CARDS[card].symbol; }).join(", ");
  }

  // Points a hand of Casino, Royal or Dominican Royal Casino is worth before sweeps: 11, less 3
  // for tied cards and 1 for tied spades (the other variants: RULES.md §9).
  function handBasePoints(tallies) {
    let base = 11;
    if (most(tallies.map(function (t) { return t.cards; })) === null) base -= 3;
    if (most(tallies.map(function (t) { return t.spades; })) === null) base -= 1;
    return base;
  }

  // --- a match's setup: the new-match form's checks, and a hand form's counts ------------------

  const MAX_TARGET = 999;
  const MIN_DOMINICAN_TARGET = 4;
  const MAX_START_TOTAL = 999;

  function layoutName(sides, per_side) {
    return per_side === 2 ? "teams" : String(sides * per_side);
  }

  const LAYOUTS = freeze(Object.fromEntries(TABLES.map(function (table) {
    return [layoutName(table[0], table[1]), table];
  })));

  // The English texts (the server translates them); params.field is the new-match form's field.
  const SETUP_PROBLEMS = freeze({
    seat_empty: "Who sits here?",
    seat_taken: "%(name)s already has a seat.",
    first_dealer: "Choose one of the %(count)d seats.",
    target_other: "Enter the target score.",
    too_high: "Ensure this value is less than or equal to %(limit_value)s.",
    too_low: "Ensure this value is greater than or equal to %(limit_value)s.",
    whole: "Enter a whole number.",
    finnish_sweeps: "In Finnish Kasino opposing sweeps always cancel.",
    difference_sides: TABLE_PROBLEMS.difference_sides,
    dominican_target: "Dominican Royal Casino is played to at least %(target)d points.",
    start_leader:
      "This side alone is at or past the target (%(target)d): that game is already won. A " +
      "top total shared with another side starts the match tied.",
  });

  // Python's str.casefold(): lower, upper and lower case again (ß is ss), the dotless ı kept.
  function casefold(text) {
    return text.split("ı").map(function (part) {
      return part.toLowerCase().toUpperCase().toLowerCase();
    }).join("ı");
  }

  // [null or a whole number in [low, high], problems]: a refused value reads as blank.
  function whole(value, low, high, field, side) {
    if (typeof value === "string") value = typedNumber(value);
    let code = null;
    if (typeof value === "string") code = "whole";
    else if (value != null && value < low) code = "too_low";
    else if (value != null && value > high) code = "too_high";
    if (code === null) return [given(value, null), []];
    const limit = { too_low: { limit_value: low }, too_high: { limit_value: high } }[code];
    return [null, [new Problem(code, Object.assign({}, limit, { field: field }), side)]];
  }

  function typedNumber(text) {
    text = text.trim();
    if (!text) return null;
    if (!/^[+-]?[0-9]+$/.test(text)) return text;
    const digits = text.replace(/^[+-]?0*/, "");
    const number = digits.length <= 9 ? Number(digits) : 1e9;  // longer: out of every range
    return text[0] === "-" ? 0 - number : number;
  }

  function optionProblems(variant, target, options, table) {
    const problems = targetProblems(target);
    const sweeps = given(options.sweeps, "");
    if (Variant.of(variant) === Variant.FINNISH && sweeps !== "" && sweeps !== SweepRule.CANCEL) {
      problems.push(new Problem("finnish_sweeps", { field: "sweeps" }));
    }
    const sizes = range(table[0]).map(function () { return table[1]; });
    const difference = options.scoring === Scoring.DIFFERENCE;
    if (difference && tableProblem(sizes, Scoring.DIFFERENCE) === "difference_sides") {
      problems.push(new Problem("difference_sides", { field: "scoring" }));
    }
    return problems;
  }

  function targetProblems(target) {
    if (target == null) return [];
    const read = whole(target, 1, MAX_TARGET, "target_other");
    if (read[0] === null) read[1].push(new Problem("target_other", { field: "target_other" }));
    return read[1];
  }

  function setupTarget(variant, target) {
    const read = target == null ? [null] : whole(target, 1, MAX_TARGET, "target_other");
    return read[0] === null ? variantDefaults(variant).target : read[0];
  }

  function dominicanProblems(variant, target) {
    if (Variant.of(variant) !== Variant.DOMINICAN || target >= MIN_DOMINICAN_TARGET) return [];
    return [new Problem("dominican_target", { target: MIN_DOMINICAN_TARGET, field: "target_other" })];
  }

  // setupProblems("casino", "2", ["Ana", "Ben"], {first_dealer: 0, target: null, options: {},
  // start_totals: ["", "3"]}).
  function setupProblems(variant, layout, seats, options) {
    const o = keywords("setup_problems", options, ["first_dealer", "target", "options", "start_totals"]);
    if (typeof layout !== "string" || !Object.prototype.hasOwnProperty.call(LAYOUTS, layout)) {
      throw new ValueError(repr(layout) + " is not a layout");
    }
    const table = LAYOUTS[layout];
    const seat_count = table[0] * table[1];
    const problems = seatProblems(seats, seat_count);
    const first_dealer = given(o.first_dealer, null);
    if (first_dealer !== null && !(first_dealer >= 0 && first_dealer < seat_count)) {
      problems.push(new Problem("first_dealer", { count: seat_count, field: "first_dealer" }));
    }
    const target = given(o.target, null);
    const aim = setupTarget(variant, target);
    return problems.concat(
      optionProblems(variant, target, given(o.options, {}), table),
      dominicanProblems(variant, aim),
      startProblems(aim, given(o.start_totals, []), table[0])
    );
  }

  function seatProblems(seats, seat_count) {
    const problems = [];
    const seen = new Set();
    range(seat_count).forEach(function (seat) {
      const name = seat < seats.length ? seats[seat] : "";
      const field = "seat_" + seat;
      if (!name) problems.push(new Problem("seat_empty", { field: field }));
      else if (seen.has(casefold(name))) problems.push(new Problem("seat_taken", { name: name, field: field }));
      seen.add(casefold(name));
    });
    return problems;
  }

  function startProblems(aim, start_totals, sides) {
    let problems = [];
    const totals = range(sides).map(function (side) {
      const posted = side < start_totals.length ? start_totals[side] : null;
      const read = whole(posted, 0, MAX_START_TOTAL, "start_" + side, side);
      problems = problems.concat(read[1]);
      return read[0] || 0;
    });
    const leader = startLeader(aim, totals);
    if (leader === null) return problems;
    return problems.concat([new Problem("start_leader", { target: aim, field: "start_" + leader }, leader)]);
  }

  // The tallies a hand form's counts make (`posted`: its fields' numbers, null or "" or missing
  // for a blank).
  function talliesOf(posted, sides, variant) {
    let cards, spades;
    if (posted.mode === QUICK && quickEntry(variant, sides)) {
      const counts = quickCounts(
        given(postedValue(posted, "most_cards"), sides - 1),
        given(postedValue(posted, "most_spades"), sides - 1),
        range(sides).map(function (side) { return given(postedValue(posted, "sweeps_" + side), 0); })
      );
      cards = counts[0];
      spades = counts[1];
    } else {
      cards = sideCounts(posted, "cards", PACK, sides);
      spades = sideCounts(posted, "spades", SPADES, sides);
    }
    const holder = {};
    Object.keys(CARDS).forEach(function (code) {
      holder[code] = given(postedValue(posted, "card_" + code), sides - 1);
    });
    const jack = Variant.of(variant) === Variant.SPADE ? holder[JACK_OF_SPADES.code] : null;
    const last_capture = postedValue(posted, "last_capture");
    return range(sides).map(function (side) {
      return Tally.make({
        cards: cards[side],
        spades: spades[side],
        big_casino: holder[BIG_CASINO.code] === side,
        little_casino: holder[LITTLE_CASINO.code] === side,
        aces: ACES.filter(function (ace) { return holder[ace.code] === side; })
          .map(function (ace) { return ace.suit; }),
        sweeps: postedValue(posted, "sweeps_" + side) || 0,
        last_capture: last_capture === side,
        jack_of_spades: jack === side,
      });
    });
  }

  // Quick entry: who took most, not how many (two sides, not Spade Casino).
  const QUICK = "quick";
  const TIE = -1;

  function quickEntry(variant, sides) {
    return sides === 2 && Variant.of(variant) !== Variant.SPADE;
  }

  function quickCounts(most_cards, most_spades, sweeps) {
    let cards;
    if (most_cards === TIE) cards = [PACK / 2, PACK / 2];
    else {
      const top = Math.max(PACK / 2 + 1, 2 * sweeps[most_cards]);
      cards = [0, 1].map(function (side) { return side === most_cards ? top : PACK - top; });
    }
    const spades = [0, 1].map(function (side) {
      return (SPADES - 1) / 2 + (side === most_spades ? 1 : 0);
    });
    return [cards, spades];
  }

  function postedValue(posted, name) {
    return posted[name] === undefined || posted[name] === "" ? null : posted[name];
  }

  function sideCounts(posted, kind, all, sides) {
    const counts = range(sides - 1).map(function (side) {
      return given(postedValue(posted, kind + "_" + side), 0);
    });
    const last = postedValue(posted, kind + "_" + (sides - 1));
    return counts.concat([last === null ? all - sum(counts) : last]);
  }

  return freeze({
    ValueError: ValueError,
    Variant: Variant,
    SweepRule: SweepRule,
    SeveralReach: SeveralReach,
    Scoring: Scoring,
    TwentyNeeds: TwentyNeeds,
    Ties: Ties,
    SweepFreeze: SweepFreeze,
    Status: Status,
    PACK: PACK,
    SPADES: SPADES,
    MAX_SWEEPS: MAX_SWEEPS,
    DEFAULT_TARGET: DEFAULT_TARGET,
    COUNT_OUT_ORDER: COUNT_OUT_ORDER,
    POINT_CARDS: POINT_CARDS,
    PEGGED: PEGGED,
    FINNISH_CARDS: FINNISH_CARDS,
    FINNISH_SPADES: FINNISH_SPADES,
    FINNISH_FREEZE: FINNISH_FREEZE,
    NO_POTS: NO_POTS,
    DEALS_PER_HAND: DEALS_PER_HAND,
    Rules: Rules,
    TARGETS: TARGETS,
    CANCELLING: CANCELLING,
    COUNTING_OUT: COUNTING_OUT,
    variantDefaults: variantDefaults,
    Card: Card,
    BIG_CASINO: BIG_CASINO,
    LITTLE_CASINO: LITTLE_CASINO,
    ACES: ACES,
    JACK_OF_SPADES: JACK_OF_SPADES,
    SPECIAL_CARDS: SPECIAL_CARDS,
    CARDS: CARDS,
    ACE_SUITS: ACE_SUITS,
    Tally: Tally,
    Breakdown: Breakdown,
    Outcome: Outcome,
    HandScore: HandScore,
    Turn: Turn,
    MatchScore: MatchScore,
    endgameCondition: endgameCondition,
    scoreBreakdown: scoreBreakdown,
    scoreHand: scoreHand,
    MatchOverError: MatchOverError,
    scoreMatch: scoreMatch,
    startLeader: startLeader,
    timeStage: timeStage,
    PARTNERS: PARTNERS,
    TABLES: TABLES,
    TABLE_PROBLEMS: TABLE_PROBLEMS,
    sideName: sideName,
    tableProblem: tableProblem,
    Lineup: Lineup,
    tableTurn: tableTurn,
    seatSide: seatSide,
    MESSAGES: MESSAGES,
    SPADE_CARDS: SPADE_CARDS,
    NON_SPADE_CARDS: NON_SPADE_CARDS,
    VARIANT_FIELDS: VARIANT_FIELDS,
    Problem: Problem,
    describeProblem: describeProblem,
    validate: validate,
    handBasePoints: handBasePoints,
    MAX_TARGET: MAX_TARGET,
    MIN_DOMINICAN_TARGET: MIN_DOMINICAN_TARGET,
    MAX_START_TOTAL: MAX_START_TOTAL,
    layoutName: layoutName,
    LAYOUTS: LAYOUTS,
    SETUP_PROBLEMS: SETUP_PROBLEMS,
    optionProblems: optionProblems,
    dominicanProblems: dominicanProblems,
    setupProblems: setupProblems,
    talliesOf: talliesOf,
    QUICK: QUICK,
    TIE: TIE,
    quickEntry: quickEntry,
    quickCounts: quickCounts,
  });
});
