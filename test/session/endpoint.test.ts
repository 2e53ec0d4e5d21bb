// The embedded simulator behind --sim: stopping it ends its script, so a command that
// is done (Ctrl-C, a reader gone) is not kept alive by a pause left in the scenario.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openEndpoint } from '../../src/session/index.js';

const dir = mkdtempSync(path.join(tmpdir(), 'nre-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('openEndpoint --sim', () => {
  it('ends the script when the simulator stops, in the middle of a pause', async () => {
    const scenario = path.join(dir, 'long.yaml');
    writeFileSync(
      scenario,
      'pods:\n  - {id: pod0, name: web, namespace: shop}\nsteps:\n  - sleep: 600000\n  - stop-pod: pod0\n',
    );
    const endpoint = await openEndpoint({ socketPath: path.join(dir, 'unused.sock'), sim: scenario });
    const script = endpoint.sim!.runScript();
    const settled = Promise.race([script.then(() => 'ended'), new Promise((r) => setTimeout(r, 20_000, 'running'))]);
    await endpoint.close();
    // Ten minutes of pause cut short: the script ends after its first step, with none failed.
    expect(await settled).toBe('ended');
    expect(await script).toEqual({ steps: 1, failed: 0 });
  });
});
