// What the Python worker says of a run, taken to the page through shared memory
// where the page can have some (cross-origin isolation, and Atomics.waitAsync).
//
// Why not the port: after a key is pressed or released, or a click, Chromium holds
// back the page's tasks, a posted message's included, until it has drawn the next
// frame; a key's release starts the wait again. A live re-run that a key stepped is
// over in a few milliseconds, and its result then waited for one frame to be let in,
// and for the next to be painted. A wake-up from Atomics.waitAsync is not held back,
// so the result is in the first frame it can be.
//
// The mailbox is a ring of bytes. A message is two parts, each after its length (4
// bytes): JSON of [its longest string field's name, the rest of it], then that field's
// text as it is (a run's result or output is JSON already, and long: sent as a string
// inside JSON, it would be escaped, then parsed, once more on each side).
// The worker writes on without waiting for the page, unless the ring is full (then it
// waits until the page has read some, as a port's queue would grow instead); the page
// wakes when bytes come, reads all there are, and hands on each whole message, in order.
//
// Chromium still runs that wake-up after the frame it has to draw for a key's edit (and
// after the next, for the key's release): a result that was in before the frame then
// waited for it, and was painted a frame later. So while a run is in flight, the page
// also takes what has come at the start of each frame (`take`), where what it changes
// is painted in that same frame.

const WRITTEN = 0; // Int32 counters of the bytes written and read so far (they wrap)
const READ = 1;
const HEADER_BYTES = 8;
const CAPACITY_BYTES = 1 << 20; // a power of two: a counter's place in the ring is a mask
const LENGTH_BYTES = 4;
// How long the page may go on taking messages that are already in, before it lets
// its other tasks run (a run that floods its output sends a message every few ms).
const TAKE_FOR_MS = 8;

/** A mailbox for a new worker, or null where the page cannot wait on shared memory. */
export function newMailbox() {
  if (!globalThis.crossOriginIsolated || typeof SharedArrayBuffer !== "function") return null;
  if (typeof Atomics.waitAsync !== "function") return null;
  return new SharedArrayBuffer(HEADER_BYTES + CAPACITY_BYTES);
}

/**
 * The page's side: hands each message of `mailbox` to `deliver` (an object, or
 * undefined for bytes that are not a message), in order, as they come, until `close()`;
 * `take()` hands on at once those that have come.
 */
export function readMailbox(mailbox, deliver) {
  const counters = new Int32Array(mailbox, 0, 2);
  const ring = new Uint8Array(mailbox, HEADER_BYTES, CAPACITY_BYTES);
  const decoder = new TextDecoder();
  let open = true;
  let read = 0;
  let pending = new Uint8Array(0); // bytes read but not yet a whole message
  const takeAll = (written) => {
    const from = read & (CAPACITY_BYTES - 1);
    const count = (written - read) | 0;
    const upToEnd = Math.min(count, CAPACITY_BYTES - from);
    // Copies: TextDecoder reads no shared memory, and the worker may write here next.
    const parts = [ring.slice(from, from + upToEnd)];
    if (count > upToEnd) parts.push(ring.slice(0, count - upToEnd));
    if (pending.length) parts.unshift(pending);
    pending = parts.length === 1 ? parts[0] : joined(parts);
    read = written;
    Atomics.store(counters, READ, read);
    Atomics.notify(counters, READ);
    const view = new DataView(pending.buffer, pending.byteOffset, pending.length);
    const text = (at, length) => decoder.decode(pending.subarray(at, at + length));
    let at = 0;
    while (open) { // a message can close the mailbox: Python restarted, the rest is the old one's
      const head = lengthAt(view, at);
      const body = lengthAt(view, at + LENGTH_BYTES + head);
      if (head === null || body === null) break;
      const bodyAt = at + 2 * LENGTH_BYTES + head;
      if (pending.length < bodyAt + body) break;
      hand(text(at + LENGTH_BYTES, head), () => text(bodyAt, body));
      at = bodyAt + body;
    }
    pending = pending.subarray(at);
  };
  const hand = (head, body) => {
    let message;
    try {
      const [field, rest] = JSON.parse(head);
      message = rest;
      if (typeof field === "string") message[field] = body();
    } catch {
      message = undefined;
    }
    try {
      deliver(message);
    } catch (error) {
      reportError(error); // as for a port's listener: the next message still comes
    }
  };
  const take = () => {
    const written = Atomics.load(counters, WRITTEN);
    if (open && written !== read) takeAll(written);
  };
  (async () => {
    let since = performance.now();
    while (open) {
      const waiting = Atomics.waitAsync(counters, WRITTEN, read);
      if (waiting.async) {
        await waiting.value;
        since = performance.now();
      } else if (performance.now() - since > TAKE_FOR_MS) {
        await new Promise((next) => setTimeout(next));
        since = performance.now();
      }
      take();
    }
  })();
  const close = () => {
    open = false;
    Atomics.notify(counters, WRITTEN); // the loop's wait ends, and sees it is closed
  };
  return { close, take };
}

/** The length at `at` of `view`, or null if its bytes have not all come. */
function lengthAt(view, at) {
  return view.byteLength - at >= LENGTH_BYTES ? view.getUint32(at, true) : null;
}

function joined(parts) {
  const whole = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    whole.set(part, at);
    at += part.length;
  }
  return whole;
}

// The worker's side runs learner code, which can reach every built-in (`import js`):
// what sending uses is taken as this module loads, before any of it runs, and touches
// no property a prototype could answer for (JSON.stringify would call a toJSON that a
// run put on Object.prototype, with the message in hand).
const call = Function.prototype.call;
const { load, notify, store, wait } = Atomics;
const { min } = Math;
const { isArray } = Array;
const keysOf = Object.keys;
const stringify = JSON.stringify;
const encode = call.bind(TextEncoder.prototype.encode, new TextEncoder());
const typedArray = Object.getPrototypeOf(Uint8Array.prototype);
const lengthOf = call.bind(Object.getOwnPropertyDescriptor(typedArray, "length").get);
const bufferOf = call.bind(Object.getOwnPropertyDescriptor(typedArray, "buffer").get);
const setBytes = call.bind(typedArray.set);
const Int32ArrayOf = Int32Array;
const Uint8ArrayOf = Uint8Array;

/** The worker's side: a function that sends a message (an object of strings, numbers,
 *  null and arrays of them) through `mailbox`. */
export function mailboxSender(mailbox) {
  const counters = new Int32ArrayOf(mailbox, 0, 2);
  const ring = new Uint8ArrayOf(mailbox, HEADER_BYTES, CAPACITY_BYTES);
  const lengthBytes = new Uint8ArrayOf(LENGTH_BYTES);
  const lengthBuffer = bufferOf(lengthBytes);
  let written = 0;
  const write = (buffer, total) => {
    for (let at = 0; at < total; ) {
      const read = load(counters, READ);
      const free = CAPACITY_BYTES - ((written - read) | 0);
      if (free === 0) {
        wait(counters, READ, read); // the ring is full: until the page has read some
        continue;
      }
      const to = written & (CAPACITY_BYTES - 1);
      const count = min(free, total - at, CAPACITY_BYTES - to);
      setBytes(ring, new Uint8ArrayOf(buffer, at, count), to);
      at += count;
      written = (written + count) | 0;
      store(counters, WRITTEN, written);
      notify(counters, WRITTEN);
    }
  };
  const send = (text) => {
    const data = encode(text);
    const total = lengthOf(data);
    for (let i = 0; i < LENGTH_BYTES; i++) lengthBytes[i] = (total >>> (8 * i)) & 0xff;
    write(lengthBuffer, LENGTH_BYTES);
    write(bufferOf(data), total);
  };
  return (message) => {
    const keys = keysOf(message);
    let field = null;
    for (let i = 0; i < keys.length; i++) {
      const value = message[keys[i]];
      if (typeof value === "string" && (field === null || value.length > message[field].length)) field = keys[i];
    }
    let rest = "";
    for (let i = 0; i < keys.length; i++) {
      if (keys[i] !== field) rest += (rest ? "," : "") + stringify(keys[i]) + ":" + json(message[keys[i]]);
    }
    send(`[${json(field)},{${rest}}]`);
    send(field === null ? "" : message[field]);
  };
}

/** `value` as JSON, read through its own properties only. */
function json(value) {
  if (typeof value !== "object" || value === null) return stringify(value);
  let text = "";
  if (isArray(value)) {
    for (let i = 0; i < value.length; i++) text += (i ? "," : "") + json(value[i]);
    return `[${text}]`;
  }
  const keys = keysOf(value);
  for (let i = 0; i < keys.length; i++) text += (i ? "," : "") + stringify(keys[i]) + ":" + json(value[keys[i]]);
  return `{${text}}`;
}
