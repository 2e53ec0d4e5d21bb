// Cold start of the installed tool: `nrictl --version` and `nrictl help` as whole
// processes, from a tarball made by `npm pack` (so with the oclif manifest) and
// installed with `npm install -g` into a temporary prefix, against `node -e 0` in the
// same run. Also from the repository's bin/run.js (the build writes the manifest
// there too). Wall clock and CPU time, medians.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { medianLine } from './process-time.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 11);
const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const work = mkdtempSync(join(tmpdir(), 'nrictl-cold-'));
const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', XDG_CACHE_HOME: join(work, 'cache') };
for (const k of Object.keys(env)) if (k.startsWith('npm_') || k === 'NODE_ENV' || k.startsWith('NRICTL_')) delete env[k];

function sh(cmd: string, args: string[], cwd: string): void {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
}

try {
  // Pack a copy: prepack rebuilds dist/ and must not do so under other processes.
  const stage = join(work, 'stage');
  const skip = new Set(['node_modules', '.git', 'dist', 'oclif.manifest.json']);
  cpSync(repo, stage, { recursive: true, filter: (src) => src === repo || !skip.has(src.slice(repo.length + 1).split('/')[0]!) });
  symlinkSync(join(repo, 'node_modules'), join(stage, 'node_modules'));
  mkdirSync(join(work, 'out'));
  sh('npm', ['pack', '--pack-destination', join(work, 'out')], stage);
  const tgz = join(work, 'out', readdirSync(join(work, 'out')).find((f) => f.endsWith('.tgz'))!);
  const prefix = join(work, 'prefix');
  sh('npm', ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', '--prefer-offline', tgz], work);
  const installed = join(prefix, 'lib', 'node_modules', 'nrictl', 'bin', 'run.js');
  const outside = mkdtempSync(join(work, 'cwd-'));
  const opts = { runs: RUNS, env, cwd: outside };

  console.log(`${RUNS} runs each, medians; from ${outside}`);
  const node = medianLine('node -e 0', ['-e', '0'], opts);
  const version = medianLine('nrictl --version (installed, manifest)', [installed, '--version'], opts);
  const help = medianLine('nrictl help (installed, manifest)', [installed, 'help'], opts);
  const validateHelp = medianLine('nrictl validate --help (installed)', [installed, 'validate', '--help'], opts);
  // From the repository: `npm run build` writes the manifest there too.
  const repoVersion = medianLine('bin/run.js --version (repo)', [join(repo, 'bin', 'run.js'), '--version'], opts);
  const repoHelp = medianLine('bin/run.js validate --help (repo)', [join(repo, 'bin', 'run.js'), 'validate', '--help'], opts);
  const ratio = (x: { wallMs: number; cpuMs: number }) => `${(x.wallMs / node.wallMs).toFixed(2)}x wall, ${(x.cpuMs / node.cpuMs).toFixed(2)}x cpu`;
  console.log(`nrictl --version        / node -e 0: ${ratio(version)}   (aim: under 2x)`);
  console.log(`nrictl help             / node -e 0: ${ratio(help)}`);
  console.log(`nrictl validate --help  / node -e 0: ${ratio(validateHelp)}   (aim: under 2x)`);
  console.log(`from the repository: --version ${ratio(repoVersion)}, validate --help ${ratio(repoHelp)}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
