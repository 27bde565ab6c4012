// Building DOM from data. Learner data only ever goes in as `textContent`.

/** A new `tag` element with `props` assigned and `children` appended. */
export function element(tag, props = {}, children = []) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}
