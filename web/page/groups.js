// Groups of a graph's nodes, which a big graph's picture folds into one box each.
//
// A labelled node's group is its label up to its last "." or "_": n1.w1, n1.b and
// n1.out are in group n1, L2.n1.w3 in L2.n1, h1_w2 in h1; a label with neither (a, x1,
// w) puts its node in no group. An unlabelled node joins a group when it lies between
// two of the group's nodes: made from one (through its operands, at any depth) and used
// to make another. So engine.nn's neurons, which label their weights, bias and output
// by the neuron's name, fold whole: products, sums and relu with them.

const MIN_SIZE = 3; // a group of fewer nodes is drawn as its nodes

/** The label's group, or null. */
export function groupKey(label) {
  if (typeof label !== "string") return null;
  const cut = Math.max(label.lastIndexOf("."), label.lastIndexOf("_"));
  return cut > 0 ? label.slice(0, cut) : null;
}

/** The groups of table `t` of MIN_SIZE nodes or more, by key: {key, members (in index
 *  order), out (the last member: a neuron's output)}. */
export function groupsOf(t) {
  const own = t.label.map(groupKey);
  const n = t.count;
  // The groups each node is made from (at any depth), and those each node is used for.
  const from = Array.from({ length: n }, () => new Set());
  const to = Array.from({ length: n }, () => new Set());
  for (let i = 0; i < n; i++) {
    for (const a of t.args[i]) if (a < i) for (const k of [own[a], ...from[a]]) if (k !== null) from[i].add(k);
  }
  for (let i = n - 1; i >= 0; i--) {
    for (const a of t.args[i]) if (a < i) for (const k of [own[i], ...to[i]]) if (k !== null) to[a].add(k);
  }
  const groups = new Map();
  for (let i = 0; i < n; i++) {
    let key = own[i];
    if (key === null && t.label[i] === null) {
      const both = [...from[i]].filter((k) => to[i].has(k));
      if (both.length === 1) key = both[0];
    }
    if (key === null) continue;
    if (!groups.has(key)) groups.set(key, { key, members: [] });
    groups.get(key).members.push(i);
  }
  for (const [key, g] of groups) {
    if (g.members.length < MIN_SIZE) groups.delete(key);
    else g.out = g.members[g.members.length - 1];
  }
  return groups;
}
