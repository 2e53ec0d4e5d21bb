// The /metrics endpoint: plain node:http, one route, bounded work per scrape.
import type { ErrorKind } from '../errors/index.js';
import type { Registry } from 'prom-client';

export class MetricsAddressError extends Error {
  override readonly name = 'MetricsAddressError';
  readonly kind: ErrorKind = 'usage';
}

/** "HOST:PORT", "[::1]:9464" or ":9464" (every interface). */
function parseMetricsAddress(text: string): { host: string | undefined; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(text.trim());
  const port = m ? Number(m[3]) : NaN;
  if (!m || !(port >= 0 && port <= 65535)) {
    throw new MetricsAddressError(
      `--metrics-addr "${text}" is not HOST:PORT; write e.g. --metrics-addr 127.0.0.1:9464 or --metrics-addr :9464`,
    );
  }
  const host = m[1] ?? m[2];
  return { host: host === '' ? undefined : host, port };
}

export interface MetricsServer {
  /** "http://127.0.0.1:9464/metrics", with the port actually bound. */
  url: string;
  close(): Promise<void>;
}

export async function serveMetrics(registry: Registry, address: string): Promise<MetricsServer> {
  const { host, port } = parseMetricsAddress(address);
  // Loaded here: every command that renders would otherwise load Node's HTTP server.
  const http = await import('node:http');
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '/').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('nrictl serves /metrics only\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (err: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`${err.message}\n`),
    );
  });
  server.requestTimeout = 10_000;
  server.headersTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        new MetricsAddressError(
          `--metrics-addr ${address}: cannot listen (${err.code ?? err.message}); choose another address or port`,
          { cause: err },
        ),
      ),
    );
    server.listen(port, host, () => resolve());
  });
  server.unref();
  const bound = server.address();
  const boundPort = typeof bound === 'object' && bound ? bound.port : port;
  const shownHost = host === undefined ? '0.0.0.0' : host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${boundPort}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
