// One differential case run under refrt: its plugin directory and drop-ins, pod and
// script written to a scratch directory, refrt -v run to the end of the script, and its
// JSON lines read into what the fixture keeps.
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { GoCall, GoCreate, GoJson } from '../../../test/runtime/differential/fixture.js';
import type { GoReference } from '../reference.js';
import { refrtArgs } from '../refrt.js';
import { DIFF_POD as POD, type DiffCase } from '../../../test/runtime/differential/cases.js';
import { containersSeen } from './logger-log.js';
import { setterPlugin } from './setter.js';

/** Writes the plugin directory and drop-ins of a case; loggers log to DIR/NN-name.log. */
export function writePlugins(
  c: DiffCase,
  ref: GoReference,
  dir: string,
): { pluginDir: string; confDir: string; logs: Map<string, string> } {
  const pluginDir = path.join(dir, 'plugins');
  const confDir = path.join(dir, 'conf.d');
  mkdirSync(pluginDir, { recursive: true });
  mkdirSync(confDir, { recursive: true });
  const logs = new Map<string, string>();
  for (const p of c.plugins) {
    const id = `${p.index}-${p.name}`;
    symlinkSync(p.sample === 'setter' ? setterPlugin(ref) : ref.plugin(p.sample), path.join(pluginDir, id));
    let config = p.config;
    if (p.sample === 'logger') {
      const log = path.join(dir, `${id}.log`);
      logs.set(id, log);
      config = `${config ?? ''}logFile: ${JSON.stringify(log)}\n`;
    }
    if (config !== undefined) writeFileSync(path.join(confDir, `${id}.conf`), config);
  }
  return { pluginDir, confDir, logs };
}

export interface GoRun {
  creates: GoCreate[];
  containers: GoJson[];
  command: string;
}

export function runUnderRefrt(c: DiffCase, ref: GoReference, dir: string): GoRun {
  const { pluginDir, confDir, logs } = writePlugins(c, ref, dir);
  const scenario = path.join(dir, 'scenario.json');
  const script = path.join(dir, 'script.json');
  writeFileSync(scenario, JSON.stringify({ pods: [{ ...POD, annotations: c.podAnnotations }], containers: [] }));
  const steps = c.containers.map((ctr) => ({
    op: 'CreateContainer',
    pod: POD.id,
    container: ctr.id,
    ...ctr,
    id: undefined,
  }));
  writeFileSync(script, JSON.stringify([...steps, { op: 'dump' }]));
  const run = {
    verbose: true,
    pluginDir,
    pluginConfigDir: confDir,
    scenario,
    script,
    waitPlugins: c.plugins.length,
    exitAfterScript: true,
  };
  const out = execFileSync(ref.refrt, refrtArgs(run), { encoding: 'utf8', timeout: 60_000 });
  const creates: GoCreate[] = [];
  let containers: GoJson[] = [];
  let calls: GoCall[] = [];
  let merged: GoJson | undefined;
  for (const text of out.split('\n')) {
    if (!text.startsWith('{')) continue;
    const l = JSON.parse(text) as GoJson;
    if (l.ev === 'plugin_latency' && l.op === 'CreateContainer') calls.push({ plugin: String(l.plugin) });
    else if (l.ev === 'plugin_adjustment' && l.op === 'CreateContainer')
      calls.find((x) => x.plugin === l.plugin && !x.adjust)!.adjust = l.adjust as GoJson;
    else if (l.ev === 'create_adjustment') merged = l;
    else if (l.ev === 'event' && l.op === 'CreateContainer') {
      const create: GoCreate = { container: String(l.container), calls, ok: l.ok === true };
      if (typeof l.error === 'string') create.error = l.error;
      for (const call of calls) if (!call.adjust) call.failed = true;
      if (merged) Object.assign(create, { adjust: merged.adjust, update: merged.update, evict: merged.evict });
      creates.push(create);
      calls = [];
      merged = undefined;
    } else if (l.ev === 'dump') containers = l.containers as GoJson[];
  }
  for (const [plugin, log] of logs) {
    const seen = containersSeen(log);
    for (const ctr of seen) {
      const create = creates.find((x) => x.container === ctr.id);
      if (create) (create.seen ??= {})[plugin] = ctr;
    }
  }
  const command = `refrt ${refrtArgs({ ...run, pluginDir: 'PLUGINS', pluginConfigDir: 'CONF_D', scenario: 'scenario.json', script: 'script.json' }).join(' ')}`;
  return { creates, containers, command };
}
