// The snapshot as a returning visitor's browser keeps it: checked and inflated (laid
// out as snapshot-pages.js says), in the Cache Storage, under the SHA-256 site.json
// gives its download. The next load neither downloads, checks nor inflates it
// again, which is most of a restore's cost. Where there is no Cache Storage (not a
// secure context, storage switched off or full), every load downloads it.
//
// The Cache Storage is the origin's, and the learner's code runs in this worker: what
// is kept is used only if its bytes have the SHA-256 the build recorded for them
// (site.json's `storedSha256`), checked on every load before Python starts. Kept
// bytes that differ are forgotten, and the snapshot is downloaded again.

import { sha256Hex } from "../shared/sha256.js";

let opened = null; // the cache, opened on first use (which takes a while)
const cache = () => (opened ??= openCache());

/** The key the snapshot at `url` whose download has this SHA-256 is kept under. */
export const keptAs = (url, sha256) => `${url}?sha256=${sha256}`;

/** Whether an earlier load kept a snapshot under `key`. */
export async function isKept(key) {
  return Boolean(await keptResponse(key));
}

/** The bytes an earlier load kept under `key`, if their SHA-256 is `sha256`; else null
 *  (and bytes that differ are forgotten). */
export async function keptSnapshot(key, sha256) {
  const response = await keptResponse(key);
  const bytes = response ? await response.arrayBuffer().catch(() => null) : null;
  if (!bytes || (await sha256Hex(bytes)) === sha256) return bytes;
  console.warn("The snapshot this browser kept is not the build's (its SHA-256 differs): downloading it again");
  await forgetSnapshot(key);
  return null;
}

/** Keep `bytes` under `key`, in place of any other build's snapshot. */
export async function keepSnapshot(key, bytes) {
  try {
    const kept = await cache();
    await kept.put(key, new Response(bytes));
    for (const request of await kept.keys()) if (request.url !== key) await kept.delete(request);
  } catch {
    // no Cache Storage here, or it is full: the next load downloads the snapshot again
  }
}

/** Delete what is kept under `key`, if anything. */
export async function forgetSnapshot(key) {
  await (await cache())?.delete(key).catch(() => {});
}

async function keptResponse(key) {
  try {
    return (await (await cache())?.match(key)) ?? null;
  } catch {
    return null;
  }
}

async function openCache() {
  try {
    return await caches.open("autograd-playground snapshot");
  } catch {
    return null; // no Cache Storage here (not a secure context, or storage is off)
  }
}
