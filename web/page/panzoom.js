// Pan and zoom an <svg> by moving its viewBox: drag or Shift with the arrow
// keys to pan (the arrow keys alone are the picture's, to move between
// nodes), Ctrl with the wheel (a touchpad's pinch comes as that), a pinch or + and -
// to zoom (about the pointer, or the point between the fingers), 0 to fit it all.
// The wheel alone scrolls the page, as it does over any other part of it, and a finger
// moving up or down does too while the view holds the drawing's whole height.

const ZOOM_STEP = 1.25;
const WHEEL_NOTCH_PX = 100; // a mouse wheel's notch, as Chromium reports it: one ZOOM_STEP
const PAN_FRACTION = 0.1;
export const MARGIN = 8; // around the drawing when it is fitted, so no edge is cut
// The smallest share of its own size a drawing is fitted at: its 12 px text at 11 px.
// Smaller, it is shown at its own size, and pans.
const READABLE = 11 / 12;

export class PanZoom {
  /** @param {HTMLElement} frame the box around the svg, which gets the events (keys from
   *  whatever has focus inside it) */
  constructor(frame) {
    this.frame = frame;
    this.svg = null;
    this.pointers = new Map(); // the fingers (or the mouse) down on the picture, by pointer id
    this.dragged = false; // whether the last gesture moved the picture: then it was no click
    frame.addEventListener("wheel", (event) => this.onWheel(event), { passive: false });
    frame.addEventListener("pointerdown", (event) => this.onPointerDown(event));
    frame.addEventListener("keydown", (event) => this.onKey(event));
  }

  /** Take over `svg`, whose whole drawing is `width` by `height`, and fit it. */
  attach(svg, width, height) {
    this.svg = svg;
    this.full = { x: -MARGIN, y: -MARGIN, w: width + 2 * MARGIN, h: height + 2 * MARGIN };
    this.fit();
  }

  /** Take over `svg`, a drawing of the same layout as the one before, in the view there is. */
  swap(svg) {
    this.svg = svg;
    this.set(this.view);
  }

  fit() {
    this.set({ ...this.full });
  }

  /** Zoom by `factor` (> 1 zooms in) about the point (fx, fy), fractions of the view. */
  zoom(factor, fx = 0.5, fy = 0.5) {
    const v = this.view;
    const w = v.w / factor;
    const h = v.h / factor;
    this.set({ x: v.x + (v.w - w) * fx, y: v.y + (v.h - h) * fy, w, h });
  }

  /** Move the view by fractions of its own size. */
  pan(dx, dy) {
    const v = this.view;
    this.set({ ...v, x: v.x + dx * v.w, y: v.y + dy * v.h });
  }

  /** Whether the whole drawing fits the frame at READABLE of its own size or more. */
  fitsReadable() {
    return this.full.w * READABLE <= this.frame.clientWidth && this.full.h * READABLE <= this.frame.clientHeight;
  }

  /** How tall the whole drawing is in the frame's width: fitted to it, at most at its own
   *  size, if it reads so; else at its own size (and it pans). */
  heightInWidth() {
    const scale = Math.min(1, this.frame.clientWidth / this.full.w);
    return this.full.h * (scale >= READABLE ? scale : 1);
  }

  /** Show the drawing at its own size around the point (x, y), or all of it if it fits
   *  at a size that reads; the view kept within the drawing where it can be, so no part of it is left empty. */
  centre(x, y) {
    const w = this.frame.clientWidth;
    const h = this.frame.clientHeight;
    const f = this.full;
    const within = (at, size, start, length) => (size >= length ? start + (length - size) / 2
      : Math.min(Math.max(at - size / 2, start), start + length - size));
    if (this.fitsReadable()) this.fit();
    else this.set({ x: within(x, w, f.x, f.w), y: within(y, h, f.y, f.h), w, h });
  }

  /** Keep the point (x, y) of the drawing in view, moving as little as needed. */
  show(x, y) {
    const v = this.view;
    if (x >= v.x && x <= v.x + v.w && y >= v.y && y <= v.y + v.h) return;
    this.set({ ...v, x: x - v.w / 2, y: y - v.h / 2 });
  }

  set(view) {
    this.view = view;
    this.svg?.setAttribute("viewBox", `${view.x} ${view.y} ${view.w} ${view.h}`);
    // Nothing to pan up or down: a finger moving so scrolls the page (graph.css: none).
    this.frame.style.touchAction = this.full && view.h >= this.full.h ? "pan-y" : "";
  }

  /** Ctrl with the wheel zooms about the pointer, a notch a step, a touchpad's pinch (a
   *  wheel of small deltas with ctrlKey) smoothly; the wheel alone is the page's. */
  onWheel(event) {
    if (!this.svg || !event.ctrlKey) return;
    event.preventDefault(); // the browser's own zoom of the page
    // In lines or pages (Firefox's mouse wheel), a notch an event.
    const px = event.deltaMode === WheelEvent.DOM_DELTA_PIXEL ? event.deltaY : Math.sign(event.deltaY) * WHEEL_NOTCH_PX;
    const factor = Math.min(ZOOM_STEP, Math.max(1 / ZOOM_STEP, ZOOM_STEP ** (-px / WHEEL_NOTCH_PX)));
    const box = this.svg.getBoundingClientRect();
    this.zoom(factor, (event.clientX - box.left) / box.width, (event.clientY - box.top) / box.height);
  }

  /** A finger or the mouse comes down: a drag pans; two fingers pinch to zoom, about
   *  the point between them, and pan as that point moves. */
  onPointerDown(event) {
    if (!this.svg || event.button !== 0) return;
    if (this.pointers.size === 0) {
      this.dragged = false;
      addEventListener("pointermove", this.onPointerMove);
      addEventListener("pointerup", this.onPointerUp);
      addEventListener("pointercancel", this.onPointerUp);
    }
    this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    this.gesture = this.startGesture();
  }

  /** Where the gesture starts (again, whenever a finger comes or goes): its pointers'
   *  centre and spread, the view, and the svg's box on the screen. */
  startGesture() {
    return { ...this.spread(), view: this.view, box: this.svg.getBoundingClientRect() };
  }

  /** The pointers' centre, and the distance between the first two (0 for one). */
  spread() {
    const points = [...this.pointers.values()];
    const x = points.reduce((sum, p) => sum + p.x, 0) / points.length;
    const y = points.reduce((sum, p) => sum + p.y, 0) / points.length;
    const d = points.length > 1 ? Math.hypot(points[0].x - points[1].x, points[0].y - points[1].y) : 0;
    return { x, y, d };
  }

  onPointerMove = (event) => {
    if (!this.pointers.has(event.pointerId)) return;
    this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const { view: v, box, ...start } = this.gesture;
    const now = this.spread();
    const scale = start.d && now.d ? start.d / now.d : 1; // fingers apart: a smaller view, zoomed in
    this.dragged ||= Math.abs(now.x - start.x) + Math.abs(now.y - start.y) > 3 || Math.abs(scale - 1) > 0.02;
    if (!this.dragged) return;
    // The point of the drawing under the gesture's starting centre stays under its centre.
    const x = v.x + ((start.x - box.left) / box.width) * v.w;
    const y = v.y + ((start.y - box.top) / box.height) * v.h;
    const w = v.w * scale;
    const h = v.h * scale;
    // With the drawing's whole height in view, a drag pans only across (and a finger moving
    // up or down scrolls the page: set).
    const across = scale === 1 && v.h >= this.full.h;
    this.set({ x: x - ((now.x - box.left) / box.width) * w, y: across ? v.y : y - ((now.y - box.top) / box.height) * h, w, h });
  };

  onPointerUp = (event) => {
    this.pointers.delete(event.pointerId);
    if (this.pointers.size) {
      this.gesture = this.startGesture(); // the finger left goes on panning from here
      return;
    }
    removeEventListener("pointermove", this.onPointerMove);
    removeEventListener("pointerup", this.onPointerUp);
    removeEventListener("pointercancel", this.onPointerUp);
  };

  onKey(event) {
    const pans = { ArrowLeft: [-PAN_FRACTION, 0], ArrowRight: [PAN_FRACTION, 0], ArrowUp: [0, -PAN_FRACTION], ArrowDown: [0, PAN_FRACTION] };
    if (!this.svg || event.altKey || event.ctrlKey || event.metaKey) return;
    if (pans[event.key] && event.shiftKey) this.pan(...pans[event.key]);
    else if (event.key === "+" || event.key === "=") this.zoom(ZOOM_STEP);
    else if (event.key === "-") this.zoom(1 / ZOOM_STEP);
    else if (event.key === "0") this.fit();
    else return;
    event.preventDefault();
  }
}
