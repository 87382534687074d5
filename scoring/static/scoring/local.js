// Matches started without signal (a new match, a rematch): they wait in the outbox like hands and
// are sent first; until then this file builds their board. docs/ARCHITECTURE.md tells the story.
(function () {
  "use strict";
  var outbox = window.casinoOutbox;
  var app = window.casinoApp;
  if (!outbox || !app) return;  // no outbox on this phone (no IndexedDB): nothing to start offline
  var LOCAL = outbox.LOCAL;
  var body = document.body.dataset;

  var readJson = outbox.readJson, words = outbox.words, element = outbox.element;
  function engine() { return outbox.loadEngine(body.engine); }

  // --- the pages a match started without signal needs ------------------------------------------
  // With signal, the board of a match started here and the new-match form are kept for the
  // account, as the worker keeps a page opened: once a day, or as soon as the kept form does not
  // know a player of the board open now (its names are suggested without signal too).
  var DAY_MS = 24 * 3600 * 1000;
  function suggested(response) {
    return response.clone().text().then(function (html) {
      var page = new DOMParser().parseFromString(html, "text/html");
      var options = page.querySelectorAll("datalist option");
      return Array.prototype.map.call(options, function (option) { return option.value; });
    });
  }
  function keepForLater(url, players) {
    if (!url || navigator.onLine === false || !("caches" in window) || !outbox.account()) return;
    var key = window.location.origin + url;
    caches.open("casino-pages-" + outbox.account()).then(function (cache) {
      return cache.match(key).then(function (kept) {
        var date = kept ? Date.parse(kept.headers.get("Date") || "") : NaN;
        var language = kept && kept.headers.get("Content-Language");
        var fresh = kept && Date.now() - date < DAY_MS && (!language || language === document.documentElement.lang);
        return (fresh && players.length ? suggested(kept) : Promise.resolve(null)).then(function (names) {
          if (fresh && (!names || players.every(function (name) { return names.indexOf(name) !== -1; }))) return;
          return fetch(url, { credentials: "same-origin" }).then(function (response) {
            var html = (response.headers.get("Content-Type") || "").indexOf("text/html") === 0;
            if (response.ok && !response.redirected && html) return cache.put(key, response);
          });
        });
      });
    }).catch(function () { /* kept next time */ });
  }
  document.addEventListener("DOMContentLoaded", function () {
    keepForLater(body.localBoard, []);
    var newMatch = document.querySelector("[data-match-new-link]");
    var match = readJson("board-offline-match");
    if (match && newMatch) keepForLater(newMatch.getAttribute("href"), match.seats);
  });

  // Start: the match waits in the outbox, and its board opens (the worker's copy without signal).
  function start(entry) {
    return outbox.keep(entry).then(function () {
      window.location.assign(body.localBoard + "#" + entry.id);
    });
  }
  // The same match asked for again (a double tap, Back and the same form again): the one
  // already waiting opens.
  function startOnce(entry, same) {
    return outbox.waiting().then(function (entries) {
      var twin = entries.filter(function (other) {
        return other.kind === "match" && other.account === entry.account && same(other);
      })[0];
      if (twin) { window.location.assign(body.localBoard + "#" + twin.id); return null; }
      return start(entry);
    });
  }

  // --- the new-match form, read as MatchForm.clean reads it ------------------------------------
  var LAYOUTS = { "2": [2, 1], "3": [3, 1], "4": [4, 1], teams: [2, 2] };
  function readSetup(form, E, said) {
    var values = {};
    var fields = [];
    new FormData(form).forEach(function (value, name) {
      values[name] = String(value);
      if (name !== "csrfmiddlewaretoken" && name !== "form_once") fields.push([name, String(value)]);
    });
    var errors = [];
    function refuse(field, message) { errors.push([field, message]); }
    function whole(field, low, high) {  // an IntegerField: blank is null
      var raw = (values[field] || "").trim();
      if (raw === "") return null;
      if (!/^[+-]?\d+$/.test(raw)) { refuse(field, said.whole); return null; }
      var value = parseInt(raw, 10);
      if (value < low) { refuse(field, words(said.too_low, { limit_value: low })); return null; }
      if (value > high) { refuse(field, words(said.too_high, { limit_value: high })); return null; }
      return value;
    }
    var table = LAYOUTS[values.layout] || LAYOUTS["2"];
    var sideCount = table[0], seatCount = table[0] * table[1];
    // A name typed as a known player's, in other letters' case, is that player.
    var known = {};
    form.querySelectorAll("datalist option").forEach(function (option) { known[option.value.toLowerCase()] = option.value; });
    var names = [], seen = {};
    for (var seat = 0; seat < seatCount; seat += 1) {
      var name = (values["seat_" + seat] || "").trim().replace(/\s+/g, " ");
      var key = name.toLowerCase();
      if (!name) refuse("seat_" + seat, said.seat_empty);
      else if (seen[key]) refuse("seat_" + seat, words(said.seat_taken, { name: name }));
      seen[key] = true;
      names.push(known[key] || name);
    }
    var firstDealer = parseInt(values.first_dealer || "0", 10) || 0;
    if (firstDealer >= seatCount) refuse("first_dealer", words(said.first_dealer, { count: seatCount }));
    var variant = values.variant || E.Variant.CASINO;
    var target = null;
    if (values.target === "other") {
      target = whole("target_other", 1, said.limits.target);
      if (target === null) refuse("target_other", said.target_other);  // as the server, after a bad number too
    } else if (values.target && values.target !== "usual") {
      target = parseInt(values.target, 10);
    }
    if (variant === E.Variant.FINNISH) {
      if (values.sweeps && values.sweeps !== E.SweepRule.CANCEL) refuse("sweeps", said.finnish_sweeps);
    } else {
      values.ties = ""; values.sweep_freeze = "";  // Finnish options mean nothing elsewhere
    }
    if (values.scoring && E.tableProblem(Array(sideCount).fill(table[1]), values.scoring) === "difference_sides") {
      refuse("scoring", said.difference_sides);
    }
    var aim = target || E.variantDefaults(variant).target;
    if (variant === E.Variant.DOMINICAN && aim < said.limits.dominican) {
      refuse("target_other", words(said.dominican_target, { target: said.limits.dominican }));
    }
    var totals = [];
    for (var side = 0; side < sideCount; side += 1) totals.push(whole("start_" + side, 0, said.limits.start) || 0);
    var leader = E.startLeader(aim, totals);
    if (leader !== null) refuse("start_" + leader, words(said.start_leader, { target: aim }));
    if (errors.length) return { errors: errors };
    var rules = E.Rules.make(variant, {
      target: target, sweeps: values.sweeps || null, several_reach: values.several_reach || null,
      scoring: values.scoring || null, twenty_needs: values.twenty_needs || null,
      ties: values.ties || null, sweep_freeze: values.sweep_freeze || null,
    });
    var lineup = E.Lineup.fromSeats(names.map(function (player, index) { return [index, index % sideCount, player]; }));
    var choice = form.querySelector("[name=variant]:checked");
    var title = choice && choice.closest("label").querySelector(".choice-title");
    return {
      fields: fields, game: title ? title.textContent.trim() : variant,
      board: boardOf(E, rules, lineup.names(), names, firstDealer, totals),
    };
  }

  // The board's match as the server's Board.offline has it, before the first hand.
  function boardOf(E, rules, sides, seats, firstDealer, totals) {
    return {
      rules: outbox.rulesJson(rules), sides: sides, seats: seats, first_dealer: firstDealer, hand_count: 0,
      totals: totals, tied: E.scoreMatch(rules, [], totals).status === E.Status.TIED, pots: [0, 0],
      last_hand: null,  // no time is called on a match started on the phone
    };
  }

  function showErrors(form, errors) {
    var box = form.querySelector("[data-local-errors]");
    form.querySelectorAll("[aria-invalid][data-local-invalid]").forEach(function (field) {
      field.removeAttribute("aria-invalid"); field.removeAttribute("data-local-invalid");
    });
    if (!box) return;
    box.textContent = "";
    var list = element("ul");
    errors.forEach(function (error) {
      list.appendChild(element("li", "", error[1]));
      var field = form.querySelector('[name="' + error[0] + '"]');
      if (field && field.type !== "radio") {
        field.setAttribute("aria-invalid", "true");
        field.setAttribute("data-local-invalid", "");
      }
    });
    box.appendChild(list);
    box.hidden = !errors.length;
    if (errors.length) box.focus();
  }

  var starting = false;
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || navigator.onLine !== false) return;
    if (form.matches("[data-local-new]")) {
      event.preventDefault();
      if (starting) return;
      starting = true;
      var said = readJson("match-offline-words");
      engine().then(function (E) {
        var setup = readSetup(form, E, said);
        if (setup.errors) { showErrors(form, setup.errors); starting = false; return; }
        showErrors(form, []);
        var once = (form.querySelector("[name=form_once]") || {}).value + JSON.stringify(setup.fields);
        return startOnce({
          id: outbox.newId(), kind: "match", account: outbox.account(), created: Date.now(), state: "waiting",
          action: body.matchSync, fields: setup.fields, circle: form.dataset.circle || "", rematch_of: null,
          once: once, game: setup.game, board: setup.board,
        }, function (other) { return other.once === once; });
      }).catch(function () {
        starting = false;
        var note = form.querySelector("[data-local-offline]");
        if (note) { note.hidden = false; note.textContent = note.dataset.noEngine || note.textContent; }
      });
      return;
    }
    // The rematch of a match the server finished, on its board kept by the worker.
    var rematchOf = /\/matches\/(\d+)\/rematch\/$/.exec(form.getAttribute("action") || "");
    var match = readJson("board-offline-match");
    if (rematchOf && match) {
      event.preventDefault();
      rematch(match, match.hand_count, rematchOf[1]);
    }
  });

  // --- a rematch ---------------------------------------------------------------------------------
  // The same players, seats and rules; the next dealer deals first (services.match_rematch). A
  // match has one rematch: asked again, the one waiting opens.
  function rematch(match, played, of) {
    if (starting) return null;
    starting = true;
    return engine().then(function (E) {
      var rules = outbox.rulesOf(E, match.rules);
      var next = E.tableTurn(rules, {
        players: match.seats.length, first_dealer: match.first_dealer, hand_index: played,
      });
      var heading = document.querySelector(".match-title");
      var game = heading ? (heading.dataset.game || heading.firstChild.textContent).trim() : rules.variant;
      var totals = match.sides.map(function () { return 0; });
      return startOnce({
        id: outbox.newId(), kind: "match", account: outbox.account(), created: Date.now(), state: "waiting",
        action: body.matchSync, fields: [], circle: "", rematch_of: String(of), game: game,
        board: boardOf(E, rules, match.sides, match.seats, next.dealer_seat, totals),
      }, function (other) { return other.rematch_of === String(of); });
    }).catch(function () { starting = false; });
  }

  // --- the board of a match started here --------------------------------------------------------
  function named(root, names) {
    function put(text) { return text.replace(/\[\[(\d)\]\]/g, function (_, side) { return names[Number(side)]; }); }
    var walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (var node = walker.nextNode(); node; node = walker.nextNode()) node.nodeValue = put(node.nodeValue);
    root.querySelectorAll("*").forEach(function (part) {
      Array.prototype.forEach.call(part.attributes, function (attribute) {
        if (attribute.value.indexOf("[[") !== -1) attribute.value = put(attribute.value);
      });
    });
    // A partnership on a line per partner, as the side_lines filter lays it out.
    root.querySelectorAll(".side-lines").forEach(function (lines) {
      var partners = lines.textContent.split(" & ");
      lines.textContent = "";
      partners.forEach(function (partner, index) {
        if (index) lines.appendChild(document.createTextNode(" "));
        lines.appendChild(element("span", "side-line", index < partners.length - 1 ? partner + " &" : partner));
      });
    });
  }

  function build(page, entry) {
    var match = entry.board;
    var title = page.querySelector("[data-local-title]");
    title.dataset.game = entry.game;
    title.textContent = entry.game + " ";
    title.appendChild(element("small", "", words(page.dataset.to, { target: match.rules.target })));
    var data = document.getElementById("board-offline");
    var script = document.createElement("script");
    script.type = "application/json";
    script.id = "board-offline-match";
    script.textContent = JSON.stringify(match);
    data.appendChild(script);
    var form = document.querySelector("template[data-local-form]").content.firstElementChild.cloneNode(true);
    form.dataset.draft = LOCAL + entry.id;
    // The game's own hand form where it has one (views.matches.OWN_HAND_FORMS), else Casino's.
    function fieldsOf(game) {
      return document.querySelector('template[data-hand-fields="' + match.sides.length + "-" + game + '"]');
    }
    var fields = (fieldsOf(match.rules.variant) || fieldsOf("casino")).content.cloneNode(true);
    named(fields, match.sides);
    form.insertBefore(fields, form.querySelector(".form-actions"));
    // The score sheet's heads: a column per side, in its colour (_score_sheet.html).
    var sheet = page.querySelector("[data-local-sheet]");
    sheet.classList.add("sides-" + match.sides.length);
    var heads = sheet.querySelector("thead tr");
    match.sides.forEach(function (name, side) {
      var head = element("th", "side-head side-" + side);
      head.setAttribute("scope", "col");
      var label = element("span", "side-head-name");
      var mark = element("span", "side-mark");
      mark.setAttribute("aria-hidden", "true");
      label.appendChild(mark);
      label.appendChild(element("span", "side-lines", name));
      head.appendChild(label);
      heads.appendChild(head);
    });
    named(sheet, match.sides);
    document.getElementById("entry").appendChild(form);
    page.querySelector("[data-local-missing]").hidden = true;
    page.querySelector("[data-local-found]").hidden = false;
    document.title = entry.game + " · " + match.sides.join(" – ");
    app.draftRestore(form);
    app.fillDerived(form);
  }

  function showLocalBoard() {
    var page = document.querySelector("[data-local-page]");
    if (!page) return;
    var id = window.location.hash.slice(1);
    outbox.waiting().then(function (entries) {
      var entry = entries.filter(function (other) {
        return other.kind === "match" && other.id === id && other.account === outbox.account();
      })[0];
      if (!entry) {
        // Sent meanwhile: its board is the server's now.
        var url = null;
        try { url = localStorage.getItem("casino-started:" + id); } catch (error) { /* not known */ }
        if (url) window.location.replace(url);
        return;
      }
      build(page, entry);
      return outbox.render().then(outbox.sendOutbox);
    });
  }
  document.addEventListener("DOMContentLoaded", showLocalBoard);
  // Sent from elsewhere (another tab of this phone, or a page since, this one kept in memory):
  // its board is the server's now, and this page goes there.
  function sentElsewhere() {
    if (!document.querySelector("[data-local-page]")) return;
    var url = null;
    try {
      url = localStorage.getItem("casino-started:" + window.location.hash.slice(1));
    } catch (error) { /* not known */ }
    if (url) window.location.replace(url);
  }
  window.addEventListener("storage", function (event) {
    if (event.key === "casino-started:" + window.location.hash.slice(1) && event.newValue) sentElsewhere();
  });
  window.addEventListener("pageshow", function (event) { if (event.persisted) sentElsewhere(); });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") sentElsewhere();
  });

  // The new-match form says, without signal, that the match starts on the phone.
  function showOffline() {
    var note = document.querySelector("[data-local-new] [data-local-offline]");
    if (note) note.hidden = navigator.onLine !== false;
  }
  document.addEventListener("DOMContentLoaded", showOffline);
  window.addEventListener("online", showOffline);
  window.addEventListener("offline", showOffline);

  // What outbox.js uses: the rematch button of a match won on the phone.
  window.casinoLocal = { rematch: rematch };
})();
