// A call that has to fail passes only when the runtime refused it: one that got no
// answer (its deadline passed, the runtime went away) leaves the check unjudged, an
// error, never a pass.
import { describe, expect, it } from 'vitest';
import type { CheckRun } from '../../src/conformance/check-run.js';
import { CheckError } from '../../src/conformance/errors.js';
import { callFails, callMayFail } from '../../src/conformance/steps/attempts.js';
import { CriError } from '../../src/cri/index.js';

const refused = new CriError('refused', 'CreateContainer at /run/x.sock: Unknown: no such sandbox', {
  grpcCode: 2,
  grpcMessage: 'no such sandbox',
});
const unanswered = new CriError('no-answer', '/run/x.sock did not answer CreateContainer within 30s', {
  grpcCode: 4,
});

function runWith(err: Error, may = false): Promise<void> {
  const step = (may ? callMayFail : callFails)('CreateContainer into an unknown pod id', () => Promise.reject(err));
  const notes: string[] = [];
  return step.run({ note: (t: string) => notes.push(t) } as unknown as CheckRun);
}

describe('a call that must be refused', () => {
  it('passes when the runtime answered with an error status', async () => {
    await expect(runWith(refused)).resolves.toBeUndefined();
    await expect(runWith(refused, true)).resolves.toBeUndefined();
  });

  it('is an error, not a pass, when the call got no answer', async () => {
    for (const may of [false, true]) {
      const err = await runWith(unanswered, may).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CheckError);
      expect((err as Error).message).toMatch(
        /^CreateContainer into an unknown pod id got no answer to judge: .*did not answer CreateContainer/,
      );
    }
  });

  it('leaves a runtime that went away an error', async () => {
    const gone = new CheckError('the runtime at /run/x.sock went away during CreateContainer');
    await expect(runWith(gone)).rejects.toBe(gone);
  });
});
