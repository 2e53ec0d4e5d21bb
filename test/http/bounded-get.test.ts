// The one bounded HTTP GET that the runtime's metrics scrape and fleet's Prometheus client
// share, against real HTTP servers on 127.0.0.1: a deadline on the whole exchange (a
// server that trickles its answer past it included), a bound on the body declared or
// read, the caller's signal, and each failure as its code.
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { boundedGet, BoundedGetError } from '../../src/http/index.js';

async function serve(handler: RequestListener): Promise<{ url: URL; close(): Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/page`);
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const failure = (p: Promise<unknown>): Promise<BoundedGetError> =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (err: unknown) => {
      expect(err).toBeInstanceOf(BoundedGetError);
      return err as BoundedGetError;
    },
  );

const opts = { timeoutMs: 2000, maxBytes: 1024 };

describe('boundedGet', () => {
  it('gives the status and the body, any status, and sends the headers asked', async () => {
    let accept: string | undefined;
    const s = await serve((req, res) => {
      accept = req.headers.accept;
      res.statusCode = req.url === '/page' ? 200 : 404;
      res.end(req.url === '/page' ? 'x 1\n' : 'nothing here');
    });
    try {
      expect(await boundedGet(s.url, { ...opts, headers: { accept: 'text/plain' } })).toEqual({
        status: 200,
        body: 'x 1\n',
      });
      expect(accept).toBe('text/plain');
      expect(await boundedGet(new URL('/other', s.url), opts)).toEqual({ status: 404, body: 'nothing here' });
    } finally {
      await s.close();
    }
  });

  it('a redirect is an answer, not followed', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' });
      res.end();
    });
    try {
      expect((await boundedGet(s.url, opts)).status).toBe(302);
    } finally {
      await s.close();
    }
  });

  it('a body declared past the bound is not read; one that grows past it is cut off', async () => {
    const s = await serve((req, res) => {
      if (req.url === '/page') {
        res.setHeader('content-length', 5000);
        res.end('y'.repeat(5000));
      } else {
        res.write('z'.repeat(800));
        res.end('z'.repeat(800)); // chunked: no length declared
      }
    });
    try {
      expect(await failure(boundedGet(s.url, opts))).toMatchObject({ code: 'too-large', declaredBytes: 5000 });
      const grown = await failure(boundedGet(new URL('/chunked', s.url), opts));
      expect(grown).toMatchObject({ code: 'too-large', declaredBytes: undefined });
    } finally {
      await s.close();
    }
  });

  it('the deadline covers the whole exchange: a server that never answers, or trickles, ends on time', async () => {
    const s = await serve((req, res) => {
      if (req.url === '/page') return; // accepts, never answers
      res.writeHead(200);
      const t = setInterval(() => res.write('.'), 50);
      res.on('close', () => clearInterval(t));
    });
    try {
      for (const path of ['/page', '/trickle']) {
        const started = Date.now();
        const err = await failure(boundedGet(new URL(path, s.url), { ...opts, timeoutMs: 300 }));
        expect(err).toMatchObject({ code: 'timeout', kind: 'timeout' });
        expect(Date.now() - started).toBeGreaterThanOrEqual(290);
        expect(Date.now() - started).toBeLessThan(2000);
      }
    } finally {
      await s.close();
    }
  });

  it('the caller cancels: before the request, or while it waits', async () => {
    const s = await serve(() => {});
    try {
      const early = new AbortController();
      early.abort();
      expect(await failure(boundedGet(s.url, { ...opts, signal: early.signal }))).toMatchObject({ code: 'cancelled' });
      const later = new AbortController();
      setTimeout(() => later.abort(), 50);
      expect(await failure(boundedGet(s.url, { ...opts, signal: later.signal }))).toMatchObject({
        code: 'cancelled',
        kind: 'failed',
      });
    } finally {
      await s.close();
    }
  });

  it('nothing listening: unreachable, with the system code; an answer that breaks off: broken-off', async () => {
    const s = await serve((req, res) => {
      res.writeHead(200, { 'content-length': 100 });
      res.write('half');
      setTimeout(() => req.socket.destroy(), 20);
    });
    try {
      expect(await failure(boundedGet(s.url, opts))).toMatchObject({ code: 'broken-off' });
    } finally {
      await s.close();
    }
    expect(await failure(boundedGet(s.url, opts))).toMatchObject({
      code: 'unreachable',
      detail: 'ECONNREFUSED',
      kind: 'connect',
    });
  });
});
