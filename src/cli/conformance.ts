// What `nrictl conformance` needs above the library: its flags, the rules between them,
// and progress for people on a terminal (one line per check, on stderr).
import { accessSync, constants, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { Flags } from '@oclif/core';
import type { CheckVerdict } from '../conformance/index.js';
import { usageError } from './errors.js';
import { criSocketFlag, nodeSocketFlag, outputFlag } from './flags.js';

/** conformance's flags; `presets` and `faults` are the simulator's (src/runtime's RUNTIME_PRESETS and SIM_FAULTS). */
export const conformanceFlags = (presets: readonly string[], faults: readonly string[]) => ({
  'cri-socket': criSocketFlag,
  socket: nodeSocketFlag("The runtime's NRI socket (default: the one its config names, else /var/run/nri/nri.sock)."),
  image: Flags.string({
    description:
      "Image of the test containers (default: the runtime's own pause image, as its CRI status or its config names it). It must be on the node, unless --pull.",
    helpValue: 'IMAGE',
  }),
  pull: Flags.boolean({ description: 'Pull the image when the node does not have it (nothing is pulled without it).' }),
  focus: Flags.string({
    description:
      "Run only these checks: a name (run-pod/hidden-while-hook-runs), a group (sync), a glob (*hook*) or critest's number (17); repeat or separate with commas.",
    helpValue: 'CHECK',
    multiple: true,
  }),
  skip: Flags.string({
    description: 'Leave these checks out (the same forms as --focus).',
    helpValue: 'CHECK',
    multiple: true,
  }),
  junit: Flags.string({
    description: 'Also write the verdicts as JUnit XML to this file, as critest gives them.',
    helpValue: 'FILE',
  }),
  output: outputFlag(['table', 'wide', 'json', 'yaml']),
  yes: Flags.boolean({
    char: 'y',
    description:
      'Run the checks without asking. Required when there is no terminal to ask on (stdin or stdout not a terminal, or CI set).',
  }),
  'include-crashing': Flags.boolean({
    description:
      'Also run the checks that send a call known to crash this runtime (iSulad: UpdateContainerResources), which are skipped otherwise, with the reason. The runtime goes down: only where it may.',
  }),
  sim: Flags.boolean({
    description:
      "Run against an in-process simulator (its NRI and CRI sockets in a private directory) instead of the node's runtime; SCENARIO, if given, is what it starts with.",
  }),
  preset: Flags.string({
    description: `With --sim: the runtime release line to imitate, or all for a matrix of every one (${presets.join(', ')}).`,
    helpValue: 'PRESET|all',
  }),
  fault: Flags.string({
    description: 'With --sim: break this clause of the contract in the simulator (testing aid).',
    options: [...faults],
    multiple: true,
    hidden: true,
  }),
});

interface Given {
  sim: boolean;
  preset?: string | undefined;
  fault?: string[] | undefined;
  output: string;
  yes: boolean;
  junit?: string | undefined;
}

/** The rules between flags that oclif cannot say: the simulator's flags need --sim. */
export function checkConformanceFlags(f: Given, scenario: string | undefined, presets: readonly string[]): void {
  if (!f.sim) {
    if (scenario !== undefined) throw usageError(`a scenario (${scenario}) is for the simulator: add --sim`);
    if (f.preset !== undefined) throw usageError('--preset is for the simulator: add --sim');
    if (f.fault?.length) throw usageError('--fault is for the simulator: add --sim');
  } else if (f.preset !== undefined && f.preset !== 'all' && !presets.includes(f.preset)) {
    throw usageError(`--preset: unknown preset "${f.preset}" (known: all, ${presets.join(', ')})`);
  }
  if (f.junit !== undefined) checkJunitTarget(f.junit);
}

/** A --junit file that cannot be written is said before the checks run, not after they made and removed pods. */
function checkJunitTarget(file: string): void {
  if (file === '') throw usageError('--junit is empty: give a file name');
  const dir = dirname(file);
  try {
    if (!statSync(dir).isDirectory()) throw new Error('not a directory');
    accessSync(dir, constants.W_OK);
  } catch (err) {
    throw usageError(
      `--junit: cannot write a file in ${dir} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): give a file in a directory that exists and is writable`,
    );
  }
  let isDir = false;
  try {
    isDir = statSync(file).isDirectory();
  } catch {
    // not there yet: it is written after the run
  }
  if (isDir) throw usageError(`--junit: ${file} is a directory: give a file name`);
}

/** A line per finished check on a terminal's stderr; nothing into a pipe or a file. */
export function conformanceProgress(
  say: (text: string) => void,
): ((v: CheckVerdict, done: number, total: number) => void) | undefined {
  if (!process.stderr.isTTY) return undefined;
  return (v, done, total) => say(`[${done}/${total}] ${v.status} ${v.name}`);
}
