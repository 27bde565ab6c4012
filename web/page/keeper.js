// Keeps the learner's code, and never loses it. A playground's codes are each
// kept in localStorage under a key of their own, with a switch in the toolbar
// between them:
//
//   yours   the learner's code (the playground's key)
//   link    a share link's code: a draft beside the learner's own, never over
//           it; one per link (key + ":link:" + an id), saved only once edited,
//           with the link's code, so that the same link opens it again
//   before  what the learner had before something other than their typing
//           replaced it: the solution, Reset, another tab's save (key +
//           ":before:" + an id)
//
// A code is saved a moment after each edit, when another code is picked, and
// when the page is hidden. Each save names the save it was edited from: a tab
// whose code another tab saved over follows that code when it was edited from
// its own, and otherwise keeps its own as an earlier version ("before"). When
// storage fails (full, or switched off) the learner is told, the switch says
// "not saved", the code is offered as a .py file to download, and every later
// save tries again.

import { element } from "./dom.js";
import { store } from "./share.js";

const SAVE_DELAY_MS = 300;
const ago = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
// The switch lists the learner's code, then the links' drafts (this tab's first), then
// earlier versions; the newest first within each (their keys' ids begin with the time).
const ORDER = { yours: 0, link: 1, before: 2 };

export class Keeper {
  /**
   * @param {object} options
   * @param {string} options.key       where the learner's code is kept
   * @param {string} options.fallback  the code before the learner has saved any
   * @param {string|null} options.linked  code from a link, or null
   * @param {{code: string, showCode: (code: string) => void}} options.editor
   *   reads the editor's text, replaces it as an edit (`code`), or shows another code
   * @param {(text: string, download?: () => string) => void} options.say
   *   tells the learner, offering what `download` gives as a file
   */
  constructor({ key, fallback, linked, editor, say }) {
    this.key = key;
    this.editor = editor;
    this.say = say;
    this.slots = store.keys().flatMap((k) => {
      const kind = kindOf(k, key);
      const record = kind && parse(store.get(k));
      return record ? [{ key: k, kind, ...record, dirty: false }] : [];
    });
    const yours = this.slots.find((s) => s.kind === "yours")
      ?? this.add({ key, kind: "yours", code: fallback });
    this.draft = linked === null ? null : this.draftOf(linked); // this tab's link's
    this.active = this.draft ?? yours;
    this.switch = element("select", { className: "source", ariaLabel: "Which code" });
    this.switch.addEventListener("change", () => this.show(this.byValue.get(this.switch.value)));
    this.switch.addEventListener("focus", () => this.flush());
    this.label();
    addEventListener("storage", (event) => this.onStorage(event));
    addEventListener("pagehide", () => this.flush());
    if (linked !== null) this.sayLinked();
  }

  /** The code to open the editor with. */
  get code() {
    return this.active.code;
  }

  /** The draft of the link whose code is `linked`: the latest one saved, else a new one. */
  draftOf(linked) {
    const drafts = this.slots.filter((s) => s.kind === "link" && s.link === linked);
    return drafts.sort((a, b) => b.savedAt - a.savedAt)[0]
      ?? this.add({ key: newKey(`${this.key}:link:`), kind: "link", code: linked, link: linked });
  }

  /** Show the draft of the link whose code is `linked`, as opening the page on it does. */
  openLink(linked) {
    this.draft = this.draftOf(linked);
    this.show(this.draft);
    this.sayLinked();
  }

  /** Tell the learner the code shown is a link's, and where their own is, if they have one. */
  sayLinked() {
    const edited = this.active.savedAt === undefined ? "" : ", as you edited it";
    const yours = this.slots.find((s) => s.kind === "yours");
    this.say(yours.savedAt === undefined
      ? `This code is from a link${edited}: a draft of its own, so editing it replaces nothing of yours.`
      : `This code is from a link${edited}; yours is kept: pick “Your code” in the switch to get it back.`);
  }

  add(slot) {
    this.slots.push({ dirty: false, ...slot });
    return this.slots.at(-1);
  }

  /** The editor's text changed: the learner's edit. */
  edited() {
    this.active.dirty = true;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), SAVE_DELAY_MS);
  }

  /** Save every code edited since it was last saved (or last failed to be). */
  flush() {
    clearTimeout(this.timer);
    if (this.active.dirty) this.active.code = this.editor.code;
    for (const slot of this.slots) if (slot.dirty) save(slot);
    this.warnIfUnsaved();
    this.label();
  }

  /** While a code is not saved, the learner is told which, and offered it to download. */
  warnIfUnsaved() {
    const unsaved = [this.active, ...this.slots].find((s) => s.dirty);
    if (unsaved) {
      const problem = "could not be saved: this browser's storage is full or switched off. Download it to keep it.";
      this.say(`${this.name(unsaved)} ${problem}`, () => this.textOf(unsaved));
    } else if (this.warned) {
      this.say("");
    }
    this.warned = Boolean(unsaved);
  }

  /** Show `target`'s code in the editor, keeping the code shown now in its own slot. */
  show(target) {
    if (target === this.active) return;
    this.flush();
    this.active = target;
    this.editor.showCode(target.code);
    if (!this.warned) this.say("");
    this.label();
  }

  /** `code` (the solution, the starting code) replaces the code shown, as an edit that
   *  Ctrl+Z undoes; what it replaces is kept as an earlier version, `reason` naming it. */
  replace(code, reason) {
    this.keepBefore(this.active, code, reason);
    this.flush();
    this.editor.code = code;
  }

  /** Keep what `slot` holds now, which `replacement` is about to take the place of: returns
   *  the slot that keeps it (one that holds it already, or a new one), or null when it is
   *  the same, or not the learner's (the starting code, or a link's, as it came). */
  keepBefore(slot, replacement, reason) {
    const code = this.textOf(slot);
    if (code === replacement || (!slot.dirty && slot.savedAt === undefined)) return null;
    const kept = (s) => s !== slot && (s.dirty || s.savedAt !== undefined) && this.textOf(s) === code;
    return this.slots.find(kept)
      ?? this.add({ key: newKey(`${this.key}:before:`), kind: "before", code, before: reason, dirty: true });
  }

  /** The code in `slot` as this tab has it. */
  textOf(slot) {
    return slot === this.active ? this.editor.code : slot.code;
  }

  /** Another tab saved one of this playground's codes. What it saved is read from storage,
   *  not from the event: an event can come late, after a later save, or be of a save this
   *  tab holds already (a reloaded tab can be told of the save its page made before). */
  onStorage({ key, storageArea }) {
    const kind = storageArea === localStorage ? kindOf(key, this.key) : null;
    const record = kind ? parse(store.get(key)) : null;
    if (!record) return;
    const target = this.slots.find((s) => s.key === key);
    if (target && isSave(target, record)) return;
    if (target) this.overwritten(target, record);
    else this.add({ key, kind, ...record });
    this.flush();
  }

  /** `target` was saved over by another tab, with `record`. */
  overwritten(target, record) {
    // The learner is typing where the code shown differs from its last save (an edit can
    // leave the text as it was).
    const typing = target.dirty && this.textOf(target) !== target.code;
    const followed = !typing && record.basedOn === target.savedAt; // edited from this tab's
    const kept = followed ? null : this.keepBefore(target, record.code, "another tab's edit");
    Object.assign(target, record, { dirty: false });
    if (target !== this.active) return;
    if (kept && typing) {
      // The learner is typing here: their code stays in the editor, now as the kept version.
      this.active = kept;
      this.say(`This code was changed in another tab; what you typed stays here, as “${this.name(kept)}” in the switch.`);
      return;
    }
    if (this.editor.code !== record.code) this.editor.showCode(record.code);
    this.say(kept ? `Updated from another tab; yours is kept as “${this.name(kept)}” in the switch.` : "Updated from another tab.");
  }

  /** What the switch and the warnings call `slot`. */
  name(slot) {
    if (slot.kind === "yours") return "Your code";
    if (slot.kind === "before") return `Your code before ${slot.before}`;
    return slot === this.draft ? "Code from the link" : "Code from a link";
  }

  /** The switch's options, each with whether and when it was saved; hidden with one code. */
  label() {
    const order = (a, b) => ORDER[a.kind] - ORDER[b.kind] || (b === this.draft) - (a === this.draft)
      || b.key.localeCompare(a.key);
    const counts = {};
    this.byValue = new Map();
    const options = [...this.slots].sort(order).map((slot) => {
      counts[slot.kind] = (counts[slot.kind] ?? 0) + 1;
      const value = counts[slot.kind] === 1 ? slot.kind : `${slot.kind}-${counts[slot.kind]}`;
      this.byValue.set(value, slot);
      return element("option", { value, textContent: this.optionText(slot) });
    });
    this.switch.replaceChildren(...options);
    this.switch.value = [...this.byValue].find(([, slot]) => slot === this.active)[0];
    this.switch.hidden = options.length < 2;
  }

  optionText(slot) {
    const state = slot.dirty ? "not saved" : saved(slot.savedAt, "none saved yet");
    if (slot.kind !== "link") return `${this.name(slot)} (${state})`;
    return slot.dirty || slot.savedAt !== undefined ? `${this.name(slot)} (edited, ${state})` : this.name(slot);
  }
}

/** Which of the codes kept under `base` the key `key` holds, or null for none of them. */
function kindOf(key, base) {
  if (key === base) return "yours";
  if (key === `${base}:link` || key.startsWith(`${base}:link:`)) return "link";
  return key.startsWith(`${base}:before:`) ? "before" : null;
}

/** A key under `prefix` that no other tab picks, and that sorts after those made before it. */
function newKey(prefix) {
  return prefix + Date.now().toString(36) + Math.random().toString(36).slice(2, 8);
}

/** Save `slot`: its code, the save it was edited from, and what it is; it stays dirty when
 *  storage refuses. */
function save(slot) {
  const savedAt = Date.now();
  const { code, link, before } = slot;
  const record = { code, savedAt, basedOn: slot.savedAt, link, before };
  if (store.set(slot.key, JSON.stringify(record))) Object.assign(slot, { savedAt, dirty: false });
}

/** Whether `record` is the save `slot` was last saved as or read from. */
function isSave(slot, record) {
  return record.savedAt === slot.savedAt && record.code === slot.code;
}

/** A kept code, {code, savedAt, ...}; plain text is code kept before times were noted. */
function parse(text) {
  if (text === null) return null;
  try {
    const record = JSON.parse(text);
    if (typeof record?.code === "string" && Number.isFinite(record.savedAt)) return record;
  } catch {
    // plain text
  }
  return { code: text, savedAt: null };
}

/** When a code was saved, in words: "saved 5 minutes ago"; `never` when it was not. */
function saved(savedAt, never) {
  if (savedAt === undefined) return never;
  if (savedAt === null) return "saved"; // kept before times were noted
  const seconds = Math.round((savedAt - Date.now()) / 1000);
  for (const [unit, size] of [["day", 86400], ["hour", 3600], ["minute", 60]]) {
    if (-seconds >= size) return `saved ${ago.format(Math.round(seconds / size), unit)}`;
  }
  return `saved ${ago.format(seconds, "second")}`;
}
