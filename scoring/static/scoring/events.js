// Progressive enhancement only: the event page and its big screen say when the round ends
// without this file. With it, the countdown ticks: "12:34 left", then the words for time up.
(function () {
  "use strict";
  function pad(number) { return (number < 10 ? "0" : "") + number; }
  function tick() {
    document.querySelectorAll("[data-countdown]").forEach(function (element) {
      // Python's isoformat has microseconds: some browsers' Date.parse reads 3 digits at most.
      var end = Date.parse(element.dataset.countdown.replace(/(\.\d{3})\d+/, "$1"));
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
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSettle", tick);
  setInterval(tick, 1000);
})();
