// A small client of the Prometheus HTTP API: instant queries only (/api/v1/query), each
// with its own deadline and a bound on the answer it reads, and an answer checked to be
// what Prometheus sends before anything in it is believed.
import { excerpt } from '../units/index.js';
import { PrometheusError } from './errors.js';

/** 100 nodes' answers are some tens of KiB; an answer past this is not one fleet asked for. */
const ANSWER_MAX_BYTES = 16 * 1024 * 1024;

/** One series of an instant vector: its labels, its value, and the time Prometheus gave it. */
export interface VectorSample {
  labels: Record<string, string>;
  value: number;
  /** Unix seconds. */
  time: number;
}

export interface QueryOptions {
  timeoutMs: number;
  /** Evaluation time, unix seconds: every query of one fleet read sees the same instant. */
  time: number;
  signal?: AbortSignal | undefined;
  maxBytes?: number | undefined;
}

/** The Prometheus at a URL (its root, or a path prefix it is served under). */
export function prometheusUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`);
  } catch {
    throw new PrometheusError(
      'bad-url',
      `"${excerpt(text)}" is not a URL: give Prometheus' address, such as http://prometheus:9090`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new PrometheusError('bad-url', `${url.protocol} is not Prometheus' scheme: give an http:// or https:// URL`);
  if (url.search || url.hash)
    throw new PrometheusError('bad-url', `${url.href}: give Prometheus' root URL, without a query or fragment`);
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

/** An instant query's vector. Throws PrometheusError. */
export async function instantQuery(base: URL, promql: string, opts: QueryOptions): Promise<VectorSample[]> {
  const url = new URL('api/v1/query', base);
  url.searchParams.set('query', promql);
  url.searchParams.set('time', opts.time.toFixed(3));
  const where = `${base.origin}${base.pathname}`;
  const deadline = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, deadline]) : deadline;
  let body: string;
  let status: number;
  try {
    const res = await fetch(url, { signal, headers: { accept: 'application/json' }, redirect: 'error' });
    status = res.status;
    body = await boundedText(res, opts.maxBytes ?? ANSWER_MAX_BYTES, where);
  } catch (err) {
    throw fetchError(err, where, opts, deadline);
  }
  return vectorOf(parseAnswer(body, status, where), where);
}

async function boundedText(res: Response, maxBytes: number, where: string): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) {
    await res.body?.cancel();
    throw new PrometheusError('too-large', `${where} answered ${declared} bytes, more than ${maxBytes}: not read`);
  }
  if (!res.body) return '';
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new PrometheusError('too-large', `${where} answered more than ${maxBytes} bytes: not read`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function fetchError(err: unknown, where: string, opts: QueryOptions, deadline: AbortSignal): PrometheusError {
  if (err instanceof PrometheusError) return err;
  if (deadline.aborted)
    return new PrometheusError('timeout', `${where} did not answer within ${opts.timeoutMs} ms (--timeout)`, {
      cause: err,
    });
  if (opts.signal?.aborted) return new PrometheusError('cancelled', `cancelled while asking ${where}`, { cause: err });
  const cause = (err as { cause?: NodeJS.ErrnoException }).cause;
  const why = cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
  return new PrometheusError('unreachable', `cannot reach Prometheus at ${where}: ${why}`, { cause: err });
}

interface ApiAnswer {
  status: 'success' | 'error';
  data?: { resultType?: unknown; result?: unknown };
  errorType?: unknown;
  error?: unknown;
}

function parseAnswer(body: string, status: number, where: string): ApiAnswer {
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch {
    const what = status === 200 ? 'an answer that is not JSON' : `HTTP ${status}`;
    throw new PrometheusError('not-prometheus', `${where} is not Prometheus' HTTP API: ${what} to /api/v1/query`);
  }
  const answer = doc as Partial<ApiAnswer> | null;
  if (typeof answer !== 'object' || answer === null || (answer.status !== 'success' && answer.status !== 'error'))
    throw new PrometheusError(
      'not-prometheus',
      `${where} is not Prometheus' HTTP API: its answer to /api/v1/query has no "status"${status === 200 ? '' : ` (HTTP ${status})`}`,
    );
  if (answer.status === 'error')
    throw new PrometheusError(
      'query-refused',
      `Prometheus at ${where} refused the query (${excerpt(textOf(answer.errorType ?? 'error'))}: ${excerpt(textOf(answer.error ?? ''))})`,
    );
  if (status !== 200) throw new PrometheusError('http-status', `${where} answered HTTP ${status} to /api/v1/query`);
  return answer as ApiAnswer;
}

function vectorOf(answer: ApiAnswer, where: string): VectorSample[] {
  const bad = (why: string) =>
    new PrometheusError(
      'not-prometheus',
      `${where} is not Prometheus' HTTP API: ${why} in its answer to /api/v1/query`,
    );
  if (answer.data?.resultType !== 'vector')
    throw bad(`result type ${excerpt(String(answer.data?.resultType))}, not vector`);
  const result = answer.data.result;
  if (!Array.isArray(result)) throw bad('no result list');
  return result.map((r: unknown) => {
    const { metric, value } = (r ?? {}) as { metric?: unknown; value?: unknown };
    if (typeof metric !== 'object' || metric === null || !Array.isArray(value) || value.length !== 2)
      throw bad('a series without labels or value');
    const labels: Record<string, string> = {};
    for (const [k, v] of Object.entries(metric)) if (typeof v === 'string') labels[k] = v;
    const [time, text] = value as [unknown, unknown];
    if (typeof time !== 'number' || typeof text !== 'string') throw bad('a sample that is not [time, "value"]');
    return { labels, value: sampleValue(text), time };
  });
}

/** Prometheus writes infinities as Go does. */
function sampleValue(text: string): number {
  if (text === '+Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  return Number(text);
}

const textOf = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));
