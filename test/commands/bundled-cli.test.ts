// The built CLI (bin/run.js over dist/) starts the oclif that scripts/bundle-cli.mjs
// bundled with the commands, not the ~80 files of node_modules/@oclif/core, and the
// commands run on that same copy. Timing is bench/cold-start.bench.ts's job; this
// checks what is loaded, and that the oclif features still work from the bundle.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, assertBuilt, cliEnv } from './nri-cli.js';

// Lists, at exit, every CommonJS file Node loaded (@oclif/core is CommonJS: unbundled,
// each of its files lands in this cache; bundled, none does).
const LIST_LOADED =
  'data:text/javascript,' +
  encodeURIComponent(
    'import { createRequire } from "node:module"; import { writeSync } from "node:fs";' +
      'const cache = createRequire(process.execPath).cache;' +
      'process.on("exit", () => writeSync(2, `\\n@loaded ${JSON.stringify(Object.keys(cache))}\\n`));',
  );

interface Listing {
  code: number | null;
  stdout: string;
  stderr: string;
  loaded: string[];
}

// A command line runs once: the tests that look at the same run (--version, validate) share it.
const listings = new Map<string, Listing>();
function runListing(args: string[]): Listing {
  const key = JSON.stringify(args);
  if (!listings.has(key)) listings.set(key, listLoaded(args));
  return listings.get(key)!;
}

function listLoaded(args: string[]): Listing {
  const r = spawnSync(process.execPath, ['--import', LIST_LOADED, BIN, ...args], {
    encoding: 'utf8',
    env: cliEnv(),
    cwd: tmpdir(),
  });
  const m = /\n@loaded (.*)\n/.exec(r.stderr);
  if (!m) throw new Error(`no list of loaded files from nrictl ${args.join(' ')}:\n${r.stderr}`);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr.replace(m[0], ''), loaded: JSON.parse(m[1]) as string[] };
}

const fromOclifPackage = (files: string[]) =>
  files.filter((f) => f.split(path.sep).join('/').includes('/node_modules/@oclif/core/'));

let plugins: string;
beforeAll(() => {
  assertBuilt('validate', 'sync/dump');
  plugins = mkdtempSync(path.join(tmpdir(), 'nrictl-bundled-'));
  writeFileSync(path.join(plugins, '10-logger'), '#!/bin/sh\nexit 0\n');
  chmodSync(path.join(plugins, '10-logger'), 0o755);
});
afterAll(() => rmSync(plugins, { recursive: true, force: true }));

describe('bin/run.js runs the bundled oclif', () => {
  it.each([
    [['--version'], 0, /^nrictl\/\d+\.\d+\.\d+ \S+ node-v/],
    [['validate', '--help'], 0, /^USAGE\n {2}\$ nrictl validate \[DIR\]/m],
    [['--help'], 0, /^ {2}autocomplete {2}.*\n(.*\n)* {2}help {10}Display help/m],
    [['sync', '--help'], 0, /^ {2}sync dump {2}/m],
    [['plugin', '--help'], 0, /^ {2}plugin new {3}/m],
  ])('nrictl %j answers without loading node_modules/@oclif/core', (args, code, out) => {
    const r = runListing(args);
    expect(r.code, r.stderr).toBe(code);
    expect(r.stdout).toMatch(out);
    expect(fromOclifPackage(r.loaded)).toEqual([]);
  });

  it('a command runs on the same bundled oclif (its flags parse, its output and exit code are the real ones)', () => {
    const r = runListing(['validate', plugins, '--strict']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/1\.\s+10-logger/);
    expect(fromOclifPackage(r.loaded)).toEqual([]);
  });

  it('the not-found hook runs from the bundle too and still suggests', () => {
    const r = runListing(['sync', 'dum']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'Error: unknown command "sync dum": did you mean sync dump? Run nrictl --help for the list.\n',
    );
    expect(fromOclifPackage(r.loaded)).toEqual([]);
  });

  it('our help class runs from the bundle too: a mistyped command under --help gets the suggestion', () => {
    const r = runListing(['sync', 'dmp', '--help']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'Error: unknown command "sync dmp": did you mean sync dump? Run nrictl --help for the list.\n',
    );
    expect(r.stdout).toBe('');
    expect(fromOclifPackage(r.loaded)).toEqual([]);
  });

  it("oclif's engine check still warns on a Node older than package.json's engines.node, and only then", () => {
    // The check runs while the bundled oclif index loads, through the semver-free comparison
    // of scripts/oclif-patches.mjs; this Node is made to say it is older than the floor.
    const floor = (JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } }).engines.node;
    const older = /^>=(\d+)\.(\d+)\.\d+$/.exec(floor)!;
    const version = `${older[1]}.${Number(older[2]) - 1}.99`;
    const pretend =
      'data:text/javascript,' +
      encodeURIComponent(
        `Object.defineProperty(process, "versions", { value: { ...process.versions, node: ${JSON.stringify(version)} } });`,
      );
    const warning = `Node version must be ${floor} to use this CLI. Current node version: ${version}`;
    const old = spawnSync(process.execPath, ['--import', pretend, BIN, 'validate', plugins], {
      encoding: 'utf8',
      env: cliEnv(),
    });
    expect(old.stderr).toContain(warning);
    expect(old.status, old.stderr).toBe(0);
    // Without the pretence: validate as the test above runs it (listing its files changes no version).
    expect(runListing(['validate', plugins, '--strict']).stderr).not.toContain('Node version must be');
  });

  it('--debug maps a stack trace back to the TypeScript sources', () => {
    const r = runListing(['sync', 'dump', '--socket', path.join(plugins, 'no.sock'), '--debug']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/^Error: no NRI socket at /);
    expect(r.stderr).toMatch(/\(\S*src\/session\/\S+\.ts:\d+:\d+\)/);
  });
});

describe('what the build bundles', () => {
  const dist = path.resolve('dist');

  it('the bundle requires nothing of @oclif/core from node_modules, so there is one oclif in the process', () => {
    const bundle = readFileSync(path.join(dist, 'cli.cjs'), 'latin1');
    expect(bundle).not.toMatch(/require\(\s*["']@oclif\/core|import\(\s*["']@oclif\/core/);
    // tsc's output of the commands, the hook and src/cli/oclif.ts would import it unbundled.
    expect(existsSync(path.join(dist, 'commands'))).toBe(false);
    expect(existsSync(path.join(dist, 'src/cli/oclif.js'))).toBe(false);
  });

  it('writes the bundle strict, as its ES module sources run, and in ASCII, which the loader reads as Latin-1', () => {
    expect(readFileSync(path.join(dist, 'cli.cjs'), 'latin1').split('\n', 1)[0]).toBe('"use strict";');
    expect(readFileSync(path.join(dist, 'cli.cjs')).every((byte) => byte < 0x80)).toBe(true);
  });

  it('keeps gRPC in a bundle of its own, which only a command that speaks CRI loads', () => {
    const grpc = readFileSync(path.join(dist, 'grpc.cjs'));
    expect(grpc.every((byte) => byte < 0x80)).toBe(true);
    expect(grpc.toString('latin1')).toContain('Http2SubchannelConnector');
    expect(readFileSync(path.join(dist, 'cli.cjs'), 'latin1')).not.toContain('Http2SubchannelConnector');
    const loadsGrpc = (r: { loaded: string[] }) =>
      r.loaded.some((f) => f.endsWith(`${path.sep}dist${path.sep}grpc.cjs`));
    expect(loadsGrpc(runListing(['--version']))).toBe(false);
    const empty = path.join(plugins, 'empty.yaml');
    writeFileSync(empty, '');
    const cri = runListing(['sim', empty, '--cri-socket', path.join(plugins, 'cri', 'cri.sock')]);
    expect(cri.code).toBe(0);
    expect(loadsGrpc(cri)).toBe(true);
    // @grpc/grpc-js is a development dependency: an installed nrictl has only this bundle of it.
    expect(cri.loaded.some((f) => f.includes(`${path.sep}node_modules${path.sep}@grpc${path.sep}`))).toBe(false);
    const pkg = JSON.parse(readFileSync(path.join(dist, '..', 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(Object.keys(pkg.dependencies)).not.toContain('@grpc/grpc-js');
  });

  it('leaves the SDK exports plain tsc output (plugin authors bundle them themselves)', () => {
    for (const f of ['src/plugin/index.js', 'src/ttrpc/index.js']) {
      expect(readFileSync(path.join(dist, f), 'utf8'), f).not.toContain('cli.cjs');
    }
  });
});

// The code cache: what bin/run.js does, checked from a child process, whose Node and V8
// flags are those of the build's training runs.
describe('the code cache', () => {
  const load = (cacheFile: string) => {
    const script = [
      "import { createRequire } from 'node:module';",
      `const { requireWithCodeCache } = createRequire(import.meta.url)(${JSON.stringify(path.resolve('dist/code-cache.cjs'))});`,
      `const loaded = requireWithCodeCache(${JSON.stringify(path.resolve('dist/cli.cjs'))}, { cacheFile: ${JSON.stringify(cacheFile)} });`,
      'console.log(JSON.stringify({ codeCache: loaded.codeCache, commands: Object.keys(loaded.exports.COMMANDS).length }));',
    ].join('\n');
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as { codeCache: string; commands: number };
  };

  it("the build's cache is taken by V8 on the Node that built it", () => {
    expect(load(path.resolve('dist/cli.code-cache'))).toEqual({ codeCache: 'used', commands: expect.any(Number) });
  });

  it('a cache of another build is never handed to V8, and the bundle loads without it', () => {
    const cache = readFileSync(path.resolve('dist/cli.code-cache'));
    const other = path.join(plugins, 'other-build.code-cache');
    writeFileSync(
      other,
      Buffer.concat([Buffer.from('0'.repeat(cache.indexOf(10)) + '\n'), cache.subarray(cache.indexOf(10) + 1)]),
    );
    expect(load(other).codeCache).toBe('none');
    expect(load(path.join(plugins, 'missing.code-cache')).codeCache).toBe('none');
  });

  it('a damaged cache of this build is turned down by V8, and the bundle loads without it', () => {
    const cache = readFileSync(path.resolve('dist/cli.code-cache'));
    const damaged = path.join(plugins, 'damaged.code-cache');
    writeFileSync(damaged, cache.subarray(0, cache.indexOf(10) + 1 + 64));
    expect(load(damaged).codeCache).toBe('rejected');
  });
});
