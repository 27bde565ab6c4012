// What the page accepts from the Python worker (its messages are listed at
// the top of worker.js). Learner code runs in that worker, so every message
// is checked for its shape and size before the page acts on it; one that
// fails is a Malformed error, and the runtime ends the run it belongs to. What the
// runner sends at most, and a table's fields, are the contract's (contract.json), which
// the runner reads too.

import contract from "../shared/contract.json" with { type: "json" };
import { gridOf, isModel } from "./forward.js";

// The runner's note that it cut the output comes after the cut, and the runner does not
// count it: room for it over the runner's caps.
const MAX_OUTPUT_CHARS = contract.output.chars + 1_000;
const MAX_OUTPUT_LINES = contract.output.lines + 10;
const TABLE = contract.table;
export const MAX_ERROR_CHARS = 100_000;
const MAX_TEXT_CHARS = contract.text.chars;
const PHASES = [
  "starting Python",
  "starting Python without its snapshot, whose download stalled",
  "installing the engine",
];
// Far beyond what Python's start downloads (about 18 MB).
const MAX_DOWNLOAD_BYTES = 1_000_000_000;
const STATUSES = ["done", "error", "stopped"];
const STREAMS = contract.output.streams;
const NUMBER_WORDS = TABLE.numberWords;
const PACKED = ["data", "grad"];

export class Malformed extends Error {}

// Each message type's fields and their checks; a message has exactly these.
const isId = (v) => Number.isSafeInteger(v) && v > 0;
const isText = (v) => typeof v === "string" && v.length <= MAX_TEXT_CHARS;
const isBytes = (v) => Number.isSafeInteger(v) && v >= 0 && v <= MAX_DOWNLOAD_BYTES;
const FIELDS = {
  // Bytes of Python's files downloaded so far, and of all (which can grow as files are asked for).
  progress: { received: isBytes, total: isBytes },
  phase: { phase: (v) => PHASES.includes(v) },
  // Pyodide's compiled wasm and the snapshot's memory as restored, for the next
  // worker (Stop's restart) to start from.
  ready: {
    wasm: (v) => v === null || v instanceof WebAssembly.Module,
    memory: (v) => v === null || v instanceof ArrayBuffer,
    build: isText, // the worker's build (build.py): the page's own, or it is not used
  },
  output: { id: isId, batch: (v) => typeof v === "string" },
  plots: { id: isId, batch: (v) => typeof v === "string" }, // playground_runner/plots.py's
  // The run's tables, ahead of its result (parseTables checks them).
  tables: { id: isId, tables: (v) => typeof v === "string" },
  // `reached`: what the code did that reached into the playground itself (pyodide-hooks.js).
  result: { id: isId, result: (v) => typeof v === "string", reached: isReached },
  pong: { id: isId },
  // The steps of run `id`'s table `table`, asked for (Runtime.steps): parseSteps checks them.
  steps: { id: isId, table: (v) => Number.isSafeInteger(v) && v >= 0 && v < TABLE.perRun, steps: (v) => typeof v === "string" },
  failed: { message: (v) => typeof v === "string" },
};

/** Throws Malformed unless `message` is one the worker may send. */
export function checkMessage(message) {
  if (!Object.hasOwn(FIELDS, message?.type)) throw new Malformed("a message of no known type");
  const fields = FIELDS[message.type];
  const names = Object.keys(message).filter((name) => name !== "type");
  const wrong = names.find((name) => !Object.hasOwn(fields, name) || !fields[name](message[name]));
  const missing = Object.keys(fields).find((name) => !names.includes(name));
  if (wrong || missing) throw new Malformed(`a "${message.type}" message with a bad "${wrong ?? missing}"`);
}

function isReached(v) {
  return Array.isArray(v) && v.length <= contract.reached.count
    && v.every((what) => isString(what) && what.length <= contract.reached.chars);
}

/** The [stream, text] pairs of an output batch. */
export function parseBatch(batch) {
  const pairs = parseJson(batch, "output");
  const valid = Array.isArray(pairs) && pairs.every((pair) =>
    Array.isArray(pair) && pair.length === 2 && STREAMS.includes(pair[0]) && typeof pair[1] === "string");
  if (!valid) throw new Malformed("output that is not a list of [stream, text] pairs");
  return pairs;
}

/** Add the characters and lines of `pairs` (an output batch's) to `sent`, a run's totals
 *  so far; throws Malformed once they pass what the runner sends in a run. */
export function countOutput(sent, pairs) {
  for (const [, text] of pairs) {
    sent.chars += text.length;
    for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) sent.lines++;
  }
  if (sent.chars > MAX_OUTPUT_CHARS || sent.lines > MAX_OUTPUT_LINES) throw new Malformed("more output than the runner sends");
}

// What plot() and boundary() send at most (playground_runner/plots.py): a run's series,
// the points each keeps (past it, every other goes: keptAfter), a message's points and
// pictures, a run's pictures' titles, their grids' size and points.
// A model's picture comes as its weights (pageSums: its weights and biases times its
// cells, at most), and the page computes its grid (gridOf) when it draws it.
export const PLOT_CAPS = contract.plots;

/** How many points a series keeps once one more comes, of `kept`: past the cap, every
 *  other point it kept goes first (as plots.py thins its series). */
export function keptAfter(kept) {
  return (kept === PLOT_CAPS.points ? kept / 2 : kept) + 1;
}

/** A plots batch (playground_runner/plots.py), checked against the run's `plotted` so far
 *  ({series: Map of number to points kept}, pictures: Set of titles}), which it adds to;
 *  throws Malformed past what the runner sends. */
export function parsePlots(batch, plotted) {
  const b = parseJson(batch, "plots");
  const valid = isObject(b) && Number.isFinite(b.ms) && Number.isSafeInteger(b.steps) && b.steps >= 0
    && typeof b.waits === "boolean"
    && Array.isArray(b.series) && b.series.every((s) => Array.isArray(s) && s.length === 3
      && Number.isSafeInteger(s[0]) && s[0] >= 0 && s[0] < PLOT_CAPS.series && isText(s[1]) && isText(s[2]))
    && Array.isArray(b.points) && b.points.every((p) => Array.isArray(p) && p.length === 3
      && Number.isSafeInteger(p[0]) && Number.isFinite(p[1]) && (p[2] === null || Number.isFinite(p[2])))
    && Array.isArray(b.dropped) && b.dropped.every((d) => Array.isArray(d) && d.length === 2
      && Number.isSafeInteger(d[0]) && Number.isSafeInteger(d[1]) && d[1] > 0)
    && Array.isArray(b.boundaries) && b.boundaries.every(isPicture)
    && b.points.length <= PLOT_CAPS.batchPoints && b.boundaries.length <= PLOT_CAPS.batchPictures;
  if (!valid) throw new Malformed("plots that are not the runner's");
  for (const [number] of b.series) {
    if (plotted.series.has(number)) throw new Malformed(`plots that define series ${number} twice`);
    plotted.series.set(number, 0);
  }
  for (const [number] of [...b.points, ...b.dropped]) {
    if (!plotted.series.has(number)) throw new Malformed(`plots of series ${number}, which is not defined`);
  }
  for (const [number] of b.points) plotted.series.set(number, keptAfter(plotted.series.get(number)));
  for (const picture of b.boundaries) plotted.pictures.add(picture.title);
  if (plotted.pictures.size > PLOT_CAPS.pictures) throw new Malformed("more pictures than the runner sends");
  return b;
}

/** A boundary's picture: a grid of size x size values (or null) over the ranges x and y,
 *  row 0 the lowest, or the model that gives them at the cells' centres xs and ys; and
 *  the points over it with their classes. */
function isPicture(p) {
  const range = (r) => Array.isArray(r) && r.length === 2 && r.every(Number.isFinite) && r[0] < r[1];
  const centres = (c) => Array.isArray(c) && c.length === p.size && c.every(Number.isFinite);
  const grid = p.model === undefined
    ? Array.isArray(p.values) && p.values.length === p.size * p.size
      && p.values.every((v) => v === null || Number.isFinite(v))
    : p.values === undefined && centres(p.xs) && centres(p.ys)
      && isModel(p.model, p.size * p.size, PLOT_CAPS.pageSums);
  return isObject(p) && isText(p.title) && range(p.x) && range(p.y)
    && Number.isSafeInteger(p.size) && p.size >= 2 && p.size <= PLOT_CAPS.resolution
    && grid && Number.isFinite(p.threshold)
    && Array.isArray(p.points) && p.points.length <= PLOT_CAPS.pictureRows
    && p.points.every((point) => Array.isArray(point) && point.length === 2 && point.every(Number.isFinite))
    && Array.isArray(p.classes) && p.classes.length === p.points.length
    && p.classes.every((c) => typeof c === "boolean")
    && Number.isSafeInteger(p.pointsLeftOut) && p.pointsLeftOut >= 0
    && Number.isSafeInteger(p.step) && p.step >= 0;
}

/** A picture's grid, computed from its model's weights the first time it is asked for
 *  (a picture the page never shows costs it nothing). */
export function valuesOf(picture) {
  if (!picture.values) picture.values = gridOf(picture.model, picture.xs, picture.ys);
  return picture.values;
}

/** the runner's result, checked; an over-long error, title, label or op is cut short. */
export function parseResult(json) {
  const result = parseJson(json, "result");
  const valid = isObject(result)
    && STATUSES.includes(result.status)
    && (result.error === null || typeof result.error === "string")
    && (result.line === null || isId(result.line))
    && ["ms", "ended"].every((name) => result[name] === undefined || Number.isFinite(result[name]))
    && Array.isArray(result.tables)
    && (result.check === undefined || result.check === null || isVerdict(result.check));
  if (!valid) throw new Malformed("a result that is not the runner's");
  checkTables(result.tables);
  if (result.error !== null) result.error = cut(result.error, MAX_ERROR_CHARS, "\n… error truncated\n");
  result.check?.messages.forEach((text, i, messages) => (messages[i] = cut(text, MAX_ERROR_CHARS)));
  return result;
}

/** A run's tables, sent ahead of its result, checked; an over-long title, label or op is
 *  cut short. */
export function parseTables(json) {
  const tables = parseJson(json, "tables");
  if (!Array.isArray(tables)) throw new Malformed("tables that are not a list");
  return checkTables(tables);
}

/** The results computed when the page was built (built.py's result_json), checked as a
 *  run's are: {output, tables}. */
export function parseBuilt(json) {
  const built = parseJson(json, "built results");
  if (!isObject(built) || typeof built.output !== "string" || !Array.isArray(built.tables)) {
    throw new Malformed("built results that are not {output, tables}");
  }
  return { output: built.output, tables: checkTables(built.tables) };
}

/** Check a run's `tables` (a list), with their numbers unpacked, and cut their texts. */
function checkTables(tables) {
  if (tables.length > TABLE.perRun) throw new Malformed(`more than ${TABLE.perRun} tables`);
  tables.forEach((t, i) => {
    unpack(t, i);
    const problem = tableProblem(t);
    if (problem) throw new Malformed(`table ${i} ${problem}`);
  });
  for (const t of tables) {
    t.title = cut(t.title);
    for (const column of ["label", "op"]) t[column] = t[column].map((text) => text && cut(text));
  }
  return tables;
}

/** The {steps, noSteps} of a "steps" message for table `t` (Runner.steps): its Backward's
 *  stepsLater steps, or why they cannot be made. */
export function parseSteps(json, t) {
  const answer = parseJson(json, "steps");
  const valid = isObject(answer) && Object.keys(answer).length === 2
    && (answer.steps === null
      ? isText(answer.noSteps)
      : answer.noSteps === null && Array.isArray(answer.steps) && answer.steps.length === t.stepsLater
        && answer.steps.every((step) => isStep(step, t)));
  if (!valid) throw new Malformed(`steps that are not the ${t.stepsLater} of table "${cut(t.title, 100)}"`);
  return answer;
}

/** An exercise's verdict (checks.py): passed exactly when no check left a message. */
function isVerdict(v) {
  return isObject(v) && Array.isArray(v.messages) && v.messages.every(isString)
    && v.passed === (v.messages.length === 0);
}

/** Table `t`'s data and grad columns as lists, where they came packed (the runner's
 *  packed.py): the base64 of little-endian float64s. A nan or an infinity is its number
 *  word again, and a nan stands for a value that is not a number where notNumbers has
 *  its text: null. What they hold is checked with the rest of the table. */
function unpack(t, i) {
  for (const name of PACKED) {
    if (!isObject(t) || typeof t[name] !== "string") continue;
    let text;
    try {
      text = atob(t[name]);
    } catch {
      throw new Malformed(`table ${i} has a "${name}" that is not base64`);
    }
    if (text.length % 8 !== 0) throw new Malformed(`table ${i} has a "${name}" cut in a number`);
    // Loops, not Array.from with a callback: a 1,000-node table's numbers each live step.
    const bytes = new Uint8Array(text.length);
    for (let k = 0; k < text.length; k++) bytes[k] = text.charCodeAt(k);
    const numbers = new DataView(bytes.buffer);
    const texts = isObject(t.notNumbers) && isObject(t.notNumbers[name]) ? t.notNumbers[name] : {};
    const column = [];
    for (let node = 0; node < bytes.length / 8; node++) {
      const x = numbers.getFloat64(8 * node, true);
      column.push(Number.isFinite(x) ? x
        : Object.hasOwn(texts, node) ? null
          : Number.isNaN(x) ? "nan" : x > 0 ? "inf" : "-inf");
    }
    t[name] = column;
  }
}

/** What is wrong with `t` as a table, or null when the runner could have sent it: it
 *  has exactly the contract's fields, each of its type. */
function tableProblem(t) {
  if (!isObject(t)) return "is not an object";
  const extra = Object.keys(t).find((name) => !Object.hasOwn(TABLE.fields, name));
  if (extra !== undefined) return `has "${extra}", which the runner never sends`;
  const missing = TABLE_CHECKS.find(([name]) => !Object.hasOwn(t, name));
  if (missing) return `has no "${missing[0]}"`;
  const wrong = TABLE_CHECKS.find(([name, check]) => !check(t[name], t, name));
  return wrong ? `has a bad "${wrong[0]}"` : null;
}

// How each type of a table's field (contract.json) is checked: (value, table, its name).
// Whatever the learner's nodes hold, the runner makes each field one of these (a value
// that is not a number is null, with its text beside; an operand that is not a node is
// left out).
const isNode = (i, t) => Number.isSafeInteger(i) && i >= 0 && i < t.count;
const columnOf = (check) => (v, t) => Array.isArray(v) && v.length === t.count && v.every((x) => check(x, t));
// Text by node index: the longer text of labels cut short, values that are not numbers.
const byNode = (texts, t) => isObject(texts)
  && Object.entries(texts).every(([i, text]) => isNode(Number(i), t) && isText(text));
const TABLE_TYPES = {
  "string": isString,
  "true or false": (v) => typeof v === "boolean",
  "count": (v) => Number.isSafeInteger(v) && v >= 0,
  "count or null": (v) => v === null || (Number.isSafeInteger(v) && v >= 0),
  "column: string or null": columnOf((v) => v === null || isString(v)),
  "column: string": columnOf(isString),
  // null where the value is not a number, whose text notNumbers has under the column's name.
  "column: number": (v, t, name) => isObject(t.notNumbers) && byNode(t.notNumbers[name], t)
    && Array.isArray(v) && v.length === t.count
    && v.every((x, i) => (x === null ? Object.hasOwn(t.notNumbers[name], i) : isNumber(x))),
  "not numbers": (v, t) => isObject(v) && Object.values(v).every((texts) => byNode(texts, t)),
  "texts by node": byNode,
  "column: nodes": columnOf((args, t) => Array.isArray(args) && args.every((a) => isNode(a, t))),
  "nodes": (v, t) => Array.isArray(v) && v.every((i) => isNode(i, t)),
  "column: line or null": columnOf((v) => v === null || isId(v)),
  "node or null": (v, t) => v === null || isNode(v, t),
  "steps or null": (v, t) => v === null || (Array.isArray(v) && v.every((step) => isStep(step, t))),
  "text or null": (v) => v === null || isText(v),
  "forward rules or null": (v) => v === null
    || (isObject(v) && Object.values(v).every((r) => isObject(r) && isText(r.fn) && isText(r.rule))),
  "notes": (v) => Array.isArray(v) && v.length <= TABLE.notes && v.every(isText),
};
// [name, check] of each field, in the contract's order (count before what it counts).
const TABLE_CHECKS = Object.entries(TABLE.fields).map(([name, { type }]) => {
  if (!Object.hasOwn(TABLE_TYPES, type)) throw new Error(`contract.json: the table's "${name}" has a type the page does not know, "${type}"`);
  return [name, TABLE_TYPES[type]];
});

/** A step of Backward (engine.BackwardSteps): the node visited and the grads it adds to,
 *  each term's rule in words and its numbers apart (the page writes them as the table does). */
function isStep(step, t) {
  const isTerm = (term) => isObject(term) && isNode(term.operand, t) && isText(term.rule)
    && ["upstream", "local", "value", "grad"].every((name) => isNumber(term[name]));
  return isObject(step) && isNode(step.node, t) && Array.isArray(step.terms) && step.terms.every(isTerm);
}

/** `text`, or its first `limit` characters and `more`. */
function cut(text, limit = MAX_TEXT_CHARS, more = "…") {
  return text.length > limit ? text.slice(0, limit) + more : text;
}

function isString(v) {
  return typeof v === "string";
}

function isNumber(v) {
  return Number.isFinite(v) || NUMBER_WORDS.includes(v);
}

function isObject(v) {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function parseJson(text, what) {
  try {
    return JSON.parse(text);
  } catch {
    throw new Malformed(`${what} that is not JSON`);
  }
}
