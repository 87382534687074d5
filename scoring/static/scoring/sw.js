// The service worker (served at /sw.js by scoring/views/offline.py, which puts RELEASE and
// PRECACHE above this line). Plain JavaScript, no build step.
//
// - The app's own files are kept in a cache named after the release; a new release empties the
//   old ones.
// - Pages go to the network first. The match list and each scoreboard opened are kept as last
//   seen, so a reload without signal shows them.
// - Logging out empties the kept pages (app.js asks for it).
// - Background Sync, where the browser has it, wakes an open board to send its outbox.
"use strict";

const STATIC_CACHE = "casino-static-" + RELEASE;
const PAGES_CACHE = "casino-pages";
// The pages worth keeping: the match list and a match's scoreboard.
const KEPT = /^\/matches\/(\d+\/)?$/;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(STATIC_CACHE).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names
        .filter((name) => name.startsWith("casino-static-") && name !== STATIC_CACHE)
        .map((name) => caches.delete(name))))
      .then(() => self.clients.claim())
  );
});

function pageKey(url) {
  return url.origin + url.pathname;  // one copy per page, whatever its query
}

async function networkFirst(request, url) {
  const cache = await caches.open(PAGES_CACHE);
  try {
    const response = await fetch(request);
    if (response.ok && !response.redirected && KEPT.test(url.pathname)) {
      await cache.put(pageKey(url), response.clone());
    }
    return response;
  } catch (error) {
    const kept = await cache.match(pageKey(url), { ignoreVary: true });
    if (kept) return kept;
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
    event.waitUntil(caches.delete(PAGES_CACHE));
  }
});

self.addEventListener("sync", (event) => {
  if (event.tag !== "outbox") return;
  event.waitUntil(self.clients.matchAll({ type: "window" }).then((clients) => {
    clients.forEach((client) => client.postMessage({ type: "send-outbox" }));
  }));
});
