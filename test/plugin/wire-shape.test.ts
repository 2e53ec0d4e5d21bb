// What nrictl's plugins put on the wire, byte for byte, compared with what the Go stub
// sends. iSulad's NRI library (Rust) unwraps CreateContainerResponse.adjust: an answer
// without that field aborts the whole daemon. The Go samples always send it (the v0.6.1
// capture holds the logger's answer), so every answer of ours must carry it too, whether
// the handler returns nothing, only updates, or there is no handler at all.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import protobuf from 'protobufjs/minimal.js';
import { nri } from '../../src/api/index.js';
import { Stub, type PluginHandlers } from '../../src/plugin/index.js';
import { decodeResponse } from '../../src/ttrpc/index.js';
import { nriV061 } from '../fixtures/index.js';
import { startCli, type CliRun } from '../commands/nri-cli.js';
import { MODERN_CONFIGURE, RuntimePeer, V061_CONFIGURE, type PeerSession } from './peer.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** The payload of the Go logger's CreateContainerResponse in the v0.6.1 capture (msg #4 of session 1). */
function goCreateContainerAnswer(): Buffer {
  const bytes = readFileSync(nriV061('session-1-plugin2rt.bin'));
  // [151..165): the ttrpc frame; its 10-byte header, then the ttrpc Response body.
  const response = decodeResponse(bytes.subarray(161, 165));
  return Buffer.from(response.payload);
}

/** Protobuf field numbers present at the top level of a message, in wire order. */
function topLevelFields(bytes: Buffer): number[] {
  const fields: number[] = [];
  const reader = protobuf.Reader.create(bytes);
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    fields.push(tag >>> 3);
    reader.skipType(tag & 7);
  }
  return fields;
}

const pod: nri.IPodSandbox = { id: 'p1', name: 'web-0', namespace: 'shop' };
const container: nri.IContainer = {
  id: 'c1',
  podSandboxId: 'p1',
  name: 'web',
  state: nri.ContainerState.CONTAINER_CREATED,
};

async function sdkPlugin(handlers: PluginHandlers, configure: nri.IConfigureRequest): Promise<PeerSession> {
  const peer = await RuntimePeer.listen();
  cleanups.push(() => peer.close());
  const stub = new Stub(handlers, { name: 'shape', index: '10', socketPath: peer.socketPath });
  cleanups.push(() => stub.stop());
  const started = stub.start();
  const session = await peer.next();
  await session.handshake(configure);
  await started;
  return session;
}

describe('CreateContainerResponse on the wire', () => {
  it('is what the Go logger sample sends when nothing changes: an empty adjust message (0a 00)', () => {
    expect(goCreateContainerAnswer().toString('hex')).toBe('0a00');
  });

  const cases: Array<[string, PluginHandlers['createContainer']]> = [
    ['a handler that returns nothing', () => undefined],
    ['a handler that resolves to nothing', async () => undefined],
    [
      'a handler that returns only updates',
      () => ({ update: [{ containerId: 'c0', linux: { resources: { cpu: { shares: { value: 2 } } } } }] }),
    ],
    ['a handler that returns adjust: null', () => ({ adjust: null })],
  ];
  for (const [what, createContainer] of cases) {
    it(`carries adjust (field 1) for ${what}, on a v0.6.1 runtime such as iSulad and on a v0.12 one`, async () => {
      for (const configure of [V061_CONFIGURE, MODERN_CONFIGURE]) {
        const session = await sdkPlugin({ createContainer }, configure);
        const raw = await session.callRaw('CreateContainer', { pod, container });
        expect(topLevelFields(raw)[0]).toBe(1);
        expect(nri.CreateContainerResponse.decode(raw).adjust).not.toBeNull();
      }
    });
  }

  it('is byte for byte the Go answer when a handler changes nothing', async () => {
    const session = await sdkPlugin({ createContainer: () => undefined }, V061_CONFIGURE);
    expect((await session.callRaw('CreateContainer', { pod, container })).equals(goCreateContainerAnswer())).toBe(true);
  });

  it('keeps an adjustment a handler returns, in field 1', async () => {
    const session = await sdkPlugin(
      { createContainer: () => ({ adjust: { annotations: { a: 'b' } } }) },
      V061_CONFIGURE,
    );
    const answer = nri.CreateContainerResponse.decode(await session.callRaw('CreateContainer', { pod, container }));
    expect(answer.adjust?.annotations).toEqual({ a: 'b' });
  });
});

describe('every other answer on the wire', () => {
  // The Go stub answers these with the message's zero value: no bytes at all, or only
  // repeated fields, which a reader cannot miss. Nothing else is unwrapped by iSulad.
  const requests: Record<string, object> = {
    RunPodSandbox: { pod },
    StopPodSandbox: { pod },
    RemovePodSandbox: { pod },
    PostCreateContainer: { pod, container },
    StartContainer: { pod, container },
    PostStartContainer: { pod, container },
    UpdateContainer: { pod, container, linuxResources: {} },
    PostUpdateContainer: { pod, container },
    StopContainer: { pod, container },
    RemoveContainer: { pod, container },
  };
  it('is empty when the handlers return nothing, as the Go stub sends it', async () => {
    const nothing = () => undefined;
    const session = await sdkPlugin(
      {
        runPodSandbox: nothing,
        stopPodSandbox: nothing,
        removePodSandbox: nothing,
        postCreateContainer: nothing,
        startContainer: nothing,
        postStartContainer: nothing,
        updateContainer: nothing,
        postUpdateContainer: nothing,
        stopContainer: nothing,
        removeContainer: nothing,
      },
      MODERN_CONFIGURE,
    );
    for (const [method, req] of Object.entries(requests)) {
      expect({ method, bytes: (await session.callRaw(method, req)).toString('hex') }).toEqual({ method, bytes: '' });
    }
  });
});

/** Answers Configure and Synchronize for one connection, then CreateContainer; returns the answer's bytes. */
async function createContainerAnswerOf(session: PeerSession): Promise<Buffer> {
  await session.handshake(V061_CONFIGURE);
  return session.callRaw('CreateContainer', { pod, container });
}

async function stopCli(run: CliRun): Promise<void> {
  run.child.kill('SIGTERM');
  await run.exited;
}

describe("nrictl's own transient plugins", () => {
  it('logs answers CreateContainer with an adjust message', async () => {
    const peer = await RuntimePeer.listen();
    cleanups.push(() => peer.close());
    const run = startCli(['logs', '--socket', peer.socketPath, '-o', 'json']);
    cleanups.push(() => stopCli(run));
    const raw = await createContainerAnswerOf(await peer.next());
    expect(topLevelFields(raw)).toEqual([1]);
  });

  it("trace's probes answer CreateContainer with an adjust message", async () => {
    const peer = await RuntimePeer.listen();
    cleanups.push(() => peer.close());
    // An external plugin at 50: probes register at 49 and 51 (and no plugin directory is read).
    const run = startCli([
      'trace',
      '--socket',
      peer.socketPath,
      '--index',
      '50',
      '--plugin-dir',
      peer.dir,
      '-o',
      'json',
    ]);
    cleanups.push(() => stopCli(run));
    const first = await createContainerAnswerOf(await peer.next());
    const second = await createContainerAnswerOf(await peer.next());
    expect([topLevelFields(first), topLevelFields(second)]).toEqual([[1], [1]]);
  });
});
