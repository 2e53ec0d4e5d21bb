// Reading a /metrics endpoint in tests: an HTTP GET, and a parser of the Prometheus text
// exposition format strict enough to reject what Prometheus would.
import http from 'node:http';
import { expect } from 'vitest';

/** The Prometheus text exposition format, strictly enough to reject what Prometheus would. */
export function parsePrometheusText(text: string): {
  types: Map<string, string>;
  samples: Array<{ name: string; labels: Record<string, string>; value: number }>;
} {
  const types = new Map<string, string>();
  const samples: Array<{ name: string; labels: Record<string, string>; value: number }> = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const meta = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/.exec(line);
    if (meta) {
      if (meta[1] === 'TYPE') {
        expect(['counter', 'gauge', 'histogram', 'summary', 'untyped']).toContain(meta[3]);
        types.set(meta[2], meta[3]);
      }
      continue;
    }
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{((?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*",?)*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not Prometheus text format: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]] = l[2]!;
    const value = m[3] === '+Inf' ? Infinity : Number(m[3]);
    if (Number.isNaN(value)) throw new Error(`bad sample value: ${line}`);
    samples.push({ name: m[1], labels, value });
  }
  return { types, samples };
}

export const get = (url: string): Promise<{ status: number; type: string; body: string }> =>
  new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }));
      })
      .on('error', reject);
  });
