// The output box: what a run prints (stdout, stderr) and the page's own lines (errors),
// in order, in one <pre> that follows its end unless the learner scrolled up from it.
//
// However fast and however much output comes, the main thread only queues it as it
// arrives; it is drawn as frames come, at most `frameBudget` of it a frame, into blocks of bounded
// size that are laid out each on its own (inline blocks, so that copied text has no line
// breaks the output did not print). A frame's work is so bounded, whatever the run
// prints, and so is the number of elements the box holds.

import { element } from "./dom.js";
import { NextFrame } from "./next-frame.js";

// What one frame draws at most: characters, lines, and pieces (a piece is a stretch of
// one stream, drawn as one text). A test may lower these, to see each frame keep to them.
export const frameBudget = { chars: 16_000, lines: 200, pieces: 500 };
const UNBOUNDED = { chars: Infinity, lines: Infinity, pieces: Infinity };
// What a block holds at most: appending to it lays out only it.
const BLOCK_CHARS = 8_000;
const BLOCK_LINES = 200;
const BLOCK_SPANS = 100;
// Past this many spans (each a stream's stretch, coloured as its stream), later output
// joins the last one, whatever its stream.
const MAX_SPANS = 2_000;

export class OutputView {
  constructor() {
    this.frame = new NextFrame((inFrame) => this.draw(inFrame ? this.frameLeft() : { ...frameBudget }));
    this.root = element("pre", { className: "output", role: "log", ariaLabel: "Output" });
    this.root.setAttribute("aria-live", "polite");
    this.root.tabIndex = 0;
    this.root.addEventListener("scroll", () => this.noteScroll(), { passive: true });
    // A hidden page draws no frames: what waits is drawn at once (nothing is laid out
    // until the page shows again), so a run's end never waits for the page to show.
    document.addEventListener("visibilitychange", () => {
      if (document.hidden && this.waits()) this.draw({ ...UNBOUNDED });
    });
    this.waiting = [];
    this.clear();
  }

  /** Empty the box, and forget what waited to be drawn; `untilDrawn`: what the box shows
   *  stays until the next draw replaces it (a live run's output replaces the last run's,
   *  with no frame of an empty box between). */
  clear(untilDrawn = false) {
    this.frame.cancel();
    this.block = null;
    this.spans = 0;
    this.following = true;
    this.scrolledTo = null; // where the last draw scrolled the box to
    this.replacing = untilDrawn;
    if (!untilDrawn) this.root.replaceChildren();
    this.settle();
  }

  /** Add `text` as `kind` (stdout, stderr or error), to be drawn in a coming frame. */
  append(kind, text) {
    if (!text) return;
    const last = this.queue.at(-1);
    const spans = this.spans + this.queue.length - this.drawnUpTo; // drawn and to come
    if (last && (last[0] === kind || spans >= MAX_SPANS)) last[1] += text;
    else this.queue.push([kind, text]);
    if (document.hidden) this.draw({ ...UNBOUNDED });
    else this.frame.schedule();
  }

  /** Resolves once all that was appended is drawn. */
  drawn() {
    if (!this.waits()) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Draw now what waits, within what is left of the frame's budget: a run's tables, taken
   *  in as a frame begins, then show with the output that came before them, not a frame
   *  ahead of it. */
  catchUp() {
    if (this.waits()) this.draw();
  }

  /** What is left of this frame's budget: the draws of one frame share it. */
  frameLeft() {
    const frame = document.timeline.currentTime; // the frame's time, all through its callbacks
    if (this.frameTime !== frame) [this.frameTime, this.left] = [frame, { ...frameBudget }];
    return this.left;
  }

  /** Draw what waits, as much as `budget` allows (and take that from it). */
  draw(budget = this.frameLeft()) {
    this.frame.cancel();
    if (this.replacing && this.waits()) {
      this.replacing = false;
      this.root.replaceChildren();
    }
    while (this.waits() && budget.chars > 0 && budget.lines > 0 && budget.pieces-- > 0) {
      this.drawPiece(budget);
    }
    if (this.waits()) this.frame.schedule();
    else this.settle();
    if (this.following && !document.hidden) this.follow();
  }

  /** Scroll to the end, unless the learner scrolled up since the last draw put it there:
   *  a scroll's event comes with the next frame, and on a busy machine a draw (on its
   *  timer) can come first. */
  follow() {
    const root = this.root;
    if (this.scrolledTo !== null && root.scrollTop < this.scrolledTo - 4) {
      this.following = false;
      return;
    }
    root.scrollTop = root.scrollHeight;
    this.scrolledTo = root.scrollTop;
  }

  /** Draw the start of the first thing waiting, as much as the budget and its block allow. */
  drawPiece(budget) {
    const first = this.queue[this.drawnUpTo];
    const [kind, text] = first;
    const full = (block) => block.full || block.chars >= BLOCK_CHARS || block.lines >= BLOCK_LINES
      || block.root.childElementCount >= BLOCK_SPANS;
    if (!this.block || full(this.block)) this.newBlock();
    const block = this.block;
    const forFrame = Math.min(budget.chars, lineEnd(text, budget.lines));
    let end = Math.min(BLOCK_CHARS - block.chars, lineEnd(text, BLOCK_LINES - block.lines));
    if (end <= forFrame && end < text.length) {
      block.full = true; // its last line ends here, unless a line longer than a block goes on
      if (text[end - 1] !== "\n") end = text.lastIndexOf("\n", end - 1) + 1 || end;
    } else {
      end = Math.min(forFrame, text.length);
    }
    const piece = text.slice(0, end);
    const lines = newlines(piece);
    block.chars += piece.length;
    block.lines += lines;
    budget.chars -= piece.length;
    budget.lines -= lines;
    if (end < text.length) first[1] = text.slice(end);
    else this.drawnUpTo++;
    const span = block.root.lastChild;
    if (span?.className === kind || (span && this.spans >= MAX_SPANS)) {
      span.firstChild.appendData(piece);
    } else {
      block.root.append(element("span", { className: kind, textContent: piece }));
      this.spans++;
    }
  }

  newBlock() {
    this.block = { root: element("span", { className: "block" }), chars: 0, lines: 0, full: false };
    this.root.append(this.block.root);
  }

  /** Whether any output waits to be drawn. */
  waits() {
    return this.drawnUpTo < this.queue.length;
  }

  /** Nothing waits: say so to whoever waits for it. */
  settle() {
    this.queue = []; // [kind, text] pairs to draw, a kind's neighbours joined
    this.drawnUpTo = 0; // in `queue`: taking from an array's front would move all the rest
    for (const resolve of this.waiting.splice(0)) resolve();
  }

  /** Whether the box is scrolled to its end (so that it follows new output). */
  noteScroll() {
    const { scrollTop, clientHeight, scrollHeight } = this.root;
    this.following = scrollTop + clientHeight >= scrollHeight - 4;
  }
}

/** The index just past the `count`-th line break of `text`, or its length if it has fewer. */
function lineEnd(text, count) {
  let at = -1;
  for (let k = 0; k < count; k++) {
    at = text.indexOf("\n", at + 1);
    if (at === -1) return text.length;
  }
  return at + 1;
}

function newlines(text) {
  let count = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) count++;
  return count;
}
