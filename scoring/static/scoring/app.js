// Progressive enhancement only: every page works without this file.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  // Two sides: show the second side's cards and spades as the deck leaves them (52 − x, 13 − y).
  function fillDerived(form) {
    ["cards", "spades"].forEach(function (kind) {
      var source = form.querySelector('[data-source="' + kind + '"]');
      var derived = form.querySelector('[data-derived="' + kind + '"]');
      if (!source || !derived) return;
      var whole = Number(kind === "cards" ? form.dataset.pack : form.dataset.spades);
      var value = parseInt(source.value, 10);
      derived.placeholder = Number.isNaN(value) ? derived.dataset.hint || derived.placeholder : String(whole - value);
    });
  }
  document.addEventListener("input", function (event) {
    var form = event.target.closest && event.target.closest("[data-hand-form]");
    if (form) fillDerived(form);
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
  // A shared board whose link was turned off answers 404: stop polling (htmx stops polling an
  // element that is no longer in the page) and say why.
  document.body.addEventListener("htmx:responseError", function (event) {
    var elt = event.detail.elt;
    if (event.detail.xhr.status !== 404 || !elt.matches || !elt.matches("[data-poll]")) return;
    var notice = document.querySelector("[data-poll-ended]");
    if (notice) notice.hidden = false;
    elt.remove();
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
  document.body.addEventListener("htmx:afterSettle", function (event) {
    requestWakeLock();
    var form = document.querySelector("[data-hand-form]");
    if (form) fillDerived(form);
    // After a saved hand the fresh form starts at the first side's cards.
    if (event.detail.target && event.detail.target.id === "board") {
      var first = document.querySelector("[data-hand-form] [autofocus]");
      if (first) first.focus();
    }
  });
})();
