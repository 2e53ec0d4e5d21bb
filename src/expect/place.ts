// Where in a scenario's script each expectation is judged.
import { ExpectationError, type Expectation, type ExpectationFile } from './file.js';

/**
 * Which step (0-based) each expectation follows, given the steps' names ("create ctr-web",
 * as the simulator names them); a name that fits none or several is an error, found
 * before anything runs.
 */
export function placeExpectations(spec: ExpectationFile, labels: readonly string[]): Map<number, Expectation[]> {
  const placed = new Map<number, Expectation[]>();
  for (const e of spec.expectations) {
    let index: number;
    if (typeof e.after === 'number') {
      if (e.after > labels.length)
        throw new ExpectationError(
          `${spec.file}: ${e.where}.after: step ${e.after} does not exist (the scenario has ${labels.length})`,
          spec.file,
        );
      index = e.after - 1;
    } else {
      const hits = labels.flatMap((l, i) => (l === e.after ? [i] : []));
      if (hits.length === 0)
        throw new ExpectationError(
          `${spec.file}: ${e.where}.after: no step "${e.after}" (steps: ${labels.join(', ') || 'none'})`,
          spec.file,
        );
      if (hits.length > 1)
        throw new ExpectationError(
          `${spec.file}: ${e.where}.after: "${e.after}" names steps ${hits.map((h) => h + 1).join(', ')}; use the number`,
          spec.file,
        );
      index = hits[0]!;
    }
    placed.set(index, [...(placed.get(index) ?? []), e]);
  }
  return placed;
}
