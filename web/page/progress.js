// The learner's progress through a page's exercises, kept in this browser only
// (localStorage; nothing is sent anywhere): each passed exercise under its
// playground's key, with the code that passed. <autograd-progress> lists the
// page's exercises (playgrounds with checks), whether each is passed, and a
// link to each that has an id; it follows their "check-end" events as they come.
//
//   <autograd-progress></autograd-progress>

import { playgroundKey } from "./authored.js";
import { element } from "./dom.js";

export const PASSES = "autograd-exercise:"; // before each pass's key in localStorage
const EXERCISES = 'autograd-playground:has(> script[data-role="check"])';

/** Whether the exercise kept under `key` was passed in this browser. */
export function hasPassed(key) {
  try {
    return JSON.parse(localStorage.getItem(PASSES + key))?.passed === true;
  } catch {
    return false; // storage switched off, or not ours to read
  }
}

/** Remember that `code` passed the exercise kept under `key`. */
export function rememberPass(key, code) {
  try {
    localStorage.setItem(PASSES + key, JSON.stringify({ passed: true, code, at: Date.now() }));
  } catch {
    // Storage full or switched off: the pass shows on this page, and is not remembered.
  }
}

class AutogradProgress extends HTMLElement {
  constructor() {
    super();
    this.passedHere = new Set(); // passes seen on this page, whether or not storage kept them
    this.onCheck = (event) => {
      if (!event.target.matches?.(EXERCISES)) return;
      if (event.detail.passed) this.passedHere.add(playgroundKey(event.target));
      this.render();
    };
    this.onStorage = () => this.render();
  }

  connectedCallback() {
    document.addEventListener("check-end", this.onCheck);
    addEventListener("storage", this.onStorage);
    this.summary ??= element("p", { role: "status" });
    this.list ??= element("ol");
    this.replaceChildren(element("nav", { ariaLabel: "Exercises on this page" }, [this.summary, this.list]));
    this.render();
  }

  disconnectedCallback() {
    document.removeEventListener("check-end", this.onCheck);
    removeEventListener("storage", this.onStorage);
  }

  render() {
    const exercises = [...document.querySelectorAll(EXERCISES)];
    const passed = exercises.map((exercise) => {
      const key = playgroundKey(exercise);
      return this.passedHere.has(key) || hasPassed(key);
    });
    this.list.replaceChildren(...exercises.map((exercise, i) => {
      const name = exercise.getAttribute("aria-label") || exercise.id || `Exercise ${i + 1}`;
      const label = exercise.id
        ? element("a", { href: `#${exercise.id}`, textContent: name })
        : element("span", { textContent: name });
      return element("li", { className: passed[i] ? "passed" : "open" }, [
        label,
        element("span", { className: "state", textContent: passed[i] ? " ✓ passed" : " not yet passed" }),
      ]);
    }));
    this.summary.textContent = `${passed.filter(Boolean).length} of ${exercises.length} exercises passed`;
  }
}

customElements.define("autograd-progress", AutogradProgress);
