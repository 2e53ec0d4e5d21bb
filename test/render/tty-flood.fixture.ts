// Run under `script` (a real pseudo-terminal) whose output nobody reads: floods
// its terminal through the queue and writes its counts to the file named by
// NRICTL_REPORT. Passing "async" switches terminal writes to asynchronous first.
import { writeFileSync } from 'node:fs';
import { BoundedOutputQueue } from '../../src/render/bounded-queue.js';
import { makeTerminalWritesAsync } from '../../src/render/terminal-output.js';

const switched = process.argv[2] === 'async' ? makeTerminalWritesAsync(process.stdout) : false;
const queue = new BoundedOutputQueue<number>(process.stdout, { capacity: 1000, render: (i) => `event ${i} ${'t'.repeat(300)}\n` });
let pushed = 0;
function burst(): void {
  for (let k = 0; k < 1000; k++) queue.push(pushed++);
  if (pushed < 50_000) setImmediate(burst);
  else setTimeout(report, 50);
}
function report(): void {
  writeFileSync(process.env.NRICTL_REPORT!, JSON.stringify({ isTTY: process.stdout.isTTY, switched, pushed: queue.pushed, written: queue.written, dropped: queue.dropped, pending: queue.pending }));
  process.exit(0);
}
burst();
