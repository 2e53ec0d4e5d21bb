// Experiment (node --import this before bin/run.js): nrictl sim writes each event line
// with its own process.stdout.write, one write(2) per line on a pipe or file. This
// gathers the lines of one event-loop turn and writes them at once (setImmediate), to
// measure what batching the event output would give. Write callbacks run at once.
import { writeSync } from 'node:fs';

const write = process.stdout.write.bind(process.stdout);
let pending = [];
const flush = () => {
  const text = pending.join('');
  pending = [];
  write(text);
};
process.stdout.write = (chunk, encoding, callback) => {
  if (pending.length === 0) setImmediate(flush);
  pending.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString());
  const done = typeof encoding === 'function' ? encoding : callback;
  done?.();
  return true;
};
process.on('exit', () => {
  if (pending.length > 0) writeSync(1, pending.join(''));
});
