// The fuzz targets (targets.ts), each a few hundred runs in `npm test`; `npm run fuzz`
// runs the same properties for as long as asked. A failure prints fast-check's seed and
// path: `npm run fuzz -- --target "<name>" --seed <seed> --path <path>` replays it.
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { TARGETS } from './targets.js';

describe('fuzz targets (a short run; npm run fuzz for a long one)', () => {
  for (const t of TARGETS) {
    it(t.name, () => {
      fc.assert(t.property(), { numRuns: t.ciRuns });
    });
  }
});
