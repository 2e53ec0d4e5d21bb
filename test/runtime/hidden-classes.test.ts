// Containers the simulator creates must share V8 hidden classes: on Node 20 an object
// literal that begins with a spread and then gets more properties has a hidden class of
// its own each time, and a state built that way made every property access on the hot
// path miss its inline cache (src/runtime/README.md, "What an event costs"). Asserts the
// shapes, not any time.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '../..');

describe('hidden classes of created containers', () => {
  it('are shared from one container to the next', () => {
    const r = spawnSync(
      process.execPath,
      ['--allow-natives-syntax', '--import', 'tsx', path.join(HERE, 'hidden-class-probe.ts')],
      {
        cwd: REPO,
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
  });
});
