// Python is the page's heaviest download: a playground asks for it only once
// a learner is about to use it. A script loaded on the side (the editor's) is
// loaded again when a load that failed is asked for again.

// Start a little before the playground scrolls into view.
const MARGIN_PX = 200;
const MARGIN = `${MARGIN_PX}px`;

/** Call `start` once, when `element` first comes into view or gets focus. */
export function onFirstSight(element, start) {
  const once = () => {
    observer.disconnect();
    element.removeEventListener("focusin", once);
    start();
  };
  const observer = new IntersectionObserver(
    (entries) => {
      if (entries.some((entry) => entry.isIntersecting)) once();
    },
    { rootMargin: MARGIN },
  );
  observer.observe(element);
  element.addEventListener("focusin", once);
}

/** True when `element` is in view, or nearly, as the page opens (before it is built). */
export function inViewNow(element) {
  const { top, bottom, width, height } = element.getBoundingClientRect();
  const shown = width > 0 || height > 0;
  return shown && top < innerHeight + MARGIN_PX && bottom > -MARGIN_PX;
}

/**
 * `load()` (a dynamic import), called now; the function returned gives its promise,
 * or, once that has failed (a dropped connection), a new load()'s: a failed import
 * is fetched again when asked for again.
 */
export function retryable(load) {
  let loading = null;
  let failed = false;
  const attempt = () => {
    failed = false;
    loading = load();
    loading.catch(() => (failed = true));
  };
  attempt();
  return () => {
    if (failed) attempt();
    return loading;
  };
}
