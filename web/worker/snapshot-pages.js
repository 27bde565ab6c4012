// A memory snapshot as it is stored: only its pages that are not all zeros.
// Python's memory is 31 MB, of which 10 MB are not zeros (the heap has room to
// grow, its free memory is zeroed, the static data is stored as a difference:
// static-data.js), so a restore inflates and copies a third of the bytes. Shared
// by the snapshot maker, which packs, and the worker, which unpacks.
//
// Layout, after gzip (little-endian 32-bit words): MARK, the snapshot's size,
// the number of ranges kept, each range's start and length, then their bytes.

const PAGE = 4096;
// "AGPS": the first word of every stored snapshot, so that other bytes (a page
// served in its place, say) are told as such, not read as a size.
const MARK = 0x53504741;
// The largest memory a snapshot may claim (Pyodide's starts at about 31 MB): a
// larger size in site.json is a mistake, and allocating it would stall the page.
export const MAX_SNAPSHOT_BYTES = 512 * 1024 * 1024;

/** The ranges of whole pages of `memory` that are not all zeros, with their bytes. */
export function pack(memory) {
  const ranges = [];
  for (let start = 0; start < memory.length; start += PAGE) {
    const end = Math.min(start + PAGE, memory.length);
    if (memory.subarray(start, end).every((byte) => byte === 0)) continue;
    const last = ranges.at(-1);
    if (last && last[0] + last[1] === start) last[1] += end - start;
    else ranges.push([start, end - start]);
  }
  const header = new Uint32Array([MARK, memory.length, ranges.length, ...ranges.flat()]);
  const kept = ranges.reduce((sum, [, length]) => sum + length, 0);
  const packed = new Uint8Array(header.byteLength + kept);
  packed.set(new Uint8Array(header.buffer));
  let at = header.byteLength;
  for (const [start, length] of ranges) {
    packed.set(memory.subarray(start, start + length), at);
    at += length;
  }
  return packed;
}

/**
 * Write `stored` (as `pack` lays it out) into `memory`, which holds zeros and
 * must be as long as the snapshot.
 */
export function unpack(stored, memory) {
  const words = (count) => {
    if (stored.length < 4 * count) throw new Error("it is smaller than site.json says");
    return new Uint32Array(stored.buffer, stored.byteOffset, count);
  };
  if (words(1)[0] !== MARK) throw new Error("it is not a snapshot (its first bytes are not a snapshot's)");
  const size = words(2)[1];
  if (size !== memory.length) throw new Error(`it is ${size} bytes, where site.json says ${memory.length}`);
  const header = words(3 + 2 * words(3)[2]);
  let at = header.byteLength;
  for (let i = 3; i < header.length; i += 2) {
    const [start, length] = [header[i], header[i + 1]];
    if (start + length > size) throw new Error("a range of it lies beyond its size");
    if (at + length > stored.length) throw new Error("it is smaller than site.json says");
    memory.set(stored.subarray(at, at + length), start);
    at += length;
  }
  if (at !== stored.length) throw new Error("it is larger than site.json says");
}
