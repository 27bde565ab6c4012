// Building DOM from data. Learner data only ever goes in as `textContent`.

/** A new `tag` element with `props` assigned and `children` appended. */
export function element(tag, props = {}, children = []) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

/** Set `node`'s text, unless it already has it: a write of the same text still replaces
 *  the text node, and the browser lays it out again. */
export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

/** Set `node`'s attribute `name` to `value`, unless it has that value already. */
export function setAttribute(node, name, value) {
  if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}

/** Replace `parent`'s children with `texts`, each in a new `tag`, unless they already
 *  say exactly these (a live step's same tables and notes). */
export function setTexts(parent, tag, texts, props = () => ({})) {
  const now = [...parent.children].map((child) => child.textContent);
  if (now.length === texts.length && now.every((text, i) => text === texts[i])) return;
  parent.replaceChildren(...texts.map((text, i) => element(tag, { ...props(i), textContent: text })));
}
