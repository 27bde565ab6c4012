// The site's service worker: it keeps the scripts whose URLs name their content
// (Pyodide's 1.2 MB script, by its SHA-256; the editor's chunk, by its hash) in the
// Cache Storage, and answers for them from there. Chromium compiles a script that
// a service worker puts in the Cache Storage as it installs, and keeps that code
// beside it, so a returning visitor's Python worker neither revalidates nor
// compiles Pyodide's script again (without this, Chromium keeps a script's code
// only from its second load on). Every other request goes to the network, as
// without a service worker.
//
// The page registers it once Python is up and idle (script-cache.js). KEPT_SCRIPTS,
// the scripts' paths relative to this file, is the build's (build.py puts it in): a
// new build with other scripts is a new service worker, which keeps those, takes
// over at once and deletes the rest. Nothing kept can be another build's, since
// each URL names its content.

const CACHE = "autograd-playground scripts";
const kept = new Set(KEPT_SCRIPTS.map((path) => new URL(path, location.href).href));

addEventListener("install", (event) => {
  event.waitUntil(keepMissing().then(() => skipWaiting()));
});

addEventListener("activate", (event) => {
  event.waitUntil(forgetOthers());
});

addEventListener("fetch", (event) => {
  if (kept.has(event.request.url)) event.respondWith(fromCache(event.request));
});

/** Download the build's scripts that are not kept yet (the ones that are were compiled then). */
async function keepMissing() {
  const cache = await caches.open(CACHE);
  const have = new Set((await cache.keys()).map((request) => request.url));
  await cache.addAll([...kept].filter((url) => !have.has(url)));
}

/** Delete what an earlier build kept. */
async function forgetOthers() {
  const cache = await caches.open(CACHE);
  for (const request of await cache.keys()) {
    if (!kept.has(request.url)) await cache.delete(request);
  }
}

async function fromCache(request) {
  const cached = await caches.open(CACHE).then((cache) => cache.match(request), () => null);
  return cached ?? fetch(request);
}
