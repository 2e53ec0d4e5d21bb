// How long `nrictl sync dump` spends rendering its table for a large node: 1,000
// pods with 5,000 containers, table and wide, through cli-table3. Prints figures.
import { renderStateTable } from '../src/views/state-table.js';
import { renderDocument } from '../src/output/format.js';
import { syntheticState } from '../test/views/fixtures.js';

const { pods, containers } = syntheticState(1000, 5);

function measure(label: string, fn: () => string, runs = 5): void {
  fn(); // warm the JIT
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    bytes = fn().length;
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  times.sort((a, b) => a - b);
  console.log(
    `${label}: median ${times[Math.floor(runs / 2)].toFixed(1)} ms, min ${times[0].toFixed(1)} ms, ${bytes} chars`,
  );
}

console.log(`state: ${pods.length} pods, ${containers.length} containers`);
const cold0 = process.hrtime.bigint();
renderStateTable(pods, containers);
console.log(`table (first call, cold): ${(Number(process.hrtime.bigint() - cold0) / 1e6).toFixed(1)} ms`);
measure('table', () => renderStateTable(pods, containers));
measure('wide', () => renderStateTable(pods, containers, { wide: true }));
measure('json document', () => renderDocument({ pods, containers }, 'json'));
measure('yaml document', () => renderDocument({ pods, containers }, 'yaml'), 3);
