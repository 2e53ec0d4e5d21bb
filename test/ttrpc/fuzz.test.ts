// Random and mutated bytes into the frame decoder and into live connections: every
// input must end in frames or a clean TtrpcProtocolError, never another exception, a
// hang, or memory beyond one frame plus one chunk.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Code,
  FrameDecoder,
  HEADER_LENGTH,
  MessageType,
  TtrpcClient,
  TtrpcError,
  TtrpcProtocolError,
  TtrpcServer,
  decodeResponse,
  encodeFrame,
  encodeRequest,
  encodeResponse,
  type ServerConnection,
} from '../../src/ttrpc/index.js';
import { connectClient, connectRaw, listen, rawPeer, type Listening } from './helpers.js';

const MAX = 1024;
const SVC = 'fuzz.v1.Svc';

const validRequestFrame = fc
  .record({
    id: fc.integer({ min: 0, max: 40 }).map((n) => n * 2 + 1),
    method: fc.constantFrom('Echo', 'Fail', 'Missing'),
    payload: fc.uint8Array({ maxLength: 300 }),
    timeoutNano: fc.oneof(fc.constant(0), fc.integer({ min: -5, max: 5e9 })),
    flags: fc.constantFrom(0, 0, 0, 1, 2, 4),
    type: fc.constantFrom(MessageType.Request, MessageType.Request, MessageType.Data, MessageType.Response),
  })
  .map((r) =>
    encodeFrame(
      r.id,
      r.type,
      encodeRequest({
        service: SVC,
        method: r.method,
        payload: r.payload,
        timeoutNano: r.timeoutNano,
        metadata: [{ key: 'k', value: 'v' }],
      }),
      r.flags,
    ),
  );

const validResponseFrame = fc
  .record({
    id: fc.integer({ min: 0, max: 20 }).map((n) => n * 2 + 1),
    code: fc.integer({ min: 0, max: 16 }),
    payload: fc.uint8Array({ maxLength: 300 }),
  })
  .map((r) =>
    encodeFrame(
      r.id,
      MessageType.Response,
      encodeResponse({ status: r.code ? { code: r.code, message: 'm' } : undefined, payload: r.payload }),
    ),
  );

type Mutation =
  | { kind: 'flip'; at: number; value: number }
  | { kind: 'insert'; at: number; bytes: Uint8Array }
  | { kind: 'cut'; at: number };
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    bytes: fc.uint8Array({ minLength: 1, maxLength: 12 }),
  }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
);

function mutate(b: Buffer, ms: Mutation[]): Buffer {
  let out = Buffer.from(b);
  for (const m of ms) {
    if (out.length === 0) break;
    const at = m.at % out.length;
    if (m.kind === 'flip') out[at] = m.value;
    else if (m.kind === 'insert') out = Buffer.concat([out.subarray(0, at), m.bytes, out.subarray(at)]);
    else out = out.subarray(0, at);
  }
  return out;
}

/** Splits b at the given cut points (taken modulo its length). */
function split(b: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => (b.length ? c % b.length : 0)))].sort((x, y) => x - y);
  const out: Buffer[] = [];
  let prev = 0;
  for (const p of [...points, b.length]) {
    if (p > prev) out.push(b.subarray(prev, p));
    prev = p;
  }
  return out;
}

const garbage = (frame: fc.Arbitrary<Buffer>) =>
  fc.oneof(
    fc.uint8Array({ maxLength: 3000 }).map((a) => Buffer.from(a)),
    fc
      .tuple(fc.array(frame, { minLength: 1, maxLength: 6 }), fc.array(mutation, { maxLength: 4 }))
      .map(([fs, ms]) => mutate(Buffer.concat(fs), ms)),
  );
const chunked = (frame: fc.Arbitrary<Buffer>) =>
  fc.tuple(garbage(frame), fc.array(fc.nat(), { maxLength: 12 })).map(([bytes, cuts]) => split(bytes, cuts));

describe('FrameDecoder under random input', () => {
  it('returns frames or throws TtrpcProtocolError, holding at most one frame plus one chunk', () => {
    fc.assert(
      fc.property(
        chunked(validRequestFrame),
        fc.constantFrom<'throw' | 'skip'>('throw', 'skip'),
        (chunks, oversize) => {
          const d = new FrameDecoder({ maxMessageLength: MAX, oversize });
          try {
            for (const c of chunks) {
              for (const f of d.push(c)) {
                expect(f.oversize ? 0 : f.payload.length).toBe(f.oversize ? 0 : f.header.length);
                expect(f.header.length <= MAX || f.oversize).toBe(true);
              }
              expect(d.buffered).toBeLessThanOrEqual(HEADER_LENGTH + MAX + c.length);
            }
          } catch (err) {
            if (!(err instanceof TtrpcProtocolError)) throw err;
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('decodes valid frames identically however they are split', () => {
    fc.assert(
      fc.property(
        fc.array(validRequestFrame, { maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        (frames, cuts) => {
          const d = new FrameDecoder({ maxMessageLength: MAX });
          const got = split(Buffer.concat(frames), cuts).flatMap((c) => d.push(c));
          expect(
            got.map((f) => encodeFrame(f.header.streamId, f.header.type, f.payload, f.header.flags).toString('hex')),
          ).toEqual(frames.map((f) => f.toString('hex')));
          expect(d.buffered).toBe(0);
        },
      ),
    );
  });
});

describe('a live server fed random and mutated bytes', () => {
  let l: Listening;
  const server = new TtrpcServer({ maxMessageLength: MAX });
  server.register(SVC, 'Echo', (p) => p);
  server.register(SVC, 'Fail', () => {
    throw new TtrpcError(Code.FailedPrecondition, 'no');
  });
  beforeAll(async () => {
    l = await listen(server);
  });
  afterAll(async () => {
    await l.close();
  });

  it('answers only well-formed responses and closes cleanly when the peer ends', async () => {
    await fc.assert(
      fc.asyncProperty(chunked(validRequestFrame), async (chunks) => {
        const servedP = l.nextServed();
        const sock = await connectRaw(l.path);
        const served: ServerConnection = await servedP;
        const closed = new Promise<Error | undefined>((resolve) => served.once('close', resolve));
        const answers = new FrameDecoder();
        sock.on('data', (c: Buffer) => {
          for (const f of answers.push(c)) {
            expect(f.header.type).toBe(MessageType.Response);
            decodeResponse(f.payload);
          }
        });
        sock.on('error', () => {}); // the server may reset us after a protocol error
        for (const c of chunks) sock.write(c);
        sock.end();
        const hang = new Promise<'hang'>((resolve) => setTimeout(() => resolve('hang'), 3000).unref());
        const outcome = await Promise.race([closed, hang]);
        expect(outcome).not.toBe('hang');
        if (outcome !== undefined) expect(outcome).toBeInstanceOf(TtrpcProtocolError);
        expect(served.closed).toBe(true);
        expect(served.inFlight).toBe(0);
        sock.destroy();
      }),
      { numRuns: 150 },
    );
    // after all that, the server still serves a well-behaved client
    const client = await connectClient(l.path);
    expect((await client.call(SVC, 'Echo', Buffer.from('still fine'))).toString()).toBe('still fine');
    client.close();
  });
});

describe('a live client fed random and mutated answers', () => {
  it('settles every call with a payload or a TtrpcError and then closes', async () => {
    await fc.assert(
      fc.asyncProperty(chunked(validResponseFrame), async (chunks) => {
        const peer = await rawPeer();
        try {
          const client = new TtrpcClient(await connectRaw(peer.path), { maxMessageLength: MAX });
          const closed = new Promise<Error | undefined>((resolve) => client.once('close', resolve));
          const calls = Array.from({ length: 5 }, () =>
            client.call(SVC, 'Echo', Buffer.from('q')).then(
              () => 'ok',
              (e: unknown) => e,
            ),
          );
          const sock = await peer.accepted;
          for (const c of chunks) sock.write(c);
          sock.end();
          const settled = await Promise.all(calls);
          for (const s of settled) if (s !== 'ok') expect(s).toBeInstanceOf(TtrpcError);
          const err = await closed;
          if (err !== undefined) expect(err).toBeInstanceOf(TtrpcProtocolError);
          expect(client.closed).toBe(true);
        } finally {
          await peer.close();
        }
      }),
      { numRuns: 100 },
    );
  });
});
