// Gzips files with Zopfli, at build time:
//     node zopfli.mjs SOURCE TARGET [SOURCE TARGET ...]
// Zopfli writes gzip's format (what every browser's DecompressionStream decodes) 3 to 5%
// smaller than gzip's level 9 does: 0.14 MB less of a first visit, most of it Pyodide's
// wasm. One iteration of its optimizer: more gain little on a file of megabytes and take
// minutes. Its output has no time in its header, so the same file gives the same bytes.
// A TARGET is written whole or not at all (build.py keeps them between builds).

import { rename, readFile, writeFile } from "node:fs/promises";
import { gzipAsync } from "@gfx/zopfli";

const args = process.argv.slice(2);
for (let i = 0; i < args.length; i += 2) {
  const [source, target] = args.slice(i, i + 2);
  const gzipped = await gzipAsync(await readFile(source), { numiterations: 1 });
  await writeFile(`${target}.part`, gzipped);
  await rename(`${target}.part`, target);
}
