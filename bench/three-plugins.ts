// For trace.bench.ts: three SDK plugins at indexes 20, 40 and 60 in one process, each
// answering CreateContainer at once (40 adds an annotation, so trace has something to
// attribute). Usage: three-plugins.ts SOCKET
import { Stub } from '../src/plugin/index.js';

const [socketPath] = process.argv.slice(2);
const stubs = [
  new Stub({ createContainer: () => undefined }, { socketPath, name: 'first', index: '20' }),
  new Stub(
    { createContainer: () => ({ adjust: { annotations: { 'bench/seen': 'yes' } } }) },
    { socketPath, name: 'second', index: '40' },
  ),
  new Stub({ createContainer: () => undefined }, { socketPath, name: 'third', index: '60' }),
];
await Promise.all(stubs.map((s) => s.start()));
process.on('SIGTERM', () => void Promise.all(stubs.map((s) => s.stop())).then(() => process.exit(0)));
