// Copy and Share on the links a person hands out (_link_field.html), and Share on a result card.
// Without JavaScript the link's text box and the card's download link do the same. Loaded by the
// pages and fragments that have such links; more than one tag on a page starts it once.
(function () {
  "use strict";
  if (window.casinoShare) return;
  window.casinoShare = true;
  if (navigator.share) document.documentElement.classList.add("can-share");

  function say(button, text) {
    var out = document.getElementById(button.getAttribute("aria-describedby") || "");
    if (out) out.textContent = text;
  }

  function copy(box) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(box.value);
    box.focus();
    box.select();
    return document.execCommand("copy") ? Promise.resolve() : Promise.reject(new Error("copy"));
  }

  function copied(button, box) {
    var copyButton = button.hasAttribute("data-copy") ? button : button.parentNode.querySelector("[data-copy]");
    return copy(box).then(function () {
      say(button, copyButton.dataset.done);
    }, function () {
      box.select();
      say(button, copyButton.dataset.failed);
    });
  }

  // A person closing the share sheet is not an error; anything else falls back to the clipboard.
  function shared(button, box) {
    return navigator.share({ title: button.dataset.title, url: box.value }).catch(function (error) {
      if (error && error.name !== "AbortError") return copied(button, box);
    });
  }

  // The card as a file where the phone shares files; its words and link where it shares only
  // those; the download (the link's own action) where it shares nothing.
  function shareCard(link) {
    var words = { title: link.dataset.title, text: link.dataset.text };
    if (link.dataset.url) words.url = link.dataset.url;
    return fetch(link.href, { credentials: "same-origin" }).then(function (response) {
      if (!response.ok) throw new Error(String(response.status));
      return response.blob();
    }).then(function (blob) {
      var file = new File([blob], link.getAttribute("download") || "result.png", { type: "image/png" });
      var withFile = Object.assign({ files: [file] }, words);
      return navigator.share(navigator.canShare && navigator.canShare(withFile) ? withFile : words);
    }).catch(function (error) {
      if (error && error.name !== "AbortError") window.location.assign(link.href);
    });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy], [data-share], [data-share-card]");
    if (!button) return;
    if (button.hasAttribute("data-share-card")) {
      if (!navigator.share) return; // the download
      event.preventDefault();
      shareCard(button);
      return;
    }
    var box = document.getElementById(button.dataset.copy || button.dataset.share);
    if (!box) return;
    if (button.hasAttribute("data-share") && navigator.share) shared(button, box);
    else copied(button, box);
  });
})();
