// A run's output on its way to the page. The runner sends it in timed batches (JSON
// lists of [stream, text] pairs, playground_runner/output.py), but learner code can
// reach the function it sends them with (`sys.stdout.output._post`) and call it a
// million times: each message would cost the page's main thread a task. So here
// batches are joined and posted at most every TICK_MS (or once JOINED_CHARS are in), an
// empty one is dropped, and what is not a batch at all goes at once, as it is, after
// what came before, for the page to refuse. What waits goes on the worker's tick
// (signals.js) and before the run's next other message (its plots, its result).
//
// Every function used here is taken as this module loads, before any learner code.

import { TICK_MS } from "./signals.js";

// About one full batch of the runner's (1,000 pairs of a character each): a message the
// page takes in, in one task, as it would that batch.
const JOINED_CHARS = 16_000;
const call = Function.prototype.call;
const trim = call.bind(String.prototype.trim);
const slice = call.bind(String.prototype.slice);
const clock = call.bind(Performance.prototype.now, performance);

export class Outbox {
  /** `post(batch)` sends a batch to the page. */
  constructor(post) {
    this.post = post;
    this.joined = ""; // the pairs of the batches that wait, joined by commas
    this.postedAt = -Infinity;
  }

  /** A batch from the runner (or from learner code that reached its sending). */
  add(batch) {
    const text = typeof batch === "string" ? trim(batch) : "";
    if (text[0] !== "[" || text[text.length - 1] !== "]") {
      this.flush();
      this.send(batch);
      return;
    }
    const pairs = trim(slice(text, 1, -1));
    if (!pairs) return;
    this.joined = this.joined ? `${this.joined},${pairs}` : pairs;
    if (this.joined.length >= JOINED_CHARS) this.flush();
    else this.due();
  }

  /** Post what waits, if the last post was TICK_MS ago or more. */
  due() {
    if (this.joined && clock() - this.postedAt >= TICK_MS) this.flush();
  }

  /** Post what waits, now. */
  flush() {
    if (!this.joined) return;
    const batch = `[${this.joined}]`;
    this.joined = "";
    this.send(batch);
  }

  send(batch) {
    this.postedAt = clock();
    this.post(batch);
  }
}
