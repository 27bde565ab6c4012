// The editor's script (editor.js: CodeMirror, most of the page's JavaScript), which
// build.py bundles on its own, named by its content, and stores gzipped too: a static
// host sends a file as it is stored, and gzip takes two thirds off this one. A page
// imports the gzipped copy, decoded as it arrives (../shared/gunzip.js), from a blob:
// URL; a page the site's service worker controls imports the plain script by its URL,
// since the service worker keeps it with the code Chromium compiled beside it. Where
// the gzipped copy cannot be had (a failed download, bytes that do not decode, a page
// whose Content-Security-Policy forbids blob: scripts), the plain script is imported.

import { fetchGunzipped } from "../shared/gunzip.js";
import { importBytes } from "../shared/import-bytes.js";

// Beside the page's bundle, as build.py puts it in (EDITOR_SCRIPT); with ".gz", its
// gzipped copy.
const SCRIPT = new URL(EDITOR_SCRIPT, import.meta.url);
const GZIPPED = new URL(`${EDITOR_SCRIPT}.gz`, import.meta.url);

/** The editor's module: imported by its URL where `kept` (the site's service worker
 *  keeps it), else from its gzipped copy, or by its URL if that fails. */
export async function importEditor(kept) {
  if (!kept) {
    try {
      return await importGzipped();
    } catch (error) {
      console.info(`The editor's script is loaded as it is stored: ${error.message}`);
    }
  }
  return import(SCRIPT.href);
}

async function importGzipped() {
  return importBytes(await fetchGunzipped(GZIPPED), SCRIPT.href);
}
