// What learner code can change in the Python worker's JavaScript and the runner
// cannot put back: the properties of the built-in objects that this worker and
// Pyodide use, and of their prototypes (`MessagePort.prototype.postMessage`,
// `Array.prototype[Symbol.iterator]`, `TextDecoder.prototype.decode`, ...): the
// language's own, the Web's that a worker talks and loads with, and the worker's
// `crypto`, `performance` and `navigator`. (A Web API
// that neither uses, a canvas's say, is left out: checking every one of the
// worker's 900 globals would cost each run a few milliseconds.)
// The worker's own globals are put back after every run (message-loop.js); a change to
// any of these is found by comparing them with what they were before any
// learner code ran, and the next run gets a fresh worker.
//
// Every function used here is taken as this module loads, before any learner code.

const { getOwnPropertyDescriptor, getPrototypeOf, is, isExtensible } = Object;
const { ownKeys } = Reflect;
const apply = Reflect.apply;
const mapGet = Map.prototype.get;
const mapSet = Map.prototype.set;
const arrayPush = Array.prototype.push;
const toString = String;
const WATCHED = [
  "Object", "Function", "Array", "Number", "Boolean", "String", "Symbol", "BigInt", "Date",
  "Promise", "RegExp", "Error", "AggregateError", "EvalError", "RangeError", "ReferenceError",
  "SyntaxError", "TypeError", "URIError", "ArrayBuffer", "SharedArrayBuffer", "DataView",
  "Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array",
  "Uint32Array", "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array", "Map",
  "Set", "WeakMap", "WeakSet", "WeakRef", "FinalizationRegistry", "Proxy", "Reflect", "JSON",
  "Math", "Atomics", "Iterator", "WebAssembly", "EventTarget", "Event", "MessageEvent",
  "MessagePort", "MessageChannel", "ErrorEvent", "TextEncoder", "TextDecoder", "Response",
  "Request", "Headers", "Blob", "URL", "Cache", "CacheStorage", "Performance", "Worker",
  "WorkerGlobalScope", "DedicatedWorkerGlobalScope", "console", "Crypto", "SubtleCrypto",
  "WorkerNavigator",
];
// The worker's own objects whose methods Python reaches through the standard library
// (os.urandom reads crypto.getRandomValues, time's clocks performance.now): a change
// to one of them would outlive the run as surely as one to a prototype.
const INSTANCES = ["crypto", "performance", "navigator"];
const DESCRIPTOR_PARTS = ["value", "get", "set", "writable", "configurable", "enumerable"];

/** The objects whose properties are watched: globalThis and its prototypes, the
 * WATCHED globals and their prototypes, and the prototypes no global names. */
function watched() {
  const objects = [];
  const add = (object) => {
    const isObject = (typeof object === "object" && object !== null) || typeof object === "function";
    if (isObject && !apply(mapGet, names, [object])?.watched) {
      apply(mapSet, names, [object, { name: apply(mapGet, names, [object])?.name, watched: true }]);
      apply(arrayPush, objects, [object]);
    }
  };
  for (let object = globalThis; object !== null; object = getPrototypeOf(object)) add(object);
  for (let i = 0; i < WATCHED.length; i++) {
    const value = getOwnPropertyDescriptor(globalThis, WATCHED[i])?.value;
    add(value);
    if (typeof value === "function") add(getOwnPropertyDescriptor(value, "prototype")?.value);
  }
  for (let i = 0; i < INSTANCES.length; i++) add(globalThis[INSTANCES[i]]);
  add(getPrototypeOf(Uint8Array)); // %TypedArray%, every typed array's
  add(getPrototypeOf(Uint8Array.prototype));
  const iterators = [[][Symbol.iterator](), new Map().entries(), new Set().values(), ""[Symbol.iterator]()];
  for (let i = 0; i < iterators.length; i++) {
    add(getPrototypeOf(iterators[i]));
    add(getPrototypeOf(getPrototypeOf(iterators[i])));
  }
  return objects;
}

/** Each watched object's own keys and property descriptors, and whether it is extensible. */
function describe(objects) {
  const described = [];
  for (let i = 0; i < objects.length; i++) {
    const object = objects[i];
    const keys = ownKeys(object);
    const descriptors = [];
    for (let k = 0; k < keys.length; k++) apply(arrayPush, descriptors, [getOwnPropertyDescriptor(object, keys[k])]);
    apply(arrayPush, described, [{ object, keys, descriptors, extensible: isExtensible(object) }]);
  }
  return described;
}

/** The name of the first property that differs from `before`, or null. */
function firstChange(before) {
  for (let i = 0; i < before.length; i++) {
    const { object, keys, descriptors, extensible } = before[i];
    const name = apply(mapGet, names, [object])?.name ?? "a built-in object";
    if (isExtensible(object) !== extensible) return `${name} (frozen or sealed)`;
    if (ownKeys(object).length !== keys.length) return `${name} (a property added or deleted)`;
    for (let k = 0; k < keys.length; k++) {
      const was = descriptors[k];
      const now = getOwnPropertyDescriptor(object, keys[k]);
      let same = Boolean(now);
      for (let p = 0; same && p < DESCRIPTOR_PARTS.length; p++) {
        same = is(now[DESCRIPTOR_PARTS[p]], was[DESCRIPTOR_PARTS[p]]);
      }
      if (!same) return `${name}.${toString(keys[k])}`;
    }
  }
  return null;
}

/** A readable name for each watched object: its global's name, or its constructor's
 * and ".prototype". */
const names = new Map();

function learnNames() {
  const keys = ownKeys(globalThis);
  for (let i = 0; i < keys.length; i++) {
    const { value } = getOwnPropertyDescriptor(globalThis, keys[i]);
    if (typeof value !== "function" && (typeof value !== "object" || value === null)) continue;
    apply(mapSet, names, [value, { name: toString(keys[i]) }]);
    const prototype = typeof value === "function" && getOwnPropertyDescriptor(value, "prototype")?.value;
    if (prototype && !apply(mapGet, names, [prototype])) {
      apply(mapSet, names, [prototype, { name: `${toString(keys[i])}.prototype` }]);
    }
  }
  apply(mapSet, names, [globalThis, { name: "self" }]);
  for (let i = 0; i < INSTANCES.length; i++) apply(mapSet, names, [globalThis[INSTANCES[i]], { name: INSTANCES[i] }]);
}

let saved = null;

/** Take the built-ins as they are now, before any learner code runs. */
export function watchRealm() {
  learnNames();
  saved = describe(watched());
}

/** What a run changed in the built-ins ("MessagePort.prototype.postMessage"), or null. */
export function realmChange() {
  return firstChange(saved);
}
