// Python is the page's heaviest download: a playground asks for it only once
// a learner is about to use it.

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
