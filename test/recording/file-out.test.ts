// The recording's file on real files: it owns its descriptor alone. A write stream closes
// its descriptor on destroy() even with autoClose false, so a recording that was finished
// and then discarded (a file appeared at the target) used to close the number a second
// time, by then another file's: a test elsewhere in the process saw EBADF on its own file.
import { closeSync, fstatSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RecordingFile } from '../../src/recording/file-out.js';

let dir: string;
const opened: number[] = [];
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'rec-file-'));
});
afterEach(() => {
  for (const fd of opened.splice(0)) closeSync(fd);
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Opens files until one takes the number just freed (the lowest free one, which POSIX
 * gives to the next open): a handful always covers it.
 */
function takeFreedNumbers(): number[] {
  for (let i = 0; i < 8; i++) opened.push(openSync(path.join(dir, `other-${i}`), 'w'));
  return [...opened];
}

const stillOpen = (fds: number[]) =>
  fds.filter((fd) => {
    try {
      fstatSync(fd);
      return true;
    } catch {
      return false;
    }
  });

describe('RecordingFile', () => {
  it('closes its descriptor once: a discard after a finish that found the target taken leaves other files open', async () => {
    const target = path.join(dir, 'rec.jsonl');
    const file = await RecordingFile.create(target, false);
    file.out.write('{"type":"header"}\n');
    writeFileSync(target, 'precious\n');
    await expect(file.finish()).rejects.toThrow(/appeared while recording/);
    const others = takeFreedNumbers();
    await file.discard();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stillOpen(others)).toEqual(others);
  });

  it('closes its descriptor once when discarded unfinished', async () => {
    const file = await RecordingFile.create(path.join(dir, 'rec.jsonl.gz'), false);
    file.out.write('{"type":"header"}\n');
    await file.discard();
    const others = takeFreedNumbers();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stillOpen(others)).toEqual(others);
  });
});
