// Pan and zoom an <svg> by moving its viewBox: drag or Shift with the arrow
// keys to pan (the arrow keys alone are the picture's, to move between
// nodes), the wheel or + and - to zoom (about the pointer), 0 to fit it all.

const ZOOM_STEP = 1.25;
const PAN_FRACTION = 0.1;
const MARGIN = 8; // around the drawing when it is fitted, so no edge is cut

export class PanZoom {
  /** @param {HTMLElement} frame the box around the svg, which gets the events (keys from
   *  whatever has focus inside it) */
  constructor(frame) {
    this.frame = frame;
    this.svg = null;
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

  /** Show the drawing at its own size around the point (x, y), or all of it if it fits. */
  centre(x, y) {
    const w = this.frame.clientWidth;
    const h = this.frame.clientHeight;
    if (this.full.w <= w && this.full.h <= h) this.fit();
    else this.set({ x: x - w / 2, y: y - h / 2, w, h });
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

  onPointerDown(event) {
    if (!this.svg || event.button !== 0) return;
    const box = this.svg.getBoundingClientRect();
    const start = { x: event.clientX, y: event.clientY, view: this.view };
    let moved = (this.dragged = false);
    const move = (e) => {
      const dx = ((e.clientX - start.x) / box.width) * start.view.w;
      const dy = ((e.clientY - start.y) / box.height) * start.view.h;
      moved ||= Math.abs(e.clientX - start.x) + Math.abs(e.clientY - start.y) > 3;
      if (moved) this.set({ ...start.view, x: start.view.x - dx, y: start.view.y - dy });
    };
    const up = () => {
      removeEventListener("pointermove", move);
      removeEventListener("pointerup", up);
      this.dragged = moved; // a drag is not a click: it selects no node
    };
    addEventListener("pointermove", move);
    addEventListener("pointerup", up);
  }

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
