// A module imported from bytes the page or a worker has decoded (a script the build
// stores gzipped: ../page/editor-script.js, ../worker/stored.js), through a blob: URL.

/**
 * The ES module whose source is `script` (a Blob), named `sourceURL` in stack traces and
 * the browser's tools (which find its source map beside it), rather than by its blob: URL.
 */
export async function importBytes(script, sourceURL) {
  const named = new Blob([script, `\n//# sourceURL=${sourceURL}\n`], { type: "text/javascript" });
  const url = URL.createObjectURL(named);
  try {
    return await import(url);
  } finally {
    URL.revokeObjectURL(url);
  }
}
