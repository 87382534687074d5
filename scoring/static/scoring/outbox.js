// The outbox: hands saved without signal, kept on this phone (IndexedDB) and sent in order when
// the network is back; scored meanwhile by engine.js. docs/ARCHITECTURE.md tells the whole story.
(function () {
  "use strict";
  var app = window.casinoApp;
  if (!app) return;  // app.js did not run: neither does this (as when both were one file)
  var draftForget = app.draftForget;
  var refreshBoard = app.refreshBoard;

  // The signed-in account (base.html names it on <body>; a page for no one has none).
  function account() { return document.body.dataset.account || ""; }
  var PAGES = "casino-pages-";  // + the account whose pages the worker keeps there
  // Every page load forgets the pages kept for any other account (or for none): a phone that
  // changed hands, or whose session ended elsewhere, shows nobody's boards offline.
  if ("caches" in window) {
    caches.keys().then(function (names) {
      names.forEach(function (name) {
        if (name.indexOf("casino-pages") === 0 && name !== PAGES + account()) caches.delete(name);
      });
    }).catch(function () { /* nothing kept */ });
  }
  // The pages kept for this account speak the language they were kept in: once the account's
  // language is another (switched here or on another phone), each is fetched again in it, so that
  // no page opened without signal speaks the old one (the new-match form, the board of a match
  // started here, a board not opened since). A page the server no longer gives is forgotten.
  function keptInLanguage() {
    var language = document.documentElement.lang;
    if (!("caches" in window) || !account() || !language || navigator.onLine === false) return;
    caches.open(PAGES + account()).then(function (cache) {
      return cache.keys().then(function (requests) {
        return Promise.all(requests.map(function (request) {
          return cache.match(request).then(function (kept) {
            if (!kept || (kept.headers.get("Content-Language") || language) === language) return null;
            return fetch(request.url, { credentials: "same-origin" }).then(function (response) {
              var html = (response.headers.get("Content-Type") || "").indexOf("text/html") === 0;
              if (response.ok && !response.redirected && html) return cache.put(request, response);
              if (response.status < 500) return cache.delete(request);
              return null;
            });
          });
        }));
      });
    }).catch(function () { /* tried again at the next page */ });
  }
  document.addEventListener("DOMContentLoaded", keptInLanguage);
  function forgetPages() {
    if ("caches" in window) caches.delete(PAGES + account());
    if (navigator.serviceWorker && navigator.serviceWorker.controller) {
      navigator.serviceWorker.controller.postMessage({ type: "forget-pages", account: account() });
    }
  }
  // (Without IndexedDB there is no outbox: nothing more to set up.)
  if (!("indexedDB" in window)) return;

  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js").catch(function () { /* works without it */ });
    navigator.serviceWorker.addEventListener("message", function (event) {
      if (event.data && event.data.type === "send-outbox") sendOutbox();
    });
  }

  function database() {
    return new Promise(function (resolve, reject) {
      var open = indexedDB.open("casino-outbox", 1);
      open.onupgradeneeded = function () { open.result.createObjectStore("hands", { keyPath: "id" }); };
      open.onsuccess = function () { resolve(open.result); };
      open.onerror = function () { reject(open.error); };
    });
  }
  function store(mode, work) {
    return database().then(function (db) {
      return new Promise(function (resolve, reject) {
        var transaction = db.transaction("hands", mode);
        var result = work(transaction.objectStore("hands"));
        transaction.oncomplete = function () {
          resolve(result && result.result !== undefined ? result.result : result);
        };
        transaction.onerror = function () { reject(transaction.error); };
      });
    });
  }
  function waiting() {
    return store("readonly", function (hands) { return hands.getAll(); }).then(function (all) {
      return (all || []).sort(function (a, b) { return a.created - b.created; });
    });
  }
  function keep(entry) { return store("readwrite", function (hands) { hands.put(entry); }); }
  // Kept under the next number, or tried again: shown as waiting at once, then sent.
  function keepAndSend(entry) { return keep(entry).then(render).then(sendOutbox); }
  function forget(ids) {
    return store("readwrite", function (hands) { [].concat(ids).forEach(function (id) { hands.delete(id); }); });
  }
  // A match started without signal (local.js), kept in the same store so that it is sent in
  // order, before its hands; until then its hands name it LOCAL + its id.
  var LOCAL = "local:";
  function isMatch(entry) { return entry.kind === "match"; }
  // A hand typed in this account's session (one kept before hands named their account is
  // nobody's: it is never sent in a session that cannot be told from another account's).
  function mine(entry) { return !!entry.account && entry.account === account(); }

  function newId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return String(Date.now()) + "-" + Math.random().toString(16).slice(2);
  }
  function csrfToken() {
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]; } catch (error) { return ""; }
  }
  function handForm() { return document.querySelector("[data-hand-form][data-sync]"); }
  function format(text, values) {
    return text.replace(/%\((\w+)\)s/g, function (_, name) { return values[name] === undefined ? "" : values[name]; });
  }

  // What can be checked without the server: the pack's cards and spades (engine.js's PACK and
  // SPADES, loaded before the entries are listed) among the sides (the last side gets what the
  // deck leaves); the special cards are radio buttons, so each is held once.
  function deckChecks(fields) {
    var E = window.casinoEngine || {};
    var values = {};
    fields.forEach(function (pair) { values[pair[0]] = pair[1]; });
    var sides = 0;
    while (("cards_" + sides) in values || ("spades_" + sides) in values) sides += 1;
    function counted(kind, whole) {
      var left = whole;
      var fine = true;
      for (var side = 0; side < sides; side += 1) {
        var raw = values[kind + "_" + side];
        if (raw === undefined || raw === "") { if (side !== sides - 1) fine = false; continue; }
        var value = parseInt(raw, 10);
        if (Number.isNaN(value) || value < 0) fine = false; else left -= value;
      }
      var last = values[kind + "_" + (sides - 1)];
      return fine && (last === undefined || last === "" ? left >= 0 : left === 0);
    }
    return { cards: counted("cards", E.PACK), spades: counted("spades", E.SPADES), special: true };
  }

  function render() {
    var box = document.querySelector("[data-outbox]");
    var badge = document.querySelector("[data-net-badge]");
    return waiting().then(withEngine).then(function (entries) {
      var own = entries.filter(mine);
      var matches = own.filter(isMatch);
      own = own.filter(function (entry) { return !isMatch(entry); });
      if (badge) showBadge(badge, own.length);
      if (!box) return;
      var others = entries.filter(function (entry) { return !mine(entry); });
      box.querySelector("[data-outbox-others]").hidden = others.length === 0;
      var heading = box.querySelector("#outbox-title");
      if (heading) heading.textContent = navigator.onLine ? box.dataset.titleOnline : box.dataset.titleOffline;
      if (box.hasAttribute("data-outbox-all")) { listAll(box, matches.concat(own), others); return; }
      // A board: its match's entries (a finished board has no form, only what is held for it).
      var form = handForm();
      var key = form ? form.dataset.draft : box.dataset.match;
      if (!key) return;
      var here = own.filter(function (entry) { return entry.match === key; });
      var list = box.querySelector("[data-outbox-list]");
      list.textContent = "";
      var numbers = here.filter(function (entry) { return entry.state === "waiting"; })
        .map(function (entry) { return entry.number; });
      var lastNumber = Math.max.apply(null, numbers.concat([0]));
      // A match started here without signal: itself first, before its hands.
      var started = matches.filter(function (entry) { return LOCAL + entry.id === key; });
      started.forEach(function (entry) { list.appendChild(matchRow(box, entry)); });
      here.forEach(function (entry) {
        entry.last = entry.state === "waiting" && entry.number === lastNumber;
        list.appendChild(row(box, entry, !form));
      });
      box.hidden = here.length === 0 && others.length === 0 && started.length === 0;
      var auth = box.querySelector("[data-outbox-auth]");
      if (auth) auth.hidden = !here.some(function (entry) { return entry.state === "auth"; });
      if (!form) return;
      // The next hand typed here comes after the waiting ones; not after one the server refused
      // (a clash, a number past the next one): it is never stored.
      var number = form.querySelector("[name=number]");
      var ahead = here.filter(function (entry) { return entry.state !== "conflict" && entry.state !== "invalid"; });
      ahead.forEach(function (entry) {
        if (number && entry.number >= Number(number.value)) number.value = String(entry.number + 1);
      });
      showTurn(box, number, ahead.length > 0);
      aheadHere = ahead;
      return scoreWaiting(box, ahead, number);
    });
  }

  // Entries of this account listed: engine.js first, for their checks (kept by the worker, it
  // loads without signal too; not loaded, the checks are not made).
  function withEngine(entries) {
    var url = document.body.dataset.engine;
    if (!url || !document.querySelector("[data-outbox]") || !entries.some(mine)) return entries;
    return loadEngine(url).then(function () { return entries; }, function () { return entries; });
  }

  // The header's badge: without signal, and how many hands wait, which leads to the list of
  // every one of them (outbox.html), across matches.
  // Redrawn only on a change: a link replaced under a finger loses the tap.
  function showBadge(badge, count) {
    var offline = navigator.onLine ? "" : badge.dataset.textOffline;
    var shown = [offline, count, window.location.pathname].join("|");
    if (badge.dataset.shown === shown) return;
    badge.dataset.shown = shown;
    badge.textContent = offline;
    if (count) {
      var said = format(badge.dataset.textWaiting, { count: count });
      if (offline) badge.appendChild(document.createTextNode(" · "));
      var href = badge.dataset.href;
      if (href && window.location.pathname !== href) {
        var link = element("a", "net-badge-link", said);
        link.href = href;
        badge.appendChild(link);
      } else {
        badge.appendChild(document.createTextNode(said));
      }
    }
    badge.hidden = !offline && !count;
    badge.classList.toggle("is-offline", !navigator.onLine);
  }

  // The list of every entry of this account (outbox.html): by match, in the order they were
  // saved, each match's board a tap away; each entry with what can still be done with it here.
  function listAll(box, own, others) {
    var list = box.querySelector("[data-outbox-list]");
    list.textContent = "";
    var groups = [], byKey = {};
    own.sort(function (a, b) { return a.created - b.created; }).forEach(function (entry) {
      var key = isMatch(entry) ? LOCAL + entry.id : entry.match;
      if (!byKey[key]) { byKey[key] = { key: key, entries: [] }; groups.push(byKey[key]); }
      byKey[key].entries.push(entry);
    });
    groups.forEach(function (group) {
      var item = element("li", "outbox-group");
      var heading = element("h3", "outbox-match");
      var first = group.entries[0];
      var link = element("a", "", titleOf(box, group.entries));
      link.href = group.key.indexOf(LOCAL) === 0
        ? document.body.dataset.localBoard + "#" + group.key.slice(LOCAL.length)
        : first.action.replace(/hands\/sync\/$/, "");
      heading.appendChild(link);
      item.appendChild(heading);
      var rows = element("ol", "outbox-list");
      group.entries.forEach(function (entry) {
        rows.appendChild(isMatch(entry) ? matchRow(box, entry) : row(box, entry, true));
      });
      item.appendChild(rows);
      list.appendChild(item);
    });
    box.hidden = !own.length && !others.length;
    var empty = document.querySelector("[data-outbox-empty]");
    if (empty) empty.hidden = !box.hidden;
    var auth = box.querySelector("[data-outbox-auth]");
    if (auth) auth.hidden = !own.some(function (entry) { return entry.state === "auth"; });
  }
  // A match as its entries name it: its sides (as the board said when the hand was saved), or
  // its number; a match started here, its game and sides.
  function titleOf(box, entries) {
    var started = entries.filter(isMatch)[0];
    if (started && started.board) return (started.game ? started.game + " · " : "") + started.board.sides.join(" – ");
    var named = entries.filter(function (entry) { return entry.title; })[0];
    if (named) return named.title;
    var pk = /\/matches\/(\d+)\//.exec(entries[0].action || "");
    return pk ? format(box.dataset.matchName, { number: pk[1] }) : box.dataset.startedHere;
  }
  // What the board says of its match, kept with a hand saved on it (the list names the match).
  function boardTitle() {
    var match = readJson("board-offline-match");
    var heading = document.querySelector(".match-title");
    var game = heading ? (heading.dataset.game || heading.firstChild.textContent || "").trim() : "";
    return match ? (game ? game + " · " : "") + match.sides.join(" – ") : "";
  }

  // With hands waiting, the board's turn is the next hand typed here; who deals it and who leads
  // depend on hands the server has not scored yet, so they are not claimed.
  function showTurn(box, number, ahead) {
    var turn = document.getElementById("turn");
    if (!turn || !number) return;
    var title = turn.querySelector(".turn-hand");
    if (title && !title.dataset.told) title.dataset.told = title.textContent;
    if (title) title.textContent = ahead ? format(box.dataset.turnHand, { number: number.value }) : title.dataset.told;
    turn.querySelectorAll("[data-turn-known]").forEach(function (part) { part.hidden = ahead; });
    var pending = turn.querySelector("[data-turn-pending]");
    if (pending) pending.hidden = !ahead;
  }

  // --- scoring the waiting hands on the phone --------------------------------------------------
  // The board's match as the server has it (#board-offline-match: the rules, the seats, the
  // totals, tie and pots after the last stored hand) and its words (#board-offline-words), scored
  // with the waiting hands by engine.js: each waiting hand's points, the totals, the next dealer
  // and leader, the winner, as the server's board would show them. What needs the server
  // (ratings, statistics, the shared link) is said to update when online.
  var engine = null;
  function loadEngine(url) {
    if (window.casinoEngine) return Promise.resolve(window.casinoEngine);
    if (!engine) {
      engine = new Promise(function (resolve, reject) {
        var script = document.createElement("script");
        script.src = url;
        script.onload = function () { resolve(window.casinoEngine); };
        script.onerror = function () { engine = null; reject(new Error("engine.js")); };
        document.head.appendChild(script);
      });
    }
    return engine;
  }
  // The menu says when the phone can score without signal: the worker keeps the engine.
  function engineKept() {
    var ready = document.querySelector("[data-offline-ready]");
    var url = document.body.dataset.engine;
    if (!ready || !url || !("caches" in window)) return;
    caches.match(url).then(function (kept) { ready.hidden = !kept; }).catch(function () { /* not kept */ });
  }
  engineKept();
  if ("serviceWorker" in navigator) navigator.serviceWorker.ready.then(engineKept);

  // The rules as the board's match writes them (matchdoc.rules_json, every option), and back.
  var RULE_FIELDS = ["target", "sweeps", "several_reach", "scoring", "twenty_needs", "ties", "sweep_freeze"];
  function rulesOf(E, written) {
    var options = {};
    RULE_FIELDS.forEach(function (name) { options[name] = written[name]; });
    return E.Rules.make(written.variant, options);
  }
  function rulesJson(rules) {
    var written = { variant: String(rules.variant) };
    RULE_FIELDS.forEach(function (name) { written[name] = name === "target" ? rules.target : String(rules[name]); });
    return written;
  }

  function readJson(id) {
    var element = document.getElementById(id);
    return element ? JSON.parse(element.textContent) : null;
  }

  // A waiting hand's form fields as the hand form reads them (HandForm.clean): engine.js's
  // talliesOf (rules.tallies_of) over their numbers, a blank one null.
  function talliesOf(E, fields, sides, variant) {
    var posted = {};
    fields.forEach(function (pair) {
      // The form's mode is a word (quick entry); every other field a number.
      posted[pair[0]] = pair[1] === "" ? null : pair[0] === "mode" ? pair[1] : parseInt(pair[1], 10);
    });
    return E.talliesOf(posted, sides, variant);
  }

  function words(text, values) {
    return text.replace(/%\((\w+)\)[sd]/g, function (_, name) {
      return values[name] === undefined ? "" : values[name];
    });
  }
  function element(tag, className, text) {
    var made = document.createElement(tag);
    if (className) made.className = className;
    if (text !== undefined) made.textContent = text;
    return made;
  }

  // The board as the server rendered it, put back when no hand waits any more.
  var served = {};
  // A waiting hand reached the server since: the board it sends back replaces the phone's, so
  // the older one is not put back meanwhile.
  var sentSinceServed = false;
  function keepServed(id) {
    var part = document.getElementById(id);
    if (part && !(id in served)) served[id] = part.innerHTML;
    return part;
  }
  function restoreServed(box, number) {
    var entry = document.getElementById("entry");
    if (entry) entry.hidden = false;
    if (sentSinceServed && Object.keys(served).length) {
      hideScoredNote();
      refreshBoard();
      return;
    }
    Object.keys(served).forEach(function (id) {
      var part = document.getElementById(id);
      if (part) { part.innerHTML = served[id]; part.hidden = false; }
    });
    served = {};
    showTurn(box, number, false);
    hideScoredNote();
  }
  function hideScoredNote() {
    var note = document.querySelector("[data-offline-scored]");
    if (note) note.hidden = true;
  }

  // What the server swaps in (a saved hand's answer, another phone's) is the board as it is now.
  var BOARD_ANSWERS = ["board", "board-poll", "entry", "board-status", "turn"];
  document.body.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail && event.detail.elt;
    if (!target || BOARD_ANSWERS.indexOf(target.id) === -1) return;
    served = {};
    sentSinceServed = false;
  });

  function scoreWaiting(box, ahead, number) {
    var match = readJson("board-offline-match");
    var said = readJson("board-offline-words");
    var data = document.getElementById("board-offline");
    if (!match || !said || !data) return null;
    var local = data.hasAttribute("data-local");  // a match started here: nothing served to put back
    if (!ahead.length && !local) { restoreServed(box, number); return null; }
    return loadEngine(document.body.dataset.engine).then(function (E) {
      var rules = rulesOf(E, match.rules);
      var run = scoreAhead(E, rules, match, ahead);
      if (!run.scored.length && !local) { restoreServed(box, number); return; }
      showScored(E, rules, match, said, box, run);
    }).catch(function () { /* no engine yet (not kept before the signal went): the points wait for the server */ });
  }
  // The waiting hands from the state after the last stored hand, hand by hand, as
  // rules.score_match goes: up to one that is not the next, is not valid (the server says why), or
  // comes after the deciding one.
  function scoreAhead(E, rules, match, ahead) {
    var sides = match.sides.length;
    var score = {
      totals: match.totals.slice(), status: match.tied ? E.Status.TIED : E.Status.PLAYING,
      winner: null, outcome: null, pots: match.pots, conditions: null,
    };
    // A timed round (the event rule "time"): from hand last_hand on, the side alone highest after
    // a hand wins (rules.score_match's last_hand; null or left out: no time called).
    var last = typeof match.last_hand === "number" ? match.last_hand : null;
    var queued = ahead.slice().sort(function (a, b) { return a.number - b.number; });
    var scored = [];
    for (var index = 0; index < queued.length; index += 1) {
      var entry = queued[index];
      if (entry.number !== match.hand_count + scored.length + 1 || score.status === E.Status.WON) break;
      var tallies = talliesOf(E, entry.fields, sides, rules.variant);
      if (E.validate(tallies, sides, rules.variant).length) break;
      var hand = E.scoreHand(rules, tallies, score.totals, {
        tied_before: score.status === E.Status.TIED, pots: score.pots, time_up: last !== null && entry.number >= last,
      });
      score = { totals: hand.totals, status: hand.status, winner: hand.winner, outcome: hand.outcome, pots: hand.pots };
      scored.push(scoredHand(entry, hand));
    }
    return { score: score, scored: scored };
  }
  function scoredHand(entry, hand) {
    return {
      entry: entry, points: hand.points, totals: hand.totals, winner: hand.winner,
      // What counted (engine.js's HandScore.credited) and who was held at 20.
      credited: hand.credited && hand.credited.length ? hand.credited : hand.points,
      held: hand.held && hand.held.length ? hand.held : hand.points.map(function () { return false; }),
    };
  }
  // The board with the waiting hands scored: each one's points in its row, the totals, the sheet,
  // the next turn, and the note that says so.
  function showScored(E, rules, match, said, box, run) {
    var score = run.score;
    var scored = run.scored;
    score.conditions = score.status === E.Status.WON ? null
      : score.totals.map(function (total) { return E.endgameCondition(rules, total); });
    scored.forEach(function (done) {
      var span = box.querySelector('[data-points-of="' + done.entry.id + '"]');
      if (!span) return;
      span.textContent = match.sides.map(function (name, side) {
        return name + " " + pointsText(said, done, side);
      }).join(" · ");
      span.className = "outbox-points";
    });
    var played = match.hand_count + scored.length;
    showTotals(E, rules, match, said, score, played);
    showSheet(said, scored);
    // Won on the phone: no hand after the deciding one (the server's board has no form then).
    // Only hidden, never kept as served: a copy put back would replace the form being typed in
    // (the counts of a hand taken back, its number) with the one of when it was kept.
    var entry = document.getElementById("entry");
    if (entry) entry.hidden = score.status === E.Status.WON;
    showNextTurn(E, rules, match, said, score, played);
    var note = document.querySelector("[data-offline-scored]");
    if (note) { note.textContent = said.offline; note.hidden = !scored.length; }
  }

  // The totals, who leads or has won, each side's endgame condition; the result when the match
  // is over (_board_status.html, in the same words).
  function showTotals(E, rules, match, said, score, played) {
    var status = keepServed("board-status");
    if (!status) return;
    status.textContent = "";
    var top = Math.max.apply(null, score.totals);
    status.appendChild(totalsOf(E, match, said, score, top, status.dataset.label));
    if (score.status === E.Status.WON) {
      status.appendChild(resultOf(rules, match, said, score, played));
    } else if (score.status === E.Status.TIED) {
      var tied = element("p", "tied", words(said.tied, { total: top }));
      tied.setAttribute("role", "status");
      status.appendChild(tied);
    }
  }
  // A card per side: its total, the winner's or the side alone ahead's badge, its condition.
  function totalsOf(E, match, said, score, top, label) {
    var totals = element("section", "totals sides-" + match.sides.length);
    totals.setAttribute("aria-label", label || "");
    totals.setAttribute("aria-live", "polite");
    var alone = score.totals.filter(function (total) { return total === top; }).length === 1;
    var leader = score.status === E.Status.PLAYING && alone ? score.totals.indexOf(top) : null;
    var winner = score.status === E.Status.WON ? score.winner : null;
    match.sides.forEach(function (name, side) {
      var role = side === winner ? "winner" : side === leader ? "leader" : "";
      totals.appendChild(totalCard(said, score, name, side, role));
    });
    return totals;
  }
  function totalCard(said, score, name, side, role) {
    var card = element("div", "total-card side-" + side + (role ? " " + role : ""));
    card.appendChild(element("span", "side-name", name));
    if (role === "winner") card.appendChild(element("span", "badge", "★ " + said.winner));
    else if (role === "leader") card.appendChild(element("span", "badge", "▲ " + (said.ahead || said.leads)));
    var total = element("span", "side-total", String(score.totals[side]));
    total.setAttribute("data-total", String(side));
    card.appendChild(total);
    var condition = score.conditions ? score.conditions[side] : null;
    if (condition) {
      var what = said.taken[condition];
      card.appendChild(element("span", "condition", words(said.condition, { total: score.totals[side], what: what })));
    }
    return card;
  }
  // A match won: who won, why, the final score; the rematch.
  function resultOf(rules, match, said, score, played) {
    var winner = match.sides[score.winner];
    var result = element("section", "result");
    result.setAttribute("role", "status");
    // A team takes the plural (said.wins by players per side; one string on a page kept from
    // before there were forms).
    var players = match.seats.length / match.sides.length;
    var wins = typeof said.wins === "string" ? said.wins : said.wins[players] || said.wins[1];
    result.appendChild(element("h2", "", words(wins, { name: winner })));
    var why = whyWon(rules, said, score, winner);
    var final = match.sides.map(function (name, side) { return name + " " + score.totals[side]; }).join(" – ");
    result.appendChild(element("p", "", (why ? why + " " : "") + said.final + " " + final));
    var again = rematchButton(match, said, played);
    if (again) result.appendChild(again);
    return result;
  }
  function whyWon(rules, said, score, winner) {
    var outcome = score.outcome;
    // A kind the words do not have yet says no reason rather than a wrong one ("time" is not
    // "reached"): only the final score.
    var phrase = said.outcome[outcome.kind + ":" + outcome.category] || said.outcome[outcome.kind] ||
      (outcome.kind === "time" ? "" : said.outcome.reached);
    if (!phrase) return "";
    return words(phrase, {
      name: winner, what: said.taken[outcome.category] || "", target: rules.target, total: score.totals[score.winner],
      before: rules.target - (said.condition_short[outcome.category] || said.condition_short[""]),
    });
  }
  // Won on the phone: the rematch starts on the phone too (local.js), after this match's hands.
  function rematchButton(match, said, played) {
    var form = handForm();
    if (!window.casinoLocal || !form) return null;
    var again = button(said.rematch, "primary big", function () {
      window.casinoLocal.rematch(match, played, form.dataset.draft, formQuick(form));
    });
    again.setAttribute("data-local-rematch", "");
    app.holdButton(again);
    return again;
  }

  // What a side's hand counted, as _cell_points.html says it: "3", then what its cards were
  // worth in brackets where fewer counted (difference scoring, a Dominican total held), ‡ held.
  function pointsText(said, done, side) {
    var text = String(done.credited[side]);
    if (done.credited[side] !== done.points[side]) text += " (" + done.points[side] + ")";
    if (done.held[side]) text += " ‡ " + words(said.held_at || "", { total: done.totals[side] });
    return text;
  }

  // _cell_points.html in `into`: "+3", what the cards were worth where fewer counted, ‡ held.
  function pointsNode(said, done, side, into) {
    into.appendChild(document.createTextNode("+" + done.credited[side]));
    if (done.credited[side] !== done.points[side]) {
      into.appendChild(element("small", "pts-taken", " (" + done.points[side] + ")"));
    }
    if (done.held[side]) {
      var held = element("span", "held-mark", "‡");
      held.setAttribute("aria-hidden", "true");
      into.appendChild(held);
      var heldAt = words(said.held_at || "", { total: done.totals[side] });
      into.appendChild(element("span", "visually-hidden", " " + heldAt));
    }
    return into;
  }

  // The points preview at once, from the engine this phone carries: what the hand typed scores
  // after the stored and waiting hands (_hand_preview.html's line). The server's preview, asked as
  // before when online, then takes its place: it is the truth, and says what is wrong.
  var aheadHere = [];
  var previews = 0;
  function previewHere(form) {
    var box = form.querySelector("#preview");
    var match = readJson("board-offline-match");
    var said = readJson("board-offline-words");
    if (!box || !match || !said || !said.preview || !document.body.dataset.engine) return;
    loadEngine(document.body.dataset.engine).then(function (E) {
      var rules = rulesOf(E, match.rules);
      var run = scoreAhead(E, rules, match, aheadHere);
      var sides = match.sides.length;
      var tallies = talliesOf(E, formFields(form), sides, rules.variant);
      if (run.score.status === E.Status.WON || E.validate(tallies, sides, rules.variant).length) {
        box.textContent = "";
        return;
      }
      var number = match.hand_count + run.scored.length + 1;
      var last = typeof match.last_hand === "number" ? match.last_hand : null;
      var done = scoredHand(null, E.scoreHand(rules, tallies, run.score.totals, {
        tied_before: run.score.status === E.Status.TIED, pots: run.score.pots,
        time_up: last !== null && number >= last,
      }));
      var line = element("p", "preview-line");
      line.appendChild(element("span", "preview-title", said.preview));
      match.sides.forEach(function (side, position) {
        if (position) line.appendChild(element("span", "preview-sep", " · "));
        var part = element("span", "preview-side side-" + position);
        part.appendChild(element("b", "", side));
        part.appendChild(document.createTextNode(" "));
        pointsNode(said, done, position, part);
        part.appendChild(document.createTextNode(" → " + done.totals[position]));
        line.appendChild(document.createTextNode(" "));
        line.appendChild(part);
      });
      box.textContent = "";
      box.appendChild(line);
      previews += 1;
      box.dataset.phone = String(previews);  // which preview this is (the tests wait on it)
    }).catch(function () { /* no engine: the server's preview alone */ });
  }
  var typedAt = 0;
  ["input", "change"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      var form = event.target.closest && event.target.closest("[data-hand-form][data-sync]");
      if (!form) return;
      typedAt = Date.now();
      previewHere(form);
    });
  });
  // A server preview asked before the latest change answers for counts no longer typed: it is
  // not shown over the phone's (a slow answer, or one that lands after the signal went).
  document.body.addEventListener("htmx:beforeRequest", function (event) {
    if (event.detail.elt.id === "preview") event.detail.xhr.askedAt = Date.now();
  });
  document.body.addEventListener("htmx:beforeSwap", function (event) {
    var xhr = event.detail.xhr;
    if (event.detail.target.id === "preview" && xhr.askedAt && xhr.askedAt < typedAt) {
      event.detail.shouldSwap = false;
    }
  });

  // The score sheet lists the waiting hands after the stored ones, as the server's rows
  // (_hand_row.html: the hand's points, the running total, ▲ on the side alone highest after
  // it, ★ on the winner of the deciding hand), each marked as not sent yet.
  function showSheet(said, scored) {
    var sheet = keepServed("sheet");
    if (!sheet) return;
    sheet.innerHTML = served.sheet;
    var rows = sheet.querySelector("#hands");
    if (!rows || !scored.length) return;
    var empty = sheet.querySelector(".empty");
    if (empty) empty.hidden = true;
    scored.forEach(function (done) {
      var row = element("tr", "hand-row waiting-row");
      var head = element("th", "hand-col", String(done.entry.number) + " ");
      head.setAttribute("scope", "row");
      head.appendChild(element("span", "waiting-mark", said.not_sent));
      row.appendChild(head);
      var top = Math.max.apply(null, done.totals);
      var won = done.winner === null || done.winner === undefined ? null : done.winner;
      var alone = done.totals.filter(function (total) { return total === top; }).length === 1;
      var leader = won === null && alone ? done.totals.indexOf(top) : null;
      done.totals.forEach(function (total, side) {
        var cell = element("td", "side-" + side + (side === leader ? " lead" : side === won ? " won" : ""));
        cell.appendChild(pointsNode(said, done, side, element("span", "hand-pts")));
        cell.appendChild(document.createTextNode(" "));
        cell.appendChild(element("b", "run-total", String(total)));
        if (side === leader || side === won) {
          var mark = element("span", "lead-mark", side === won ? " ★" : " ▲");
          var named = side === won ? said.winner : said.ahead || said.leads;
          mark.appendChild(element("span", "visually-hidden", " " + named));
          cell.appendChild(mark);
        }
        row.appendChild(cell);
      });
      rows.appendChild(row);
    });
  }

  // The next hand: its number, who deals and leads, the deals, Finnish pots (the turn section).
  function showNextTurn(E, rules, match, said, score, played) {
    var turn = keepServed("turn");
    if (!turn) return;
    if (score.status === E.Status.WON) { turn.hidden = true; return; }
    turn.hidden = false;
    var next = E.tableTurn(rules, {
      players: match.seats.length, first_dealer: match.first_dealer, hand_index: played,
    });
    turn.textContent = "";
    // Time was called (a timed round), as _time_note.html says it: on the hand numbered
    // last_hand, before it (which hand is the last) and after it (the top totals were equal).
    // (A page kept from before these words were sent has none: no note rather than a wrong one.)
    var stage = E.timeStage(typeof match.last_hand === "number" ? match.last_hand : null, played);
    if (stage && said.time_last && said.time_ahead && said.time_more) {
      var said_time = stage === "last" ? said.time_last
        : stage === "ahead" ? words(said.time_ahead, { number: match.last_hand }) : said.time_more;
      var time = element("p", "time-called");
      time.setAttribute("role", "note");
      var clock = element("span", "", "⏱");
      clock.setAttribute("aria-hidden", "true");
      time.appendChild(clock);
      time.appendChild(document.createTextNode(" "));
      time.appendChild(element("strong", "", said_time));
      turn.appendChild(time);
    }
    var line = element("p");
    var title = element("strong", "turn-hand", words(said.hand, { number: next.hand_number }));
    title.id = "turn-title";
    // The server's title, as showTurn keeps it, for when no hand waits any more.
    var scratch = document.createElement("div");
    scratch.innerHTML = served.turn || "";
    var servedTitle = scratch.querySelector(".turn-hand");
    if (servedTitle && servedTitle.dataset.told) title.dataset.told = servedTitle.dataset.told;
    line.appendChild(title);
    line.appendChild(document.createTextNode(" · "));
    line.appendChild(element("span", "role", said.deals_label));
    line.appendChild(document.createTextNode(" "));
    line.appendChild(element("strong", "", match.seats[next.dealer_seat]));
    line.appendChild(document.createTextNode(" · "));
    line.appendChild(element("span", "role", said.plays_first_label || said.leads_label));
    line.appendChild(document.createTextNode(" "));
    line.appendChild(element("strong", "", match.seats[next.leader_seat]));
    turn.appendChild(line);
    turn.appendChild(element("p", "small", said.deals[String(next.deals)] + " (" +
      (next.clockwise ? said.clockwise : said.counter_clockwise) + "). " + words(said.last, { deal: next.deals })));
    if (rules.variant === E.Variant.FINNISH) {
      var cards = score.pots[0] + E.FINNISH_CARDS, spades = score.pots[1] + E.FINNISH_SPADES;
      var parts = [];
      if (cards > E.FINNISH_CARDS) parts.push(words(said.pot_cards, { points: cards }));
      if (spades > E.FINNISH_SPADES) parts.push(words(said.pot_spades, { points: spades }));
      if (parts.length) {
        var pots = element("p", "pots", "⊕ " + parts.join(" "));
        pots.setAttribute("role", "note");
        turn.appendChild(pots);
      }
    }
  }

  // An empty form. Not form.reset(): that puts back what the page came with (an undone hand).
  function blank(form) {
    Array.prototype.forEach.call(form.elements, function (field) {
      if (field.type === "radio" || field.type === "checkbox") field.checked = false;
      else if (field.type === "number") field.value = field.name.indexOf("sweeps_") === 0 ? "0" : "";
    });
  }
  // A waiting hand's counts in the form, under its number.
  function fillForm(form, entry) {
    blank(form);
    entry.fields.forEach(function (pair) {
      form.querySelectorAll('[name="' + pair[0] + '"]').forEach(function (field) {
        if (field.type === "radio" || field.type === "checkbox") field.checked = field.value === pair[1];
        else field.value = pair[1];
      });
    });
    form.querySelector("[name=number]").value = String(entry.number);
    form.dispatchEvent(new Event("input", { bubbles: true }));
  }
  function focusFirst(form) {
    var first = form.querySelector("[autofocus]");
    if (first) first.focus();
  }
  // Undo of a waiting hand: out of the outbox, its counts back in the form under its number.
  function takeBack(entry) {
    var form = handForm();
    if (!form) return;
    endFixing(form);
    forget(entry.id).then(function () {
      return render();
    }).then(function () {
      // Filled once the board is scored again: with no hand waiting any more (the deciding one
      // taken back, say) the server's entry is put back, a new form the counts go into.
      var shown = handForm();
      if (!shown) return;
      fillForm(shown, entry);
      focusFirst(shown);
    });
  }

  // Fixing an earlier waiting hand: its counts in the form, saved back in its place (queue); the
  // note above the form says which hand it is and cancels.
  function fixInPlace(box, entry) {
    var form = handForm();
    if (!form) return;
    endFixing(form);
    form.dataset.fixing = entry.id;
    form.dataset.fixingNext = form.querySelector("[name=number]").value;
    fillForm(form, entry);
    var note = element("p", "moved-note", format(box.dataset.fixing, { number: entry.number }) + " ");
    note.setAttribute("data-fixing-note", "");
    note.setAttribute("role", "status");
    note.appendChild(button(box.dataset.cancel, "secondary", function () {
      blank(form);
      endFixing(form);
      draftForget(form.dataset.draft);
      form.dispatchEvent(new Event("input", { bubbles: true }));
    }));
    form.insertBefore(note, form.firstChild);
    focusFirst(form);
  }
  function endFixing(form) {
    var note = form.querySelector("[data-fixing-note]");
    if (note) note.remove();
    if (form.dataset.fixingNext) form.querySelector("[name=number]").value = form.dataset.fixingNext;
    delete form.dataset.fixing;
    delete form.dataset.fixingNext;
  }

  // A waiting hand discarded: the later waiting hands of its match move up a number.
  function discardWaiting(entry) {
    waiting().then(function (entries) {
      var later = entries.filter(function (other) {
        return other.match === entry.match && other.state === "waiting" && other.number > entry.number;
      });
      return store("readwrite", function (hands) {
        hands.delete(entry.id);
        later.forEach(function (other) { other.number -= 1; hands.put(other); });
      });
    }).then(function () {
      var form = handForm();
      if (form && form.dataset.fixing === entry.id) endFixing(form);
      var number = form && form.querySelector("[name=number]");
      if (number && !form.dataset.fixing) number.value = String(Math.max(Number(number.value) - 1, 1));
      return render();
    });
  }

  function button(text, className, onClick) {
    var element = document.createElement("button");
    element.type = "button";
    element.textContent = text;
    if (className) element.className = className;
    element.addEventListener("click", onClick);
    return element;
  }

  // Why the server did not take an entry: gone, busy (tried again by itself), or its error.
  function failure(box, entry) {
    return entry.reason === "gone" ? box.dataset.reasonGone
      : entry.retryable && (entry.tries || 0) < MAX_TRIES ? box.dataset.reasonBusy
      : format(box.dataset.reasonError, { status: entry.status || "?" });
  }

  // A waiting hand's row; `away`: not on its match's open board (the list of every entry, a
  // finished board), where its counts cannot go back into a form.
  function row(box, entry, away) {
    var item = element("li", "outbox-hand outbox-" + entry.state);
    item.appendChild(element("p", "outbox-title", rowTitle(box, entry)));
    // Another phone's hand under this number beside this one: the same hand typed twice, or
    // the next one.
    if (entry.state === "conflict" && entry.saved && entry.mine) item.appendChild(versions(box, entry));
    if (entry.state === "failed") item.appendChild(element("p", "outbox-reason", failure(box, entry)));
    item.appendChild(checksOf(box, entry));
    if (entry.errors && entry.errors.length && entry.state !== "failed") item.appendChild(errorList(entry.errors));
    item.appendChild(entry.state === "waiting" ? waitingActions(box, entry, away) : refusedActions(box, entry));
    return item;
  }
  function rowTitle(box, entry) {
    var states = {
      waiting: box.dataset.waiting, auth: box.dataset.waiting, invalid: box.dataset.invalid, failed: box.dataset.failed,
      conflict: entry.next ? box.dataset.conflict : box.dataset.conflictOver,
    };
    return format(states[entry.state] || box.dataset.waiting, { number: entry.number, next: entry.next });
  }
  // What the deck says of the hand's counts (deckChecks), then where its points go once scored.
  function checksOf(box, entry) {
    var checks = deckChecks(entry.fields);
    var facts = element("p", "outbox-checks small");
    var named = [["cards", box.dataset.checkCards], ["spades", box.dataset.checkSpades],
      ["special", box.dataset.checkSpecial]];
    named.forEach(function (check) {
      var fine = checks[check[0]];
      facts.appendChild(element("span", fine ? "check-ok" : "check-off", (fine ? "✓ " : "⚠ ") + check[1]));
    });
    var pending = element("span", "", box.dataset.pending);
    pending.setAttribute("data-points-of", entry.id);
    facts.appendChild(pending);
    return facts;
  }
  function errorList(errors) {
    var list = element("ul", "errors");
    errors.forEach(function (text) { list.appendChild(element("li", "", text)); });
    return list;
  }
  // The last hand waiting can be taken back, as Undo takes back the last saved one: its counts
  // go back into the form to fix and save again, or it is discarded (an earlier one would leave a
  // gap in the numbers). An earlier one is fixed in its place (its counts in the form until saved
  // again) or discarded, the later ones moving up a number.
  function waitingActions(box, entry, away) {
    var undo = element("div", "actions");
    if (away) undo.appendChild(boardLink(box, entry));
    else if (entry.last) undo.appendChild(button(box.dataset.undo, "", function () { takeBack(entry); }));
    else undo.appendChild(button(box.dataset.fix, "", function () { fixInPlace(box, entry); }));
    undo.appendChild(button(box.dataset.discard, "danger", function () { discardWaiting(entry); }));
    return undo;
  }
  // Every hand the server did not take has a way out: try again (or keep it under the next
  // number), or discard it.
  function refusedActions(box, entry) {
    var actions = element("div", "actions");
    if (entry.state === "conflict" && entry.next) {
      actions.appendChild(button(format(box.dataset.keep, { next: entry.next }), "", function () {
        entry.number = entry.next; entry.state = "waiting"; entry.next = null;
        entry.saved = entry.mine = null;
        keepAndSend(entry);
      }));
    }
    if (entry.state === "failed") {
      actions.appendChild(button(box.dataset.retry, "", function () {
        entry.state = "waiting"; entry.tries = 0;
        keepAndSend(entry);
      }));
    }
    var discard = entry.state === "conflict" ? box.dataset.discardMine : box.dataset.discard;
    actions.appendChild(button(discard, "danger", function () { forget(entry.id).then(render); }));
    return actions;
  }

  // The board of a waiting hand's match, from the list of every entry.
  function boardLink(box, entry) {
    var link = element("a", "button secondary", box.dataset.openBoard);
    link.href = entry.match.indexOf(LOCAL) === 0
      ? document.body.dataset.localBoard + "#" + entry.match.slice(LOCAL.length)
      : entry.action.replace(/hands\/sync\/$/, "");
    return link;
  }

  // The hand saved under this number beside this one's counts: a table per side, a row per
  // count, a count that differs in bold, as the server's 409 page shows them
  // (_hand_versions.html).
  function versions(box, entry) {
    var wrap = element("div", "clash-versions");
    entry.mine.forEach(function (mine, side) {
      var saved = entry.saved[side];
      if (!saved) return;
      var table = element("table", "breakdown clash-side");
      table.appendChild(element("caption", "", mine.name));
      var head = element("thead");
      var titles = element("tr");
      titles.appendChild(element("td"));
      var columns = [[format(box.dataset.savedAs, { number: entry.number }), "clash-saved"],
        [box.dataset.yours, "clash-mine"]];
      columns.forEach(function (title) {
        var cell = element("th", title[1], title[0]);
        cell.setAttribute("scope", "col");
        titles.appendChild(cell);
      });
      head.appendChild(titles);
      table.appendChild(head);
      var body = element("tbody");
      function taken(counts) { return (counts.taken || []).join(", ") || "–"; }
      var counts = [[box.dataset.cards, saved.cards, mine.cards], [box.dataset.spades, saved.spades, mine.spades],
        [box.dataset.special, taken(saved), taken(mine)], [box.dataset.sweeps, saved.sweeps, mine.sweeps]];
      counts.forEach(function (line) {
        var tr = element("tr");
        var label = element("th", "", line[0]);
        label.setAttribute("scope", "row");
        tr.appendChild(label);
        tr.appendChild(element("td", "", String(line[1])));
        tr.appendChild(element("td", String(line[1]) === String(line[2]) ? "" : "differs", String(line[2])));
        body.appendChild(tr);
      });
      table.appendChild(body);
      wrap.appendChild(table);
    });
    return wrap;
  }

  // A match started here without signal, above its hands: waiting, or what the server said of it,
  // with a way out (try again; discard it with its hands).
  function matchRow(box, entry) {
    var item = element("li", "outbox-hand outbox-" + entry.state);
    var states = { invalid: box.dataset.matchInvalid, failed: box.dataset.matchFailed };
    item.appendChild(element("p", "outbox-title", states[entry.state] || box.dataset.matchWaiting));
    if (entry.state === "failed") {
      item.appendChild(element("p", "outbox-reason", failure(box, entry)));
    }
    if (entry.state === "invalid" && entry.errors && entry.errors.length) {
      var errors = element("ul", "errors");
      entry.errors.forEach(function (text) { errors.appendChild(element("li", "", text)); });
      item.appendChild(errors);
    }
    if (entry.state === "invalid" || entry.state === "failed") {
      var actions = element("div", "actions");
      if (entry.state === "failed") {
        actions.appendChild(button(box.dataset.retry, "", function () {
          entry.state = "waiting"; entry.tries = 0;
          keepAndSend(entry);
        }));
      }
      actions.appendChild(button(box.dataset.discard, "danger", function () {
        waiting().then(function (entries) {
          return forget(entries.filter(function (other) {
            return other.id === entry.id || other.match === LOCAL + entry.id;
          }).map(function (other) { return other.id; }));
        }).then(function () { window.location.reload(); });
      }));
      item.appendChild(actions);
    }
    return item;
  }

  // Hands another account typed on this phone: never sent here, only discarded.
  document.addEventListener("click", function (event) {
    if (!event.target.closest || !event.target.closest("[data-outbox-discard-others]")) return;
    waiting().then(function (entries) {
      var others = entries.filter(function (entry) { return !mine(entry); });
      return forget(others.map(function (entry) { return entry.id; }));
    }).then(render);
  });

  // Save without signal: the hand goes to the outbox and the form is ready for the next one. (A
  // save that fails while the phone believes it is online keeps the form and offers "Try again":
  // pressed without signal, that too goes to the outbox.)
  function formFields(form) {
    var fields = [];
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken" && name !== "step" && name !== "preview") fields.push([name, String(value)]);
    });
    return fields;
  }
  function queue(form) {
    var fields = formFields(form);
    var number = Number(form.querySelector("[name=number]").value);
    var entry = {
      id: newId(), account: account(), match: form.dataset.draft, action: form.dataset.sync,
      number: number, fields: fields, created: Date.now(), state: "waiting", title: boardTitle(),
    };
    var fixing = form.dataset.fixing;
    app.noteSaved();
    if (fixing) return fixed(form, fixing, entry);
    // The form is ready for the next hand at once, before the outbox has stored this one.
    draftForget(form.dataset.draft);
    blank(form);
    form.querySelector("[name=number]").value = String(number + 1);
    form.dispatchEvent(new Event("input", { bubbles: true }));  // placeholders back to "52 − …"
    var offline = form.querySelector("[data-offline]");
    if (offline) offline.hidden = true;
    var first = form.querySelector("[autofocus]");
    if (first) first.focus();
    return keep(entry).then(function () {
      if ("serviceWorker" in navigator) {
        navigator.serviceWorker.ready.then(function (registration) {
          if (registration.sync) registration.sync.register("outbox").catch(function () { /* sent on "online" */ });
        });
      }
      return render();
    });
  }
  // The board of a match started without signal has nothing to ask the server: every hand waits.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("[data-hand-form][data-local]")) return;
    event.preventDefault();
    if (!app.secondTap(form)) queue(form);
  });
  // An earlier waiting hand saved again: in its place (its number, its turn to be sent), under a
  // new id, as the counts are new.
  function fixed(form, id, entry) {
    return waiting().then(function (entries) {
      var old = entries.filter(function (other) { return other.id === id; })[0];
      draftForget(form.dataset.draft);
      blank(form);
      endFixing(form);
      form.dispatchEvent(new Event("input", { bubbles: true }));
      if (!old) return render();  // sent or discarded meanwhile: nothing to put back
      entry.number = old.number;
      entry.created = old.created;
      return store("readwrite", function (hands) { hands.delete(id); hands.put(entry); }).then(render);
    });
  }
  document.body.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    var form = elt.closest ? elt.closest("[data-hand-form][data-sync]") : null;
    if (!form || (navigator.onLine && !form.dataset.fixing)) return;
    // Without signal nothing of the form is asked of the server: the points preview neither
    // (it would only fail, and say so). A waiting hand being fixed goes back to the outbox too.
    // A second tap on Save (app.js stopped it) queues nothing.
    var again = event.defaultPrevented;
    event.preventDefault();
    if (elt === form && !again) queue(form);
  });

  // A server that is down or busy (503, a gateway's 502 or 504, an answer that is not the
  // server's) is tried again by itself: when the network returns, at the next page, and after
  // the Retry-After it names; a few times, then it waits for "Try again".
  var MAX_TRIES = 5;
  var RETRY_MS = 30000;
  var retryTimer = null;
  function due(entry, now) {
    return entry.state === "waiting" || entry.state === "auth" ||
      (entry.state === "failed" && entry.retryable && (entry.tries || 0) < MAX_TRIES && now >= (entry.retryAt || 0));
  }
  function retryLater(entries) {
    var later = entries.filter(function (entry) {
      return mine(entry) && entry.state === "failed" && entry.retryable && (entry.tries || 0) < MAX_TRIES;
    });
    window.clearTimeout(retryTimer);
    if (!later.length) return;
    var at = Math.min.apply(null, later.map(function (entry) { return entry.retryAt || 0; }));
    retryTimer = window.setTimeout(sendOutbox, Math.max(at - Date.now(), 1000));
  }
  function answerOf(response) {
    // The answer's JSON, or null when it is not JSON (an error page, a proxy's or a portal's).
    if ((response.headers.get("Content-Type") || "").indexOf("application/json") === -1) return Promise.resolve(null);
    return response.json().catch(function () { return null; });
  }
  // A 500 may pass as well (a worker restarted, a database coming back behind a proxy's error
  // page): sent ERROR_TRIES times in all, waiting twice as long each time, then "Try again".
  var ERROR_TRIES = 4;
  var BACKOFF_MS = 2000;
  function failed(entry, response, answer) {
    var status = response.status;
    entry.state = "failed";
    entry.status = status;
    entry.reason = status === 404 || (answer && answer.state === "gone") ? "gone" : "error";
    entry.tries = (entry.tries || 0) + 1;
    entry.retryable = status === 502 || status === 503 || status === 504 || (response.ok && !answer) ||
      (status === 500 && entry.tries < ERROR_TRIES);
    var named = response.headers.get("Retry-After");  // seconds (a date counts as none named)
    var wait = named === null || named.trim() === "" ? NaN : Number(named);
    var backoff = status === 500 ? BACKOFF_MS * Math.pow(2, entry.tries - 1) : RETRY_MS;
    entry.retryAt = Date.now() + (wait >= 0 ? wait * 1000 : backoff);
  }

  // A match started without signal sent before its hands: the server starts it once (its id
  // makes a resend harmless) and says where its hands go. The hands waiting for it, and a rematch
  // of it started here too, are told its number; the phone goes to the server's board.
  var started = {};  // LOCAL + id -> the server's answer, for this round of sending
  // Quick entry (who took most) chosen on this phone for a match started here; its server board
  // keeps it (?mode=quick, as answers.board_url asks).
  function entryQuick(id) {
    try { return localStorage.getItem("casino-quick:" + id) === "1"; } catch (error) { return false; }
  }
  function keepEntryQuick(id, quick) {
    try { localStorage.setItem("casino-quick:" + id, quick ? "1" : "0"); } catch (error) { /* kept for now */ }
  }
  // A table's form in quick entry: the server's says so by its mode, the form of a match started
  // here by what this phone keeps for that match.
  function formQuick(form) {
    var mode = form.querySelector("[name=mode]"), draft = form.dataset.draft || "";
    return Boolean((mode && mode.value === "quick") ||
      (draft.indexOf(LOCAL) === 0 && entryQuick(draft.slice(LOCAL.length))));
  }
  function quickUrl(url) {
    var address = new URL(url, window.location.href);
    address.searchParams.set("mode", "quick");
    return address.pathname + address.search + address.hash;
  }
  function sendMatch(entry) {
    var body = new URLSearchParams(entry.fields || []);
    if (entry.circle) body.set("circle", entry.circle);
    if (entry.rematch_of) body.set("rematch_of", entry.rematch_of);
    return post(entry, body, function (response, answer) {
      var state = answer && answer.state;
      if (response.ok && state === "saved") {
        if (entryQuick(entry.id)) answer.url = quickUrl(answer.url);
        started[LOCAL + entry.id] = answer;
        try {
          localStorage.setItem("casino-started:" + entry.id, answer.url);
        } catch (error) { /* the board finds it in the list */ }
        var draft = null;
        try { draft = localStorage.getItem("casino-draft:" + LOCAL + entry.id); } catch (error) { /* none */ }
        if (draft) {
          try {
            localStorage.setItem("casino-draft:" + answer.match, draft);
          } catch (error) { /* lost: only what was being typed */ }
          draftForget(LOCAL + entry.id);
        }
        return waiting().then(function (entries) {
          var moved = entries.filter(function (other) {
            return other.match === LOCAL + entry.id || other.rematch_of === LOCAL + entry.id;
          });
          moved.forEach(function (other) {
            if (other.match === LOCAL + entry.id) { other.match = String(answer.match); other.action = answer.sync; }
            if (other.rematch_of === LOCAL + entry.id) other.rematch_of = String(answer.match);
          });
          return store("readwrite", function (hands) {
            moved.forEach(function (other) { hands.put(other); });
            hands.delete(entry.id);
          });
        }).then(function () { return "sent"; });
      }
      if (response.status === 400 && state === "invalid") {
        entry.state = "invalid";
        entry.errors = answer.errors || [];
        return keep(entry).then(function () { return "match"; });
      }
      failed(entry, response, answer);
      return keep(entry).then(function () { return "match"; });
    });
  }

  // An entry of the outbox posted under its id and account; `answered` reads the server's answer
  // (its JSON, or null), unless the phone is logged out or its session is another account's now:
  // then the entry waits for that account's login, and so does the rest ("stop"). No signal
  // after all: "stop" too, sent when it returns.
  function post(entry, body, answered) {
    body.set("client_id", entry.id);
    body.set("account", entry.account);
    return fetch(entry.action, {
      method: "POST", body: body, credentials: "same-origin", redirect: "manual",
      headers: { "X-CSRFToken": csrfToken(), "Accept": "application/json" },
    }).then(function (response) {
      return answerOf(response).then(function (answer) {
        var state = answer && answer.state;
        var refused = response.status === 403 && (!answer || state === "account" || state === "auth");
        if (response.type === "opaqueredirect" || response.status === 401 || refused) {
          entry.state = "auth";
          return keep(entry).then(function () { return "stop"; });
        }
        return answered(response, answer);
      });
    }, function () { unreached = true; return "stop"; });
  }

  // One hand sent; says whether to go on with the next hand ("next"), with the next match's only
  // ("match": this one's later hands wait for it) or stop ("stop": no signal, no session).
  function send(entry) {
    var body = new URLSearchParams(entry.fields);
    body.set("number", String(entry.number));
    return post(entry, body, function (response, answer) {
      var state = answer && answer.state;
      if (response.ok && state === "saved") {
        sentSinceServed = true;
        return forget(entry.id).then(function () { return "sent"; });
      }
      if ((response.status === 409 && state === "conflict") || (response.status === 400 && state === "invalid")) {
        entry.state = state;
        entry.next = answer.next || null;
        entry.saved = answer.saved || null;  // a conflict: the hand saved, beside this one
        entry.mine = answer.mine || null;
        entry.errors = answer.errors || [];
        return keep(entry).then(function () { return "next"; });
      }
      failed(entry, response, answer);
      return keep(entry).then(function () { return "match"; });
    });
  }

  // What an entry holds back when the server does not take it: a match started here, its hands
  // and a rematch of it; a hand, the later hands of its match.
  function holds(entry) { return isMatch(entry) ? LOCAL + entry.id : entry.match; }
  // The match an entry comes after (a hand's own, the one a rematch follows); once that match is
  // on the server (started in this round or an earlier one), the entry names it by its number.
  function comesAfter(entry) {
    var after = isMatch(entry) ? entry.rematch_of : entry.match;
    var begun = after && started[after];
    if (!begun) return after;
    if (isMatch(entry)) entry.rematch_of = String(begun.match);
    else { entry.match = String(begun.match); entry.action = begun.sync; }
    return String(begun.match);
  }
  // One round of sending this account's entries, one at a time in the order they were saved;
  // says how many the server took. An entry is not sent after an earlier one of its match that
  // the server did not take ("match"), nor before its match is on the server, nor after "stop".
  async function sendDue(entries) {
    var now = Date.now();
    var held = {};  // holds(entry) of an entry not taken: the ones after it wait for it
    // Held from the start: a match the server refused, an entry tried again later.
    var toSend = entries.filter(mine).filter(function (entry) {
      var go = due(entry, now);
      var refused = entry.state === "failed" || (isMatch(entry) && entry.state === "invalid");
      if (!go && refused) held[holds(entry)] = true;
      return go;
    });
    var sent = 0;
    var goOn = true;
    for (var index = 0; index < toSend.length; index += 1) {
      var entry = toSend[index];
      var key = holds(entry);
      var after = comesAfter(entry);
      if (!goOn || held[key] || (after && (held[after] || after.indexOf(LOCAL) === 0))) {
        held[key] = true;
        continue;
      }
      var outcome = await (isMatch(entry) ? sendMatch(entry) : send(entry));
      if (outcome === "sent") sent += 1;
      if (outcome === "match") held[key] = true;
      goOn = outcome !== "stop";
    }
    return sent;
  }

  // A call while a round is on (the network back twice, a page event) asks for one more round
  // after it; a round the network failed while the phone says it is online (the signal still
  // coming back) is tried again shortly, so nothing waits for the next "online" that may not come.
  var sending = false;
  var again = false;
  var unreached = false;
  var UNREACHED_MS = 1000;  // doubled each round the server stays out of reach, to a minute
  var unreachedRounds = 0;
  var unreachedTimer = null;
  function sendOutbox() {
    if (sending) { again = true; return Promise.resolve(); }
    if (!navigator.onLine || !account()) return Promise.resolve();
    sending = true;
    again = false;
    unreached = false;
    return waiting().then(sendDue).then(function (sent) {
      sending = false;
      // The board of a match started here, now on the server: go to the server's board.
      var form = handForm();
      if (form && started[form.dataset.draft]) { window.location.replace(started[form.dataset.draft].url); return; }
      if (sent) refreshBoard();
      return render().then(waiting).then(retryLater).then(function () {
        if (again) return sendOutbox();
        window.clearTimeout(unreachedTimer);
        unreachedRounds = unreached ? unreachedRounds + 1 : 0;
        if (!unreached || !navigator.onLine) return;
        var wait = Math.min(UNREACHED_MS * Math.pow(2, unreachedRounds - 1), 60000);
        unreachedTimer = window.setTimeout(sendOutbox, wait);
      });
    }, function () { sending = false; });
  }

  // What local.js uses: the store, the list, the sending.
  window.casinoOutbox = {
    LOCAL: LOCAL, account: account, newId: newId, keep: keep, waiting: waiting, render: render,
    sendOutbox: sendOutbox, loadEngine: loadEngine, readJson: readJson, words: words, element: element,
    rulesOf: rulesOf, rulesJson: rulesJson, entryQuick: entryQuick, keepEntryQuick: keepEntryQuick,
    formQuick: formQuick,
  };

  window.addEventListener("online", function () { render(); sendOutbox(); });
  window.addEventListener("offline", render);
  document.addEventListener("DOMContentLoaded", function () { render().then(sendOutbox); });
  document.body.addEventListener("htmx:afterSettle", function () {
    if (document.querySelector("[data-outbox]")) render();  // the board, its turn or its entry swapped
  });

  // Logging out with this account's hands still waiting asks first (the logout page has the
  // question): keep them, to be sent when this account logs in here again, or discard them.
  // Either way the pages kept for the account go.
  function askBeforeLogout() {
    var ask = document.querySelector("[data-logout-outbox]");
    if (!ask) return;
    waiting().then(function (entries) {
      var own = entries.filter(mine);
      if (!own.length) return;
      ask.querySelector("[data-logout-count]").textContent = format(ask.dataset.count, { count: own.length });
      ask.hidden = false;
      var plain = document.querySelector("[data-logout-plain]");
      if (plain) plain.hidden = true;
    });
  }
  document.addEventListener("DOMContentLoaded", askBeforeLogout);
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (event.defaultPrevented || !form.matches || !form.matches("[data-logout]")) return;
    if (navigator.onLine === false) {  // the server ends the session: nothing to do without it
      event.preventDefault();
      window.alert(form.dataset.offlineNote);
      return;
    }
    var choice = event.submitter ? event.submitter.value : "";
    if (choice === "keep") { forgetPages(); return; }
    event.preventDefault();
    waiting().then(function (entries) {
      var own = entries.filter(mine);
      if (own.length && choice !== "discard") {
        if (form.matches("[data-logout-page]")) askBeforeLogout();
        else window.location.assign(form.getAttribute("action"));
        return;
      }
      return forget(own.map(function (entry) { return entry.id; })).then(function () {
        forgetPages();
        form.submit();
      });
    }).catch(function () { forgetPages(); form.submit(); });
  });
})();
