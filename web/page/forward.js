// A decision boundary's grid, from a model's weights (engine.nn's float_weights, which
// the runner sends for boundary(model, ...)): its forward pass at every cell, with the
// sums in the order engine/nn.py's _pass makes them, in doubles as Python's floats are,
// so the same values Python would give, in a few milliseconds rather than seconds.

/** The model's output at (x, y) for each y of `ys` and x of `xs` (row 0 the lowest y),
 *  null where it is not finite. `layers`: each neuron's [weights, bias, relu]. */
export function gridOf(layers, xs, ys) {
  const values = [];
  for (const y of ys) {
    for (const x of xs) {
      let inputs = [x, y];
      for (const layer of layers) {
        const outputs = new Array(layer.length);
        for (let j = 0; j < layer.length; j++) {
          const [weights, bias, relu] = layer[j];
          let total = bias;
          for (let i = 0; i < weights.length; i++) total = total + weights[i] * inputs[i];
          outputs[j] = relu && total < 0 ? 0 : total; // as relu: -0 and NaN pass
        }
        inputs = outputs;
      }
      values.push(Number.isFinite(inputs[0]) ? inputs[0] : null);
    }
  }
  return values;
}

/** Whether `layers` is a model of 2 inputs and 1 output whose grid of `cells` cells
 *  takes at most `sums` weights times cells. */
export function isModel(layers, cells, sums) {
  if (!Array.isArray(layers) || layers.length === 0) return false;
  let inputs = 2;
  let count = 0;
  for (const layer of layers) {
    if (!Array.isArray(layer) || layer.length === 0) return false;
    for (const neuron of layer) {
      if (!Array.isArray(neuron) || neuron.length !== 3) return false;
      const [weights, bias, relu] = neuron;
      if (!Array.isArray(weights) || weights.length !== inputs || !weights.every(Number.isFinite)
        || !Number.isFinite(bias) || typeof relu !== "boolean") return false;
      count += inputs + 1;
    }
    inputs = layer.length;
  }
  return inputs === 1 && count * cells <= sums;
}
