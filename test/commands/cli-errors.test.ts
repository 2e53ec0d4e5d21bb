// Usage errors from oclif's own parsing and command lookup, through the built CLI
// (bin/run.js reads package.json's oclif section: help flags and the not-found hook).
import { beforeAll, describe, it, type ExpectStatic } from 'vitest';
import { assertBuilt, runCli } from './nri-cli.js';

beforeAll(() => assertBuilt('logs', 'update'));

/** A usage error: exit 2, exactly this one line on stderr, nothing on stdout. */
async function expectUsageError(expect: ExpectStatic, args: string[], line: string): Promise<void> {
  const r = await runCli(args);
  expect(r.code).toBe(2);
  expect(r.stderr).toBe(line);
  expect(r.stdout).toBe('');
}

describe.concurrent('usage errors are one line that keeps the reason', () => {
  it('an integer flag below its minimum says why it was refused', ({ expect }) =>
    expectUsageError(
      expect,
      ['logs', '--buffer', '0', '--socket', '/nonexistent/nri.sock'],
      'Error: --buffer: Expected an integer greater than or equal to 1 but received: 0\n',
    ));
  it.for<[string[], string]>([
    [['logs', '--sokcet', '/x'], 'Error: Nonexistent flag: --sokcet (did you mean --socket?)\n'],
    [['update', 'c2c3', '--cpu', '1'], 'Error: Nonexistent flag: --cpu (did you mean --cpus?)\n'],
    [['validate', '--no-colr'], 'Error: Nonexistent flag: --no-colr (did you mean --no-color?)\n'],
  ])('nrictl %j suggests the closest flag', ([args, want], { expect }) => expectUsageError(expect, args, want));
  it.for<[string[], string]>([
    [['updat'], 'Error: unknown command "updat": did you mean update? Run nrictl --help for the list.\n'],
    [['sync', 'dum'], 'Error: unknown command "sync dum": did you mean sync dump? Run nrictl --help for the list.\n'],
    [['frobnicate'], 'Error: unknown command "frobnicate": run nrictl --help for the list.\n'],
    [
      ['updat', 'c2c3', '--cpus', '1'],
      'Error: unknown command "updat": did you mean update? Run nrictl --help for the list.\n',
    ],
    [['synk', 'dump'], 'Error: unknown command "synk": did you mean sync? Run nrictl --help for the list.\n'],
  ])('nrictl %j names the closest command, exits 2 and runs nothing', ([args, want], { expect }) =>
    expectUsageError(expect, args, want),
  );
});

describe.concurrent('a mistyped command asked for help gets the same line as when run', () => {
  const syncDump = 'Error: unknown command "sync dmp": did you mean sync dump? Run nrictl --help for the list.\n';
  const update = 'Error: unknown command "updat": did you mean update? Run nrictl --help for the list.\n';
  it.for<[string[], string]>([
    [['sync', 'dmp', '--help'], syncDump],
    [['sync', 'dmp', '-h'], syncDump],
    [['help', 'sync', 'dmp'], syncDump],
    [['updat', '--help'], update],
    [['-h', 'updat'], update],
    [['help', 'updat'], update],
    [['frobnicate', '--help'], 'Error: unknown command "frobnicate": run nrictl --help for the list.\n'],
  ])('nrictl %j names the closest command and exits 2', ([args, want], { expect }) =>
    expectUsageError(expect, args, want),
  );

  it.for<[string[], string[]]>([
    [
      ['logs', 'extra', '--help'],
      ['logs', '--help'],
    ],
    [
      ['sync', 'dump', 'x', '-h'],
      ['sync', 'dump', '--help'],
    ],
  ])('nrictl %j: a stray argument, the help of the command named', async ([args, same], { expect }) => {
    const [stray, plain] = await Promise.all([runCli(args), runCli(same)]);
    expect(stray.code, stray.stderr).toBe(0);
    expect(stray.stdout).toMatch(/USAGE/);
    expect(stray.stdout).toBe(plain.stdout);
  });
});

describe.concurrent("a stray argument is the named command's usage error, not an unknown command", () => {
  it.for<[string[], string]>([
    [['logs', 'extra'], 'Error: Unexpected argument: extra\n'],
    [['sync', 'dump', 'x', 'y'], 'Error: Unexpected arguments: x, y\n'],
  ])('nrictl %j', ([args, want], { expect }) => expectUsageError(expect, args, want));
});

describe.concurrent('-h is --help, as in kubectl and crictl', () => {
  it.for<[string[]]>([[['-h']], [['logs', '-h']], [['sync', 'dump', '-h']], [['sync', '-h']]])(
    'nrictl %j prints the help',
    async ([args], { expect }) => {
      const [long, short] = await Promise.all([runCli([...args.slice(0, -1), '--help']), runCli(args)]);
      expect(short.code).toBe(0);
      expect(short.stderr).toBe('');
      expect(short.stdout).toMatch(/USAGE/);
      expect(short.stdout).toBe(long.stdout);
    },
  );
});

describe.concurrent("sim --replay's and logs --record's own values are checked before anything is read", () => {
  // The recording is never opened: a bad value is refused while the flags are read.
  const rec = '/nonexistent/rec.jsonl';
  const speed = (v: string) => `Error: --speed ${v}: give recorded, fast, or a factor such as 10x or 0.5x\n`;
  it.for<[string[], string]>([
    [['sim', '--replay', rec, '--speed', 'abc'], speed('abc')],
    [['sim', '--replay', rec, '--speed', '0x'], speed('0x')],
    [['sim', '--replay', rec, '--speed', '-2'], speed('-2')],
    [['sim', 'demo', '--replay', rec], `Error: give a SCENARIO or --replay ${rec}, not both\n`],
    [
      ['logs', '--record', '/nonexistent/x.jsonl', '--record-max', 'lots'],
      "Error: --record-max: invalid quantity 'lots': expected a number and an optional suffix, e.g. 512Mi (known suffixes: Ki, Mi, Gi, Ti, Pi, Ei (binary) and k, M, G, T, P, E (decimal))\n",
    ],
  ])('nrictl %j', ([args, want], { expect }) => expectUsageError(expect, args, want));
});
