// One differential case run under the simulator with the same Go sample plugins, twice:
// `nrictl sim -o json` as a user runs it (which plugins were called, each one's
// adjustment, the outcome and its message, and what the loggers saw), and the same
// engine in this process (src/runtime's Runtime launching the same plugin directory) for
// the merged adjustment of each creation, which the CLI does not print.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { nri } from '../../../src/api/index.js';
import { Runtime, SimState } from '../../../src/runtime/index.js';
import type { GoJson } from '../../../test/runtime/differential/fixture.js';
import { fromSim } from '../../../test/runtime/differential/nri-json.js';
import { simArgv } from '../nrictl.js';
import type { GoReference } from '../reference.js';
import { DIFF_POD as POD, type DiffCase } from '../../../test/runtime/differential/cases.js';
import { containersSeen } from './logger-log.js';
import { writePlugins } from './reference-run.js';

export interface SimCreate {
  container: string;
  calls: string[];
  /** Each plugin's adjustment, comparable (nri-json.ts). */
  adjusted: Record<string, GoJson>;
  ok: boolean;
  /** Conflict and error messages reported for this container. */
  messages: string[];
  seen: Record<string, GoJson>;
  /** The merged adjustment (from the in-process run), comparable. */
  merged?: GoJson;
}

export async function runUnderSim(c: DiffCase, ref: GoReference, dir: string): Promise<SimCreate[]> {
  const { pluginDir, confDir, logs } = writePlugins(c, ref, dir);
  const scenario = path.join(dir, 'sim.json');
  const steps = c.containers.map((ctr) => ({ create: { ...ctr, pod: POD.id } }));
  writeFileSync(scenario, JSON.stringify({ pods: [{ ...POD, annotations: c.podAnnotations }], steps }));
  const argv = simArgv({
    scenario,
    pluginDir,
    pluginConfigDir: confDir,
    waitForPlugins: c.plugins.length,
    pluginOutput: 'none',
    output: 'json',
    calls: true,
  });
  const out = execFileSync(process.execPath, argv, { encoding: 'utf8', timeout: 60_000 });
  const creates = new Map<string, SimCreate>();
  for (const ctr of c.containers)
    creates.set(ctr.id, { container: ctr.id, calls: [], adjusted: {}, ok: false, messages: [], seen: {} });
  for (const text of out.split('\n')) {
    if (!text.startsWith('{')) continue;
    const e = JSON.parse(text) as Record<string, unknown>;
    const create = creates.get(String(e.container));
    if (!create) continue;
    if (e.type === 'invoke' && e.event === 'CreateContainer') create.calls.push(String(e.plugin));
    else if (e.type === 'adjusted')
      create.adjusted[String(e.plugin)] = fromSim(
        'ContainerAdjustment',
        nri.ContainerAdjustment.fromObject(e.adjust as object),
      );
    else if (e.type === 'state-changed' && e.event === 'CreateContainer') create.ok = true;
    else if (e.type === 'conflict' || e.type === 'error' || e.type === 'rejected') {
      create.messages.push(String(e.message));
      // A call that failed has no invoke event; its error names the plugin.
      if (e.type === 'error' && e.event === 'CreateContainer' && typeof e.plugin === 'string')
        create.calls.push(e.plugin);
    }
  }
  for (const [plugin, log] of logs) {
    for (const ctr of containersSeen(log)) {
      const create = creates.get(String(ctr.id));
      if (create) create.seen[plugin] = ctr;
    }
  }
  for (const [id, merged] of await mergedInProcess(c, pluginDir, confDir, path.join(dir, 'nri.sock')))
    creates.get(id)!.merged = merged;
  return [...creates.values()];
}

/** The merged adjustment of every successful creation, from the simulator's engine run here. */
async function mergedInProcess(
  c: DiffCase,
  pluginPath: string,
  pluginConfigPath: string,
  socketPath: string,
): Promise<Map<string, GoJson>> {
  const runtime = new Runtime(new SimState({ pods: [{ ...POD, annotations: c.podAnnotations }] }), {
    socketPath,
    pluginPath,
    pluginConfigPath,
    pluginOutput: 'none',
  });
  await runtime.start(); // launches the plugin directory and waits for the plugins to register
  try {
    if (runtime.plugins().length !== c.plugins.length)
      throw new Error(`${c.name}: ${runtime.plugins().length} of ${c.plugins.length} plugins started`);
    const merged = new Map<string, GoJson>();
    for (const ctr of c.containers) {
      const r = await runtime.createContainer(POD.id, { ...ctr, podSandboxId: POD.id });
      if (r.ok) merged.set(ctr.id, fromSim('ContainerAdjustment', r.adjust ?? {}));
    }
    return merged;
  } finally {
    await runtime.stop();
  }
}
