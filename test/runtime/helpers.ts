// Shared by the runtime tests: a simulator in a fresh temp dir, event capture, waiting.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Runtime, type RuntimeOptions } from '../../src/runtime/runtime.js';
import { SimState } from '../../src/runtime/state.js';
import type { SimEvent } from '../../src/runtime/events.js';
import type { Scenario } from '../../src/runtime/scenario.js';

export interface Sim {
  runtime: Runtime;
  events: SimEvent[];
  socketPath: string;
  dir: string;
  close(): Promise<void>;
}

export async function startSim(scenario?: Pick<Scenario, 'pods' | 'containers'>, opts: RuntimeOptions = {}): Promise<Sim> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'rt-'));
  const state = new SimState({ pods: scenario?.pods ?? [], containers: scenario?.containers ?? [] });
  const runtime = new Runtime(state, { socketPath: path.join(dir, 'nri.sock'), killGraceMs: 200, ...opts });
  const events: SimEvent[] = [];
  runtime.on('event', (e: SimEvent) => events.push(e));
  const { socketPath } = await runtime.start();
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

export async function waitFor<T>(what: string, fn: () => T | undefined | false, timeoutMs = 8000): Promise<T> {
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
