// The grads a replay of Backward shows, from a runner table's steps: the stepper's
// numbers, and the table's for what the last run showed at the same step.

/** The grads of table `t` after `p` of its Backward's steps: Backward's start (the
 *  nodes it reaches zeroed, the root's 1), then each term's running grad as it arrives.
 *  Null when `t` has no steps to replay. */
export function gradsAfter(t, p) {
  if (!t.steps) return null;
  const grads = t.grad.slice();
  for (const step of t.steps) grads[step.node] = 0;
  grads[t.root] = 1;
  for (const step of t.steps.slice(0, p)) {
    for (const term of step.terms) grads[term.operand] = term.grad;
  }
  return grads;
}
