// Replays a Go reference fixture against the simulator, without Go: the simulator runs in
// this process on a unix socket in a temp dir, and each recorded plugin is an SDK Stub
// registered under the same index and name, answering CreateContainer with exactly the
// adjustment the Go sample plugin returned (or failing with its error). The containers
// are created in the recorded order; what the simulator made of the answers is
// collected for comparison with what the Go adaptation made of them.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { nri } from '../../../src/api/index.js';
import { Stub } from '../../../src/plugin/index.js';
import { Runtime, SimState, type SimEvent } from '../../../src/runtime/index.js';
import { Code, TtrpcError } from '../../../src/ttrpc/index.js';
import { pluginId, type GoFixture, type GoJson } from './fixture.js';
import { fromSim, goToSim } from './nri-json.js';

/** The prefix the Go runtime puts before a plugin's own error text (a ttrpc status). */
export const GO_PLUGIN_ERROR_PREFIX = 'rpc error: code = Unknown desc = ';

export interface Replayed {
  container: string;
  ok: boolean;
  /** Plugins whose CreateContainer handler ran for this container, in order. */
  calls: string[];
  /** The merged adjustment, comparable (nri-json.ts). */
  adjust?: GoJson;
  updates?: nri.IContainerUpdate[];
  conflict?: Extract<SimEvent, { type: 'conflict' }>;
  /** The simulator's messages about this container: conflicts, rejections, errors. */
  messages: string[];
  /** The container each plugin was handed, comparable. */
  handed: Record<string, GoJson>;
}

export async function replay(f: GoFixture): Promise<Replayed[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'go-replay-'));
  const runtime = new Runtime(new SimState({ pods: [f.pod] }), { socketPath: path.join(dir, 'nri.sock') });
  const events: SimEvent[] = [];
  runtime.on('event', (e: SimEvent) => events.push(e));
  const stubs: Stub[] = [];
  let current: Replayed | undefined;
  try {
    await runtime.start();
    for (const p of f.plugins) {
      const id = pluginId(p);
      const stub = new Stub(
        {
          createContainer: (_pod, ctr) => {
            current!.calls.push(id);
            current!.handed[id] = fromSim('Container', ctr);
            const go = f.go.creates.find((c) => c.container === ctr.id)?.calls.find((c) => c.plugin === id);
            // The status the Go plugin sent: code Unknown and its error's text, as the Go
            // stub's ttrpc server makes of a handler's error (the SDK would add its name).
            if (go?.failed)
              throw new TtrpcError(
                Code.Unknown,
                f.go.creates.find((c) => c.container === ctr.id)!.error!.replace(GO_PLUGIN_ERROR_PREFIX, ''),
              );
            return go?.adjust ? { adjust: goToSim('ContainerAdjustment', go.adjust) } : {};
          },
        },
        { name: p.name, index: p.index, socketPath: runtime.socketPath! },
      );
      await stub.start();
      stubs.push(stub);
    }
    for (let i = 0; runtime.plugins().length < f.plugins.length; i++) {
      if (i > 500) throw new Error(`only ${runtime.plugins().length} of ${f.plugins.length} plugins registered`);
      await new Promise((r) => setTimeout(r, 10));
    }
    const out: Replayed[] = [];
    for (const ctr of f.containers) {
      current = { container: ctr.id, ok: false, calls: [], messages: [], handed: {} };
      const seen = events.length;
      const r = await runtime.createContainer(f.pod.id, { ...ctr, podSandboxId: f.pod.id });
      current.ok = r.ok;
      if (r.ok) {
        current.adjust = fromSim('ContainerAdjustment', r.adjust ?? {});
        current.updates = r.updates;
      }
      for (const e of events.slice(seen)) {
        if (e.type === 'conflict') current.conflict = e;
        if (e.type === 'conflict' || e.type === 'rejected' || e.type === 'error') current.messages.push(e.message);
      }
      out.push(current);
    }
    return out;
  } finally {
    for (const s of stubs) await s.stop().catch(() => undefined);
    await runtime.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The parts of Go's conflict error: `plugins "NEW" and "OWNER" both tried to set FIELD [KEY]`. */
export function goConflict(error: string): { plugins: [string, string]; field: string; key?: string } | undefined {
  const m = /^plugins "([^"]+)" and "([^"]+)" both tried to set (\S+) ?(.*)$/.exec(error);
  if (!m) return undefined;
  return { plugins: [m[2], m[1]], field: m[3], ...(m[4] ? { key: m[4] } : {}) };
}

/** A container as a plugin was handed it, without what the embedding runtime fills in as it likes. */
export function handedFields(c: GoJson): GoJson {
  const rest = { ...c };
  for (const key of ['created_at', 'state', 'pid']) delete rest[key];
  return rest;
}
