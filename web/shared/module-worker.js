// Module workers for the site's own scripts, wherever the page that embeds it lives:
// the page's, and the Python worker's own (which has the page's origin).

/**
 * A module worker running `url`, called `name` (in dev tools, and for tests to
 * tell the page's workers apart). Workers must be same-origin with the page, so
 * a site on another origin is reached through a one-line module, on a blob
 * URL, that imports the real worker (whose own URLs stay relative to its origin).
 */
export function moduleWorker(url, name) {
  const options = { type: "module", name };
  if (url.origin === location.origin) return new Worker(url, options);
  const source = `import ${JSON.stringify(url.href)};`;
  const blob = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
  return new Worker(blob, options);
}
