// diagnose(), doctor's one library call, against the example node and the real embedded
// simulator: what it concludes, and what it refuses before it asks anything.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CheckPathError } from '../../src/checks/index.js';
import { diagnose } from '../../src/diagnose/index.js';
import { SessionError } from '../../src/session/index.js';

const repo = join(import.meta.dirname, '..', '..');
const node = join(repo, 'examples/node');
const identity = { name: 'nrictl-doctor', index: '99' };

describe('diagnose', () => {
  it('asks the embedded simulator and concludes: it answered, with its pods and containers', async () => {
    const d = await diagnose({ ...identity, root: node, sim: 'demo' });
    expect(d.connection).toMatchObject({ status: 'answered', pods: 3, containers: 5 });
    expect(d.findings.map((f) => f.code)).toContain('runtime-answers');
    expect(d.offline.settingsFrom).toBe(join(node, 'etc/containerd/config.toml'));
    expect(d.verdict.reason).toMatch(/^the runtime answers on .*\(3 pods, 5 containers\)/);
  });

  it('does not ask a socket that is not there: skipped, an error, and --trace says latency was not measured', async () => {
    const d = await diagnose({ ...identity, root: node, trace: true });
    expect(d.connection.status).toBe('skipped');
    expect(d.findings.filter((f) => f.severity === 'error').map((f) => f.code)).toContain('socket-missing');
    expect(d.findings).toContainEqual(expect.objectContaining({ code: 'plugin-latency-unmeasured', severity: 'info' }));
    expect(d.verdict.status).toBe('broken');
  });

  it('refuses a root that is not a directory, naming the option, before anything starts', async () => {
    const err = await diagnose({ ...identity, root: join(node, 'etc/containerd/config.toml'), sim: 'demo' }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(CheckPathError);
    expect(err).toMatchObject({ kind: 'usage', option: 'root', reason: 'not-a-directory' });
  });

  it('refuses an identity the runtime would refuse', async () => {
    const err = await diagnose({ name: 'bad/name', index: '99', root: node }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'bad-identity', kind: 'usage' });
  });

  it('stopped by its signal: cancelled, an error of kind failed, not a finding', async () => {
    const stop = new AbortController();
    stop.abort();
    const err = await diagnose({ ...identity, root: node, sim: 'demo' }, stop.signal).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SessionError);
    expect(err).toMatchObject({ code: 'cancelled', kind: 'failed' });
  });
});
