// Delta coding of a chunked finder's columns (docs/api.md, Publishing: chunked finders): the
// index's ids and positions and the cluster summaries' pixels are written as each value's
// difference from the one before (the first from 0), since neighbours follow each other and
// small numbers compress well. Shared by the publish that writes and reads them and the widget.

/** Each value as its difference from the previous one (the first from 0). */
export function deltas(values: readonly number[]): number[] {
  return values.map((value, i) => value - (i === 0 ? 0 : values[i - 1]!));
}

/** Each value the sum of the deltas up to it (the inverse of deltas), divided by `scale`. */
export function sums(deltas: readonly number[], scale = 1): Float64Array {
  const values = new Float64Array(deltas.length);
  let sum = 0;
  for (let i = 0; i < deltas.length; i++) {
    sum += deltas[i]!;
    values[i] = sum / scale;
  }
  return values;
}
