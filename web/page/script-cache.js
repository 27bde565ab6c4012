// The page's side of service-worker.js: registered once per page, when Python is
// up and the page is idle, so that its work (downloading and compiling Pyodide's
// script once more) never slows a first visit's first result.

let registered = false;
// What the Python worker's URL ends with where the service worker answers for
// Pyodide's script: the worker then imports it by its URL, to use the code compiled
// beside it; elsewhere it downloads the script gzipped (web/worker/stored.js).
export const SCRIPTS_KEPT = "#scripts-kept";

/** The Python worker's script (`workerUrl`), told whether the site's service worker
 *  controls this page, and so answers for the scripts it keeps. */
export function pythonWorkerUrl(workerUrl) {
  const url = new URL(workerUrl);
  if (controlledBySite(workerUrl)) url.hash = SCRIPTS_KEPT;
  return url;
}

/**
 * Register the service worker beside the Python worker's script (`workerUrl`). Only
 * a page on the site's origin may; elsewhere (another origin, no secure context,
 * service workers switched off) every load compiles Pyodide's script as before.
 */
export function keepScriptsForNextLoad(workerUrl) {
  const script = siteServiceWorker(workerUrl);
  if (registered || script.origin !== location.origin || !navigator.serviceWorker) return;
  registered = true;
  const whenIdle = globalThis.requestIdleCallback ?? setTimeout;
  whenIdle(() =>
    navigator.serviceWorker
      .register(script)
      .catch((error) => console.info(`Pyodide's script is not kept for the next load: ${error.message}`)),
  );
}

/** Whether the site's service worker (beside `workerUrl`) controls this page: then it
 *  answers for the scripts it keeps. (A page of another origin, a sandboxed frame's
 *  included, may not even ask.) */
export function controlledBySite(workerUrl) {
  const script = siteServiceWorker(workerUrl);
  return script.origin === location.origin && navigator.serviceWorker?.controller?.scriptURL === script.href;
}

function siteServiceWorker(workerUrl) {
  return new URL("service-worker.js", workerUrl);
}
