// doctor's probe against the embedded simulator over its real socket: the pods and
// containers that come and go while it stays registered are kept up to a bound, and
// what is beyond the bound is counted, never dropped silently (doctor then does not
// compare the views: missing sightings would read as differences).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openEndpoint, probeRuntime } from '../../src/session/index.js';

const dir = mkdtempSync(path.join(tmpdir(), 'probe-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SCENARIO = `pods: []
steps:
  - run-pod: {id: pod1, name: a, namespace: shop}
  - run-pod: {id: pod2, name: b, namespace: shop}
  - run-pod: {id: pod3, name: c, namespace: shop}
  - remove-pod: pod1
`;

async function probeWhileScriptRuns(maxSightings?: number) {
  const scenario = path.join(dir, 'busy.yaml');
  writeFileSync(scenario, SCENARIO);
  const endpoint = await openEndpoint({ socketPath: path.join(dir, 'unused.sock'), sim: scenario });
  try {
    return await probeRuntime(
      { target: { socketPath: endpoint.socketPath }, name: 'doctor', index: '00', timeoutMs: 5000 },
      async () => void (await endpoint.sim!.runScript()),
      maxSightings,
    );
  } finally {
    await endpoint.close();
  }
}

describe('probeRuntime', () => {
  it('keeps every sighting under its bound, and says none was lost', async () => {
    const probe = await probeWhileScriptRuns();
    expect(probe.status).toBe('answered');
    if (probe.status !== 'answered') return;
    expect(probe.sightings?.map((s) => `${s.event} ${s.podId}`)).toEqual([
      'RunPodSandbox pod1',
      'RunPodSandbox pod2',
      'RunPodSandbox pod3',
      'RemovePodSandbox pod1',
    ]);
    expect(probe.sightingsLost).toBe(0);
  });

  it('counts the sightings beyond its bound', async () => {
    const probe = await probeWhileScriptRuns(2);
    expect(probe.status).toBe('answered');
    if (probe.status !== 'answered') return;
    expect(probe.sightings).toHaveLength(2);
    expect(probe.sightingsLost).toBe(2);
  });
});
