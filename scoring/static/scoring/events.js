// Progressive enhancement only: the event page and its big screen say when the round ends
// without this file. With it, the countdown ticks: "12:34 left", then the words for time up.
(function () {
  "use strict";
  function pad(number) { return (number < 10 ? "0" : "") + number; }
  // Python's isoformat has microseconds: some browsers' Date.parse reads 3 digits at most.
  function parseMoment(text) { return Date.parse(String(text).replace(/(\.\d{3})\d+/, "$1")); }
  function tick() {
    document.querySelectorAll("[data-countdown]").forEach(function (element) {
      var end = parseMoment(element.dataset.countdown);
      var out = element.querySelector("[data-countdown-left]");
      if (!out || isNaN(end)) return;  // the words "The round ends at ..." stay alone
      var left = Math.round((end - Date.now()) / 1000);
      if (left <= 0) {
        out.textContent = element.dataset.textOver;
        element.classList.add("over");
        return;
      }
      var hours = Math.floor(left / 3600);
      var minutes = Math.floor((left % 3600) / 60);
      var seconds = left % 60;
      out.textContent = (hours ? hours + ":" + pad(minutes) : String(minutes)) + ":" + pad(seconds);
      element.classList.remove("over");
    });
  }
  // The round's end in the phone's own time zone (the server writes its own).
  function localTimes() {
    var lang = document.documentElement.lang || undefined;
    document.querySelectorAll("time[data-local-time]").forEach(function (element) {
      var moment = new Date(parseMoment(element.getAttribute("datetime")));
      if (isNaN(moment.getTime())) return;
      element.textContent = moment.toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" });
    });
  }
  document.addEventListener("DOMContentLoaded", function () { localTimes(); tick(); });
  document.addEventListener("htmx:afterSettle", function () { localTimes(); tick(); });
  setInterval(tick, 1000);
})();
