// A ttrpc echo server in a process of its own, so that a test can read its memory. It
// listens on argv[2], says "ready" on stdout, and on SIGTERM prints, as JSON, the memory
// it held when ready and what it holds now, each after a full garbage collection (run
// it with --expose-gc): the V8 heap in use and the memory outside it, where Buffers are.
// Not the peak RSS: dead Buffers wait for a collection that V8 starts only once some
// 64 MiB of them have piled up, so the peak says more about the collector than the server.
import net from 'node:net';
import { TtrpcServer } from '../../src/ttrpc/index.js';

function held(): number {
  if (!global.gc) throw new Error('run the flood server with --expose-gc');
  global.gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

const server = new TtrpcServer();
server.register('flood.v1.Echo', 'Echo', (payload) => payload);
const listener = net.createServer((sock) => {
  sock.on('error', () => undefined);
  server.serve(sock);
});
listener.listen(process.argv[2], () => {
  const ready = held();
  process.stdout.write('ready\n');
  process.on('SIGTERM', () => {
    process.stdout.write(`${JSON.stringify({ ready, now: held() })}\n`);
    process.exit(0);
  });
});
