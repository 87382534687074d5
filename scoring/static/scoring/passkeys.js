// When the browser's passkey dialog fails or is cancelled, allauth's webauthn.js sends an
// "allauth.error" event; without a listener it only writes to the console. Show the page's
// #passkey-error message instead, next to the button that was pressed.
(function () {
  let pressed = null;
  document.addEventListener("click", function (event) {
    const button = event.target.closest("button");
    if (!button) return;
    pressed = button;
    const message = document.getElementById("passkey-error");
    if (message) message.hidden = true;
  }, true);
  document.addEventListener("allauth.error", function (event) {
    const message = document.getElementById("passkey-error");
    if (!message) return;
    event.preventDefault();
    if (pressed && !message.closest("main")) {
      (pressed.closest("p, .actions") || pressed).after(message);
    }
    message.hidden = false;
    // Set again once shown, so that screen readers announce the alert.
    message.textContent = message.textContent.trim();
  });
})();
