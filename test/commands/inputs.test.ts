// Inputs that cannot wedge or exhaust nrictl (issue 20, items 2, 3 and 6): FIFOs, sockets
// and devices where a file is expected, files over the size limits, deep nesting, huge
// values, binary configuration, symlink loops, a socket path over the kernel's limit.
// The built CLI in a child process, bounded by a timeout: a hang fails the test instead
// of the run.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, it, type TestContext } from 'vitest';
import { listenSocket, mkfifo, tempDir, writeElf } from '../checks/helpers.js';
import { runBuilt } from './cli-child.js';
import { assertBuilt } from './nri-cli.js';

beforeAll(() => assertBuilt('lint', 'validate', 'doctor', 'sim'));

type Scratch = ReturnType<typeof tempDir>;

/** A temporary directory of the test's own, removed when it ends: the tests run side by side. */
function scratch({ onTestFinished }: Pick<TestContext, 'onTestFinished'>): Scratch {
  const t = tempDir('nriinp-');
  onTestFinished(() => t.cleanup());
  return t;
}

/** Runs the built nrictl; a run that outlives `timeoutMs` is killed and reported as such. */
async function run(
  args: string[],
  timeoutMs = 15_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const r = await runBuilt(args, { timeoutMs, killSignal: 'SIGKILL' });
  if (r.signal) throw new Error(`nrictl ${args.join(' ')} did not end within ${timeoutMs} ms (killed)`);
  return r;
}

const codes = (stdout: string): string[] =>
  (JSON.parse(stdout) as { findings: Array<{ severity: string; code: string }> }).findings.map(
    (f) => `${f.severity}:${f.code}`,
  );

function dirs(t: Scratch): { plugins: string; conf: string } {
  const plugins = join(t.dir, 'plugins');
  const conf = join(t.dir, 'conf.d');
  mkdirSync(plugins);
  mkdirSync(conf);
  chmodSync(plugins, 0o755);
  chmodSync(conf, 0o755);
  return { plugins, conf };
}

describe.concurrent('a FIFO, socket or device where a file is expected: a finding or exit 2, never a hang', () => {
  it('lint: a FIFO in conf.d is a finding (issue 20: `mkfifo cd/70-fifo.conf; lint cd` never ended)', async ({
    expect,
    onTestFinished,
  }) => {
    const t = scratch({ onTestFinished });
    const { conf } = dirs(t);
    mkfifo(join(conf, '70-fifo.conf'));
    const r = await run(['lint', conf, '-o', 'json']);
    expect(codes(r.stdout)).toContain('warning:config-not-a-regular-file');
  });

  it('lint: a FIFO that a plugin would read is an error, with its fix', async ({ expect, onTestFinished }) => {
    const t = scratch({ onTestFinished });
    const { plugins, conf } = dirs(t);
    writeElf(join(plugins, '70-fifo'));
    mkfifo(join(conf, '70-fifo.conf'));
    const r = await run(['lint', conf, '--plugin-dir', plugins]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      'is a fifo, not a regular file, and the configuration of 70-fifo: the runtime blocks or fails reading it in plugin discovery',
    );
    expect(r.stdout).toContain('fix: replace it with a regular file, or remove it');
  });

  it('lint: a socket and a device in conf.d are findings too', async ({ expect, onTestFinished }) => {
    const t = scratch({ onTestFinished });
    const { plugins, conf } = dirs(t);
    writeElf(join(plugins, '10-a'));
    symlinkSync('/dev/zero', join(conf, '10-a.conf'));
    const server = await listenSocket(join(conf, '20-b.conf'));
    try {
      const r = await run(['lint', conf, '--plugin-dir', plugins, '-o', 'json']);
      expect(codes(r.stdout)).toEqual(
        expect.arrayContaining(['error:config-not-a-regular-file', 'warning:config-not-a-regular-file']),
      );
    } finally {
      server.close();
    }
  });

  it('lint: a FIFO given as a runtime config is a finding when its name says which runtime, else exit 2', async ({
    expect,
    onTestFinished,
  }) => {
    const t = scratch({ onTestFinished });
    mkdirSync(join(t.dir, 'etc'));
    mkfifo(join(t.dir, 'etc', 'config.toml'));
    const named = await run(['lint', join(t.dir, 'etc', 'config.toml'), '-o', 'json']);
    expect(codes(named.stdout)).toEqual(['error:runtime-config-not-a-regular-file']);
    mkfifo(join(t.dir, 'fifo'));
    const unnamed = await run(['lint', join(t.dir, 'fifo')]);
    expect(unnamed.code).toBe(2);
    expect(unnamed.stderr.trim()).toBe(`Error: runtime config ${join(t.dir, 'fifo')} is not a regular file (a fifo)`);
  });

  it('validate: a FIFO as a plugin configuration is a finding', async ({ expect, onTestFinished }) => {
    const t = scratch({ onTestFinished });
    const { plugins, conf } = dirs(t);
    writeElf(join(plugins, '70-fifo'));
    mkfifo(join(conf, '70-fifo.conf'));
    const r = await run(['validate', plugins, '--plugin-config-path', conf, '-o', 'json']);
    expect(r.code).toBe(1);
    expect(codes(r.stdout)).toContain('error:config-unreadable');
    expect(r.stdout).toContain('is a fifo, not a regular file');
  });

  it('doctor: a FIFO under <root>/etc/nri/conf.d, which doctor reads by itself, is a finding', async ({
    expect,
    onTestFinished,
  }) => {
    const t = scratch({ onTestFinished });
    const root = join(t.dir, 'node');
    mkdirSync(join(root, 'etc/nri/conf.d'), { recursive: true });
    mkfifo(join(root, 'etc/nri/conf.d/70-fifo.conf'));
    const r = await run(['doctor', '--root', root, '-o', 'json']);
    expect(codes(r.stdout)).toContain('warning:config-not-a-regular-file');
  });

  it('sim: a FIFO or a device as the scenario or the expectation file is exit 2 in one line', async ({
    expect,
    onTestFinished,
  }) => {
    const t = scratch({ onTestFinished });
    const fifo = join(t.dir, 'fifo.yaml');
    mkfifo(fifo);
    symlinkSync('/dev/zero', join(t.dir, 'zero.yaml'));
    for (const args of [[fifo], [join(t.dir, 'zero.yaml')], ['--expect', fifo]]) {
      const r = await run(['sim', ...args]);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/is a (fifo|character device), not a regular file \(give the path of a regular file\)/);
    }
  });

  it('sim: a FIFO as a pre-started plugin configuration fails discovery with a message, not a hang', async ({
    expect,
    onTestFinished,
  }) => {
    const t = scratch({ onTestFinished });
    const { plugins, conf } = dirs(t);
    writeElf(join(plugins, '10-a'));
    mkfifo(join(conf, '10-a.conf'));
    const r = await run(['sim', '--plugin-dir', plugins, '--conf-dir', conf, 'demo']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`cannot read configuration ${join(conf, '10-a.conf')} of plugin "10-a": it is a fifo`);
  });
});

describe.concurrent('large and hostile scenarios', () => {
  it('a scenario over the 64 MiB limit is refused before it is read (a sparse file: reading it would take seconds)', async ({
    expect,
    onTestFinished,
  }) => {
    const t = scratch({ onTestFinished });
    const big = join(t.dir, 'big.yaml');
    writeFileSync(big, '');
    truncateSync(big, 100 * 1024 * 1024);
    const r = await run(['sim', big]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      `Error: ${big}: cannot read the scenario: it is 104857600 bytes, over nrictl's 64 MiB limit (split it into smaller scenarios)`,
    );
  });

  it('400 KB of nesting: "nested deeper than 100 levels at line L", not a stack overflow or a wrong column', async ({
    expect,
    onTestFinished,
  }) => {
    const t = scratch({ onTestFinished });
    const deep = join(t.dir, 'deep.yaml');
    writeFileSync(deep, `pods:\n  - id: p\n    labels: ${'['.repeat(400_000)}\n`);
    const r = await run(['sim', deep]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      `Error: ${deep}: nested deeper than 100 levels at line 3 (a scenario nests a few levels: check the brackets and indentation there)`,
    );
    const json = join(t.dir, 'deep.json');
    writeFileSync(json, `{"pods": ${'['.repeat(200_000)}${']'.repeat(200_000)}}`);
    expect((await run(['sim', json])).stderr).toContain('nested deeper than 100 levels at line 1');
  });

  it('a 200,000-character value or key gives a short one-line error', async ({ expect, onTestFinished }) => {
    const t = scratch({ onTestFinished });
    const value = join(t.dir, 'value.yaml');
    writeFileSync(value, `pods:\n  - id: p\n    labels: {a: [${'x'.repeat(200_000)}]}\n`);
    const key = join(t.dir, 'key.yaml');
    writeFileSync(key, `pods:\n  - id: p\n    ${'k'.repeat(200_000)}: 1\n`);
    const env = join(t.dir, 'env.yaml');
    writeFileSync(env, `pods: [{id: p}]\ncontainers:\n  - {id: c, pod: p, env: ["${'e'.repeat(200_000)}"]}\n`);
    for (const f of [value, key, env]) {
      const r = await run(['sim', f]);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr.length).toBeLessThan(400);
    }
  });

  it('an expectation file nested 400 KB deep is exit 2 with the depth and line', async ({ expect, onTestFinished }) => {
    const t = scratch({ onTestFinished });
    const deep = join(t.dir, 'expect.yaml');
    writeFileSync(deep, `scenario: demo\nexpect: ${'['.repeat(400_000)}\n`);
    const r = await run(['sim', '--expect', deep]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('nested deeper than 100 levels at line 2');
  });
});

describe.concurrent('findings say what they saw', () => {
  it.for<[string, Buffer]>([
    ["printf '\\0\\1\\2\\377\\376'", Buffer.from([0, 1, 2, 0o377, 0o376])],
    ['8 KiB of random bytes', Buffer.concat([Buffer.from([0xff]), randomBytes(8191)])],
  ])(
    'binary content in a used conf.d file (%s) is not text: a warning, exit 3 with --strict',
    async ([, bytes], { expect, onTestFinished }) => {
      const t = scratch({ onTestFinished });
      const { plugins, conf } = dirs(t);
      writeElf(join(plugins, '20-baz'));
      writeFileSync(join(conf, '20-baz.conf'), bytes);
      const r = await run(['lint', conf, '--plugin-dir', plugins, '--strict', '-o', 'json']);
      expect(r.code).toBe(3);
      expect(codes(r.stdout)).toEqual(['warning:config-not-text', 'info:config-used']);
    },
  );

  it('a symlink loop is a loop, in validate and in lint', async ({ expect, onTestFinished }) => {
    const t = scratch({ onTestFinished });
    const { plugins, conf } = dirs(t);
    symlinkSync('10-b', join(plugins, '10-a'));
    symlinkSync('10-a', join(plugins, '10-b'));
    writeElf(join(plugins, '20-x'));
    symlinkSync('20-y.conf', join(conf, '20-x.conf'));
    symlinkSync('20-x.conf', join(conf, '20-y.conf'));
    const v = await run(['validate', plugins, '--plugin-config-path', conf, '-o', 'json']);
    expect(codes(v.stdout)).toEqual(expect.arrayContaining(['error:symlink-loop', 'error:symlink-loop']));
    expect(codes(v.stdout)).not.toContain('error:dangling-symlink');
    expect(v.stdout).toContain('a loop of symlinks that never reaches a file (ELOOP)');
    const l = await run(['lint', conf, '--plugin-dir', plugins, '-o', 'json']);
    expect(codes(l.stdout)).toEqual(['error:symlink-loop', 'warning:symlink-loop']);
  });

  it('doctor with a socket path over the unix limit: a usage finding with its own code and fix', async ({
    expect,
    onTestFinished,
  }) => {
    const t = scratch({ onTestFinished });
    // A real socket at a 230-byte path: bound by a child through a relative path from its directory.
    const dir = join(t.dir, 'x'.repeat(200));
    mkdirSync(dir);
    const child = spawn(
      process.execPath,
      ['-e', "require('net').createServer().listen('nri.sock', () => console.log('listening'))"],
      { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await new Promise((resolve) => child.stdout.once('data', resolve));
      const long = join(dir, 'nri.sock');
      const r = await run(['doctor', '--socket', long, '--root', t.dir, '-o', 'json']);
      const doc = JSON.parse(r.stdout) as { findings: Array<{ code: string; message: string; fix: string }> };
      const f = doc.findings.find((x) => x.code === 'socket-path-too-long');
      expect(f?.message).toBe(
        `socket path ${long} is ${Buffer.byteLength(long)} bytes long; a unix socket path can have at most 107 bytes: no client can connect at it`,
      );
      expect(f?.fix).toBe("give a path of at most 107 bytes: a symlink to the socket's directory will do");
      expect(doc.findings.map((x) => x.code)).not.toContain('runtime-not-answering');
    } finally {
      child.kill();
    }
  });
});
