// The Plugin service the SDK serves: a handler that answers at once is answered at once,
// one that returns a promise is raced against the caller's deadline. Requests are written
// as raw frames so that the deadline the plugin sees (timeout_nano) can be shorter than
// any timer of ours: what comes back is the plugin's own answer.
import type net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { PLUGIN_SERVICE, nri } from '../../src/api/index.js';
import {
  eventMethods,
  registerPluginService,
  type PluginHandlers,
  type PluginServiceImpl,
} from '../../src/plugin/index.js';
import {
  Code,
  FrameDecoder,
  MessageType,
  TtrpcServer,
  decodeResponse,
  encodeFrame,
  encodeRequest,
  type Handler,
  type HandlerContext,
  type TtrpcResponse,
} from '../../src/ttrpc/index.js';
import { connectRaw, listen } from '../ttrpc/helpers.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function serve(handlers: PluginHandlers): Promise<{
  send(streamId: number, method: string, req: object, timeoutNano: number): void;
  next(): Promise<TtrpcResponse>;
}> {
  const server = new TtrpcServer();
  registerPluginService(server, { ...eventMethods(handlers), ...lifecycle }, '10-raw');
  const l = await listen(server);
  cleanups.push(() => l.close());
  const sock: net.Socket = await connectRaw(l.path);
  cleanups.push(() => void sock.destroy());
  const decoder = new FrameDecoder();
  const answers: TtrpcResponse[] = [];
  const waiting: Array<() => void> = [];
  sock.on('data', (chunk: Buffer) => {
    for (const f of decoder.push(chunk)) {
      answers.push(decodeResponse(f.payload));
      waiting.shift()?.();
    }
  });
  return {
    send(streamId, method, req, timeoutNano) {
      const types = { CreateContainer: nri.CreateContainerRequest, StopContainer: nri.StopContainerRequest }[method]!;
      const payload = types.encode(req).finish();
      sock.write(
        encodeFrame(
          streamId,
          MessageType.Request,
          encodeRequest({ service: PLUGIN_SERVICE, method, payload, timeoutNano, metadata: [] }),
          0,
        ),
      );
    },
    async next() {
      while (answers.length === 0) await new Promise<void>((r) => waiting.push(r));
      return answers.shift()!;
    },
  };
}

const request = { pod: { id: 'p' }, container: { id: 'c', podSandboxId: 'p' } };
const lifecycle = { Configure: () => ({}), Synchronize: () => ({}), Shutdown: () => undefined } as unknown as Pick<
  PluginServiceImpl,
  'Configure' | 'Synchronize' | 'Shutdown'
>;

describe('the Plugin service', () => {
  it("answers a handler still pending at the caller's deadline with DeadlineExceeded, and serves the next call", async () => {
    const peer = await serve({
      createContainer: () => new Promise<void>(() => {}),
      stopContainer: () => [{ containerId: 'c' }],
    });
    peer.send(1, 'CreateContainer', request, 30e6);
    const late = await peer.next();
    expect(late.status).toMatchObject({ code: Code.DeadlineExceeded });
    peer.send(3, 'StopContainer', request, 2e9);
    const stopped = await peer.next();
    expect(stopped.status?.code ?? Code.OK).toBe(Code.OK);
    expect(nri.StopContainerResponse.decode(stopped.payload).update.map((u) => u.containerId)).toEqual(['c']);
  });

  it('answers what a handler returns at once, even with no deadline, and turns its throw into an error status', async () => {
    const peer = await serve({
      createContainer: () => ({ adjust: { env: [{ key: 'A', value: '1' }] } }),
      stopContainer: () => {
        throw new Error('no');
      },
    });
    peer.send(1, 'CreateContainer', request, 0);
    const created = await peer.next();
    expect(nri.CreateContainerResponse.decode(created.payload).adjust?.env?.map((e) => `${e.key}=${e.value}`)).toEqual([
      'A=1',
    ]);
    peer.send(3, 'StopContainer', request, 0);
    expect((await peer.next()).status).toMatchObject({
      code: Code.Unknown,
      message: 'plugin 10-raw: StopContainer failed: no',
    });
  });

  it('hands back the bytes themselves, not a promise, for a handler that answers at once (no promise and no microtask round per event)', () => {
    const registered = new Map<string, Handler>();
    const server = {
      register: (_service: string, method: string, h: Handler) => registered.set(method, h),
    } as unknown as TtrpcServer;
    registerPluginService(
      server,
      { ...eventMethods({ createContainer: () => ({}), stopContainer: async () => [] }), ...lifecycle },
      '10-unit',
    );
    const ctx = { onAbort: () => () => {} } as unknown as HandlerContext;
    const payload = Buffer.from(nri.CreateContainerRequest.encode(request).finish());
    expect(registered.get('CreateContainer')!(payload, ctx)).toBeInstanceOf(Uint8Array);
    // A handler that returns a promise still gets one, raced against the deadline.
    expect(
      registered.get('StopContainer')!(Buffer.from(nri.StopContainerRequest.encode(request).finish()), ctx),
    ).toBeInstanceOf(Promise);
  });
});
