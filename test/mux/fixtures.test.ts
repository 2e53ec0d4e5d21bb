import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MuxDecoder, encodeMuxHeader, type MuxFrame } from '../../src/mux/index.js';
import { nriV061, nriV061Missing } from '../fixtures/index.js';

// Real captures between a Go NRI v0.6.1 runtime and Go plugins (see the README next to them).
const missing = nriV061Missing();

type Direction = 'plugin2rt' | 'rt2plugin';
const sessions = [1, 2] as const;
const directions: Direction[] = ['plugin2rt', 'rt2plugin'];

interface ListedFrame {
  connId: number;
  length: number;
}

/** The "frame #N ... conn=C ... len=L" lines under "== direction D: mux frames". */
function listedFrames(text: string, direction: Direction): ListedFrame[] {
  const frames: ListedFrame[] = [];
  let inSection = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('== ')) {
      inSection = line.startsWith(`== direction ${direction}: mux frames`);
      continue;
    }
    const m = inSection ? /^frame #(\d+) .*\bconn=(\d+)\S* len=(\d+)/.exec(line) : null;
    if (m) {
      expect(Number(m[1])).toBe(frames.length);
      frames.push({ connId: Number(m[2]), length: Number(m[3]) });
    }
  }
  return frames;
}

/** The sizes of the proxy's reads in one direction, from session-N-chunks.tsv. */
function readSizes(tsv: string, direction: Direction): number[] {
  const sizes: number[] = [];
  let expectedOffset = 0;
  for (const line of tsv.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const [dir, offset, len] = line.split('\t');
    if (dir !== direction) continue;
    expect(Number(offset)).toBe(expectedOffset);
    sizes.push(Number(len));
    expectedOffset += Number(len);
  }
  return sizes;
}

function decodeIn(pieces: Buffer[]): MuxFrame[] {
  const decoder = new MuxDecoder({ label: 'fixture' });
  const frames = pieces.flatMap((piece) => decoder.push(piece));
  expect(decoder.midFrame).toBe(false);
  return frames;
}

describe.skipIf(missing !== undefined)(
  `mux frames of the NRI v0.6.1 captures${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    for (const session of sessions) {
      for (const direction of directions) {
        it(`session ${session} ${direction}: frames match the listing, whole and as the kernel split them`, () => {
          const bytes = readFileSync(nriV061(`session-${session}-${direction}.bin`));
          const listing = listedFrames(readFileSync(nriV061(`session-${session}.txt`), 'utf8'), direction);
          const sizes = readSizes(readFileSync(nriV061(`session-${session}-chunks.tsv`), 'utf8'), direction);
          expect(listing.length).toBeGreaterThan(0);
          expect(sizes.reduce((a, b) => a + b, 0)).toBe(bytes.length);

          const whole = decodeIn([bytes]);
          expect(whole.map((f) => ({ connId: f.connId, length: f.payload.length }))).toEqual(listing);

          const pieces: Buffer[] = [];
          let offset = 0;
          for (const n of sizes) {
            pieces.push(bytes.subarray(offset, offset + n));
            offset += n;
          }
          const split = decodeIn(pieces);
          expect(split).toEqual(whole);

          const reencoded = Buffer.concat(
            split.flatMap((f) => [encodeMuxHeader(f.connId, f.payload.length), f.payload]),
          );
          expect(reencoded.equals(bytes)).toBe(true);
        });
      }
    }
  },
);
