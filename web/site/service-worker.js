// The site's service worker: it keeps the scripts whose URLs name their content
// (Pyodide's 1.2 MB script, by its SHA-256; the editor's, by its hash) in the
// Cache Storage, and answers for them from there. Chromium compiles a script that
// a service worker puts in the Cache Storage as it installs, and keeps that code
// beside it, so a returning visitor's Python worker neither revalidates nor
// compiles Pyodide's script again (without this, Chromium keeps a script's code
// only from its second load on). It makes them of their gzipped copies, which the
// first visit downloaded already, so that it downloads neither again. Every other
// request goes to the network, as without a service worker.
//
// The Cache Storage is the origin's, and the Python worker, which runs a stranger's
// code, can write it: so a kept script is served only if its bytes have the SHA-256
// the build recorded, checked on every use. One that differs is forgotten and fetched
// from the network again; nothing planted there ever runs.
//
// The page registers it once Python is up and idle (script-cache.js). KEPT_SCRIPTS,
// the scripts' paths relative to this file with their SHA-256, is the build's
// (build.py puts it in): a new build with other scripts is a new service worker,
// which keeps those, takes over at once and deletes the rest.

import { fetchGunzipped } from "../shared/gunzip.js";
import { sha256Hex } from "../shared/sha256.js";

const CACHE = "autograd-playground scripts";
const kept = new Map(Object.entries(KEPT_SCRIPTS).map(([path, sha256]) => [new URL(path, location.href).href, sha256]));

addEventListener("install", (event) => {
  event.waitUntil(keepMissing().then(() => skipWaiting()));
});

addEventListener("activate", (event) => {
  event.waitUntil(forgetOthers());
});

addEventListener("fetch", (event) => {
  if (kept.has(event.request.url)) event.respondWith(fromCache(event.request, event));
});

/** Keep the build's scripts that are not kept yet (the ones that are were compiled then). */
async function keepMissing() {
  const cache = await caches.open(CACHE);
  const have = new Set((await cache.keys()).map((request) => request.url));
  await Promise.all([...kept.keys()].filter((url) => !have.has(url)).map((url) => keep(cache, url)));
}

/**
 * Keep the script at `url` made of its gzipped copy (its path with ".gz"), which the page
 * and its Python worker have downloaded already (it comes from the HTTP cache), if its
 * bytes are the build's; else downloaded as it is.
 */
async function keep(cache, url) {
  const script = await fromGzipped(url).catch(() => null);
  return script ? cache.put(url, script) : cache.add(url);
}

async function fromGzipped(url) {
  const gzipped = new URL(url);
  gzipped.search = "";
  gzipped.pathname += ".gz";
  const bytes = await fetchGunzipped(gzipped);
  if ((await sha256Hex(await bytes.arrayBuffer())) !== kept.get(url)) throw new Error("not the build's bytes");
  return new Response(bytes, { headers: { "content-type": "text/javascript" } });
}

/** Delete what an earlier build kept. */
async function forgetOthers() {
  const cache = await caches.open(CACHE);
  for (const request of await cache.keys()) {
    if (!kept.has(request.url)) await cache.delete(request);
  }
}

/** The kept script, if its bytes are the build's (the response itself, so that the
 *  code Chromium compiled beside it is used); else the network's, kept in its place. */
async function fromCache(request, event) {
  const cache = await caches.open(CACHE).catch(() => null);
  const cached = await cache?.match(request).catch(() => null);
  if (cached) {
    const bytes = await cached.clone().arrayBuffer().catch(() => null);
    if (bytes && (await sha256Hex(bytes)) === kept.get(request.url)) return cached;
    await cache.delete(request).catch(() => {});
  }
  const response = await fetch(request);
  if (cache && response.ok) event.waitUntil(cache.put(request, response.clone()).catch(() => {}));
  return response;
}
