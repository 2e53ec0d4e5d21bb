import type net from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  Code,
  FrameDecoder,
  MessageType,
  TtrpcClient,
  TtrpcClosedError,
  TtrpcError,
  TtrpcProtocolError,
  TtrpcServer,
  decodeResponse,
  encodeFrame,
  encodeRequest,
  type HandlerContext,
  type TtrpcClientOptions,
  type TtrpcResponse,
} from '../../src/ttrpc/index.js';
import { connectClient, connectRaw, deferred, listen, once, rawPeer } from './helpers.js';

const SVC = 'example.v1.Things';
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(server: TtrpcServer, clientOpts?: TtrpcClientOptions) {
  const l = await listen(server);
  cleanups.push(() => l.close());
  const client = await connectClient(l.path, clientOpts);
  cleanups.push(() => client.close());
  return { l, client };
}

function echoServer(opts?: { maxMessageLength?: number }): TtrpcServer {
  const s = new TtrpcServer(opts);
  s.register(SVC, 'Echo', (p) => p);
  return s;
}

/** Reads ttrpc responses a raw socket receives. */
function responses(sock: net.Socket): { next(): Promise<{ streamId: number; resp: TtrpcResponse }> } {
  const decoder = new FrameDecoder();
  const queue: Array<{ streamId: number; resp: TtrpcResponse }> = [];
  const waiters: Array<() => void> = [];
  sock.on('data', (chunk: Buffer) => {
    for (const f of decoder.push(chunk)) {
      queue.push({ streamId: f.header.streamId, resp: decodeResponse(f.payload) });
      waiters.shift()?.();
    }
  });
  return {
    async next() {
      while (queue.length === 0) await new Promise<void>((r) => waiters.push(r));
      return queue.shift()!;
    },
  };
}

function rawRequest(
  streamId: number,
  method: string,
  opts: { timeoutNano?: number; flags?: number; type?: MessageType } = {},
) {
  const body = encodeRequest({
    service: SVC,
    method,
    payload: Buffer.from('x'),
    timeoutNano: opts.timeoutNano ?? 0,
    metadata: [],
  });
  return encodeFrame(streamId, opts.type ?? MessageType.Request, body, opts.flags ?? 0);
}

describe('ttrpc client and server over a unix socket', () => {
  it('answers many concurrent calls out of order, each with its own payload', async () => {
    const server = new TtrpcServer();
    const gates = new Map<string, ReturnType<typeof deferred<void>>>();
    server.register(SVC, 'Slow', async (p) => {
      const gate = deferred<void>();
      gates.set(p.toString(), gate);
      await gate.promise;
      return Buffer.from(`answer to ${p.toString()}`);
    });
    const { client } = await setup(server);
    const names = Array.from({ length: 20 }, (_, i) => `call-${i}`);
    const finished: string[] = [];
    const calls = names.map((n) =>
      client.call(SVC, 'Slow', Buffer.from(n)).then((b) => {
        finished.push(n);
        return b.toString();
      }),
    );
    while (gates.size < names.length) await new Promise((r) => setTimeout(r, 5));
    for (const n of [...names].reverse()) {
      gates.get(n)!.resolve();
      await new Promise((r) => setTimeout(r, 1));
    }
    expect(await Promise.all(calls)).toEqual(names.map((n) => `answer to ${n}`));
    expect(finished).toEqual([...names].reverse());
  });

  it('sends each method its own name, past the number of method names a client keeps encoded', async () => {
    const server = new TtrpcServer();
    const methods = Array.from({ length: 300 }, (_, i) => `M${i}`);
    for (const m of methods) server.register(SVC, m, (_p, ctx) => Buffer.from(ctx.method));
    server.register('other.v1.Service', 'M0', () => Buffer.from('other'));
    const { client } = await setup(server);
    // Twice round: the second time the first 256 names come from the client's cache.
    for (let round = 0; round < 2; round++) {
      const answers = await Promise.all(methods.map((m) => client.call(SVC, m, Buffer.alloc(0))));
      expect(answers.map((b) => b.toString())).toEqual(methods);
    }
    expect((await client.call('other.v1.Service', 'M0', Buffer.alloc(0))).toString()).toBe('other');
  });

  it('carries metadata both ways round', async () => {
    const server = new TtrpcServer();
    let seen: HandlerContext | undefined;
    server.register(SVC, 'Meta', (_p, ctx) => {
      seen = ctx;
      return Buffer.from(JSON.stringify(ctx.metadata));
    });
    const { client } = await setup(server);
    const md = { 'x-trace': 'abc', empty: '', ünïcode: 'välue' };
    const back = await client.call(SVC, 'Meta', Buffer.alloc(0), { metadata: md });
    expect(JSON.parse(back.toString())).toEqual(md);
    expect(seen).toMatchObject({ service: SVC, method: 'Meta' });
    expect(seen!.deadline).toBeUndefined();
  });

  it('answers an unknown service or method with Unimplemented naming it', async () => {
    const { client } = await setup(echoServer());
    const m = await client.call(SVC, 'Nope', Buffer.alloc(0)).catch((e: unknown) => e);
    expect(m).toBeInstanceOf(TtrpcError);
    expect(m).toMatchObject({ code: Code.Unimplemented, service: SVC, method: 'Nope' });
    expect((m as TtrpcError).statusMessage).toContain('method Nope of service example.v1.Things');
    const s = await client.call('other.Svc', 'Echo', Buffer.alloc(0)).catch((e: unknown) => e);
    expect(s).toMatchObject({ code: Code.Unimplemented });
    expect((s as Error).message).toContain('service other.Svc');
  });

  it('carries a handler status error back with its code and message; other throws become Unknown', async () => {
    const server = new TtrpcServer();
    server.register(SVC, 'Missing', () => {
      throw new TtrpcError(Code.NotFound, 'container c1 not found');
    });
    server.register(SVC, 'Boom', async () => {
      throw new Error('boom');
    });
    server.register(SVC, 'Str', () => {
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- what a careless handler does
      throw 'a string';
    });
    server.register(SVC, 'NotBytes', () => 42 as unknown as Uint8Array);
    const { client } = await setup(server);
    const missing = (await client.call(SVC, 'Missing', Buffer.alloc(0)).catch((e: unknown) => e)) as TtrpcError;
    expect(missing).toBeInstanceOf(TtrpcError);
    expect(missing.code).toBe(Code.NotFound);
    expect(missing.statusMessage).toBe('container c1 not found');
    expect(missing.message).toBe(`${SVC}/Missing: NotFound: container c1 not found`);
    await expect(client.call(SVC, 'Boom', Buffer.alloc(0))).rejects.toMatchObject({
      code: Code.Unknown,
      statusMessage: 'boom',
    });
    await expect(client.call(SVC, 'Str', Buffer.alloc(0))).rejects.toMatchObject({
      code: Code.Unknown,
      statusMessage: 'a string',
    });
    await expect(client.call(SVC, 'NotBytes', Buffer.alloc(0))).rejects.toMatchObject({ code: Code.Internal });
    expect(client.closed).toBe(false);
  });

  it('fails a call with DeadlineExceeded when no answer comes in time, and aborts the handler', async () => {
    const server = new TtrpcServer();
    const aborted = deferred<{ reason: unknown; deadline: number | undefined }>();
    server.register(SVC, 'Hang', (_p, ctx) => {
      ctx.signal.addEventListener('abort', () =>
        aborted.resolve({ reason: ctx.signal.reason, deadline: ctx.deadline }),
      );
      return new Promise<Uint8Array>(() => {});
    });
    server.register(SVC, 'Echo', (p) => p);
    const { client } = await setup(server);
    const before = Date.now();
    const err = (await client
      .call(SVC, 'Hang', Buffer.alloc(0), { timeoutMs: 60 })
      .catch((e: unknown) => e)) as TtrpcError;
    expect(err).toBeInstanceOf(TtrpcError);
    expect(err.code).toBe(Code.DeadlineExceeded);
    expect(err.message).toContain(`${SVC}/Hang`);
    const seen = await aborted.promise;
    expect(seen.reason).toMatchObject({ code: Code.DeadlineExceeded });
    expect(seen.deadline).toBeGreaterThanOrEqual(before);
    // the connection outlives the timed-out call
    expect((await client.call(SVC, 'Echo', Buffer.from('ok'))).toString()).toBe('ok');
  });

  it('holds each call to its own deadline, whatever the others in flight: a later, shorter one fails first; one answered in time never fails', async () => {
    const server = new TtrpcServer();
    // Answers when told to, so the test decides which call beats its deadline.
    const release = new Map<string, (p: Uint8Array) => void>();
    server.register(
      SVC,
      'Wait',
      (p) => new Promise<Uint8Array>((resolve) => release.set(Buffer.from(p).toString(), resolve)),
    );
    const { client } = await setup(server);
    const settled = (name: string, timeoutMs: number) => {
      const started = performance.now();
      return client.call(SVC, 'Wait', Buffer.from(name), { timeoutMs }).then(
        (answer) => ({ name, answer: Buffer.from(answer).toString(), after: performance.now() - started }),
        (err: TtrpcError) => ({ name, code: err.code, message: err.message, after: performance.now() - started }),
      );
    };
    const long = settled('long', 400); // armed first, for the latest deadline
    const answered = settled('answered', 150);
    const short = settled('short', 60); // made last, due first
    await expect(short).resolves.toMatchObject({
      code: Code.DeadlineExceeded,
      message: expect.stringContaining('60 ms'),
    });
    expect((await short).after).toBeGreaterThanOrEqual(59);
    expect((await short).after).toBeLessThan(350); // not held until the first call's deadline
    while (!release.has('answered')) await new Promise((r) => setTimeout(r, 5));
    release.get('answered')!(Buffer.from('in time'));
    expect(await answered).toMatchObject({ answer: 'in time' });
    const l = await long;
    expect(l).toMatchObject({ code: Code.DeadlineExceeded, message: expect.stringContaining('400 ms') });
    expect(l.after).toBeGreaterThanOrEqual(399);
    expect(l.after).toBeLessThan(2000);
    expect(client.inFlight).toBe(0);
  });

  describe('an answer after its deadline, with a late-answer rule (a bench standing in for a Go peer)', () => {
    // The window is wide so that "within it" does not hang on the machine's speed: the
    // server answers once the deadline has surely passed, and the rule decides.
    async function lateAnswer(take: boolean) {
      const lateBys: number[] = [];
      const server = new TtrpcServer();
      const answer = deferred<void>();
      server.register(SVC, 'Late', async () => {
        await answer.promise;
        return Buffer.from('late');
      });
      const { client } = await setup(server, {
        lateAnswers: { windowMs: 60_000, take: (lateBy) => (lateBys.push(lateBy), take) },
      });
      const started = performance.now();
      const call = client.call(SVC, 'Late', Buffer.alloc(0), { timeoutMs: 50 }).then(
        (p) => Buffer.from(p).toString(),
        (err: TtrpcError) => err,
      );
      while (performance.now() - started < 150) await new Promise((r) => setTimeout(r, 20));
      answer.resolve();
      return { result: await call, lateBys, client };
    }

    it('is taken when the rule says so, told how late it came', async () => {
      const { result, lateBys, client } = await lateAnswer(true);
      expect(result).toBe('late');
      expect(lateBys).toHaveLength(1);
      expect(lateBys[0]).toBeGreaterThanOrEqual(99);
      expect(client.inFlight).toBe(0);
    });

    it('fails as past its deadline when the rule refuses it', async () => {
      const { result, lateBys, client } = await lateAnswer(false);
      expect(result).toMatchObject({
        code: Code.DeadlineExceeded,
        message: expect.stringContaining('no answer within 50 ms'),
      });
      expect(lateBys).toHaveLength(1);
      expect(client.inFlight).toBe(0);
    });

    it('fails, without an answer, once the window after the deadline has passed too, never before', async () => {
      const server = new TtrpcServer();
      server.register(SVC, 'Hang', () => new Promise<Uint8Array>(() => undefined));
      const take = vi.fn(() => true);
      const { client } = await setup(server, { lateAnswers: { windowMs: 100, take } });
      const started = performance.now();
      const err = await client.call(SVC, 'Hang', Buffer.alloc(0), { timeoutMs: 50 }).catch((e: TtrpcError) => e);
      expect(err).toMatchObject({
        code: Code.DeadlineExceeded,
        message: expect.stringContaining('no answer within 50 ms'),
      });
      expect(performance.now() - started).toBeGreaterThanOrEqual(149);
      expect(take).not.toHaveBeenCalled();
    });
  });

  it("honours the request's timeout_nano on the server even without a client-side timer", async () => {
    const server = new TtrpcServer();
    server.register(
      SVC,
      'Wait',
      (_p, ctx) =>
        new Promise<Uint8Array>((_res, rej) => ctx.signal.addEventListener('abort', () => rej(new Error('gave up')))),
    );
    const l = await listen(server);
    cleanups.push(() => l.close());
    const sock = await connectRaw(l.path);
    cleanups.push(() => void sock.destroy());
    const answers = responses(sock);
    sock.write(rawRequest(1, 'Wait', { timeoutNano: 30e6 }));
    const { streamId, resp } = await answers.next();
    expect(streamId).toBe(1);
    expect(resp.status).toMatchObject({ code: Code.DeadlineExceeded });
    expect(resp.status!.message).toContain('deadline');
  });

  it('tells onAbort listeners when the deadline passes, with the reason, and at once when it already has', async () => {
    const server = new TtrpcServer();
    const reasons: unknown[] = [];
    const late = deferred<unknown>();
    server.register(SVC, 'Hang', (_p, ctx) => {
      const off = ctx.onAbort(() => reasons.push('removed, never called'));
      off();
      ctx.onAbort((reason) => {
        reasons.push(reason);
        // Registered after the abort: runs at once.
        ctx.onAbort((again) => late.resolve(again));
      });
      return new Promise<Uint8Array>(() => {});
    });
    const l = await listen(server);
    cleanups.push(() => l.close());
    const sock = await connectRaw(l.path);
    cleanups.push(() => void sock.destroy());
    const answers = responses(sock);
    sock.write(rawRequest(1, 'Hang', { timeoutNano: 30e6 }));
    expect(await late.promise).toMatchObject({ code: Code.DeadlineExceeded });
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatchObject({ code: Code.DeadlineExceeded });
    // The handler never settles, so the server sends nothing for it; the socket stays usable.
    sock.write(rawRequest(3, 'Nope'));
    expect((await answers.next()).streamId).toBe(3);
  });

  it('treats a timeoutMs of zero or less as a deadline already passed', async () => {
    const { client } = await setup(echoServer());
    await expect(client.call(SVC, 'Echo', Buffer.alloc(0), { timeoutMs: 0 })).rejects.toMatchObject({
      code: Code.DeadlineExceeded,
    });
  });

  it('cancels a call on AbortSignal and drops its late answer', async () => {
    const server = new TtrpcServer();
    const release = deferred<void>();
    server.register(SVC, 'Later', async () => {
      await release.promise;
      return Buffer.from('late');
    });
    server.register(SVC, 'Echo', (p) => p);
    const { client } = await setup(server);
    const ac = new AbortController();
    const call = client.call(SVC, 'Later', Buffer.alloc(0), { signal: ac.signal });
    ac.abort(new Error('user pressed ^C'));
    const err = (await call.catch((e: unknown) => e)) as TtrpcError;
    expect(err.code).toBe(Code.Canceled);
    expect((err.cause as Error).message).toBe('user pressed ^C');
    release.resolve();
    expect((await client.call(SVC, 'Echo', Buffer.from('after'))).toString()).toBe('after');
    const pre = new AbortController();
    pre.abort();
    await expect(client.call(SVC, 'Echo', Buffer.alloc(0), { signal: pre.signal })).rejects.toMatchObject({
      code: Code.Canceled,
    });
  });

  it('refuses to send an oversize request and keeps the connection', async () => {
    const server = new TtrpcServer();
    let calls = 0;
    server.register(SVC, 'Echo', (p) => {
      calls++;
      return p;
    });
    const { client } = await setup(server, { maxMessageLength: 1024 });
    const err = (await client.call(SVC, 'Echo', Buffer.alloc(2000)).catch((e: unknown) => e)) as TtrpcError;
    expect(err).toBeInstanceOf(TtrpcError);
    expect(err.code).toBe(Code.ResourceExhausted);
    expect(err.statusMessage).toMatch(/exceeds the maximum message size of 1024/);
    expect(client.closed).toBe(false);
    expect((await client.call(SVC, 'Echo', Buffer.from('small'))).toString()).toBe('small');
    expect(calls).toBe(1);
  });

  it('answers ResourceExhausted when a request over its limit arrives, and serves the next one', async () => {
    const { client } = await setup(echoServer({ maxMessageLength: 1024 }), { maxMessageLength: 8192 });
    await expect(client.call(SVC, 'Echo', Buffer.alloc(4000, 1))).rejects.toMatchObject({
      code: Code.ResourceExhausted,
    });
    expect((await client.call(SVC, 'Echo', Buffer.from('next'))).toString()).toBe('next');
  });

  it('answers ResourceExhausted instead of an oversize response', async () => {
    const server = new TtrpcServer({ maxMessageLength: 1024 });
    server.register(SVC, 'Big', () => Buffer.alloc(5000));
    server.register(SVC, 'Echo', (p) => p);
    const { client } = await setup(server);
    const err = (await client.call(SVC, 'Big', Buffer.alloc(0)).catch((e: unknown) => e)) as TtrpcError;
    expect(err.code).toBe(Code.ResourceExhausted);
    expect(err.statusMessage).toContain(`${SVC}/Big: response of`);
    expect((await client.call(SVC, 'Echo', Buffer.from('fine'))).toString()).toBe('fine');
  });

  it('fails a call whose response is over the client limit, and keeps the connection', async () => {
    const server = new TtrpcServer();
    server.register(SVC, 'Big', () => Buffer.alloc(5000));
    server.register(SVC, 'Echo', (p) => p);
    const { client } = await setup(server, { maxMessageLength: 1024 });
    await expect(client.call(SVC, 'Big', Buffer.alloc(0))).rejects.toMatchObject({
      code: Code.ResourceExhausted,
      method: 'Big',
    });
    expect((await client.call(SVC, 'Echo', Buffer.from('fine'))).toString()).toBe('fine');
  });

  it('rejects every pending call with TtrpcClosedError naming it when the peer closes', async () => {
    const server = new TtrpcServer();
    const handlerSignals: AbortSignal[] = [];
    server.register(SVC, 'Hang', (_p, ctx) => {
      handlerSignals.push(ctx.signal);
      return new Promise<Uint8Array>(() => {});
    });
    server.register(SVC, 'Hang2', () => new Promise<Uint8Array>(() => {}));
    const { l, client } = await setup(server);
    const served = l.served.length ? l.served[0] : await l.nextServed();
    const a = client.call(SVC, 'Hang', Buffer.alloc(0)).catch((e: unknown) => e);
    const b = client.call(SVC, 'Hang2', Buffer.alloc(0)).catch((e: unknown) => e);
    while (served.inFlight < 2) await new Promise((r) => setTimeout(r, 5));
    const closed = once(client, 'close');
    served.close();
    const [ea, eb] = (await Promise.all([a, b])) as TtrpcClosedError[];
    expect(ea).toBeInstanceOf(TtrpcClosedError);
    expect(ea).toMatchObject({ code: Code.Unavailable, service: SVC, method: 'Hang' });
    expect(eb).toMatchObject({ method: 'Hang2' });
    expect(eb.message).toContain(`${SVC}/Hang2`);
    await closed;
    expect(client.closed).toBe(true);
    expect(handlerSignals[0].aborted).toBe(true);
    expect(handlerSignals[0].reason).toBeInstanceOf(TtrpcClosedError);
    await expect(client.call(SVC, 'Hang', Buffer.alloc(0))).rejects.toBeInstanceOf(TtrpcClosedError);
  });

  it('aborts in-flight handlers when the client goes away', async () => {
    const server = new TtrpcServer();
    const aborted = deferred<unknown>();
    server.register(SVC, 'Hang', (_p, ctx) => {
      ctx.signal.addEventListener('abort', () => aborted.resolve(ctx.signal.reason));
      return new Promise<Uint8Array>(() => {});
    });
    const { l, client } = await setup(server);
    const served = l.served[0] ?? (await l.nextServed());
    void client.call(SVC, 'Hang', Buffer.alloc(0)).catch(() => {});
    while (served.inFlight < 1) await new Promise((r) => setTimeout(r, 5));
    const closed = once(served, 'close');
    client.close();
    expect(await aborted.promise).toBeInstanceOf(TtrpcClosedError);
    await closed;
    expect(served.closed).toBe(true);
  });

  it('closes on garbage from the server and rejects pending calls with the protocol error as cause', async () => {
    const peer = await rawPeer();
    cleanups.push(() => peer.close());
    const client = new TtrpcClient(await connectRaw(peer.path));
    cleanups.push(() => client.close());
    const pending = client.call(SVC, 'Echo', Buffer.alloc(0)).catch((e: unknown) => e);
    const sock = await peer.accepted;
    const closeErr = once<Error>(client, 'close');
    sock.write(Buffer.from([0, 0, 0, 4, 0, 0, 0, 1, 0x7f, 0, 1, 2, 3, 4]));
    const err = (await pending) as TtrpcClosedError;
    expect(err).toBeInstanceOf(TtrpcClosedError);
    expect(err.cause).toBeInstanceOf(TtrpcProtocolError);
    expect(err.message).toMatch(/unknown ttrpc message type 127/);
    expect(await closeErr).toBeInstanceOf(TtrpcProtocolError);
  });

  it('enforces the stream id rules and rejects bad frames without dropping the connection', async () => {
    const l = await listen(echoServer());
    cleanups.push(() => l.close());
    const sock = await connectRaw(l.path);
    cleanups.push(() => void sock.destroy());
    const answers = responses(sock);
    sock.write(rawRequest(2, 'Echo'));
    expect(await answers.next()).toMatchObject({ streamId: 2, resp: { status: { code: Code.InvalidArgument } } });
    sock.write(rawRequest(5, 'Echo'));
    expect((await answers.next()).resp.status).toBeUndefined();
    sock.write(rawRequest(3, 'Echo'));
    const reused = await answers.next();
    expect(reused).toMatchObject({ streamId: 3, resp: { status: { code: Code.InvalidArgument } } });
    expect(reused.resp.status!.message).toContain('reused or out of order');
    sock.write(encodeFrame(7, MessageType.Request, Buffer.from([0x0a, 50, 1])));
    expect(await answers.next()).toMatchObject({ streamId: 7, resp: { status: { code: Code.InvalidArgument } } });
    sock.write(rawRequest(9, 'Echo', { type: MessageType.Data }));
    expect(await answers.next()).toMatchObject({ streamId: 9, resp: { status: { code: Code.InvalidArgument } } });
    sock.write(rawRequest(11, 'Echo', { flags: 0x2 }));
    expect(await answers.next()).toMatchObject({ streamId: 11, resp: { status: { code: Code.Unimplemented } } });
    // an unknown message type is ignored, as the Go server does
    sock.write(Buffer.concat([Buffer.from([0, 0, 0, 1, 0, 0, 0, 13, 0x33, 0, 0]), rawRequest(15, 'Echo')]));
    const ok = await answers.next();
    expect(ok.streamId).toBe(15);
    expect(Buffer.from(ok.resp.payload).toString()).toBe('x');
  });
});

describe('ttrpc over an in-memory Duplex pair', () => {
  it('works on any Duplex, not only sockets', async () => {
    const { Duplex } = await import('node:stream');
    // Two ends whose writes surface as the other end's reads.
    const a: InstanceType<typeof Duplex> = new Duplex({
      read() {},
      write(chunk: Buffer, _enc, cb) {
        b.push(chunk);
        cb();
      },
      final(cb) {
        b.push(null);
        cb();
      },
    });
    const b: InstanceType<typeof Duplex> = new Duplex({
      read() {},
      write(chunk: Buffer, _enc, cb) {
        a.push(chunk);
        cb();
      },
      final(cb) {
        a.push(null);
        cb();
      },
    });
    const conn = echoServer().serve(b);
    const client = new TtrpcClient(a);
    const words = Array.from({ length: 100 }, (_, i) => `w${i}`);
    const got = await Promise.all(words.map((w) => client.call(SVC, 'Echo', Buffer.from(w), { timeoutMs: Infinity })));
    expect(got.map((g) => g.toString())).toEqual(words);
    client.close();
    expect(conn.closed).toBe(false); // an in-memory pair carries no close; the server closes itself
    conn.close();
    expect(conn.closed).toBe(true);
  });
});
