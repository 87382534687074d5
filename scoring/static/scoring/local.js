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
  // What is wrong with it is engine.js's setupProblems (rules.setup_problems), in the words of
  // MatchForm.offline_messages; here the fields are only read.
  var OPTIONS = ["sweeps", "several_reach", "scoring", "twenty_needs", "ties", "sweep_freeze"];
  function readSetup(form, E, said) {
    var fields = posted(form), values = Object.fromEntries(fields), options = {};
    var layout = Object.prototype.hasOwnProperty.call(E.LAYOUTS, values.layout) ? values.layout : "2";
    var sideCount = E.LAYOUTS[layout][0];
    var seats = Array.from({ length: sideCount * E.LAYOUTS[layout][1] }, function (_, seat) {
      return (values["seat_" + seat] || "").trim().replace(/\s+/g, " ");
    });
    var starts = Array.from({ length: sideCount }, function (_, side) { return values["start_" + side]; });
    OPTIONS.forEach(function (name) { options[name] = values[name] || null; });
    var variant = values.variant || E.Variant.CASINO, target = targetAsked(values);
    var firstDealer = parseInt(values.first_dealer, 10) || 0;
    var problems = E.setupProblems(variant, layout, seats,
      { first_dealer: firstDealer, target: target, options: options, start_totals: starts });
    if (problems.length) {
      return { errors: problems.map(function (problem) {
        return [problem.params.field, words(said[problem.code], problem.params)];
      }) };
    }
    if (variant !== E.Variant.FINNISH) options.ties = options.sweep_freeze = null;  // Finnish only
    var known = knownNames(form);
    var names = seats.map(function (name) { return known[name.toLowerCase()] || name; });
    var lineup = E.Lineup.fromSeats(names.map(function (player, seat) { return [seat, seat % sideCount, player]; }));
    return {
      fields: fields, game: gameName(form, variant),
      board: boardOf(E, E.Rules.make(variant, Object.assign({ target: target }, options)), lineup.names(), names,
        firstDealer, starts.map(function (raw) { return parseInt(raw, 10) || 0; })),
    };
  }
  // The form's fields as posted, but for the tokens (sent with the match when the signal returns).
  function posted(form) {
    var fields = [];
    new FormData(form).forEach(function (value, name) { fields.push([name, String(value)]); });
    return fields.filter(function (pair) { return pair[0] !== "csrfmiddlewaretoken" && pair[0] !== "form_once"; });
  }
  // The target asked for, as MatchForm._target_asked has it: null for the game's usual one,
  // "" for another left blank.
  function targetAsked(values) {
    if (values.target === "other") return values.target_other || "";
    return values.target && values.target !== "usual" ? values.target : null;
  }
  // A name typed as a known player's, in other letters' case, is that player.
  function knownNames(form) {
    var known = {};
    form.querySelectorAll("datalist option").forEach(function (option) {
      known[option.value.toLowerCase()] = option.value;
    });
    return known;
  }
  // The game as the form names it.
  function gameName(form, variant) {
    var choice = form.querySelector("[name=variant]:checked");
    var title = choice && choice.closest("label").querySelector(".choice-title");
    return title ? title.textContent.trim() : variant;
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
      rematch(match, match.hand_count, rematchOf[1], outbox.formQuick(form));
    }
  });

  // --- a rematch ---------------------------------------------------------------------------------
  // The same players, seats and rules; the next dealer deals first (services.match_rematch). A
  // match has one rematch: asked again, the one waiting opens. A quick table stays quick.
  function rematch(match, played, of, quick) {
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
      var id = outbox.newId();
      if (quick) outbox.keepEntryQuick(id, true);
      return startOnce({
        id: id, kind: "match", account: outbox.account(), created: Date.now(), state: "waiting",
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

  // The hand form's fields for the match's table and game: the game's own where it has one
  // (views.matches.OWN_HAND_FORMS), else Casino's; quick entry's (who took most) where asked and
  // the table has it. A match started here keeps its choice on this phone.
  function putFields(form, match, quick) {
    function fieldsOf(game, mode) {
      var key = match.sides.length + "-" + game + (mode ? "-quick" : "");
      return document.querySelector('template[data-hand-fields="' + key + '"]');
    }
    var game = fieldsOf(match.rules.variant, false) ? match.rules.variant : "casino";
    var template = (quick && fieldsOf(game, true)) || fieldsOf(game, false);
    var fields = template.content.cloneNode(true);
    named(fields, match.sides);
    var number = form.querySelector("[name=number]");
    var kept = number ? number.value : null;
    form.querySelectorAll("[data-local-fields]").forEach(function (part) { part.remove(); });
    var wrapper = element("div", "");
    wrapper.dataset.localFields = "";
    wrapper.appendChild(fields);
    form.insertBefore(wrapper, form.querySelector(".form-actions"));
    if (kept) form.querySelector("[name=number]").value = kept;
    app.adviseCounts(form);
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-entry-mode]");
    var page = document.querySelector("[data-local-page]");
    var data = document.getElementById("board-offline-match");
    if (!button || !page || !data) return;
    var id = window.location.hash.slice(1);
    var quick = button.dataset.entryMode === "quick";
    outbox.keepEntryQuick(id, quick);
    var form = button.closest("form");
    putFields(form, JSON.parse(data.textContent), quick);
    app.fillDerived(form);
    form.dispatchEvent(new Event("input", { bubbles: true }));
  });

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
    putFields(form, match, outbox.entryQuick(entry.id));
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

  // The board of a match started here is named by the address's #id: another id (the rematch
  // of such a match, Back to the match before it) is another board, drawn afresh.
  window.addEventListener("hashchange", function () {
    if (document.querySelector("[data-local-page]")) window.location.reload();
  });

  // What outbox.js uses: the rematch button of a match won on the phone.
  window.casinoLocal = { rematch: rematch };
})();
