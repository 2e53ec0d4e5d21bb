#!/usr/bin/env node
// Writes dist/cli.code-cache, V8's compiled code for dist/cli.cjs (step of `npm run
// build`, after the bundle): bin/run.js hands it to V8, which then skips compiling what
// these training runs compiled (src/cli/code-cache.ts).
//
// Each run is a real nrictl command in a child process, started as bin/run.js starts one,
// that adds what it compiled to the cache (the cache is read, then written at exit). The
// runs are the start-ups people wait for: the simulator (its socket, the demo's steps, the
// plugin protocol through a plugin of the SDK), sync dump of it, the checks, help.
// gRPC has a bundle and a cache of its own (dist/grpc.cjs, scripts/bundle-cli.mjs),
// written by a `sim --cri-socket` run and a `doctor --cri-socket` run (a CRI client's
// calls, against a simulator started for it) that leave this cache alone: what only CRI
// runs compile would make every other command's start read a bigger cache.
// Their output is discarded; a run that fails fails the build, so the cache is never
// trained on an error path by accident.
import { spawn, spawnSync } from 'node:child_process';
import { build } from 'esbuild';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bundle = join(root, 'dist', 'cli.cjs');
const cacheFile = join(root, 'dist', 'cli.code-cache');

if (process.argv[2] === '--run') {
  // One training run: bin/run.js's start, with the cache written at exit; `--grpc-only`:
  // gRPC's cache is written, not the CLI's.
  const grpcOnly = process.argv[3] === '--grpc-only';
  if (grpcOnly) {
    process.argv.splice(3, 1);
    globalThis[Symbol.for('nrictl.train-code-cache')] = true;
  }
  const early = [];
  const onEarly = (signal) => early.push(signal);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, onEarly);
  globalThis[Symbol.for('nrictl.early-signals')] = { early, onEarly };
  globalThis.oclif = { ...globalThis.oclif, enableAutoTranspile: false };
  const { requireWithCodeCache } = createRequire(import.meta.url)(join(root, 'dist', 'code-cache.cjs'));
  const cli = requireWithCodeCache(bundle, { cacheFile, writeAtExit: !grpcOnly }).exports;
  process.argv = [process.argv[0], join(root, 'bin', 'run.js'), ...process.argv.slice(3)];
  await cli.execute({ dir: root });
} else {
  rmSync(cacheFile, { force: true });
  rmSync(join(root, 'dist', 'grpc.code-cache'), { force: true });
  const scratch = mkdtempSync(join(tmpdir(), 'nrictl-code-cache-'));
  try {
    // A plugin of the SDK, so that the runs compile the plugin protocol's side of the
    // simulator too: subscribes to container creation and answers without adjusting.
    // Bundled here from the SDK's sources: this step runs beside tsc (scripts/build.mjs),
    // whose dist/src may not be written yet.
    const plugins = join(scratch, 'plugins');
    mkdirSync(plugins);
    const plugin = join(scratch, 'plugin.cjs');
    await build({
      absWorkingDir: root,
      stdin: {
        contents:
          "import { Stub } from './src/plugin/index.ts';\n" +
          "void new Stub({ createContainer: () => ({}) }, { name: 'train', index: '10' }).start();\n",
        resolveDir: root,
        sourcefile: 'train-plugin.ts',
        loader: 'ts',
      },
      outfile: plugin,
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      logLevel: 'warning',
    });
    // A scenario with nothing in it: `sim --cri-socket` loads gRPC, serves CRI, and ends
    // with the empty script.
    const empty = join(scratch, 'empty.yaml');
    writeFileSync(empty, '');
    // The demo with each pause cut to 1 ms: the same steps and code, without the 1.7 s a
    // person watching it gets, twice over in the build.
    const demo = join(scratch, 'demo.yaml');
    const shipped = readFileSync(join(root, 'examples', 'demo.yaml'), 'utf8');
    const quick = shipped.replace(/^( *- sleep: )\d+$/gm, (_, step) => `${step}1`);
    if (quick === shipped)
      throw new Error('examples/demo.yaml has no "- sleep: N" step any more: review write-code-cache.mjs');
    writeFileSync(demo, quick);
    const exe = join(plugins, '10-train');
    writeFileSync(exe, `#!/bin/sh\nexec "${process.execPath}" "${plugin}" "$@"\n`);
    chmodSync(exe, 0o755);
    const runs = [
      ['--version'],
      ['sim', demo, '-o', 'json'],
      ['sim', demo, '--plugin-dir', plugins],
      ['sync', 'dump', '--sim', 'demo'],
      ['sync', 'dump', '--sim', 'demo', '-o', 'json'],
      ['validate', join(root, 'examples', 'node', 'opt', 'nri', 'plugins')],
      ['lint', join(root, 'examples', 'node', 'etc', 'containerd', 'config.toml')],
      ['sim', '--help'],
      ['--grpc-only', 'sim', empty, '--cri-socket', join(scratch, 'cri', 'cri.sock')],
    ];
    const train = (args) => {
      const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--run', ...args], {
        cwd: scratch,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1', CI: '1' },
        timeout: 60_000,
      });
      if (r.status === 0) return true;
      // Not process.exit: the scratch directory is removed below first.
      process.stderr.write(`write-code-cache: nrictl ${args.join(' ')} exited ${r.status}:\n${r.stderr}`);
      process.exitCode = 1;
      return false;
    };
    if (runs.every(train)) await trainCriClient(scratch, train);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * A CRI client's side of gRPC (connecting, unary calls): `doctor --cri-socket` against a
 * simulator serving CRI, started for it. Only the doctor run writes gRPC's cache: the
 * simulator read the cache before the doctor wrote it, and would write over it.
 */
async function trainCriClient(scratch, train) {
  const dir = join(scratch, 'cri-client');
  mkdirSync(join(dir, 'root'), { recursive: true, mode: 0o700 });
  const [nri, cri] = [join(dir, 'nri.sock'), join(dir, 'cri.sock')];
  const sim = spawn(process.execPath, [join(root, 'bin', 'run.js'), 'sim', '--socket', nri, '--cri-socket', cri], {
    cwd: scratch,
    stdio: 'ignore',
    env: { ...process.env, NO_COLOR: '1', CI: '1' },
  });
  const exited = new Promise((resolve) => sim.once('exit', resolve));
  try {
    for (let waited = 0; !(existsSync(nri) && existsSync(cri)); waited += 20) {
      if (waited > 30_000 || sim.exitCode !== null) {
        process.stderr.write('write-code-cache: the simulator for the CRI client run did not start\n');
        process.exitCode = 1;
        return;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    train(['--grpc-only', 'doctor', '--root', join(dir, 'root'), '--socket', nri, '--cri-socket', cri]);
  } finally {
    sim.kill('SIGTERM');
    await exited;
  }
}
