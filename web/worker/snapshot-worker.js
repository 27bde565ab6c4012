// Downloads the memory snapshot, checks it against its hash and decodes it, on a
// thread of its own: decoding is the largest piece of a restore, and the Python
// worker's thread is busy meanwhile starting Pyodide. Started by the Python
// worker (boot.js), for one snapshot.
//
// In:   {url, sha256}                     the snapshot, and the SHA-256 site.json has for it
// Out:  {type: "response", ok, status}    its response's HTTP status, once known
//       {type: "received", bytes}         so many more of its bytes have arrived (for the
//                                         page's progress bar)
//       {type: "downloaded"}              all of them have
//       {type: "inflated", stored}        its bytes as snapshot-pages.js lays them out
//                                         (an ArrayBuffer, transferred)
//       {type: "unusable", why}           the download fails its check, or does not inflate

import { sha256Hex } from "../shared/sha256.js";

// Zstandard's decoder (zstd.js, which the Python worker loads too), made ready while the
// snapshot downloads.
const zstd = import("./zstd.js");
zstd.catch(() => {}); // told when the snapshot is decoded

addEventListener("message", async ({ data: { url, sha256 } }) => {
  const response = await fetch(url).catch(() => ({ ok: false, status: "none: no response" }));
  postMessage({ type: "response", ok: response.ok, status: response.status });
  if (!response.ok) return;
  const chunks = [];
  const reader = response.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    postMessage({ type: "received", bytes: read.value.byteLength });
    chunks.push(read.value);
  }
  postMessage({ type: "downloaded" });
  const compressed = new Uint8Array(await new Blob(chunks).arrayBuffer());
  if ((await sha256Hex(compressed.buffer)) !== sha256) {
    postMessage({ type: "unusable", why: "is corrupt, or from another build (its SHA-256 differs)" });
    return;
  }
  try {
    const { ZSTANDARD, zstdReady } = await zstd;
    if (!ZSTANDARD.magic.every((byte, i) => compressed[i] === byte)) throw new Error("it is not Zstandard's");
    const stored = (await zstdReady).decode(compressed).buffer;
    postMessage({ type: "inflated", stored }, [stored]);
  } catch (error) {
    postMessage({ type: "unusable", why: `could not be inflated: ${error.message}` });
  }
});
