// A small client of the Prometheus HTTP API: instant queries only (/api/v1/query), each
// with its own deadline and a bound on the answer it reads (src/http's bounded reader,
// which the runtime's metrics scrape shares), and an answer checked to be what Prometheus
// sends before anything in it is believed. Redirects are not followed: a 3xx is an answer
// that is not Prometheus' API.
import { boundedGet, BoundedGetError } from '../http/index.js';
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
  const maxBytes = opts.maxBytes ?? ANSWER_MAX_BYTES;
  let answer;
  try {
    answer = await boundedGet(url, {
      timeoutMs: opts.timeoutMs,
      maxBytes,
      signal: opts.signal,
      headers: { accept: 'application/json' },
    });
  } catch (err) {
    if (!(err instanceof BoundedGetError)) throw err;
    throw queryError(err, where, opts.timeoutMs, maxBytes);
  }
  return vectorOf(parseAnswer(answer.body, answer.status, where), where);
}

function queryError(err: BoundedGetError, where: string, timeoutMs: number, maxBytes: number): PrometheusError {
  const cause = { cause: err };
  switch (err.code) {
    case 'timeout':
      return new PrometheusError('timeout', `${where} did not answer within ${timeoutMs} ms (--timeout)`, cause);
    case 'cancelled':
      return new PrometheusError('cancelled', `cancelled while asking ${where}`, cause);
    case 'too-large':
      return new PrometheusError(
        'too-large',
        err.declaredBytes !== undefined
          ? `${where} answered ${err.declaredBytes} bytes, more than ${maxBytes}: not read`
          : `${where} answered more than ${maxBytes} bytes: not read`,
        cause,
      );
    case 'broken-off':
      return new PrometheusError('unreachable', `${where}: the answer broke off (${err.detail})`, cause);
    case 'unreachable':
      return new PrometheusError('unreachable', `cannot reach Prometheus at ${where}: ${err.detail}`, cause);
  }
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
