// The node tables: one per graph or `show` snapshot, picked with a <select>,
// drawn as a real <table> whose body holds only the rows in view (plus a
// margin), so a 100,000-node graph scrolls without building 100,000 rows.

import { element } from "./dom.js";
import { fullNumber, shortNumber } from "./format.js";

const ROW_PX = 28;
const MARGIN_ROWS = 20;
const COLUMNS = ["index", "label", "op", "data", "grad"];

export class TablePanel {
  constructor() {
    this.tables = [];
    this.picker = element("select", { className: "picker", ariaLabel: "Graph to show" });
    this.count = element("span", { className: "count" });
    this.caption = element("caption");
    this.body = element("tbody");
    const head = element("tr", {}, COLUMNS.map((c) => element("th", { scope: "col", textContent: c })));
    this.table = element("table", {}, [this.caption, element("thead", {}, [head]), this.body]);
    this.table.style.setProperty("--row-px", `${ROW_PX}px`);
    this.scroller = element("div", { className: "scroller", tabIndex: 0 }, [this.table]);
    this.scroller.setAttribute("role", "region");
    this.scroller.setAttribute("aria-label", "Nodes");
    this.empty = element("p", { className: "empty", textContent: "Run the code to see its graphs' nodes here." });
    this.root = element("div", { className: "tables" }, [
      element("div", { className: "table-bar" }, [this.picker, this.count]),
      this.empty,
      this.scroller,
    ]);
    this.picker.addEventListener("change", () => this.select(Number(this.picker.value)));
    this.scroller.addEventListener("scroll", () => this.schedule(), { passive: true });
    new ResizeObserver(() => this.schedule()).observe(this.scroller);
    this.setTables([]);
  }

  /** Replace the tables with a run's; keeps the selected title when it is still there. */
  setTables(tables) {
    const previous = this.tables[Number(this.picker.value)]?.title;
    this.tables = tables;
    this.picker.replaceChildren(
      ...tables.map((t, i) => element("option", { value: String(i), textContent: `${t.title} (${nodes(t.count)})` })),
    );
    const keep = tables.findIndex((t) => t.title === previous);
    this.root.classList.toggle("has-tables", tables.length > 0);
    this.select(Math.max(keep, 0));
  }

  select(index) {
    this.current = this.tables[index];
    this.picker.value = String(index);
    const count = this.current?.count ?? 0;
    this.count.textContent = this.current ? nodes(count) : "";
    this.caption.textContent = this.current ? `${this.current.title}: ${nodes(count)}` : "";
    this.table.setAttribute("aria-rowcount", String(count + 1));
    this.scroller.scrollTop = 0;
    this.window = null;
    this.draw();
  }

  schedule() {
    if (this.pending) return;
    this.pending = requestAnimationFrame(() => {
      this.pending = 0;
      this.draw();
    });
  }

  /** Build the rows that are in view (and a margin), with spacers standing for the rest. */
  draw() {
    const t = this.current;
    const count = t?.count ?? 0;
    const top = this.scroller.scrollTop;
    const height = this.scroller.clientHeight || 600;
    const first = Math.max(0, Math.floor(top / ROW_PX) - MARGIN_ROWS);
    const last = Math.min(count, Math.ceil((top + height) / ROW_PX) + MARGIN_ROWS);
    const key = `${first}:${last}`;
    if (this.window === key) return;
    this.window = key;
    const rows = [];
    for (let i = first; i < last; i++) rows.push(this.row(t, i));
    this.body.replaceChildren(spacer(first * ROW_PX), ...rows, spacer((count - last) * ROW_PX));
  }

  row(t, i) {
    const tr = element("tr", {}, [
      element("th", { scope: "row", textContent: String(i) }),
      element("td", { className: "label", textContent: t.label[i] ?? "" }),
      element("td", { className: "op", textContent: t.op[i] }),
      number(t.data[i], "data"),
      number(t.grad[i], "grad"),
    ]);
    tr.setAttribute("aria-rowindex", String(i + 2));
    return tr;
  }
}

function nodes(count) {
  return `${count.toLocaleString("en")} ${count === 1 ? "node" : "nodes"}`;
}

function number(value, className) {
  return element("td", { className, textContent: shortNumber(value), title: fullNumber(value) });
}

function spacer(px) {
  const cell = element("td", { colSpan: COLUMNS.length });
  cell.style.height = `${px}px`;
  const tr = element("tr", { className: "spacer" }, [cell]);
  tr.setAttribute("aria-hidden", "true");
  return tr;
}
