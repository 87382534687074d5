// The service worker (served at /sw.js by scoring/pages/offline.py, which puts RELEASE and
// PRECACHE above this line). Plain JavaScript, no build step.
//
// - The app's own files are kept in a cache named after the release; a new release empties the
//   old ones.
// - Pages go to the network first. The match list and each scoreboard opened are kept as last
//   seen, so a reload without signal shows them, in a cache of the account the page was for
//   (base.html names it on <body>): outbox.js forgets every other account's at each page load,
//   and the account's own when it logs out. A page the server no longer gives (a match deleted,
//   a member removed, a session ended) is forgotten as soon as it is asked for online.
// - Background Sync, where the browser has it, wakes an open board to send its outbox.
"use strict";

const STATIC_CACHE = "casino-static-" + RELEASE;
const PAGES_CACHE = "casino-pages-";  // + the account's id
// The pages worth keeping: the match list, a match's scoreboard, the new-match form, the board
// of a match started without signal (local.js) and the list of what waits (outbox.js).
const KEPT = /^\/matches\/(\d+\/|new\/|offline\/|waiting\/)?$/;
// Whose page it is: the signed-in account, named on <body>; a page for no one is not kept.
const ACCOUNT = /<body\b[^>]*\sdata-account="(\d+)"/;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(STATIC_CACHE).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names
        .filter((name) => (name.startsWith("casino-static-") && name !== STATIC_CACHE) || name === "casino-pages")
        .map((name) => caches.delete(name))))
      .then(() => self.clients.claim())
  );
});

function pageKey(url) {
  return url.origin + url.pathname;  // one copy per page, whatever its query
}

async function pageCaches() {
  return (await caches.keys()).filter((name) => name.startsWith(PAGES_CACHE));
}

async function forgetPage(key) {
  await Promise.all((await pageCaches()).map(async (name) => (await caches.open(name)).delete(key)));
}

// Keep the page under its account; forget it when the server answers it with anything but the
// page itself (a redirect to log in, 403, 404), but not when the server is in trouble (5xx).
async function keepPage(url, response) {
  const key = pageKey(url);
  const html = (response.headers.get("Content-Type") || "").startsWith("text/html");
  if (response.ok && !response.redirected && html) {
    const copy = response.clone();
    const owner = ACCOUNT.exec(await response.clone().text());
    if (owner) {
      await (await caches.open(PAGES_CACHE + owner[1])).put(key, copy);
      return;
    }
  } else if (response.status >= 500) {
    return;
  }
  await forgetPage(key);
}

async function networkFirst(request, url) {
  try {
    const response = await fetch(request);
    if (KEPT.test(url.pathname)) await keepPage(url, response);
    return response;
  } catch (error) {
    for (const name of await pageCaches()) {
      const kept = await (await caches.open(name)).match(pageKey(url), { ignoreVary: true });
      if (kept) return kept;
    }
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (PRECACHE.includes(url.pathname)) {
    event.respondWith(caches.match(url.pathname, { cacheName: STATIC_CACHE }).then((hit) => hit || fetch(request)));
    return;
  }
  // A page being opened (not htmx asking for a part of one).
  if (request.mode === "navigate" && !request.headers.get("HX-Request")) {
    event.respondWith(networkFirst(request, url));
  }
});

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "forget-pages") {
    const account = event.data.account;
    event.waitUntil(account ? caches.delete(PAGES_CACHE + account)
      : pageCaches().then((names) => Promise.all(names.map((name) => caches.delete(name)))));
  }
});

self.addEventListener("sync", (event) => {
  if (event.tag !== "outbox") return;
  event.waitUntil(self.clients.matchAll({ type: "window" }).then((clients) => {
    clients.forEach((client) => client.postMessage({ type: "send-outbox" }));
  }));
});
