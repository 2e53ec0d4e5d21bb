import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanEnv, ok, packedOnce, repo, run, type Packed } from './packed.js';

// A plugin author's path, from the packed tarball installed into empty directories:
// import the SDK, type-check against its declarations, run the README's plugin
// against the installed simulator. About 30-60 s on a 2-core machine (pack + install).
//
// The package is installed once per run (packed.ts, npm install -g); the author's app
// reaches that installation through its node_modules/nrictl, as a linked dependency
// would, rather than installing the same tarball and its dependencies a second time. The
// install of nrictl as a project's dependency is `plugin new`'s project's, below.

let work: string;
let env: NodeJS.ProcessEnv;
let app: string;
const tsc = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');

let packed: Packed;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'nrictl-author-'));
  env = cleanEnv(work);
  // Packed and installed once per run, with pack.test.ts (packed.ts).
  packed = await packedOnce();
  app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: 'app', version: '1.0.0', private: true, type: 'module' }),
  );
  const installed = join(packed.prefix, 'lib', 'node_modules', 'nrictl');
  mkdirSync(join(app, 'node_modules'));
  symlinkSync(installed, join(app, 'node_modules', 'nrictl'), 'dir');
  // The env-injector example reads YAML with nrictl's own yaml, which npm would hoist
  // next to nrictl in a project that depends on it.
  symlinkSync(join(installed, 'node_modules', 'yaml'), join(app, 'node_modules', 'yaml'), 'dir');
}, 300_000);

// A few hundred MB of installed packages: removing them takes a while on a loaded machine.
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
}, 120_000);

/** The plugin shown in README.md's "Write a plugin" section, exactly as printed. */
function readmePlugin(): string {
  const readme = readFileSync(join(repo, 'README.md'), 'utf8');
  const m = /<!-- plugin:example -->\n```ts\n([\s\S]*?)```\n<!-- \/plugin:example -->/.exec(readme);
  if (!m) throw new Error('README.md has no <!-- plugin:example --> block');
  return m[1];
}

function tsconfig(dir: string, extra: Record<string, unknown> = {}, include = ['*.ts']): void {
  // typeRoots: @types/node from the repository, as a real project would have in its own devDependencies.
  // Every declaration file is checked (no skipLibCheck: the shipped ones must hold in a
  // project that checks its libraries) but TypeScript's own lib.*.d.ts, which are
  // TypeScript's to check: they were a third of this program's time.
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        skipDefaultLibCheck: true,
        outDir: 'out',
        types: ['node'],
        typeRoots: [join(repo, 'node_modules', '@types')],
        ...extra,
      },
      include,
    }),
  );
}

const EXAMPLES = ['cpu-pinner', 'env-injector', 'memory-limit-validator'];

/**
 * The README's plugin and the example plugins (examples/plugins-ts, as the installed
 * package ships them), compiled by tsc (which type-checks them) into readme/out, in one
 * program with a file that must not type-check (typed/wrong.ts): once per run, tsc is
 * slow here. tsc emits what it compiled whatever the errors, and says each error's file.
 */
let compiled: { dir: string; errors: string } | undefined;
function compiledReadmePlugin(): { dir: string; errors: string } {
  if (compiled) return compiled;
  const dir = join(app, 'readme');
  mkdirSync(dir);
  tsconfig(dir, {}, ['*.ts', 'examples/*/index.ts', 'typed/*.ts']);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  writeFileSync(join(dir, '10-readme.ts'), readmePlugin());
  for (const name of EXAMPLES) {
    mkdirSync(join(dir, 'examples', name), { recursive: true });
    copyFileSync(
      join(app, 'node_modules', 'nrictl', 'examples', 'plugins-ts', name, 'index.ts'),
      join(dir, 'examples', name, 'index.ts'),
    );
  }
  // The declarations are real, not `any`: a wrong field type fails.
  mkdirSync(join(dir, 'typed'));
  writeFileSync(
    join(dir, 'typed', 'wrong.ts'),
    `import { Stub } from 'nrictl/plugin';\nnew Stub({ createContainer: () => ({ adjust: { annotations: 42 } }) });\n`,
  );
  const r = run(process.execPath, [tsc, '-p', '.'], { cwd: dir, env });
  if (r.status === 0) throw new Error('tsc passed a program with typed/wrong.ts in it');
  return (compiled = { dir, errors: r.stdout });
}

describe('nrictl/plugin and nrictl/ttrpc from the installed tarball', () => {
  it('import from a plain .mjs: the stub, the API types, the optional helpers, ttrpc alone', () => {
    writeFileSync(
      join(app, 'probe.mjs'),
      `import { Stub, PluginError, nri, optionalInt64, getOptionalInt64, socketPathFromArgs } from 'nrictl/plugin';
import * as root from 'nrictl';
import { TtrpcClient, TtrpcServer, encodeFrame } from 'nrictl/ttrpc';
const stub = new Stub({ createContainer: () => undefined }, { name: 'probe', index: '10' });
console.log(JSON.stringify({
  stub: typeof Stub, timeout: stub.requestTimeoutMs, err: typeof PluginError, root: root.Stub === Stub,
  enum: nri.Event.CREATE_CONTAINER, round: getOptionalInt64(optionalInt64(42)), socket: socketPathFromArgs(['--socket', 'x']),
  ttrpc: [typeof TtrpcClient, typeof TtrpcServer, encodeFrame(1, 1, new Uint8Array(0)).length],
}));
`,
    );
    const r = ok(run(process.execPath, ['probe.mjs'], { cwd: app, env }), 'node probe.mjs');
    expect(JSON.parse(r.stdout)).toEqual({
      stub: 'function',
      timeout: 2000,
      err: 'function',
      root: true,
      enum: 4,
      round: 42,
      socket: 'x',
      ttrpc: ['function', 'function', 10],
    });
  });

  it('deep imports of the build are closed: only the documented entry points exist', () => {
    writeFileSync(join(app, 'deep.mjs'), `await import('nrictl/dist/src/plugin/stub.js');\n`);
    const r = run(process.execPath, ['deep.mjs'], { cwd: app, env });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('ERR_PACKAGE_PATH_NOT_EXPORTED');
  });

  it("the README's plugin and the example plugins type-check against the shipped declarations, and a type error is caught", () => {
    const { dir, errors } = compiledReadmePlugin();
    // Each was in the program tsc checked: it emitted each.
    for (const f of ['10-readme.js', ...EXAMPLES.map((n) => `examples/${n}/index.js`)])
      expect(existsSync(join(dir, 'out', f)), f).toBe(true);
    // Every error tsc found is the wrong field type's, in the file made to have it.
    const files = errors.split('\n').flatMap((line) => /^(\S+\.ts)\(\d+,\d+\): error/.exec(line)?.[1] ?? []);
    expect(files.length, errors).toBeGreaterThan(0);
    expect(new Set(files), errors).toEqual(new Set(['typed/wrong.ts']));
    expect(errors).toMatch(/typed\/wrong\.ts\(2,\d+\): error TS2322/);
  }, 180_000);

  it("the README's plugin, compiled, adjusts containers under the installed `nrictl sim` as an external plugin with --socket", async () => {
    const { dir } = compiledReadmePlugin();
    const { code, err, events, perr } = await withExternalPlugin(
      process.execPath,
      [join(dir, 'out', '10-readme.js')],
      dir,
      join(app, 'node_modules', 'nrictl', 'examples', 'demo.yaml'),
    );
    expect(code, err).toBe(0);
    const adjusted = events.filter((e) => e.type === 'adjusted');
    expect(adjusted.length).toBeGreaterThan(0);
    expect(adjusted[0].plugin).toBe('10-readme');
    expect(adjusted[0].adjust!.annotations!['example.com/placed']).toBe('shop/payments-5f4d9c8b7-qw7rt/payments');
    expect(perr).toContain('10-readme: live on nrictl-sim; answer within 2000 ms');
  }, 120_000);
});

interface SimEvent {
  type: string;
  plugin?: string;
  container?: string;
  external?: boolean;
  adjust?: { env?: unknown; annotations?: Record<string, string> };
}

/**
 * The installed `nrictl sim` on a socket of its own, waiting for one plugin; then `cmd
 * args --socket SOCK`, which must connect to it as an external plugin. Resolves once
 * both have exited, with the simulator's exit code, stderr and events and the plugin's stderr.
 */
async function withExternalPlugin(
  cmd: string,
  args: string[],
  cwd: string,
  scenario: string,
  nrictl = join(packed.prefix, 'bin', 'nrictl'),
): Promise<{ code: number | null; err: string; events: SimEvent[]; perr: string }> {
  const sock = join(mkdtempSync(join(work, 'sock-')), 's.sock');
  const sim = spawn(
    nrictl,
    ['sim', '--socket', sock, '--scenario', scenario, '--wait-for-plugins', '1', '--no-interactive', '-o', 'json'],
    { cwd: app, env },
  );
  let out = '';
  sim.stdout.on('data', (d: Buffer) => (out += d.toString()));
  let err = '';
  sim.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => sim.on('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => (sim.kill(), reject(new Error(`no listening event: ${out}${err}`))), 20_000);
    sim.stdout.on('data', () => out.includes('"listening"') && (clearTimeout(t), resolve()));
  });
  // Not launched by a runtime (no NRI_* in env): nothing but --socket tells it where to go.
  const plugin = spawn(cmd, [...args, '--socket', sock], { cwd, env });
  let perr = '';
  plugin.stderr.on('data', (d: Buffer) => (perr += d.toString()));
  // A plugin that never connects leaves the simulator waiting: end both rather than leave them behind.
  const guard = setTimeout(() => (sim.kill(), plugin.kill()), 30_000);
  const code = await exited;
  await new Promise((r) => (plugin.exitCode !== null || plugin.signalCode !== null ? r(null) : plugin.on('exit', r)));
  clearTimeout(guard);
  const events = out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as SimEvent);
  return { code, err, events, perr };
}

describe('nrictl plugin new, from the tarball installed with npm install -g into an empty prefix', () => {
  let bundled: { plugin: string; scenario: string } | undefined;
  let nrictl: string;
  let version: string;

  beforeAll(() => {
    nrictl = join(packed.prefix, 'bin', 'nrictl');
    version = (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { version: string }).version;
  });

  // The slowest part of this file (about 1-2 min on a loaded 2-core machine): a real
  // `npm install` of the new project (nrictl from the copy in its vendor/; typescript and
  // @types/node from the npm cache that nrictl's own `npm ci` warmed, else the registry)
  // and its TypeScript build.
  it('makes a project whose printed Next: lines (npm install && npm test, npm run bundle) pass as printed', () => {
    const fresh = mkdtempSync(join(work, 'fresh-'));
    const made = ok(run(nrictl, ['plugin', 'new', 'demo'], { cwd: fresh, env }), 'plugin new');
    const tgz = `vendor/nrictl-${version}.tgz`;
    expect(made.stdout).toBe(
      `Created demo in ./demo, with a copy of this nrictl in ${tgz}. Next:\n  cd ./demo && npm install && npm test\n  npm run bundle    # build/10-demo; to deploy it, see README.md\n`,
    );
    const project = join(fresh, 'demo');
    expect(JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')).dependencies).toEqual({
      nrictl: `file:${tgz}`,
    });
    // Each Next: line, exactly as printed, by a shell: the first where plugin new ran, the
    // second in the project. The cache first: nothing here needs a newer typescript.
    const [, first, second] = made.stdout.trimEnd().split('\n');
    const shellEnv = { ...env, npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false' };
    const t = ok(run('bash', ['-c', first.trim()], { cwd: fresh, env: shellEnv }), first.trim());
    expect(t.stdout).toMatch(/# pass 1\b/);
    expect(t.stdout).toMatch(/# fail 0\b/);
    // The project's nrictl is the vendored copy, not the global one.
    expect(existsSync(join(project, 'node_modules', 'nrictl', 'dist', 'src', 'plugin', 'index.js'))).toBe(true);
    const b = ok(run('bash', ['-c', second.trim()], { cwd: project, env: shellEnv }), second.trim());
    expect(b.stdout).toContain('Wrote build/10-demo');

    // The bundle in a plugin directory as 10-demo: validate passes it, and the installed
    // simulator launches it and holds it to the project's own expectation file.
    const plugins = mkdtempSync(join(work, 'plugins-'));
    renameSync(join(project, 'build', '10-demo'), join(plugins, '10-demo'));
    const v = run(nrictl, ['validate', plugins], { cwd: fresh, env });
    expect(v.status, `${v.stdout}${v.stderr}`).toBe(0);
    expect(v.stdout).toMatch(/1\.\s+10-demo/);
    const s = run(
      nrictl,
      ['sim', '--plugin-dir', plugins, '--expect', join(project, 'test', 'expect.yaml'), '--no-interactive'],
      { cwd: fresh, env },
    );
    expect(s.status, `${s.stdout}${s.stderr}`).toBe(0);
    expect(s.stdout).toMatch(/launched +10-demo/);
    expect(s.stdout).toMatch(/^expectations: [1-9]\d* passed, 0 failed$/m);
    bundled = { plugin: join(plugins, '10-demo'), scenario: join(project, 'test', 'scenario.yaml') };
  }, 300_000);

  it('its bundle also connects to the installed `nrictl sim` as an external plugin with --socket, as 10-demo', async () => {
    if (!bundled) throw new Error('needs the bundle that the test before makes');
    const { code, err, events } = await withExternalPlugin(bundled.plugin, [], work, bundled.scenario, nrictl);
    expect(code, err).toBe(0);
    expect(events.find((e) => e.type === 'registered')).toMatchObject({ plugin: '10-demo', external: true });
    expect(events.find((e) => e.type === 'adjusted' && e.container === 'ctr-web')).toMatchObject({
      plugin: '10-demo',
      adjust: { env: [{ key: 'GREETING', value: 'hello' }] },
    });
  }, 60_000);
});
