// Output written in pieces (sync dump of a node) must be the text the whole-string
// renderers give, byte for byte, and must be pulled no faster than its reader takes it.
import { Writable } from 'node:stream';
import chalk from 'chalk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nri } from '../../src/api/index.js';
import { generateScenario } from '../../src/runtime/sim/generate.js';
import { batched, writeChunks } from '../../src/output/chunk-writer.js';
import { wireJsonType, WireJsonWriter } from '../../src/api/index.js';
import { documentChunks, jsonDocument, wireJsonChunks, yamlDocument } from '../../src/output/format.js';

const level = chalk.level;
beforeEach(() => {
  chalk.level = 0;
});
afterEach(() => {
  chalk.level = level;
});

const state = generateScenario({ pods: 40, containersPerPod: 3, detail: 'full' });
// Complete messages, as sync dump decodes them (enums as numbers, int64 fields as numbers).
const pods = state.pods.map((p) => nri.PodSandbox.decode(nri.PodSandbox.encode(p).finish()));
const containers = state.containers.map((c) => nri.Container.decode(nri.Container.encode(c).finish()));
const runtime = { name: 'containerd', version: 'v2.1.0' };

describe('documentChunks', () => {
  it.each(['json', 'yaml'] as const)('%s: the same text as the whole document, in pieces', (format) => {
    const whole = format === 'json' ? jsonDocument : yamlDocument;
    const chunks = [...documentChunks({ runtime }, { pods, containers }, format)];
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.join('')).toBe(whole({ runtime, pods, containers }));
  });

  it.each(['json', 'yaml'] as const)('%s: empty lists and no head', (format) => {
    const whole = format === 'json' ? jsonDocument : yamlDocument;
    expect([...documentChunks({}, { pods: [], containers: [] }, format)].join('')).toBe(
      whole({ pods: [], containers: [] }),
    );
    expect([...documentChunks({ runtime }, { pods: pods.slice(0, 1), containers: [] }, format)].join('')).toBe(
      whole({ runtime, pods: pods.slice(0, 1), containers: [] }),
    );
  });

  it('makes the items only when they are asked for, a batch at a time', () => {
    let made = 0;
    function* items(): Generator<nri.PodSandbox> {
      for (let i = 0; i < 5; i++)
        for (const p of pods) {
          made++;
          yield p;
        }
    }
    const it = documentChunks({ runtime }, { pods: items() }, 'json')[Symbol.iterator]();
    it.next(); // "{"
    it.next(); // runtime
    it.next(); // "pods": [
    expect(made).toBe(0);
    it.next();
    expect(made).toBe(64);
    it.next();
    expect(made).toBe(128);
  });
});

describe('wireJsonChunks: JSON written from the protobuf bytes', () => {
  // The state as the runtime's bytes, and with odd strings the decoding path escapes.
  const odd = {
    ...state.pods[0],
    annotations: { 'a"b': 'quote " backslash \\ tab \t', '10': 'é 中 😀', __x: '\u0001' },
  };
  const podBytes = [odd, ...state.pods].map((p) => Buffer.from(nri.PodSandbox.encode(p).finish()));
  const containerBytes = state.containers.map((c) => Buffer.from(nri.Container.encode(c).finish()));
  const decodedPods = podBytes.map((b) => nri.PodSandbox.decode(b));
  // A batch of items comes as its UTF-8 bytes: read as text, the piece documentChunks gives.
  const text = (chunks: Iterable<string | Uint8Array>): string[] =>
    [...chunks].map((c) => (typeof c === 'string' ? c : Buffer.from(c).toString('utf8')));
  const wire = (pods: Buffer[], containers: Buffer[]) => ({
    pods: { type: wireJsonType('PodSandbox'), items: pods },
    containers: { type: wireJsonType('Container'), items: containers },
  });

  it('the same pieces as documentChunks of the decoded messages, byte for byte', () => {
    for (const head of [{ runtime }, {}]) {
      const chunks = text(wireJsonChunks(head, new WireJsonWriter(), wire(podBytes, containerBytes)));
      expect(chunks.length).toBeGreaterThan(3);
      expect(chunks).toEqual([...documentChunks(head, { pods: decodedPods, containers }, 'json')]);
    }
    for (const [p, c] of [
      [[], []],
      [podBytes.slice(0, 1), []],
      [[], containerBytes.slice(0, 64)],
    ] as const)
      expect(text(wireJsonChunks({ runtime }, new WireJsonWriter(), wire([...p], [...c])))).toEqual([
        ...documentChunks(
          { runtime },
          { pods: p.map((b) => nri.PodSandbox.decode(b)), containers: c.map((b) => nri.Container.decode(b)) },
          'json',
        ),
      ]);
  });

  it('an item that does not decode: the same pieces before it and the same error as the decoding path', () => {
    const bad = Buffer.from(containerBytes[70]);
    bad[bad.indexOf(containers[70].id) + 3] = 0xff; // its id, no longer UTF-8
    const items = [...containerBytes.slice(0, 70), bad, ...containerBytes.slice(71)];
    const collect = (chunks: Iterable<string | Uint8Array>): { pieces: string[]; error: unknown } => {
      const pieces: string[] = [];
      try {
        for (const c of chunks) pieces.push(typeof c === 'string' ? c : Buffer.from(c).toString('utf8'));
      } catch (error) {
        return { pieces, error };
      }
      return { pieces, error: undefined };
    };
    function* decoding(): Generator<nri.Container> {
      for (const b of items) yield nri.Container.decode(b);
    }
    const now = collect(wireJsonChunks({ runtime }, new WireJsonWriter(), wire(podBytes, items)));
    const before = collect(documentChunks({ runtime }, { pods: decodedPods, containers: decoding() }, 'json'));
    expect(before.error).toBeInstanceOf(Error);
    expect(now.pieces).toEqual(before.pieces);
    expect(now.error).toEqual(before.error);
    expect((now.error as Error).constructor).toBe((before.error as Error).constructor);
  });

  it('reads the items only when they are asked for, a batch at a time', () => {
    let read = 0;
    function* items(): Generator<Buffer> {
      for (const b of containerBytes) {
        read++;
        yield b;
      }
    }
    const lazy = wireJsonChunks({}, new WireJsonWriter(), {
      containers: { type: wireJsonType('Container'), items: items() },
    })[Symbol.iterator]();
    lazy.next(); // "{"
    lazy.next(); // "containers": [
    expect(read).toBe(0);
    lazy.next();
    expect(read).toBe(64);
  });
});

/** A writer whose reader takes a write only when told to: what the writer may hold is visible. */
class HeldWriter extends Writable {
  readonly waiting: Array<() => void> = [];
  received = 0;
  constructor() {
    super({ highWaterMark: 16 * 1024, decodeStrings: false });
  }
  override _write(chunk: string, _enc: BufferEncoding, done: () => void): void {
    this.received += chunk.length;
    this.waiting.push(done);
  }
  release(): void {
    for (const done of this.waiting.splice(0)) done();
  }
}

describe('writeChunks', () => {
  it('writes in batches of 64 KiB and pulls no further while the reader is behind', async () => {
    let made = 0;
    function* pieces(): Generator<string> {
      for (let i = 0; i < 1000; i++) {
        made += 1024;
        yield 'x'.repeat(1023) + '\n';
      }
    }
    const out = new HeldWriter();
    const done = writeChunks(out, pieces());
    await new Promise((r) => setImmediate(r));
    // One batch handed on and not yet taken: nothing more is rendered meanwhile.
    expect(made).toBe(64 * 1024);
    expect(out.received).toBe(64 * 1024);
    for (let i = 0; i < 100 && out.received < 1000 * 1024; i++) {
      out.release();
      await new Promise((r) => setImmediate(r));
      expect(made - out.received).toBeLessThanOrEqual(64 * 1024);
    }
    out.release();
    await done;
    expect(out.received).toBe(1000 * 1024);
  });

  it('stops, rendering no more, once the reader went away', async () => {
    let made = 0;
    function* pieces(): Generator<string> {
      for (let i = 0; i < 1000; i++) {
        made++;
        yield 'y'.repeat(1024);
      }
    }
    const out = new HeldWriter();
    const done = writeChunks(out, pieces());
    await new Promise((r) => setImmediate(r));
    out.destroy();
    await done;
    expect(made).toBeLessThan(200);
  });

  it('batched: joins small pieces and keeps every character', () => {
    const parts = Array.from({ length: 500 }, (_, i) => `${i}:${'z'.repeat(i)}`);
    const batches = [...batched(parts, 4096)];
    expect(batches.join('')).toBe(parts.join(''));
    expect(batches.slice(0, -1).every((b) => b.length >= 4096)).toBe(true);
  });

  it('passes bytes on as they are, after the text gathered before them', () => {
    const bytes = Buffer.from('{"x": 1}');
    expect([...batched(['a', 'b', bytes, 'c', bytes], 4096)]).toEqual(['ab', bytes, 'c', bytes]);
    expect([...batched([bytes, bytes], 4096)]).toEqual([bytes, bytes]);
  });
});
