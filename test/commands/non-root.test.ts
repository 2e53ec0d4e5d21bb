// validate, lint and doctor need no root: they check ownership from stat as any user,
// and say so when something could not be looked at, instead of passing it as clean.
// Runs the built CLI as uid 65534 on files owned by uid 1001 in directories it can read.
import { chmodSync, chownSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import { writeElf } from '../checks/helpers.js';
import { reachableTempDir } from '../support/reachable.js';
import { CANNOT_SWITCH_USER, cleanupAsNobody, nrictlAsNobody } from './as-another-user.js';

const OTHER = 1001;
let t: ReturnType<typeof reachableTempDir>;
let plugins: string;
let conf: string;
const codes = (stdout: string) =>
  (JSON.parse(stdout) as { findings: Array<{ severity: string; code: string; path: string }> }).findings.map(
    (f) => `${f.severity}:${f.code}`,
  );

beforeEach(() => {
  t = reachableTempDir('nrinr-');
  chmodSync(t.dir, 0o755);
  plugins = join(t.dir, 'plugins');
  conf = join(t.dir, 'conf.d');
  for (const d of [plugins, conf]) {
    mkdirSync(d);
    chmodSync(d, 0o755);
  }
});
afterEach(() => t.cleanup());
afterAll(() => cleanupAsNobody());

describe.skipIf(CANNOT_SWITCH_USER !== undefined)(
  `as an ordinary user (uid 65534)${CANNOT_SWITCH_USER ? `: skipped, ${CANNOT_SWITCH_USER}` : ''}`,
  () => {
    it('validate reports a plugin owned by uid 1001 (plugin-not-root-owned), exit 1', () => {
      writeElf(join(plugins, '10-a'));
      chownSync(join(plugins, '10-a'), OTHER, OTHER);
      const r = nrictlAsNobody('validate', plugins, '--conf-dir', conf, '-o', 'json');
      expect(r.stderr).toBe('');
      expect(codes(r.stdout)).toContain('error:plugin-not-root-owned');
      expect(r.code).toBe(1);
      const table = nrictlAsNobody('validate', plugins, '--conf-dir', conf, '--strict');
      expect(table.stdout).not.toContain('No findings');
      expect(table.stdout).toContain('owned by uid 1001, not root');
    });

    it('lint reports a configuration owned by uid 1001 (config-not-root-owned), exit 3 under --strict', () => {
      writeElf(join(plugins, '10-a'));
      writeFileSync(join(conf, '10-a.conf'), 'x: 1\n', { mode: 0o644 });
      chownSync(join(conf, '10-a.conf'), OTHER, OTHER);
      const r = nrictlAsNobody('lint', conf, '--plugin-path', plugins, '--strict', '-o', 'json');
      expect(codes(r.stdout)).toContain('warning:config-not-root-owned');
      expect(r.code).toBe(3);
    });

    it('says what it could not check without root, and never calls that clean', () => {
      writeElf(join(plugins, '10-a'), 0o700); // root's: nobody may read its first bytes
      writeFileSync(join(conf, '10-a.conf'), 'x: 1\n', { mode: 0o600 }); // root's: the runtime reads it, nobody may not
      const r = nrictlAsNobody('validate', plugins, '--conf-dir', conf, '-o', 'json');
      const found = JSON.parse(r.stdout) as {
        findings: Array<{ code: string; path: string }>;
        order: Array<{ config: string | null; launches: boolean }>;
      };
      expect(found.findings.map((f) => `${f.code} ${f.path}`).sort()).toEqual([
        `not-checked ${join(conf, '10-a.conf')}`,
        `not-checked ${join(plugins, '10-a')}`,
      ]);
      expect(found.order).toMatchObject([{ config: join(conf, '10-a.conf'), launches: true }]);
      expect(r.stdout).not.toContain('config-unreadable'); // root can read it: no false alarm
      expect(r.code).toBe(0);
      expect(nrictlAsNobody('validate', plugins, '--conf-dir', conf, '--strict').code).toBe(3);
      const table = nrictlAsNobody('validate', plugins, '--conf-dir', conf);
      expect(table.stdout).toContain('2 not checked (run as root to check them)');

      const lint = nrictlAsNobody('lint', conf, '--plugin-path', plugins, '-o', 'json');
      expect(codes(lint.stdout)).toContain('warning:not-checked');
      expect(lint.stdout).not.toContain('config-unreadable');
    });

    it('a directory only root can read: exit 2, saying to run as root', () => {
      chmodSync(plugins, 0o700);
      const r = nrictlAsNobody('validate', plugins, '--conf-dir', conf);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toEqual([
        `Error: plugin directory ${plugins} cannot be read (EACCES: run nrictl as root to check it)`,
      ]);
    });

    it('doctor: a socket directory only root can enter is not checked (a warning), not a broken node', () => {
      for (const d of ['etc/containerd', 'opt/nri/plugins', 'etc/nri/conf.d', 'run/nri'])
        mkdirSync(join(t.dir, d), { recursive: true, mode: 0o755 });
      chmodSync(join(t.dir, 'run/nri'), 0o700);
      writeFileSync(
        join(t.dir, 'etc/containerd/config.toml'),
        'version = 2\n[plugins."io.containerd.nri.v1.nri"]\n  disable = false\n  socket_path = "/run/nri/nri.sock"\n',
        { mode: 0o644 },
      );
      const r = nrictlAsNobody('doctor', '--root', t.dir, '-o', 'json');
      const json = JSON.parse(r.stdout) as {
        connection: string;
        verdict: { status: string };
        findings: Array<{ code: string; path: string }>;
      };
      expect(
        json.findings
          .filter((f) => f.code.startsWith('socket') || f.code === 'not-checked')
          .map((f) => `${f.code} ${f.path}`),
      ).toEqual([`not-checked ${join(t.dir, 'run/nri/nri.sock')}`]);
      expect(json.connection).toBe('skipped');
      expect(json.verdict.status).toBe('warnings');
      expect(r.code).toBe(0);
    });

    it('doctor: a runtime config behind a directory only root can enter is not taken for missing: exit 2, saying so', () => {
      mkdirSync(join(t.dir, 'etc/containerd'), { recursive: true, mode: 0o755 });
      writeFileSync(join(t.dir, 'etc/containerd/config.toml'), 'version = 2\n', { mode: 0o644 });
      chmodSync(join(t.dir, 'etc/containerd'), 0o700);
      const r = nrictlAsNobody('doctor', '--root', t.dir, '-o', 'json');
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toEqual([
        `Error: runtime config ${join(t.dir, 'etc/containerd/config.toml')} cannot be read (EACCES: run nrictl as root to check it)`,
      ]);
    });

    it('lint: a plugin directory only root can list is not checked; its files are not called orphans', () => {
      writeElf(join(plugins, '10-a'));
      writeFileSync(join(conf, '10-a.conf'), 'x: [1\n', { mode: 0o644 });
      chmodSync(plugins, 0o700);
      const r = nrictlAsNobody('lint', conf, '--plugin-path', plugins, '-o', 'json');
      const found = (JSON.parse(r.stdout) as { findings: Array<{ code: string; path: string }> }).findings.map(
        (f) => `${f.code} ${f.path}`,
      );
      expect(found.sort()).toEqual([`config-not-yaml ${join(conf, '10-a.conf')}`, `not-checked ${plugins}`]);
      expect(r.code).toBe(0);
    });

    it('doctor: a CRI-O drop-in directory only root can list is not skipped in silence: exit 2, saying so', () => {
      mkdirSync(join(t.dir, 'etc/crio/crio.conf.d'), { recursive: true, mode: 0o755 });
      writeFileSync(join(t.dir, 'etc/crio/crio.conf'), '[crio.nri]\nenable_nri = false\n', { mode: 0o644 });
      writeFileSync(join(t.dir, 'etc/crio/crio.conf.d/10-nri.conf'), '[crio.nri]\nenable_nri = true\n', {
        mode: 0o644,
      });
      chmodSync(join(t.dir, 'etc/crio/crio.conf.d'), 0o700);
      const r = nrictlAsNobody('doctor', '--root', t.dir, '-o', 'json');
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toEqual([
        `Error: runtime config ${join(t.dir, 'etc/crio/crio.conf.d')} cannot be read (EACCES: run nrictl as root to check it)`,
      ]);
    });
  },
);
