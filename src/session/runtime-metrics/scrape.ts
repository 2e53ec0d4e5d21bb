// One scrape of a runtime's metrics endpoint: a plain HTTP GET with a deadline on the
// whole exchange and a bound on the body, as every call nrictl makes to a runtime has.
import { request } from 'node:http';
import type { ErrorKind } from '../../errors/index.js';
import { excerpt } from '../../units/index.js';
import { ExpositionError, parseExposition, type Sample } from './exposition.js';

/** containerd's whole default registry is some 100 KiB; a page past this is not a metrics page. */
const SCRAPE_MAX_BYTES = 8 * 1024 * 1024;
const SCRAPE_TIMEOUT_MS = 5000;

export type MetricsErrorCode =
  'bad-url' | 'unreachable' | 'timeout' | 'http-status' | 'too-large' | 'malformed' | 'cancelled';

const KIND: Record<MetricsErrorCode, ErrorKind> = {
  'bad-url': 'usage',
  unreachable: 'connect',
  timeout: 'timeout',
  'http-status': 'failed',
  'too-large': 'failed',
  malformed: 'failed',
  cancelled: 'failed',
};

/** The metrics endpoint could not be read: why, as a code, and the kind that sets the exit status. */
export class RuntimeMetricsError extends Error {
  override readonly name = 'RuntimeMetricsError';
  readonly kind: ErrorKind;
  readonly option = 'metricsUrl';
  constructor(
    readonly code: MetricsErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.kind = KIND[code];
  }
}

/** "127.0.0.1:1338" (containerd's [metrics] address) or a URL, as the URL of the metrics page (/v1/metrics unless a path is given). */
export function metricsUrl(addressOrUrl: string): URL {
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(addressOrUrl) ? addressOrUrl : `http://${addressOrUrl}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new RuntimeMetricsError('bad-url', `"${excerpt(addressOrUrl)}" is not a URL nor a HOST:PORT address`);
  }
  if (url.protocol !== 'http:')
    throw new RuntimeMetricsError('bad-url', `${url.protocol} is not served by runtimes: give an http:// URL`);
  if (url.pathname === '/') url.pathname = '/v1/metrics';
  return url;
}

export interface ScrapeOptions {
  timeoutMs?: number | undefined;
  maxBytes?: number | undefined;
  signal?: AbortSignal | undefined;
}

/** The samples of one scrape. Throws RuntimeMetricsError. */
export async function scrapeMetrics(url: URL, opts: ScrapeOptions = {}): Promise<Sample[]> {
  const text = await fetchText(url, opts);
  try {
    return parseExposition(text);
  } catch (err) {
    if (!(err instanceof ExpositionError)) throw err;
    throw new RuntimeMetricsError('malformed', `${url.href} is not a Prometheus text page (${err.message})`, {
      cause: err,
    });
  }
}

function fetchText(url: URL, opts: ScrapeOptions): Promise<string> {
  const timeoutMs = opts.timeoutMs ?? SCRAPE_TIMEOUT_MS;
  const maxBytes = opts.maxBytes ?? SCRAPE_MAX_BYTES;
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (err: RuntimeMetricsError | undefined, text?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      req.destroy();
      if (err) reject(err);
      else resolve(text!);
    };
    const onAbort = () => finish(new RuntimeMetricsError('cancelled', `cancelled while reading ${url.href}`));
    const timer = setTimeout(
      () => finish(new RuntimeMetricsError('timeout', `${url.href} did not answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const req = request(url, { method: 'GET', headers: { accept: 'text/plain; version=0.0.4' } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        const why = `${url.href} answered HTTP ${res.statusCode ?? '?'}${res.statusCode === 404 ? ': no metrics served there' : ''}`;
        finish(new RuntimeMetricsError('http-status', why));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          finish(new RuntimeMetricsError('too-large', `${url.href} sent more than ${maxBytes} bytes: not read`));
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => finish(undefined, Buffer.concat(chunks).toString('utf8')));
      res.on('error', (err) =>
        finish(new RuntimeMetricsError('unreachable', `${url.href}: the answer broke off (${err.message})`)),
      );
    });
    req.on('error', (err: NodeJS.ErrnoException) =>
      finish(
        new RuntimeMetricsError('unreachable', `cannot read ${url.href}: ${err.code ?? err.message}`, { cause: err }),
      ),
    );
    if (opts.signal?.aborted) onAbort();
    else opts.signal?.addEventListener('abort', onAbort, { once: true });
    req.end();
  });
}
