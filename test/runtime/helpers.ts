// Shared by the runtime tests: a simulator in a fresh temp dir, event capture, waiting.
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { nri, PLUGIN_SERVICE, RUNTIME_SERVICE } from '../../src/api/index.js';
import { Mux, PLUGIN_SERVICE_CONN, RUNTIME_SERVICE_CONN } from '../../src/mux/index.js';
import { Stub } from '../../src/plugin/index.js';
import { TtrpcClient, TtrpcServer } from '../../src/ttrpc/index.js';
import { Runtime, type RuntimeOptions } from '../../src/runtime/sim/runtime.js';
import { SimState } from '../../src/runtime/sim/state.js';
import type { SimEvent } from '../../src/runtime/events.js';
import type { Scenario } from '../../src/runtime/sim/scenario.js';

export interface Sim {
  runtime: Runtime;
  events: SimEvent[];
  socketPath: string;
  dir: string;
  close(): Promise<void>;
}

export async function startSim(
  scenario?: Pick<Scenario, 'pods' | 'containers'>,
  opts: RuntimeOptions = {},
): Promise<Sim> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'rt-'));
  const state = new SimState({ pods: scenario?.pods ?? [], containers: scenario?.containers ?? [] });
  const runtime = new Runtime(state, { socketPath: path.join(dir, 'nri.sock'), killGraceMs: 200, ...opts });
  const events: SimEvent[] = [];
  runtime.on('event', (e: SimEvent) => events.push(e));
  let socketPath: string | undefined;
  try {
    ({ socketPath } = await runtime.start());
  } catch (err) {
    // A start that fails (a test of exactly that) stopped the runtime; its directory goes too.
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    runtime,
    events,
    socketPath: socketPath ?? '',
    dir,
    close: async () => {
      await runtime.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Checks `fn` every 10 ms until it holds. The bound only turns a hang into a message that
 * says what never came; it is no measure of speed, and stays under the test's own (60 s),
 * well past what a plugin process takes to start with both cores busy.
 */
export async function waitFor<T>(what: string, fn: () => T | undefined | false, timeoutMs = 45_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Resolves once the plugin named `name` joined the invocation list. */
export function waitForPlugin(sim: Sim, name: string): Promise<unknown> {
  return waitFor(`plugin ${name} to be live`, () => sim.runtime.plugins().find((p) => p.name === name));
}

export function ofType<T extends SimEvent['type']>(events: SimEvent[], type: T): Array<Extract<SimEvent, { type: T }>> {
  return events.filter((e): e is Extract<SimEvent, { type: T }> => e.type === type);
}

/**
 * The simulator and the plugins of each test in a file, stopped after it. Call once at
 * the file's top level; start() makes the simulator, plugin() a Stub on it (not started).
 */
export function simPerTest(): {
  start(scenario?: Pick<Scenario, 'pods' | 'containers'>, opts?: RuntimeOptions): Promise<Sim>;
  plugin(
    name: string,
    index: string,
    handlers: ConstructorParameters<typeof Stub>[0],
    opts?: { events?: number },
  ): Stub;
  /** Also run after the test, once the plugins stopped. */
  onCleanup(fn: () => void): void;
} {
  let sim: Sim | undefined;
  const stubs: Stub[] = [];
  const cleanups: Array<() => void> = [];
  afterEach(async () => {
    for (const s of stubs.splice(0)) await s.stop().catch(() => undefined);
    for (const fn of cleanups.splice(0)) fn();
    await sim?.close();
    sim = undefined;
  });
  return {
    start: async (scenario, opts) => (sim = await startSim(scenario, opts)),
    plugin: (name, index, handlers, opts = {}) => {
      if (!sim) throw new Error(`plugin ${index}-${name}: start the simulator first`);
      const s = new Stub(handlers, { name, index, socketPath: sim.socketPath, ...opts });
      stubs.push(s);
      return s;
    },
    onCleanup: (fn) => void cleanups.push(fn),
  };
}

export interface RawPlugin {
  socket: net.Socket;
  /** The Runtime service: RegisterPlugin was called on it, UpdateContainers may be. */
  client: TtrpcClient;
  syncRequests: nri.SynchronizeRequest[];
}

/**
 * A hand-written plugin peer, for answers the SDK would never send: registers as
 * NN-name, subscribes to `events` (0: all) and serves whatever `methods` implement
 * (Configure and Synchronize answer plainly unless `methods` has them).
 */
export async function connectRawPlugin(
  socketPath: string,
  name: string,
  index: string,
  methods: Record<string, (payload: Buffer) => Uint8Array | Promise<Uint8Array>>,
  events = 0,
): Promise<RawPlugin> {
  const socket = net.connect(socketPath);
  await new Promise((r) => socket.once('connect', r));
  const mux = new Mux(socket);
  const server = new TtrpcServer();
  const syncRequests: nri.SynchronizeRequest[] = [];
  const served: Record<string, (payload: Buffer) => Uint8Array | Promise<Uint8Array>> = {
    Configure: () => nri.ConfigureResponse.encode({ events }).finish(),
    Synchronize: (p) => {
      const req = nri.SynchronizeRequest.decode(p);
      syncRequests.push(req);
      return nri.SynchronizeResponse.encode({ more: req.more }).finish();
    },
    ...methods,
  };
  for (const [m, h] of Object.entries(served)) server.register(PLUGIN_SERVICE, m, h);
  server.serve(mux.open(PLUGIN_SERVICE_CONN));
  const client = new TtrpcClient(mux.open(RUNTIME_SERVICE_CONN));
  try {
    await client.call(
      RUNTIME_SERVICE,
      'RegisterPlugin',
      nri.RegisterPluginRequest.encode({ pluginName: name, pluginIdx: index }).finish(),
    );
  } catch (err) {
    socket.destroy();
    throw err;
  }
  return { socket, client, syncRequests };
}
