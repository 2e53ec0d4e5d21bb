#!/usr/bin/env node
// Runs nrictl from the TypeScript sources (commands/ and src/), without a build.
// It needs tsx's loader from this repository's node_modules: `node --import tsx` in the
// shebang would resolve tsx from the current directory and fail outside the repository,
// so without the loader this script starts itself again with it.
import { spawnSync } from 'node:child_process';
import { constants } from 'node:os';

if (process.env.NRICTL_DEV_LOADER === undefined) {
  const loader = import.meta.resolve('tsx');
  const self = new URL(import.meta.url).pathname;
  const r = spawnSync(process.execPath, ['--import', loader, '--no-warnings', self, ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, NRICTL_DEV_LOADER: loader },
  });
  process.exit(r.status ?? 128 + (constants.signals[r.signal] ?? 0));
}
// `npm run build` writes oclif.manifest.json, and with it oclif would load each command
// from dist/cli.cjs, where scripts/bundle-cli.mjs gave the commands their own bundled
// copy of oclif (two oclifs in one process do not recognise each other's errors). From
// the sources, the commands are read from commands/ instead: the root plugin is loaded
// with ignoreManifest, as `oclif manifest` itself does, and handed to oclif with the
// plugins package.json names.
process.env.NODE_ENV = 'development';
// As bin/run.js: signals are held until the command takes them over.
const early = [];
const onEarly = (signal) => early.push(signal);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, onEarly);
globalThis[Symbol.for('nrictl.early-signals')] = { early, onEarly };
// package.json names the bundle (dist/cli.cjs) for what oclif loads; from the sources,
// oclif is given the compiled layout instead, which it maps back to commands/ and src/
// through tsconfig.json.
const { Plugin, execute } = await import('@oclif/core');
const { readFileSync } = await import('node:fs');
const root = new URL('..', import.meta.url).pathname;
const pjson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
pjson.oclif = {
  ...pjson.oclif,
  commands: './dist/commands',
  hooks: { command_not_found: './dist/src/cli/hooks/command-not-found.js' },
  helpClass: { target: './dist/src/cli/oclif.js', identifier: 'NrictlHelp' },
};
const self = new Plugin({ root, isRoot: true, ignoreManifest: true, pjson });
await self.load();
const plugins = new Map([[self.name, self]]);
for (const name of self.pjson.oclif.plugins ?? []) {
  const plugin = new Plugin({ name, root, type: 'core' });
  await plugin.load();
  plugins.set(plugin.name, plugin);
}
await execute({ development: true, loadOptions: { root, plugins } });
// As bin/run.js: the command has ended; nothing it forgot open keeps the process alive.
process.stdout.on('error', () => {});
process.stderr.on('error', () => {});
setTimeout(() => process.exit(), 2000).unref();
