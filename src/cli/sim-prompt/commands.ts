// Line-based control of a running simulator: one command per line, so one terminal can
// drive events while another runs `nrictl logs`. Parsing is pure; execution returns text,
// and a command that fails throws a CommandError, which the loop writes where errors go.
import type { ErrorKind } from '../../errors/index.js';
import { nri } from '../../api/index.js';
import { jsonDocument, toPlain } from '../../output/index.js';
import type { Runtime } from '../../runtime/index.js';

export const INTERACTIVE_HELP = `commands:
  run-pod POD [NAMESPACE]          run a pod sandbox
  create CTR POD [NAME]            create a container in a pod
  start CTR | stop CTR | remove CTR
  update CTR key=value...          keys: cpus, mems, shares, quota, period, memory (bytes)
  stop-pod POD | remove-pod POD
  dump                             pods and containers as JSON
  plugins                          connected plugins in invocation order
  help | quit`;

export type Command =
  | { kind: 'run-pod'; id: string; namespace: string }
  | { kind: 'create'; id: string; pod: string; name: string }
  | { kind: 'start' | 'stop' | 'remove' | 'stop-pod' | 'remove-pod'; id: string }
  | { kind: 'update'; id: string; resources: nri.ILinuxResources }
  | { kind: 'dump' | 'plugins' | 'help' | 'quit' | 'empty' };

/** A line the prompt cannot run (usage), or a command the simulated runtime failed (failed): said as it is. */
export class CommandError extends Error {
  override readonly name = 'CommandError';
  constructor(
    message: string,
    readonly kind: ErrorKind = 'usage',
  ) {
    super(message);
  }
}

/** Nothing to show when the runtime did it; else its failure, thrown to be told as the prompt's errors are. */
function outcome(what: string, r: { ok: true } | { ok: false; error: Error }): string {
  if (!r.ok) throw new CommandError(`${what} failed: ${r.error.message}`, 'failed');
  return '';
}

function int(key: string, v: string): number {
  if (!/^-?\d+$/.test(v)) throw new CommandError(`${key}=${v}: expected a whole number`);
  return Number(v);
}

export function parseCommand(line: string): Command {
  const [word, ...args] = line.trim().split(/\s+/).filter(Boolean);
  const need = (n: number, usage: string): void => {
    if (args.length < n) throw new CommandError(`usage: ${usage}`);
  };
  switch (word) {
    case undefined:
      return { kind: 'empty' };
    case 'run-pod':
      need(1, 'run-pod POD [NAMESPACE]');
      return { kind: 'run-pod', id: args[0], namespace: args[1] ?? 'default' };
    case 'create':
      need(2, 'create CTR POD [NAME]');
      return { kind: 'create', id: args[0], pod: args[1], name: args[2] ?? args[0] };
    case 'start':
    case 'stop':
    case 'remove':
    case 'stop-pod':
    case 'remove-pod':
      need(1, `${word} ID`);
      return { kind: word, id: args[0] };
    case 'update': {
      need(2, 'update CTR key=value...');
      const cpu: nri.ILinuxCPU = {};
      const memory: nri.ILinuxMemory = {};
      for (const kv of args.slice(1)) {
        const [k, v] = kv.split('=', 2);
        if (!k || v === undefined) throw new CommandError(`${kv}: expected key=value`);
        if (k === 'cpus') cpu.cpus = v;
        else if (k === 'mems') cpu.mems = v;
        else if (k === 'shares') cpu.shares = { value: int(k, v) };
        else if (k === 'quota') cpu.quota = { value: int(k, v) };
        else if (k === 'period') cpu.period = { value: int(k, v) };
        else if (k === 'memory') memory.limit = { value: int(k, v) };
        else throw new CommandError(`unknown key "${k}" (known: cpus, mems, shares, quota, period, memory)`);
      }
      return { kind: 'update', id: args[0], resources: { cpu, memory } };
    }
    case 'dump':
    case 'plugins':
    case 'help':
    case 'quit':
      return { kind: word };
    default:
      throw new CommandError(`unknown command "${word}" (type help)`);
  }
}

/** What executeCommand resolves with for `quit`: not a text, so no output can be mistaken for it. */
export const QUIT = Symbol('quit');

/** Runs one command; resolves with text to show (possibly empty) or QUIT; a failed command throws a CommandError. */
export async function executeCommand(runtime: Runtime, cmd: Command): Promise<string | typeof QUIT> {
  switch (cmd.kind) {
    case 'empty':
      return '';
    case 'help':
      return INTERACTIVE_HELP;
    case 'quit':
      return QUIT;
    case 'dump': {
      // As sync dump -o json writes them: enum names, int64 (createdAt in ns) as strings.
      const { pods, containers } = runtime.state.snapshot();
      return jsonDocument({
        pods: pods.map((p) => toPlain(p, nri.PodSandbox)),
        containers: containers.map((c) => toPlain(c, nri.Container)),
      }).trimEnd();
    }
    case 'plugins':
      return (
        runtime
          .plugins()
          .map((p) => `${p.name}  ${p.external ? 'external' : 'pre-started'}  ${p.events}`)
          .join('\n') || '(no plugins)'
      );
    case 'run-pod':
      return outcome(
        'run-pod',
        await runtime.runPodSandbox({ id: cmd.id, name: cmd.id, namespace: cmd.namespace, uid: cmd.id }),
      );
    case 'create':
      return outcome('creation', await runtime.createContainer(cmd.pod, { id: cmd.id, name: cmd.name }));
    case 'start':
      await runtime.startContainer(cmd.id);
      return '';
    case 'stop':
      await runtime.stopContainer(cmd.id);
      return '';
    case 'remove':
      await runtime.removeContainer(cmd.id);
      return '';
    case 'stop-pod':
      await runtime.stopPodSandbox(cmd.id);
      return '';
    case 'remove-pod':
      await runtime.removePodSandbox(cmd.id);
      return '';
    case 'update':
      return outcome('update', await runtime.updateContainer(cmd.id, cmd.resources));
  }
}
