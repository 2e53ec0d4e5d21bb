// Run by bounded-queue.test.ts as a child process whose stdout is a pipe that the
// parent never reads: pushes 100,000 events through the queue into the real
// process.stdout, then reports its counts on stderr as one JSON line.
import { BoundedOutputQueue } from '../../src/output/bounded-queue.js';

const queue = new BoundedOutputQueue<number>(process.stdout, {
  capacity: 1000,
  render: (i) => `event ${i} ${'y'.repeat(300)}\n`,
});
let ticks = 0;
let blocked = false;
const ticker = setInterval(() => {
  if (process.stdout.writableNeedDrain) {
    blocked = true;
    ticks++;
  }
}, 1);
let pushed = 0;
function burst(): void {
  for (let k = 0; k < 1000; k++) {
    queue.push(pushed++);
  }
  if (pushed < 100_000) setImmediate(burst);
  else setTimeout(report, 50);
}
function report(): void {
  clearInterval(ticker);
  process.stderr.write(
    `${JSON.stringify({ pushed: queue.pushed, written: queue.written, dropped: queue.dropped, pending: queue.pending, ticks, blocked })}\n`,
  );
}
burst();
