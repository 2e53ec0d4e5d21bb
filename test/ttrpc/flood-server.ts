// A ttrpc echo server in a process of its own, so that a test can read its memory. It
// listens on argv[2], says "ready" on stdout, and on SIGTERM prints its peak RSS and
// the RSS it had when ready, as JSON, then exits.
import net from 'node:net';
import { TtrpcServer } from '../../src/ttrpc/index.js';

const server = new TtrpcServer();
server.register('flood.v1.Echo', 'Echo', (payload) => payload);
const listener = net.createServer((sock) => {
  sock.on('error', () => undefined);
  server.serve(sock);
});
listener.listen(process.argv[2], () => {
  global.gc?.();
  const readyRss = process.memoryUsage().rss;
  process.stdout.write('ready\n');
  process.on('SIGTERM', () => {
    process.stdout.write(`${JSON.stringify({ readyRss, maxRss: process.resourceUsage().maxRSS * 1024 })}\n`);
    process.exit(0);
  });
});
