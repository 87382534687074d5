// The hand form, htmx's error answers, drafts, the menu, the saved note (the page works without).
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  // The last side's cards and spades are what the deck leaves: once every other side's count is
  // typed, its box shows the number (52 − the others' cards, 13 − their spades).
  function fillDerived(form) {
    ["cards", "spades"].forEach(function (kind) {
      var derived = form.querySelector('[data-derived="' + kind + '"]');
      if (!derived) return;
      var whole = Number(kind === "cards" ? form.dataset.pack : form.dataset.spades);
      var left = whole;
      var typed = true;
      form.querySelectorAll('[data-source="' + kind + '"]').forEach(function (source) {
        var value = parseInt(source.value, 10);
        if (Number.isNaN(value)) typed = false; else left -= value;
      });
      derived.placeholder = typed ? String(left) : derived.dataset.hint;
    });
  }
  document.addEventListener("input", function (event) {
    var form = event.target.closest && event.target.closest("[data-hand-form]");
    if (form) fillDerived(form);
  });
  // A form shown with its counts already in it (the edit page, a draft, a refused hand).
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-hand-form]").forEach(fillDerived);
  });

  // An error answer swapped in (responseHandling in base.html) shows where it belongs, not as
  // the whole page by django-htmx's DEBUG script (on document, after this listener on <html>).
  function swappedIn(status) {
    var handling = (window.htmx && window.htmx.config.responseHandling) || [];
    for (var i = 0; i < handling.length; i++) {
      if (new RegExp(handling[i].code).test(String(status))) return handling[i].swap === true;
    }
    return false;
  }
  document.documentElement.addEventListener("htmx:beforeOnLoad", function (event) {
    var xhr = event.detail.xhr;
    if (xhr && xhr.status >= 400 && swappedIn(xhr.status)) event.stopPropagation();
  });

  // Sweep steppers count in the page, from whatever the box holds, and tell the form (preview,
  // draft) like typing does. Without JavaScript they post the form and the server counts.
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-step]");
    if (!button) return;
    var input = document.getElementById(button.dataset.stepFor);
    if (!input) return;
    event.preventDefault();
    var value = parseInt(input.value, 10);
    value = (Number.isNaN(value) ? 0 : value) + Number(button.dataset.step);
    input.value = String(Math.min(Math.max(value, 0), Number(input.max) || 24));
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });

  // The hand being typed lives in this browser until it is saved: a reload, Back or a closed tab
  // keeps all of it (counts, special cards, sweeps). One draft per match.
  function draftKey(form) { return "casino-draft:" + form.dataset.draft; }
  function draftSave(form) {
    var values = {};
    Array.prototype.forEach.call(form.elements, function (field) {
      if (!field.name || field.type === "hidden" || field.type === "submit" || field.type === "button") return;
      if (field.type === "radio") { if (field.checked) values[field.name] = field.value; return; }
      var sweepsAtZero = field.name.indexOf("sweeps_") === 0 && field.value === "0";
      if (field.value !== "" && !sweepsAtZero) values[field.name] = field.value;
    });
    try {
      if (Object.keys(values).length) localStorage.setItem(draftKey(form), JSON.stringify(values));
      else localStorage.removeItem(draftKey(form));
    } catch (error) { /* storage full or refused: the form still works */ }
  }
  function draftRestore(form) {
    var values;
    try { values = JSON.parse(localStorage.getItem(draftKey(form)) || "null"); } catch (error) { values = null; }
    if (!values) return;
    var typed = Array.prototype.some.call(form.elements, function (field) {
      return (field.type === "number" && field.value !== "" && field.value !== "0") ||
        (field.type === "radio" && field.checked);
    });
    if (typed) { draftSave(form); return; }  // the server sent counts back (an error, a moved hand)
    Object.keys(values).forEach(function (name) {
      var fields = form.querySelectorAll('[name="' + name + '"]');
      Array.prototype.forEach.call(fields, function (field) {
        if (field.type === "radio") field.checked = field.value === values[name];
        else field.value = values[name];
      });
    });
    fillDerived(form);  // the last side's counts, from the kept ones (no input event comes)
    form.dispatchEvent(new Event("change", { bubbles: true }));
  }
  function draftForget(matchId) {
    try { localStorage.removeItem("casino-draft:" + matchId); } catch (error) { /* nothing kept */ }
  }
  // A hand another screen saved first, and "Discard mine": what was typed here goes.
  document.addEventListener("submit", function (event) {
    var discard = event.target.closest && event.target.closest("[data-clash-discard]");
    if (discard) draftForget(discard.dataset.clashDiscard);
  });
  ["input", "change"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      var form = event.target.closest && event.target.closest("[data-draft]");
      if (form) draftSave(form);
    });
  });
  // A double tap on Save: the second tap lands on the next hand's fresh form. An untouched form
  // sent right after a save is not sent (outbox.js too).
  var DOUBLE_TAP_MS = 1500;
  var savedAt = 0;
  function noteSaved() { savedAt = Date.now(); }
  function untouched(form) {
    return !Array.prototype.some.call(form.elements, function (field) {
      if (field.type === "radio" || field.type === "checkbox") return field.checked;
      if (field.type !== "number") return false;
      return field.value !== "" && !(field.name.indexOf("sweeps_") === 0 && field.value === "0");
    });
  }
  function justSaved() { return Date.now() - savedAt < DOUBLE_TAP_MS; }
  function secondTap(form) { return justSaved() && untouched(form); }
  // The won board puts Rematch under the finger that tapped Save: disabled for that moment, the
  // second tap of a double tap does not start the next match (outbox.js: the phone's board too).
  function holdButton(button) {
    var left = savedAt + DOUBLE_TAP_MS - Date.now();
    if (left <= 0) return;
    button.disabled = true;
    setTimeout(function () { button.disabled = false; }, left);
  }
  document.body.addEventListener("htmx:afterSettle", function () {
    document.querySelectorAll("[data-rematch] button").forEach(holdButton);
  });
  document.body.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (elt && elt.matches && elt.matches("[data-hand-form]") && secondTap(elt)) event.preventDefault();
  });

  // A saved hand: its draft is done with (the server's answer says so: HX-Trigger "hand-saved").
  document.body.addEventListener("hand-saved", function (event) {
    noteSaved();
    if (event.detail && event.detail.match) draftForget(String(event.detail.match));
  });
  function restoreDrafts() {
    var form = document.querySelector("[data-draft]");
    if (form) draftRestore(form);
  }

  // Back to a page kept in memory, or a phone woken up: ask the board for what changed now.
  function refreshBoard() {
    var poll = document.querySelector("[data-poll]");
    if (poll && window.htmx) window.htmx.trigger(poll, "refresh");
  }
  window.addEventListener("pageshow", function (event) { if (event.persisted) refreshBoard(); });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") refreshBoard();
  });

  // The header's menu closes on a tap elsewhere or Escape, like a menu should.
  document.addEventListener("click", function (event) {
    var open = document.querySelector("[data-menu][open]");
    if (open && !open.contains(event.target)) open.open = false;
  });
  // Enter (a phone keyboard's Next) in a hand's count moves to the next count; the last saves.
  // movedTo: the spades box the cursor moved to by itself (below), while it is still empty.
  var movedTo = null;
  var touchScreen = window.matchMedia && window.matchMedia("(pointer: coarse)");
  document.addEventListener("keydown", function (event) {
    var open = document.querySelector("[data-menu][open]");
    if (open && event.key === "Escape") { open.open = false; open.querySelector("summary").focus(); }
    var box = event.target, counts = "[data-source], [data-derived]";
    if (event.key !== "Enter" || !box.matches || !box.matches(counts)) return;
    if (box === movedTo && box.value === "") { movedTo = null; event.preventDefault(); return; }
    var boxes = Array.prototype.slice.call(box.form.querySelectorAll(counts));
    var next = boxes[boxes.indexOf(box) + 1];
    if (next) { event.preventDefault(); next.focus(); next.select(); }
  });
  // On a phone (a touch screen's keyboard), a side's cards typed in full (no further digit fits
  // the pack: 27 of 52, 8) move the cursor on to its spades, as the form's hint says there; a
  // Next pressed from habit is then let go. A keyboard's Tab stays as it is.
  // The cards boxes of `root` (the page, or a form not yet in it) are described by the hint.
  function adviseCounts(root) {
    var within = root && root.querySelector ? root : document;
    var hint = within.querySelector("#count-hint");
    if (!hint || !touchScreen || !touchScreen.matches) return;
    within.querySelectorAll("[data-source=cards]").forEach(function (box) {
      var ids = (box.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
      if (ids.indexOf(hint.id) < 0) box.setAttribute("aria-describedby", ids.concat(hint.id).join(" "));
    });
  }
  document.addEventListener("DOMContentLoaded", adviseCounts);
  document.addEventListener("htmx:afterSettle", adviseCounts);
  document.addEventListener("input", function (event) {
    var box = event.target;
    movedTo = null;
    if (!touchScreen || !touchScreen.matches || !box.matches || !box.matches("[data-source=cards]")) return;
    if (!/^[1-9]\d*$/.test(box.value)) return;
    if (Number(box.value) * 10 <= Number(box.max) || Number(box.value) > Number(box.max)) return;
    var spades = box.closest("tr").querySelector("[data-source=spades]");
    if (!spades) return;
    movedTo = spades;
    spades.focus();
    spades.select();
  });

  // Ask before destructive posts (the server does not depend on it).
  document.addEventListener("submit", function (event) {
    var message = event.target.dataset && event.target.dataset.confirm;
    if (message && !window.confirm(message)) event.preventDefault();
  });

  // Network trouble while saving: keep what was typed, say so, and offer a retry.
  function showOffline(element, show) {
    var form = element && element.closest ? element.closest("form") : null;
    var box = form && form.querySelector("[data-offline]");
    if (box) box.hidden = !show;
  }
  document.body.addEventListener("htmx:sendError", function (event) { showOffline(event.detail.elt, true); });
  document.body.addEventListener("htmx:timeout", function (event) { showOffline(event.detail.elt, true); });
  document.body.addEventListener("htmx:responseError", function (event) { showOffline(event.detail.elt, true); });
  document.body.addEventListener("htmx:afterRequest", function (event) {
    // Only a successful save clears the warning: a live preview reaching the server does not
    // mean the hand was saved.
    var elt = event.detail.elt;
    if (event.detail.successful && elt && elt.matches && elt.matches("form")) showOffline(elt, false);
  });
  document.addEventListener("click", function (event) {
    var retry = event.target.closest && event.target.closest("[data-retry]");
    if (!retry) return;
    var form = retry.closest("form");
    if (form && window.htmx) window.htmx.trigger(form, "submit");
  });

  // Keep the phone awake on the scoreboard; the lock is dropped when the page is hidden.
  var wakeLock = null;
  function requestWakeLock() {
    if (!("wakeLock" in navigator) || !document.querySelector("[data-wake-lock]")) return;
    if (document.visibilityState !== "visible" || wakeLock) return;
    navigator.wakeLock.request("screen").then(function (lock) {
      wakeLock = lock;
      lock.addEventListener("release", function () { wakeLock = null; });
    }).catch(function () { wakeLock = null; });
  }
  document.addEventListener("visibilitychange", requestWakeLock);
  document.addEventListener("DOMContentLoaded", requestWakeLock);
  document.addEventListener("DOMContentLoaded", restoreDrafts);

  // The bottom bar's height (it grows with the preview and the saved note) keeps a focused field
  // scrolled clear of it (scroll-padding-bottom in app.css).
  var barObserver = "ResizeObserver" in window ? new ResizeObserver(function (entries) {
    entries.forEach(function (entry) {
      document.documentElement.style.setProperty("--bar-height", Math.ceil(entry.target.offsetHeight) + "px");
    });
  }) : null;
  function watchBar() {
    var bar = document.querySelector(".form-actions");
    if (!barObserver || !bar || bar.dataset.watched) return;
    bar.dataset.watched = "1";
    barObserver.disconnect();
    barObserver.observe(bar);
  }
  document.addEventListener("DOMContentLoaded", watchBar);
  document.body.addEventListener("htmx:afterSettle", watchBar);

  // "Hand saved" with Undo shows for ten seconds; an Undo being sent keeps it until it answers.
  var TOAST_MS = 10000;
  function hideToastLater() {
    var toast = document.querySelector("[data-toast]:not([data-timed])");
    if (!toast) return;
    toast.dataset.timed = "1";
    window.setTimeout(function () {
      if (!toast.querySelector("button[disabled]")) toast.hidden = true;
    }, TOAST_MS);
  }
  document.addEventListener("DOMContentLoaded", hideToastLater);
  // It shows over the form's bottom edge (Save stays put): typing the next hand, which the
  // note could cover, takes it away (the hand's page can still delete the last hand).
  document.addEventListener("input", function (event) {
    var toast = event.target.closest && event.target.closest("[data-hand-form]") &&
      document.querySelector("[data-toast]:not([hidden])");
    if (toast && !toast.querySelector("button[disabled]")) toast.hidden = true;
  });
  document.body.addEventListener("htmx:afterSettle", function (event) {
    requestWakeLock();
    var form = document.querySelector("[data-hand-form]");
    if (form) fillDerived(form);
    var swapped = event.detail.target && event.detail.target.id;
    if (swapped === "board" || swapped === "entry") restoreDrafts();
    // After a saved hand the fresh form starts at the first side's cards.
    if (document.querySelector("[data-hand-saved]") && (swapped === "board" || swapped === "entry")) {
      var first = document.querySelector("[data-hand-form] [autofocus]");
      if (first) first.focus();
    }
    hideToastLater();
  });

  // What outbox.js and local.js use of this file.
  window.casinoApp = {
    draftForget: draftForget, draftRestore: draftRestore, fillDerived: fillDerived, refreshBoard: refreshBoard,
    adviseCounts: adviseCounts,
    noteSaved: noteSaved, secondTap: secondTap, justSaved: justSaved, holdButton: holdButton,
  };
})();
