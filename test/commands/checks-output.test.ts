// validate, lint and doctor in every -o format they offer, run as printed from the top of
// the checkout with the built CLI: json and yaml are one document with the same data, wide
// is the table (the checks have no extra columns), name lists names where the value is a
// list of plugins (validate) and is refused elsewhere.
import { join } from 'node:path';
import { describe, it } from 'vitest';
import YAML from 'yaml';
import { runInProcess } from '../support/cli-in-process.js';
import { cliEnv } from './nri-cli.js';

const repo = join(import.meta.dirname, '..', '..');

/** In the test's own process, from the top of the checkout. */
const nrictl = (...args: string[]) => runInProcess(args, { cwd: repo, env: cliEnv() });

const CHECKS = [
  { args: ['validate', 'examples/plugins'], exit: 1, keys: ['dir', 'confDir', 'order', 'findings', 'counts'] },
  {
    args: ['lint', 'examples/conf.d', '--plugin-dir', 'examples/plugins'],
    exit: 0,
    keys: ['confDir', 'runtimeConfigs', 'findings', 'counts'],
  },
  {
    args: ['lint', 'examples/node/etc/containerd/config.toml'],
    exit: 0,
    keys: ['runtimeConfigs', 'findings', 'counts'],
  },
  {
    // No runtime listens under examples/node: the socket is missing, an error (exit 1).
    args: ['doctor', '--root', 'examples/node'],
    exit: 1,
    keys: ['root', 'runtimeConfig', 'settings', 'paths', 'connection', 'runtime', 'findings', 'counts', 'verdict'],
  },
];

describe.concurrent.each(CHECKS)('nrictl $args.0 in every format', ({ args, exit, keys }) => {
  it('json and yaml: one document each, the same data, with the documented keys', async ({ expect }) => {
    const [json, yaml] = await Promise.all([nrictl(...args, '-o', 'json'), nrictl(...args, '-o', 'yaml')]);
    expect([json.code, yaml.code, json.stderr, yaml.stderr]).toEqual([exit, exit, '', '']);
    const doc = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(YAML.parse(yaml.stdout)).toEqual(doc);
    expect(Object.keys(doc)).toEqual(expect.arrayContaining(keys));
    expect(doc.counts).toEqual({
      error: expect.any(Number) as number,
      warning: expect.any(Number) as number,
      info: expect.any(Number) as number,
    });
  });

  it('wide is the table; table is the default', async ({ expect }) => {
    const [table, asTable, wide] = await Promise.all([
      nrictl(...args),
      nrictl(...args, '-o', 'table'),
      nrictl(...args, '-o', 'wide'),
    ]);
    expect(table.code).toBe(exit);
    expect(table.stdout).toMatch(/\d+ errors?, \d+ warnings?, \d+ notes?\n/);
    expect(asTable.stdout).toBe(table.stdout);
    expect(wide.stdout).toBe(table.stdout);
  });

  it(
    args[0] === 'validate' ? '-o name: the plugins in invocation order' : '-o name is refused: exit 2, one line',
    async ({ expect }) => {
      const r = await nrictl(...args, '-o', 'name');
      if (args[0] === 'validate') {
        // discovery fails on the misnamed plugin: no plugin starts, so no name.
        expect([r.code, r.stdout]).toEqual([exit, '']);
        return;
      }
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(/^Error: --output: expected one of .*"name"/),
      ]);
    },
  );
});

describe.concurrent('nrictl validate examples/plugins -o yaml', () => {
  it('runs as printed and parses: the misnamed plugin is an error finding', async ({ expect }) => {
    const r = await nrictl('validate', 'examples/plugins', '-o', 'yaml');
    expect(r.code).toBe(1);
    const doc = YAML.parse(r.stdout) as {
      findings: Array<{ code: string; severity: string }>;
      discoveryFails: boolean;
    };
    expect(doc.discoveryFails).toBe(true);
    expect(doc.findings).toContainEqual(expect.objectContaining({ severity: 'error', code: 'misnamed-executable' }));
  });
});
