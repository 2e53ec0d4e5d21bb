import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  INPUT_LIMITS,
  InputDocumentError,
  InputFileError,
  MAX_NESTING,
  notText,
  parseInputDocument,
  readInputFile,
} from '../../src/checks/index.js';
import { configSyntaxError } from '../../src/checks/config-syntax.js';
import { listenSocket, mkfifo, tempDir } from './helpers.js';

let t: ReturnType<typeof tempDir>;
beforeEach(() => (t = tempDir('nriin-')));
afterEach(() => t.cleanup());

const read = (path: string, maxBytes = 1024) => readInputFile(path, { what: 'scenario', maxBytes });
const failure = (f: () => unknown): InputFileError => {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(InputFileError);
    return err as InputFileError;
  }
  throw new Error('expected an InputFileError');
};

describe('readInputFile: only regular files, and no more than the limit', () => {
  it('reads a regular file, through a symlink too', () => {
    writeFileSync(join(t.dir, 'a.yaml'), 'pods: []\n');
    symlinkSync('a.yaml', join(t.dir, 'link.yaml'));
    expect(read(join(t.dir, 'a.yaml'))).toBe('pods: []\n');
    expect(read(join(t.dir, 'link.yaml'))).toBe('pods: []\n');
  });

  it('refuses a FIFO at once, without opening it (an open for reading would wait for a writer)', () => {
    const fifo = join(t.dir, 'fifo.yaml');
    mkfifo(fifo);
    // No clock: an open for reading would block this process for good, not for a while.
    const err = failure(() => read(fifo));
    expect(err.reason).toBe('not-a-regular-file');
    expect(err.message).toBe(`scenario ${fifo} is a fifo, not a regular file`);
    expect(err.kind).toBe('usage');
  });

  it('refuses a FIFO reached through a symlink', () => {
    mkfifo(join(t.dir, 'fifo'));
    symlinkSync('fifo', join(t.dir, 'link.yaml'));
    expect(failure(() => read(join(t.dir, 'link.yaml'))).details.fileKind).toBe('fifo');
  });

  it('refuses a unix socket and a device', async () => {
    const sock = join(t.dir, 's.sock');
    const server = await listenSocket(sock);
    try {
      expect(failure(() => read(sock)).message).toMatch(/is a socket, not a regular file$/);
    } finally {
      server.close();
    }
    // A device that never ends: reading it whole would never finish.
    symlinkSync('/dev/zero', join(t.dir, 'zero.yaml'));
    expect(failure(() => read(join(t.dir, 'zero.yaml'))).message).toMatch(/is a character device, not a regular file$/);
  });

  it('refuses a file over the limit before reading it (a sparse file: nothing is read)', () => {
    const big = join(t.dir, 'big.yaml');
    writeFileSync(big, '');
    truncateSync(big, INPUT_LIMITS.scenario + 1);
    const err = failure(() => readInputFile(big, { what: 'scenario', maxBytes: INPUT_LIMITS.scenario }));
    expect(err.reason).toBe('too-large');
    expect(err.message).toBe(`scenario ${big} is ${INPUT_LIMITS.scenario + 1} bytes, over nrictl's 64 MiB limit`);
  });

  it('bounds the read itself, not only the size stat gave: a /proc file says 0 bytes and holds more', () => {
    expect(failure(() => read('/proc/self/status', 100)).reason).toBe('too-large');
    expect(read('/proc/self/status', 1 << 20)).toMatch(/^Name:/);
  });

  it('names what is missing, a directory, and a file it may not read', () => {
    expect(failure(() => read(join(t.dir, 'nope.yaml'))).reason).toBe('missing');
    expect(failure(() => read(join(t.dir, 'nope.yaml'))).kind).toBe('not-found');
    mkdirSync(join(t.dir, 'dir.yaml'));
    expect(failure(() => read(join(t.dir, 'dir.yaml'))).message).toMatch(/is a directory, not a file$/);
  });
});

describe('notText', () => {
  it('finds NUL bytes and bytes that are not UTF-8, at their offset', () => {
    expect(notText(Buffer.from('a: 1\nb: "é ✓ 😀"\n'))).toBeUndefined();
    expect(notText(Buffer.from([0, 1, 2, 0xff, 0xfe]))).toEqual({ kind: 'nul', offset: 0 });
    expect(notText(Buffer.from([0x61, 0x62, 0xff, 0xfe]))).toEqual({ kind: 'not-utf8', offset: 2 });
    expect(notText(Buffer.from([0x61, 0xc3]))).toEqual({ kind: 'not-utf8', offset: 1 }); // cut off
    expect(notText(Buffer.from([0xed, 0xa0, 0x80]))).toEqual({ kind: 'not-utf8', offset: 0 }); // a surrogate
    expect(notText(Buffer.from([0xc0, 0xaf]))).toEqual({ kind: 'not-utf8', offset: 0 }); // overlong
  });
});

describe('parseInputDocument: YAML or JSON, nesting bounded, messages short', () => {
  const problem = (text: string): InputDocumentError => {
    try {
      parseInputDocument(text);
    } catch (err) {
      expect(err).toBeInstanceOf(InputDocumentError);
      return err as InputDocumentError;
    }
    throw new Error('expected an InputDocumentError');
  };

  it('reads YAML and JSON as the YAML 1.2 core schema: timestamps stay strings', () => {
    expect(parseInputDocument('a: 2024-05-02T09:14:07Z\nb: [1, "x", true, null]\n')).toEqual({
      a: '2024-05-02T09:14:07Z',
      b: [1, 'x', true, null],
    });
    expect(parseInputDocument('{"pods": [{"id": "p"}]}')).toEqual({ pods: [{ id: 'p' }] });
    expect(parseInputDocument('')).toBeUndefined();
  });

  it('refuses duplicate keys, with line and column', () => {
    expect(problem('a: 1\na: 2\n').problem).toMatch(/^line 2, column \d+: duplicated mapping key/);
  });

  it.each([
    ['YAML flow', `pods: ${'['.repeat(200_000)}`],
    ['JSON', `{"pods": ${'['.repeat(400_000)}${']'.repeat(400_000)}}`],
    ['YAML block sequences', `${'- '.repeat(200_000)}x`],
    ['JSON objects', `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`],
  ])('%s nested 400 KB deep: "nested deeper than N levels at line L", no stack overflow', (_what, text) => {
    const err = problem(text);
    expect(err.reason).toBe('too-deep');
    expect(err.problem).toBe(`nested deeper than ${MAX_NESTING} levels at line 1`);
  });

  it('names the line where the nesting goes too deep', () => {
    const text = `pods:\n  - id: p\n    labels: ${'['.repeat(150)}\n`;
    expect(problem(text).problem).toBe(`nested deeper than ${MAX_NESTING} levels at line 3`);
  });

  it('a syntax error quotes no more than an excerpt of a huge line', () => {
    const err = problem(`a: "${'x'.repeat(200_000)}`);
    expect(err.message.length).toBeLessThan(300);
  });
});

describe('configSyntaxError: deep nesting in a plugin configuration', () => {
  it('says how deep and where, not "Maximum call stack size exceeded" at a wrong column', () => {
    expect(configSyntaxError(`x: ${'['.repeat(20_000)}`)).toBe(`nested deeper than ${MAX_NESTING} levels at line 1`);
    expect(configSyntaxError(`${'- '.repeat(20_000)}x`)).toBe(`nested deeper than ${MAX_NESTING} levels at line 1`);
  });
});
