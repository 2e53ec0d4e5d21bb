// What one look beyond CRI costs on this machine (conformance's last sweep and
// run-pod/hook-error-leaves-nothing make one): every process's command line and cgroup
// from /proc, and the cgroup directories under /sys/fs/cgroup, for 200 ids nobody has.
// Prints the median and range of 9 looks after one not counted, and what was read.
import { randomBytes } from 'node:crypto';
import { openProcNode } from '../src/conformance/node-proc.js';
import { lookOnNode } from '../src/conformance/node-view.js';

const RUNS = 9;
const ids = Array.from({ length: 200 }, () => randomBytes(32).toString('hex'));
// A runtime name without a process to look for: the look runs wherever the bench does.
const node = openProcNode({ runtimeName: 'nrictl-bench' });
if (node.unavailable !== undefined) {
  console.log(`node look: cannot look here: ${node.unavailable}`);
  process.exit(0);
}
const processes = node.processes().length;
const times: number[] = [];
for (let i = 0; i <= RUNS; i++) {
  const t = performance.now();
  const look = lookOnNode(node, ids);
  if (i > 0) times.push(performance.now() - t);
  if (look.checked && look.found.length > 0) console.log(`unexpected: ${look.found.length} found`);
}
times.sort((a, b) => a - b);
const f = (ms: number): string => `${ms.toFixed(1)} ms`;
console.log(
  `node look, ${processes} processes, 200 ids: median ${f(times[RUNS >> 1])} (${f(times[0])}-${f(times[RUNS - 1])})`,
);
