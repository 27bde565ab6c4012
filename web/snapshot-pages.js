// A memory snapshot as it is stored: only its pages that are not all zeros.
// Python's memory is 31 MB, of which 10 MB are not zeros (the heap has room to
// grow, its free memory is zeroed, the static data is stored as a difference:
// static-data.js), so a restore inflates and copies a third of the bytes. Shared
// by the snapshot maker, which packs, and the worker, which unpacks.
//
// Layout, after gzip (little-endian 32-bit words): the snapshot's size, the
// number of ranges kept, each range's start and length, then their bytes.

const PAGE = 4096;

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
  const header = new Uint32Array([memory.length, ranges.length, ...ranges.flat()]);
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
 * Unpack `stream` (bytes as `pack` lays them out) into `memory`, which holds
 * zeros and is as long as the snapshot must be.
 */
export async function unpackInto(stream, memory) {
  const reader = stream.getReader();
  let header = new Uint8Array(0);
  let ranges = null;
  let range = 0; // the range being filled,
  let filled = 0; // and how much of it
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    let bytes = chunk.value;
    if (!ranges) {
      header = concat(header, bytes);
      if (header.length >= 4 && word(header, 0) !== memory.length) {
        throw new Error(`it is ${word(header, 0)} bytes, where site.json says ${memory.length}`);
      }
      const length = header.length >= 8 ? 8 + 8 * word(header, 1) : Infinity;
      if (header.length < length) continue;
      ranges = readRanges(header.subarray(0, length), memory.length);
      bytes = header.subarray(length);
    }
    while (bytes.length > 0) {
      if (range === ranges.length) throw new Error("it is larger than site.json says");
      const [start, length] = ranges[range];
      const taken = Math.min(length - filled, bytes.length);
      memory.set(bytes.subarray(0, taken), start + filled);
      bytes = bytes.subarray(taken);
      filled += taken;
      if (filled === length) [range, filled] = [range + 1, 0];
    }
  }
  if (!ranges || range < ranges.length) throw new Error("it is smaller than site.json says");
}

function readRanges(header, size) {
  const ranges = [];
  for (let i = 0; i < word(header, 1); i++) {
    const [start, length] = [word(header, 2 + 2 * i), word(header, 3 + 2 * i)];
    if (start + length > size) throw new Error("a range of it lies beyond its size");
    ranges.push([start, length]);
  }
  return ranges;
}

function word(bytes, index) {
  return new DataView(bytes.buffer, bytes.byteOffset).getUint32(4 * index, true);
}

function concat(a, b) {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}
