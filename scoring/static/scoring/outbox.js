// The outbox: hands saved without signal, kept on this phone until they can be sent. Plain
// JavaScript, no build step. Progressive enhancement only: every page works without this file.
//
// base.html loads it right after app.js, both deferred, so it runs after app.js and before
// DOMContentLoaded; of app.js it uses only window.casinoApp (forgetting a hand's draft, asking the
// board for what changed).
//
// The worker (/sw.js) keeps the app's files and the last version seen of the match list and of
// each scoreboard, so a reload without signal shows the board. A hand saved without signal waits
// in an outbox (IndexedDB) with an id of its own, and is sent, in order, when the network is back:
// the server records each once (the id makes a resend harmless) and says when another phone took
// its number meanwhile. Points are the server's to score: a waiting hand shows only the checks
// that need no server. Each waiting hand belongs to the account that typed it and is sent only in
// that account's session; the pages kept belong to an account too. Every answer but "saved" ends
// in a state the board shows with a way out (try again, discard).
//
// In this file, in order: the pages kept per account and the worker; the outbox's store; what the
// board shows (the list, the header's badge, the turn); queueing a hand saved without signal;
// sending, with retries for a server that is down; the question at logout with hands waiting.
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
        transaction.oncomplete = function () { resolve(result && result.result !== undefined ? result.result : result); };
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
  function forget(ids) {
    return store("readwrite", function (hands) { [].concat(ids).forEach(function (id) { hands.delete(id); }); });
  }
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

  // What can be checked without the server: 52 cards and 13 spades among the sides (the last side
  // gets what the deck leaves); the special cards are radio buttons, so each is held once.
  function deckChecks(fields) {
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
    return { cards: counted("cards", 52), spades: counted("spades", 13), special: true };
  }

  function render() {
    var box = document.querySelector("[data-outbox]");
    var badge = document.querySelector("[data-net-badge]");
    return waiting().then(function (entries) {
      var own = entries.filter(mine);
      if (badge) {
        var count = own.length;
        var text = navigator.onLine ? "" : badge.dataset.textOffline;
        if (count) text = (text ? text + " · " : "") + format(badge.dataset.textWaiting, { count: count });
        badge.textContent = text;
        badge.hidden = !text;
        badge.classList.toggle("is-offline", !navigator.onLine);
      }
      var form = handForm();
      if (!box || !form) return;
      var here = own.filter(function (entry) { return entry.match === form.dataset.draft; });
      var others = entries.filter(function (entry) { return !mine(entry); });
      var list = box.querySelector("[data-outbox-list]");
      list.textContent = "";
      here.forEach(function (entry) { list.appendChild(row(box, entry)); });
      box.querySelector("[data-outbox-others]").hidden = others.length === 0;
      box.hidden = here.length === 0 && others.length === 0;
      var auth = box.querySelector("[data-outbox-auth]");
      if (auth) auth.hidden = !here.some(function (entry) { return entry.state === "auth"; });
      // The next hand typed here comes after the waiting ones.
      var number = form.querySelector("[name=number]");
      var ahead = here.filter(function (entry) { return entry.state !== "conflict"; });
      ahead.forEach(function (entry) {
        if (number && entry.number >= Number(number.value)) number.value = String(entry.number + 1);
      });
      showTurn(box, number, ahead.length > 0);
    });
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

  function button(text, className, onClick) {
    var element = document.createElement("button");
    element.type = "button";
    element.textContent = text;
    if (className) element.className = className;
    element.addEventListener("click", onClick);
    return element;
  }

  function row(box, entry) {
    var item = document.createElement("li");
    item.className = "outbox-hand outbox-" + entry.state;
    var title = document.createElement("p");
    title.className = "outbox-title";
    var states = { waiting: box.dataset.waiting, auth: box.dataset.waiting, conflict: box.dataset.conflict, invalid: box.dataset.invalid, failed: box.dataset.failed };
    title.textContent = format(states[entry.state] || box.dataset.waiting, { number: entry.number, next: entry.next });
    item.appendChild(title);
    if (entry.state === "failed") {
      var reason = document.createElement("p");
      reason.className = "outbox-reason";
      reason.textContent = entry.reason === "gone" ? box.dataset.reasonGone
        : entry.retryable && (entry.tries || 0) < MAX_TRIES ? box.dataset.reasonBusy
        : format(box.dataset.reasonError, { status: entry.status || "?" });
      item.appendChild(reason);
    }
    var checks = deckChecks(entry.fields);
    var facts = document.createElement("p");
    facts.className = "outbox-checks small";
    [["cards", box.dataset.checkCards], ["spades", box.dataset.checkSpades], ["special", box.dataset.checkSpecial]].forEach(function (check) {
      var span = document.createElement("span");
      span.textContent = (checks[check[0]] ? "✓ " : "⚠ ") + check[1];
      span.className = checks[check[0]] ? "check-ok" : "check-off";
      facts.appendChild(span);
    });
    var pending = document.createElement("span");
    pending.textContent = box.dataset.pending;
    facts.appendChild(pending);
    item.appendChild(facts);
    if (entry.errors && entry.errors.length && entry.state !== "failed") {
      var errors = document.createElement("ul");
      errors.className = "errors";
      entry.errors.forEach(function (text) { var li = document.createElement("li"); li.textContent = text; errors.appendChild(li); });
      item.appendChild(errors);
    }
    if (entry.state === "waiting") return item;
    // Every hand the server did not take has a way out: try again (or keep it under the next
    // number), or discard it.
    var actions = document.createElement("div");
    actions.className = "actions";
    if (entry.state === "conflict" && entry.next) {
      actions.appendChild(button(format(box.dataset.keep, { next: entry.next }), "", function () {
        entry.number = entry.next; entry.state = "waiting"; entry.next = null;
        keep(entry).then(sendOutbox);
      }));
    }
    if (entry.state === "failed") {
      actions.appendChild(button(box.dataset.retry, "", function () {
        entry.state = "waiting"; entry.tries = 0;
        keep(entry).then(sendOutbox);
      }));
    }
    actions.appendChild(button(box.dataset.discard, "danger", function () { forget(entry.id).then(render); }));
    item.appendChild(actions);
    return item;
  }

  // Hands another account typed on this phone: never sent here, only discarded.
  document.addEventListener("click", function (event) {
    if (!event.target.closest || !event.target.closest("[data-outbox-discard-others]")) return;
    waiting().then(function (entries) {
      return forget(entries.filter(function (entry) { return !mine(entry); }).map(function (entry) { return entry.id; }));
    }).then(render);
  });

  // Save without signal: the hand goes to the outbox and the form is ready for the next one. (A
  // save that fails while the phone believes it is online keeps the form and offers "Try again":
  // pressed without signal, that too goes to the outbox.)
  function queue(form) {
    var fields = [];
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken" && name !== "step" && name !== "preview") fields.push([name, String(value)]);
    });
    var number = Number(form.querySelector("[name=number]").value);
    var entry = {
      id: newId(), account: account(), match: form.dataset.draft, action: form.dataset.sync,
      number: number, fields: fields, created: Date.now(), state: "waiting",
    };
    // The form is ready for the next hand at once, before the outbox has stored this one.
    draftForget(form.dataset.draft);
    form.reset();
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
  document.body.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    var form = !navigator.onLine && elt.closest ? elt.closest("[data-hand-form][data-sync]") : null;
    if (!form) return;
    // Without signal nothing of the form is asked of the server: the points preview neither
    // (it would only fail, and say so).
    event.preventDefault();
    if (elt === form) queue(form);
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
  function failed(entry, response, answer) {
    var status = response.status;
    entry.state = "failed";
    entry.status = status;
    entry.reason = status === 404 || (answer && answer.state === "gone") ? "gone" : "error";
    entry.retryable = status === 502 || status === 503 || status === 504 || (response.ok && !answer);
    entry.tries = (entry.tries || 0) + 1;
    var named = response.headers.get("Retry-After");  // seconds (a date counts as none named)
    var wait = named === null || named.trim() === "" ? NaN : Number(named);
    entry.retryAt = Date.now() + (wait >= 0 ? wait * 1000 : RETRY_MS);
  }

  // One hand sent; says whether to go on with the next hand ("next"), with the next match's only
  // ("match": this one's later hands wait for it) or stop ("stop": no signal, no session).
  function send(entry) {
    var body = new URLSearchParams(entry.fields);
    body.set("number", String(entry.number));
    body.set("client_id", entry.id);
    body.set("account", entry.account);
    return fetch(entry.action, {
      method: "POST", body: body, credentials: "same-origin", redirect: "manual",
      headers: { "X-CSRFToken": csrfToken(), "Accept": "application/json" },
    }).then(function (response) {
      return answerOf(response).then(function (answer) {
        var state = answer && answer.state;
        if (response.type === "opaqueredirect" || response.status === 401 || (response.status === 403 && (!answer || state === "account" || state === "auth"))) {
          entry.state = "auth";  // logged out, or the phone's session is another account's now
          return keep(entry).then(function () { return "stop"; });
        }
        if (response.ok && state === "saved") return forget(entry.id).then(function () { return "sent"; });
        if ((response.status === 409 && state === "conflict") || (response.status === 400 && state === "invalid")) {
          entry.state = state;
          entry.next = answer.next || null;
          entry.errors = answer.errors || [];
          return keep(entry).then(function () { return "next"; });
        }
        failed(entry, response, answer);
        return keep(entry).then(function () { return "match"; });
      });
    }, function () { return "stop"; });  // no signal after all: sent when it returns
  }

  var sending = false;
  function sendOutbox() {
    if (sending || !navigator.onLine || !account()) return Promise.resolve();
    sending = true;
    var sent = 0;
    return waiting().then(function (entries) {
      var now = Date.now();
      var held = {};  // matches whose earlier hand was not taken: the later ones wait for it
      var chain = Promise.resolve(true);
      entries.filter(mine).forEach(function (entry) {
        if (entry.state === "failed" && !due(entry, now)) { held[entry.match] = true; return; }
        if (!due(entry, now)) return;
        chain = chain.then(function (goOn) {
          if (!goOn || held[entry.match]) return goOn;
          return send(entry).then(function (outcome) {
            if (outcome === "sent") sent += 1;
            if (outcome === "match") held[entry.match] = true;
            return outcome !== "stop";
          });
        });
      });
      return chain;
    }).then(function () {
      sending = false;
      if (sent) refreshBoard();
      return render().then(waiting).then(retryLater);
    }, function () { sending = false; });
  }

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
    if (!form.matches || !form.matches("[data-logout]")) return;
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
