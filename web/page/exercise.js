// An exercise: a playground whose author wrote checks inside it (authored.js).
// After each run its panel says that the code passed, or lists what failed in
// the author's words; it gives the author's hints one at a time, on request,
// and the solution, which replaces the code as one change that Ctrl+Z undoes,
// the code it replaced kept in the playground's switch (until a run has
// failed, it asks first). A pass is remembered (progress.js).
//
// For host pages and tests: `data-check="passed|failed|unchecked"` on the playground and
// a "check-end" event (bubbling; detail: {passed, messages}) after each run.

import { element } from "./dom.js";
import { hasPassed, rememberPass } from "./progress.js";

const NOT_CHECKED = {
  error: "Your code ended with an error (see the output), so it was not checked.",
  stopped: "The run was stopped, so your code was not checked.",
};

export class Exercise {
  /**
   * @param {{checks: string[], hints: DocumentFragment[], solution: string|null}} parts
   * @param {HTMLElement} host the playground: its `code`, `replaceCode`, its `view` (the
   *   editor), its events
   * @param {string} key where a pass is remembered
   */
  constructor({ checks, hints, solution }, host, key) {
    this.checks = checks;
    this.hints = hints;
    this.solution = solution;
    this.host = host;
    this.key = key;
    this.failed = false;
    const button = (text, action) => {
      const b = element("button", { type: "button", textContent: text });
      b.addEventListener("click", action);
      return b;
    };
    this.verdict = element("p", { className: "verdict" });
    this.messages = element("ul", { className: "messages" });
    this.note = element("p", { className: "note" });
    this.hintList = element("ol", { className: "hints", ariaLabel: "Hints" });
    this.hintButton = button("", () => this.showHint());
    this.solutionButton = button("Show solution", () => this.askForSolution());
    this.solutionButton.hidden = solution === null;
    const question = "The solution will replace your code in the editor (yours is kept in the switch "
      + "above it, and Ctrl+Z brings it back). Show it before you have tried?";
    this.confirm = element("div", { className: "confirm", role: "group", ariaLabel: "Show the solution?" }, [
      element("p", { textContent: question }),
      button("Replace my code with the solution", () => this.loadSolution()),
      button("Keep trying", () => this.closeConfirm()),
    ]);
    this.confirm.hidden = true;
    this.root = element("div", { className: "exercise" }, [
      element("div", { className: "feedback", role: "status" }, [this.verdict, this.messages, this.note]),
      this.hintList,
      element("div", { className: "exercise-actions" }, [this.hintButton, this.solutionButton]),
      this.confirm,
    ]);
    this.updateHintButton();
    if (hasPassed(key)) {
      host.dataset.check = "passed";
      this.say("Passed before, in this browser.");
    } else {
      this.say("Press Run to check your code.");
    }
  }

  /** The run of `code` ended with `result`: show and announce the verdict. */
  finish(result, code) {
    if (result.reached) return this.notChecked(result.reached[0]);
    const messages = result.check?.messages ?? [NOT_CHECKED[result.status] ?? NOT_CHECKED.error];
    const passed = result.check?.passed === true;
    this.failed ||= !passed;
    this.host.dataset.check = passed ? "passed" : "failed";
    if (passed) rememberPass(this.key, code);
    this.say(passed ? "Passed: your code passes every check." : "Not yet:", messages);
    this.host.dispatchEvent(new CustomEvent("check-end", { bubbles: true, detail: { passed, messages } }));
  }

  /** The code reached into the playground itself (`what`, where): no verdict either way. */
  notChecked(what) {
    const messages = [`The code reached into the playground itself (${what}), so no check can be trusted.`];
    this.host.dataset.check = "unchecked";
    this.say("Not checked:", messages);
    this.host.dispatchEvent(new CustomEvent("check-end", { bubbles: true, detail: { passed: false, messages } }));
  }

  say(verdict, messages = []) {
    this.note.textContent = "";
    this.verdict.textContent = verdict;
    this.messages.replaceChildren(...messages.map(messageItem));
  }

  showHint() {
    const next = this.hints[this.hintList.children.length];
    this.hintList.append(element("li", {}, [next.cloneNode(true)]));
    this.updateHintButton();
  }

  updateHintButton() {
    const shown = this.hintList.children.length;
    this.hintButton.textContent = `Show a hint (${shown + 1} of ${this.hints.length})`;
    this.hintButton.hidden = shown === this.hints.length;
  }

  /** After a failed run the solution comes at once; before, only once confirmed. */
  askForSolution() {
    if (this.failed) return this.loadSolution();
    this.confirm.hidden = false;
    this.confirm.querySelector("button").focus();
  }

  closeConfirm() {
    this.confirm.hidden = true;
    this.solutionButton.focus();
  }

  /** The solution in the editor, as one change that Ctrl+Z undoes; the code it replaces
   *  stays in the switch. */
  loadSolution() {
    this.confirm.hidden = true;
    this.host.replaceCode(this.solution, "the solution");
    this.note.textContent = "The solution is in the editor: press Run to check it, or Ctrl+Z to have "
      + "your code back (it is kept in the switch above the editor too).";
    this.host.view?.focus();
  }
}

/** One message: its first line as prose, the rest (a graph's code, a traceback) as code. */
function messageItem(text) {
  const [first, ...rest] = text.split("\n");
  const item = element("li", { textContent: first });
  if (rest.length) item.append(element("pre", { textContent: rest.join("\n") }));
  return item;
}
