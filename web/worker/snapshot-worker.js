// Downloads the memory snapshot, checks it against its hash and inflates it, on a
// thread of its own: inflating is the largest piece of a restore, and the Python
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

addEventListener("message", async ({ data: { url, sha256 } }) => {
  const response = await fetch(url).catch(() => ({ ok: false, status: "none: no response" }));
  postMessage({ type: "response", ok: response.ok, status: response.status });
  if (!response.ok) return;
  const counted = response.body.pipeThrough(new TransformStream({
    transform(chunk, stream) {
      postMessage({ type: "received", bytes: chunk.byteLength });
      stream.enqueue(chunk);
    },
    flush: () => postMessage({ type: "downloaded" }),
  }));
  const [gzipped, inflating] = counted.tee();
  const inflated = new Response(inflating.pipeThrough(new DecompressionStream("gzip")))
    .arrayBuffer()
    .catch((error) => error);
  const digest = await sha256Hex(await new Response(gzipped).arrayBuffer());
  const stored = await inflated;
  if (digest !== sha256) {
    postMessage({ type: "unusable", why: "is corrupt, or from another build (its SHA-256 differs)" });
  } else if (stored instanceof Error) {
    postMessage({ type: "unusable", why: `could not be inflated: ${stored.message}` });
  } else {
    postMessage({ type: "inflated", stored }, [stored]);
  }
});
