// nrictl as a user runs it: the built CLI (bin/run.js) under plain node. The command
// lines live here alone, so that renamed flags (`--plugin-path` -> `--plugin-dir`,
// `--scenario FILE` -> `nrictl sim [SCENARIO]`) are switched in one place.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const NRICTL_BIN = path.join(REPO, 'bin', 'run.js');

export interface SimRun {
  /** Another build's bin/run.js (a baseline to pair against); default this repository's. */
  bin?: string;
  scenario?: string;
  /** An expectation file (it names its scenario). */
  expect?: string;
  pluginDir?: string;
  pluginConfigDir?: string;
  /** Wait for this many plugins to register and synchronize before the script. */
  waitForPlugins?: number;
  pluginOutput?: 'lines' | 'json' | 'none';
  /** Stay up after the script until SIGTERM (so that the bench can read the process's CPU first). */
  keepRunning?: boolean;
  socket?: string;
  output?: 'text' | 'json';
  /** Print an invoke event per plugin call (sim --calls). */
  calls?: boolean;
}

/** Node flags for the simulator's process (V8 experiments): VS_GO_NODE_FLAGS, split on spaces. */
export function nodeFlags(env: NodeJS.ProcessEnv = process.env): string[] {
  return (env.VS_GO_NODE_FLAGS ?? '').split(' ').filter(Boolean);
}

/** argv for process.execPath: `nrictl ARGS...`. */
export function nrictlArgv(...args: string[]): string[] {
  return [...nodeFlags(), NRICTL_BIN, ...args];
}

/** argv for process.execPath: `nrictl sim ...`. */
export function simArgv(run: SimRun): string[] {
  const argv = [...nodeFlags(), run.bin ?? NRICTL_BIN, 'sim'];
  if (run.scenario !== undefined) argv.push(run.scenario);
  if (run.expect !== undefined) argv.push('--expect', run.expect);
  if (run.pluginDir !== undefined) argv.push('--plugin-dir', run.pluginDir);
  if (run.pluginConfigDir !== undefined) argv.push('--conf-dir', run.pluginConfigDir);
  if (run.waitForPlugins !== undefined) argv.push('--wait-for-plugins', String(run.waitForPlugins));
  if (run.pluginOutput !== undefined) argv.push('--plugin-output', run.pluginOutput);
  if (run.keepRunning) argv.push('--keep-running');
  if (run.calls) argv.push('--calls');
  if (run.socket !== undefined) argv.push('--socket', run.socket);
  if (run.output !== undefined) argv.push('-o', run.output);
  return argv;
}

/** argv for process.execPath: `nrictl sync dump --socket PATH [-o json]` (bin: another build's bin/run.js, to pair against). */
export function syncDumpArgv(socket: string, output: 'table' | 'json', bin = NRICTL_BIN): string[] {
  const argv = [...nodeFlags(), bin, 'sync', 'dump', '--socket', socket];
  if (output === 'json') argv.push('-o', 'json');
  return argv;
}
