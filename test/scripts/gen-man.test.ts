import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const script = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'scripts', 'gen-man.mjs');
let dir: string;

// A manifest shaped like `oclif manifest` writes it, with the corners a man page trips on.
const manifest = {
  version: '1.2.3',
  commands: {
    logs: {
      id: 'logs',
      summary: "Stream the runtime's events.",
      description: 'Connects as a transient plugin.\n\n.dots at a line start and back\\slashes survive; see --events.',
      examples: [
        {
          description: 'Only container creation',
          command: '<%= config.bin %> <%= command.id %> --events CreateContainer',
        },
        '<%= config.bin %> <%= command.id %> -o json',
      ],
      flags: {
        socket: {
          name: 'socket',
          char: 's',
          type: 'option',
          description: 'Path of the NRI socket.',
          env: 'NRI_SOCKET_PATH',
          default: '/var/run/nri/nri.sock',
          helpValue: 'PATH',
        },
        output: {
          name: 'output',
          char: 'o',
          type: 'option',
          description: 'Output format.',
          options: ['text', 'json'],
          default: 'text',
        },
        color: {
          name: 'color',
          type: 'boolean',
          allowNo: true,
          helpGroup: 'GLOBAL',
          description: 'Colour the output.',
        },
        secret: { name: 'secret', type: 'boolean', hidden: true, description: 'not for people' },
      },
      args: {},
    },
    'sync:dump': {
      id: 'sync:dump',
      summary: 'Print the Synchronize state.',
      flags: {},
      examples: [],
      args: { filter: { name: 'filter', description: 'Pod name filter.', required: false } },
    },
    internal: { id: 'internal', hidden: true, summary: 'hidden', flags: {}, args: {} },
  },
};

function run(...args: string[]) {
  return spawnSync(
    process.execPath,
    [
      script,
      '--manifest',
      join(dir, 'm.json'),
      '--package',
      join(dir, 'package.json'),
      '--exit-codes',
      join(dir, 'codes.ts'),
      '--out',
      join(dir, 'man'),
      ...args,
    ],
    { encoding: 'utf8' },
  );
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'nrictl-man-'));
  writeFileSync(join(dir, 'm.json'), JSON.stringify(manifest));
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({
      name: 'nrictl',
      version: '1.2.3',
      description: 'Command-line toolkit for NRI: everything.',
      bin: { nrictl: './bin/run.js' },
      oclif: { bin: 'nrictl' },
    }),
  );
  writeFileSync(
    join(dir, 'codes.ts'),
    '/**\n * The table.\n */\nexport const ExitCode = {\n  /** It worked. */\n  OK: 0,\n  /** Could not reach the runtime. */\n  CONNECT: 4,\n} as const;\n',
  );
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('scripts/gen-man.mjs', () => {
  it('writes one page for nrictl and one per visible command', () => {
    const r = run();
    expect(r.status, r.stderr).toBe(0);
    expect(readdirSync(join(dir, 'man')).sort()).toEqual(['nrictl-logs.1', 'nrictl-sync-dump.1', 'nrictl.1']);
  });

  it('puts flags, defaults, environment, examples and exit codes into roff', () => {
    run();
    const logs = readFileSync(join(dir, 'man', 'nrictl-logs.1'), 'utf8');
    expect(logs).toContain('.TH "NRICTL-LOGS" 1 "nrictl 1.2.3"');
    expect(logs).toContain("nrictl\\-logs \\- Stream the runtime's events");
    expect(logs).toContain('\\fB\\-s\\fR, \\fB\\-\\-socket\\fR=\\fIPATH\\fR');
    expect(logs).toContain('Default: /var/run/nri/nri.sock. Environment: NRI_SOCKET_PATH.');
    expect(logs).toContain('One of: text, json.');
    expect(logs).toContain('\\fB\\-\\-\\fR[\\fBno\\-\\fR]\\fBcolor\\fR');
    expect(logs).not.toContain('secret');
    expect(logs).toContain('\\fBnrictl logs \\-\\-events CreateContainer\\fR');
    expect(logs).toContain('\\fBnrictl logs \\-o json\\fR');
    expect(logs).toMatch(/^\\&\.dots at a line start and back\\eslashes survive; see \\fB\\-\\-events\\fR\.$/m);
    expect(logs).toContain('.SH GLOBAL OPTIONS');
    const dump = readFileSync(join(dir, 'man', 'nrictl-sync-dump.1'), 'utf8');
    expect(dump).toContain('.B nrictl sync dump\n[\\fIFILTER\\fR]');
    const main = readFileSync(join(dir, 'man', 'nrictl.1'), 'utf8');
    expect(main).toContain('\\fBnrictl sync dump\\fR');
    expect(main).toContain('.TP\n\\fB4\\fR\nCould not reach the runtime.');
    expect(main).not.toContain('internal');
    expect(main).toContain('\\fBNRI_SOCKET_PATH\\fR');
  });

  it('is deterministic: no dates, the same bytes on every run', () => {
    run();
    const first = readFileSync(join(dir, 'man', 'nrictl.1'), 'utf8');
    run();
    expect(readFileSync(join(dir, 'man', 'nrictl.1'), 'utf8')).toBe(first);
    expect(first).not.toContain(String(new Date().getFullYear()));
  });

  it('--check passes on fresh pages and lists stale, missing and orphaned ones', () => {
    run();
    const fresh = run('--check');
    expect(fresh.status).toBe(0);
    writeFileSync(join(dir, 'man', 'nrictl-logs.1'), 'hand edited\n');
    unlinkSync(join(dir, 'man', 'nrictl-sync-dump.1'));
    writeFileSync(join(dir, 'man', 'nrictl-gone.1'), 'old\n');
    const stale = run('--check');
    expect(stale.status).toBe(1);
    expect(stale.stderr).toContain('nrictl-logs.1 (out of date)');
    expect(stale.stderr).toContain('nrictl-sync-dump.1 (missing)');
    expect(stale.stderr).toContain('nrictl-gone.1 (no such command)');
    // --check never writes
    expect(readFileSync(join(dir, 'man', 'nrictl-logs.1'), 'utf8')).toBe('hand edited\n');
    // regenerating repairs all three
    run();
    expect(run('--check').status).toBe(0);
    expect(existsSync(join(dir, 'man', 'nrictl-gone.1'))).toBe(false);
  });

  it('refuses a manifest built for another version, and a missing one, with the fix', () => {
    writeFileSync(join(dir, 'm.json'), JSON.stringify({ ...manifest, version: '0.0.1' }));
    const r = run();
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/version 0\.0\.1 .* 1\.2\.3; rebuild the manifest/);
    rmSync(join(dir, 'm.json'));
    expect(run().stderr).toMatch(/not found; run `npm run build` first/);
  });

  it.skipIf(spawnSync('groff', ['--version']).status !== 0)(
    'produces pages groff reads without warnings (needs groff)',
    () => {
      run();
      for (const page of readdirSync(join(dir, 'man'))) {
        const r = spawnSync('groff', ['-man', '-ww', '-z', join(dir, 'man', page)], { encoding: 'utf8' });
        expect(r.stderr, page).toBe('');
        expect(r.status).toBe(0);
      }
    },
  );
});
