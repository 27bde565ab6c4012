// Python is the page's heaviest download: a playground asks for it only once
// a learner is about to use it.

// Start a little before the playground scrolls into view.
const MARGIN = "200px";

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
