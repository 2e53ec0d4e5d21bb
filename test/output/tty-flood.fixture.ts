// Run under `script` (a real pseudo-terminal) whose output nobody reads: floods
// its terminal through the queue and writes its counts to the file named by
// NRICTL_REPORT, then exits. Modes: "async" switches terminal writes to asynchronous
// first; "sink" writes where `nrictl logs` does (nonBlockingStdout()); "sync" as Node does.
import { renameSync, writeFileSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { BoundedOutputQueue } from '../../src/output/bounded-queue.js';
import { makeTerminalWritesAsync } from '../../src/output/terminal-output.js';
import { nonBlockingStdout } from '../../src/output/stdout.js';

const mode = process.argv[2];
const switched = mode === 'async' ? makeTerminalWritesAsync(process.stdout) : false;
const out: Writable = mode === 'sink' ? nonBlockingStdout() : process.stdout;
const queue = new BoundedOutputQueue<number>(out, { capacity: 1000, render: (i) => `event ${i} ${'t'.repeat(300)}\n` });
let pushed = 0;
function burst(): void {
  for (let k = 0; k < 1000; k++) queue.push(pushed++);
  if (pushed < 50_000) setImmediate(burst);
  else setTimeout(report, 50);
}
function report(): void {
  // Written whole, then renamed into place: the test reads the report as soon as it
  // exists, and on a busy machine it found it half-written.
  const path = process.env.NRICTL_REPORT!;
  writeFileSync(
    `${path}.part`,
    JSON.stringify({
      pid: process.pid,
      isTTY: process.stdout.isTTY,
      switched,
      pushed: queue.pushed,
      written: queue.written,
      dropped: queue.dropped,
      pending: queue.pending,
    }),
  );
  renameSync(`${path}.part`, path);
  process.exit(0);
}
burst();
