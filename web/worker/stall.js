// A snapshot download that stalls (a server or a proxy that holds its response, a
// connection gone quiet) would keep Python from starting at all, where a fresh boot
// needs none of it: the restore gives it up once no byte of any of Python's files has
// arrived for the page's deadlines.snapshotStallMs, and Python boots fresh.
//
// The silence is the whole download's, not the snapshot's alone: while other files
// still arrive, a snapshot queued behind them on the link is waiting, not stalled.

/** The snapshot's download stalled: Python boots fresh, and the status line says so. */
export class Stalled extends Error {}

/**
 * A watch on `downloads` (downloads.js): `stalled(path, until)` is a promise that
 * rejects with Stalled once no byte of any file has arrived for `stallMs` (a promise
 * of it: it comes with the page's boot message), counted from the call at the
 * earliest, unless `until` settles first (then it never settles). `path`: the file
 * waited for, which the error names.
 */
export function stallWatch(downloads, stallMs) {
  return (path, until) =>
    new Promise((_, reject) => {
      const asked = performance.now();
      let over = false;
      until.then(() => (over = true), () => (over = true));
      const check = (limit) => {
        if (over) return;
        const silentMs = performance.now() - Math.max(asked, downloads.lastByteAt);
        if (silentMs < limit) return setTimeout(() => check(limit), limit - silentMs);
        const seconds = (silentMs / 1000).toFixed(1);
        reject(new Stalled(`${path} stalled: no byte of Python's files came for ${seconds} s`));
      };
      stallMs.then(check);
    });
}
