// Keeps the learner's code, and never loses it. A playground has up to two
// codes, each kept in localStorage under a key of its own, and a switch in
// the toolbar between them:
//
//   yours   the learner's code (the playground's key)
//   link    code that came in a share link: a draft beside the learner's own,
//           never over it; it is saved (under the key + ":link") only once
//           edited
//
// A code is saved a moment after each edit, and when the page is hidden only
// if an edit is still unsaved: so with two tabs open, the later edit wins, and
// the other tab follows it (the `storage` event) unless its own edit is not yet
// saved; then it says so. When storage fails (full, or switched off) the
// learner is told, and offered the code as a .py file to download.

import { element } from "./dom.js";
import { store } from "./share.js";

const SAVE_DELAY_MS = 300;
const ago = new Intl.RelativeTimeFormat("en", { numeric: "auto" });

export class Keeper {
  /**
   * @param {object} options
   * @param {string} options.key       where the learner's code is kept
   * @param {string} options.fallback  the code before the learner has saved any
   * @param {string|null} options.linked  code from a link, or null
   * @param {{code: string}} options.editor  reads and replaces the editor's text
   * @param {(text: string, offerDownload?: boolean) => void} options.say  tells the learner
   */
  constructor({ key, fallback, linked, editor, say }) {
    this.editor = editor;
    this.say = say;
    this.applying = false;
    const yours = slot(key, fallback);
    const link = slot(`${key}:link`, linked);
    // A link opened in this tab is its own until edited: other tabs' drafts do not replace it.
    if (linked !== null) Object.assign(link, { code: linked, savedAt: undefined, own: true });
    this.slots = { yours, link };
    this.active = linked !== null ? link : yours;
    this.switch = element("select", { className: "source", ariaLabel: "Which code" });
    this.switch.addEventListener("change", () => this.show(this.slots[this.switch.value]));
    this.switch.addEventListener("focus", () => this.label());
    this.label();
    addEventListener("storage", (event) => this.onStorage(event));
    addEventListener("pagehide", () => this.flush());
    if (linked !== null) this.say("This code is from a link; yours is kept: pick “Your code” in the switch to get it back.");
  }

  /** The code to open the editor with. */
  get code() {
    return this.active.code;
  }

  /** The editor's text changed: a learner's edit, unless the keeper is putting text in. */
  edited() {
    if (this.applying) return;
    this.active.dirty = true;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), SAVE_DELAY_MS);
  }

  /** Save the code shown now, if the learner has edited it since it was last saved. */
  flush() {
    clearTimeout(this.timer);
    const current = this.active;
    if (!current.dirty) return;
    current.code = this.editor.code;
    const savedAt = Date.now();
    if (store.set(current.key, JSON.stringify({ code: current.code, savedAt }))) {
      Object.assign(current, { dirty: false, savedAt, own: false });
      if (this.failed) this.say("");
      this.failed = false;
      this.label();
    } else {
      this.failed = true;
      this.say("Your code could not be saved: this browser's storage is full or switched off. Download it to keep it.", true);
    }
  }

  /** Show `target`'s code in the editor, keeping the code shown now in its own slot. */
  show(target) {
    if (target === this.active) return;
    this.flush();
    this.active.code = this.editor.code;
    this.active = target;
    this.put(target.code);
    this.say("");
    this.label();
  }

  /** Another tab saved one of this playground's codes. */
  onStorage({ key, newValue, storageArea }) {
    const target = Object.values(this.slots).find((s) => s.key === key);
    const record = storageArea === localStorage && target && !target.own ? parse(newValue) : null;
    if (!record) return;
    Object.assign(target, record);
    if (target === this.active && target.dirty) {
      // This tab's edit is newer than what it last saved, but the other tab saved after it.
      clearTimeout(this.timer);
      target.dirty = false;
      this.say("This code was changed in another tab, and that version is saved: edit here to save this one instead.");
    } else if (target === this.active) {
      this.put(record.code);
      this.say("Updated from another tab.");
    }
    this.label();
  }

  put(code) {
    this.applying = true;
    this.editor.code = code;
    this.applying = false;
  }

  /** The switch's options, with how long ago each code was saved; hidden with one code. */
  label() {
    const { yours, link } = this.slots;
    const options = [["yours", `Your code (${saved(yours.savedAt, "none saved yet")})`]];
    if (link.code !== null) {
      const state = link.savedAt === undefined ? "Code from the link" : `Code from a link (edited, ${saved(link.savedAt)})`;
      options.push(["link", state]);
    }
    this.switch.replaceChildren(...options.map(([value, textContent]) => element("option", { value, textContent })));
    this.switch.value = this.active === link ? "link" : "yours";
    this.switch.hidden = options.length < 2;
  }

}

/** A slot for the code kept under `key`, or `fallback` when none is. */
function slot(key, fallback) {
  const record = parse(store.get(key));
  return { key, code: record?.code ?? fallback, savedAt: record?.savedAt, dirty: false };
}

/** A kept code, {code, savedAt}; plain text is code kept before times were noted. */
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
