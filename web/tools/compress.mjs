// Compresses files for a static host to send as they are stored, at build time:
//     node compress.mjs SOURCE TARGET [SOURCE TARGET ...]
// each TARGET by its extension:
// - .gz by Zopfli, gzip's format (what every browser's DecompressionStream decodes), 3 to
//   5% smaller than gzip's level 9. One iteration of its optimizer: more gain little on
//   a file of megabytes and take minutes. It has no time in its header.
// - .zst by Zstandard's level 19, its highest short of --ultra's (whose larger window a
//   decoder would have to hold): Pyodide's wasm in 2.9 MB, where Zopfli gives 3.4 MB;
//   the workers decode it with web/worker/zstd.js.
// The same file gives the same bytes. A TARGET is written whole or not at all (build.py
// keeps them between builds).

import { rename, readFile, writeFile } from "node:fs/promises";
import { gzipAsync } from "@gfx/zopfli";
import { compress, init as zstdReady } from "@bokuweb/zstd-wasm";

const ZSTD_LEVEL = 19;
await zstdReady();
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i += 2) {
  const [source, target] = args.slice(i, i + 2);
  const bytes = await readFile(source);
  const compressed = target.endsWith(".zst")
    ? compress(bytes, ZSTD_LEVEL)
    : await gzipAsync(bytes, { numiterations: 1 });
  await writeFile(`${target}.part`, compressed);
  await rename(`${target}.part`, target);
}
