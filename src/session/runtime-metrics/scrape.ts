// One scrape of a runtime's metrics endpoint: a plain HTTP GET with a deadline on the
// whole exchange and a bound on the body, as every call nrictl makes to a runtime has
// (the bounded reader of src/http, which fleet's Prometheus client shares).
import type { ErrorKind } from '../../errors/index.js';
import { boundedGet, BoundedGetError } from '../../http/index.js';
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

async function fetchText(url: URL, opts: ScrapeOptions): Promise<string> {
  const timeoutMs = opts.timeoutMs ?? SCRAPE_TIMEOUT_MS;
  const maxBytes = opts.maxBytes ?? SCRAPE_MAX_BYTES;
  let answer;
  try {
    answer = await boundedGet(url, {
      timeoutMs,
      maxBytes,
      signal: opts.signal,
      headers: { accept: 'text/plain; version=0.0.4' },
    });
  } catch (err) {
    if (!(err instanceof BoundedGetError)) throw err;
    throw scrapeError(err, url, timeoutMs, maxBytes);
  }
  if (answer.status !== 200)
    throw new RuntimeMetricsError(
      'http-status',
      `${url.href} answered HTTP ${answer.status}${answer.status === 404 ? ': no metrics served there' : ''}`,
    );
  return answer.body;
}

function scrapeError(err: BoundedGetError, url: URL, timeoutMs: number, maxBytes: number): RuntimeMetricsError {
  const cause = { cause: err };
  switch (err.code) {
    case 'cancelled':
      return new RuntimeMetricsError('cancelled', `cancelled while reading ${url.href}`, cause);
    case 'timeout':
      return new RuntimeMetricsError('timeout', `${url.href} did not answer within ${timeoutMs} ms`, cause);
    case 'too-large':
      return new RuntimeMetricsError('too-large', `${url.href} sent more than ${maxBytes} bytes: not read`, cause);
    case 'broken-off':
      return new RuntimeMetricsError('unreachable', `${url.href}: the answer broke off (${err.detail})`, cause);
    case 'unreachable':
      return new RuntimeMetricsError('unreachable', `cannot read ${url.href}: ${err.detail}`, cause);
  }
}
