// Every command prints in every -o format it offers, and a program can read what it
// prints: json as one document or one object per line (the streams), yaml as one or more
// documents, name as one name per line. The commands and their formats come from the
// built manifest, so a new command or a new format is tested without a line here; the
// invocations are the README tour's (scripts/gen-readme.mjs TOUR), which run offline on
// what the repository ships.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
// @ts-expect-error: a plain ES module script without type declarations
import { ENV, SCRATCH, TOUR } from '../../scripts/gen-readme.mjs';
import { runInProcess } from '../support/cli-in-process.js';
import { withUnpacedDemo } from '../support/unpaced-demo.js';

type TourEntry = { args: string[]; exit: number; cwd?: string };
const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const manifest = JSON.parse(readFileSync(join(repo, 'oclif.manifest.json'), 'utf8')) as {
  commands: Record<string, { flags: Record<string, { helpValue?: string } | undefined> }>;
};

/** Each command's -o formats, as its help names them ("table|wide|json|yaml"). */
const formatsOf = (id: string): string[] => manifest.commands[id]?.flags.output?.helpValue?.split('|') ?? [];
// fleet reads a Prometheus, which the offline tour has none of: test/commands/fleet.test.ts
// runs it in every format against a real HTTP server answering as Prometheus does.
const NEEDS_A_SERVICE = new Set(['fleet']);
const printing = Object.keys(manifest.commands).filter((id) => formatsOf(id).length > 0 && !NEEDS_A_SERVICE.has(id));

/** The tour's first run of a command, with -o left to the test. */
function invocation(id: string): TourEntry {
  const entry = (TOUR as Record<string, TourEntry[] | undefined>)[id.replace(':', ' ')]?.[0];
  if (!entry) throw new Error(`nrictl ${id} has no tour entry in scripts/gen-readme.mjs`);
  const args = [...entry.args];
  const o = args.indexOf('-o');
  if (o >= 0) args.splice(o, 2);
  return { ...entry, args };
}

// The plugin commands write files: they run in a scratch project, as the tour does.
let scratch = '';
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'nrictl-formats-'));
  cpSync(join(repo, 'examples/plugins-ts'), join(scratch, 'examples/plugins-ts'), { recursive: true });
  mkdirSync(join(scratch, 'node_modules'));
  symlinkSync(repo, join(scratch, 'node_modules', 'nrictl'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Run = { status: number | null; stdout: string; stderr: string };

/**
 * The built CLI. What a run prints is the same with or without the demo's pauses, so the
 * runs play it without them and compute, in milliseconds, in this process
 * (test/support/cli-in-process.ts), one after another, without a child's start-up. The
 * exporter serves for its --duration, counted from its registration, and then prints what
 * it did: one registration and one reading of the node after 50 ms as after the tour's 2 s.
 */
async function nrictl(tourArgs: string[], cwd: string): Promise<Run> {
  const args = await withUnpacedDemo(tourArgs);
  if (args[0] === 'exporter') {
    const at = args.indexOf('--duration');
    args.splice(at < 0 ? args.length : at, 2, '--duration', '50ms');
  }
  const r = await runInProcess(args, { env: ENV as NodeJS.ProcessEnv, cwd });
  return { status: r.code, stdout: r.stdout, stderr: r.stderr };
}

/** A fresh place for each run of a command that writes (plugin new, plugin bundle --out). */
function placeFor(entry: TourEntry, id: string, format: string): { cwd: string; args: string[] } {
  if (entry.cwd !== SCRATCH) return { cwd: repo, args: entry.args };
  // What is written is the same whichever nrictl the project depends on: a registry version
  // spares the `npm pack` of the checkout (seconds, once per format) that the vendored default
  // makes (test/commands/plugin-new.test.ts and the installed package's tour test that one).
  const dependency = id === 'plugin:new' ? ['--nrictl', '^0.1.0'] : [];
  const cwd = join(scratch, `${id.replace(':', '-')}-${format}`);
  mkdirSync(join(cwd, 'node_modules'), { recursive: true });
  cpSync(join(scratch, 'examples'), join(cwd, 'examples'), { recursive: true });
  symlinkSync(repo, join(cwd, 'node_modules', 'nrictl'));
  return { cwd, args: [...entry.args, ...dependency] };
}

/** What a program reading `format` gets from stdout; throws when it cannot read it. */
function readAs(format: string, stdout: string): unknown[] {
  const text = stdout.trim();
  // -o name may list nothing: validate's example directory fails discovery, so no plugin starts.
  if (format === 'name') return text === '' ? [] : text.split('\n');
  if (text === '') throw new Error('nothing on stdout');
  if (format === 'json') {
    try {
      return [JSON.parse(text)];
    } catch {
      return text.split('\n').map((line) => JSON.parse(line) as unknown); // a stream: one object a line
    }
  }
  if (format === 'yaml') {
    const docs = YAML.parseAllDocuments(text);
    for (const d of docs) if (d.errors.length > 0) throw new Error(d.errors[0].message);
    return docs.map((d) => d.toJS() as unknown);
  }
  if (format === 'junit') {
    if (!/^<\?xml[^]*<testsuites?[\s>]/.test(text)) throw new Error('not a JUnit XML document');
    return [text];
  }
  return text.split('\n'); // table, wide: lines for people
}

describe('every command in every -o format', () => {
  it('covers every command that prints', () => {
    expect(printing).toEqual(expect.arrayContaining(['validate', 'sync:dump', 'logs', 'sim', 'trace', 'version']));
  });

  const cases = printing.flatMap((id) =>
    formatsOf(id)
      .filter((f) => f !== 'junit') // -o junit reports expectations: its own case below
      .map((format) => [`nrictl ${id.replace(':', ' ')} -o ${format}`, id, format] as const),
  );
  it.concurrent.each(cases)('%s prints what a reader of that format can read', async (_, id, format) => {
    const entry = invocation(id);
    const { cwd, args } = placeFor(entry, id, format);
    const r = await nrictl([...args, '-o', format], cwd);
    expect(r.status, r.stderr).toBe(entry.exit);
    const items = readAs(format, r.stdout);
    if (format !== 'name') expect(items.length).toBeGreaterThan(0);
    if (format === 'json' || format === 'yaml') for (const item of items) expect(typeof item).toBe('object');
    if (format === 'name') for (const line of items as string[]) expect(line).toMatch(/^\S+$/);
  });

  it('sim -o junit: the expectations as one JUnit document', async () => {
    const bundle = invocation('plugin:bundle');
    const { cwd } = placeFor(bundle, 'sim', 'junit');
    expect((await nrictl(bundle.args, cwd)).status).toBe(0);
    const expectRun = (TOUR as Record<string, TourEntry[]>).sim.find((e) => e.args.includes('--expect'))!;
    const r = await nrictl([...expectRun.args, '-o', 'junit'], cwd);
    expect(r.status, r.stderr).toBe(0);
    expect(readAs('junit', r.stdout)[0]).toMatch(/<testcase /);
  });
});
