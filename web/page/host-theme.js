// Light or dark as the host page is, and live: a playground without a `theme`
// attribute follows the page's own switch when the reader flips it, with no
// reload. What decides, first that says:
//
//   1. the element's `theme` attribute ("light" or "dark");
//   2. the switches of the documentation themes course pages are built with:
//      pydata-sphinx-theme's <html data-theme>, Furo's <body data-theme>
//      ("auto": the system's), Material for MkDocs' data-md-color-scheme
//      ("slate" or "default", on <body>);
//   3. the `color-scheme` the element inherits (the root's CSS, or a section's),
//      else the page's <meta name="color-scheme">: "dark" or "light" alone
//      decides, both say the page follows the system's prefers-color-scheme;
//   4. else light, as a browser draws a page that declares no dark mode.
//
// The choice is the element's custom state, :state(dark) or :state(light),
// which sets its color-scheme in CSS; every colour follows through light-dark().

const SWITCHES = [
  { attribute: "data-theme", schemes: { dark: "dark", light: "light", auto: "system" } },
  { attribute: "data-md-color-scheme", schemes: { slate: "dark", default: "light" } },
];
const WATCHED = ["style", "class", ...SWITCHES.map((s) => s.attribute)];
const SYSTEM_DARK = matchMedia("(prefers-color-scheme: dark)");

// Each following element's update, held no longer than the element is.
const updates = new WeakMap();
const followers = new Set(); // WeakRefs to the elements
let watching = false;

/**
 * Keep `element` light or dark as its page is: sets "dark" or "light" in `states`
 * (its ElementInternals' custom states) now and whenever the page switches, and
 * calls `onChange(dark)` each time it changes.
 */
export function followHostTheme(element, states, onChange = () => {}) {
  let dark = null;
  const update = () => {
    const now = isDark(element);
    if (now === dark) return;
    dark = now;
    states.delete(dark ? "light" : "dark");
    states.add(dark ? "dark" : "light");
    onChange(dark);
  };
  updates.set(element, update);
  followers.add(new WeakRef(element));
  new MutationObserver(update).observe(element, { attributes: true, attributeFilter: ["theme"] });
  watchThePage();
  update();
}

/** Whether `element` is to be dark, as the first of the sources above that says. */
function isDark(element) {
  const scheme = declaredScheme(element) ?? "light";
  return scheme === "system" ? SYSTEM_DARK.matches : scheme === "dark";
}

/** "dark", "light", "system" (the page follows it), or null: the page says nothing. */
function declaredScheme(element) {
  const own = element.getAttribute("theme");
  if (own === "dark" || own === "light") return own;
  for (const page of [document.body, document.documentElement]) {
    for (const { attribute, schemes } of SWITCHES) {
      const scheme = schemes[page?.getAttribute(attribute)];
      if (scheme) return scheme;
    }
  }
  const parent = element.parentElement ?? element.getRootNode().host ?? document.documentElement;
  const meta = document.querySelector('meta[name="color-scheme"]')?.content ?? "";
  return colorScheme(getComputedStyle(parent).colorScheme) ?? colorScheme(meta);
}

/** What a color-scheme value says: "dark" or "light" alone, "system" for both, else null. */
function colorScheme(value) {
  const words = value.split(/\s+/);
  const dark = words.includes("dark");
  const light = words.includes("light");
  if (dark && light) return "system";
  return dark ? "dark" : light ? "light" : null;
}

/** Once per page: on a switch, the system's change or a new <meta> or style sheet, update all. */
function watchThePage() {
  if (watching) return;
  watching = true;
  const updateAll = () => {
    for (const ref of followers) {
      const element = ref.deref();
      if (!element) followers.delete(ref);
      else if (element.isConnected) updates.get(element)();
    }
  };
  const observer = new MutationObserver(updateAll);
  for (const page of [document.documentElement, document.body]) {
    observer.observe(page, { attributes: true, attributeFilter: WATCHED });
  }
  const sheetsAndMeta = { childList: true, subtree: true, attributes: true, attributeFilter: ["content", "media"] };
  observer.observe(document.head, sheetsAndMeta);
  SYSTEM_DARK.addEventListener("change", updateAll);
}
