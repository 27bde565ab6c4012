// Pan and zoom an <svg> by moving its viewBox: drag or Shift with the arrow
// keys to pan (the arrow keys alone are the picture's, to move between
// nodes), the wheel, a pinch or + and - to zoom (about the pointer, or the
// point between the fingers), 0 to fit it all.

const ZOOM_STEP = 1.25;
const PAN_FRACTION = 0.1;
export const MARGIN = 8; // around the drawing when it is fitted, so no edge is cut

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

  /** Whether the whole drawing fits the frame at `scale` of its own size or more (1:
   *  its text as big as set). */
  fitsAtOwnSize(scale = 1) {
    return this.full.w * scale <= this.frame.clientWidth && this.full.h * scale <= this.frame.clientHeight;
  }

  /** Show the drawing at its own size around the point (x, y), or all of it if it fits;
   *  the view kept within the drawing where it can be, so no part of it is left empty. */
  centre(x, y) {
    const w = this.frame.clientWidth;
    const h = this.frame.clientHeight;
    const f = this.full;
    const within = (at, size, start, length) => (size >= length ? start + (length - size) / 2
      : Math.min(Math.max(at - size / 2, start), start + length - size));
    if (this.fitsAtOwnSize()) this.fit();
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
  }

  onWheel(event) {
    if (!this.svg) return;
    event.preventDefault();
    const box = this.svg.getBoundingClientRect();
    const factor = event.deltaY < 0 ? ZOOM_STEP : 1 / ZOOM_STEP;
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
    this.set({ x: x - ((now.x - box.left) / box.width) * w, y: y - ((now.y - box.top) / box.height) * h, w, h });
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
