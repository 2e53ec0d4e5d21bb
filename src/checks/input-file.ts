// Every file nrictl reads as input (scenarios, expectation files, plugin configuration,
// the runtimes' own configs) goes through here: only a regular file is read, and no more
// of it than a documented limit. A FIFO opened for reading blocks until something writes
// to it, a device can be endless, and a huge file read whole exhausts the heap before
// any parser can say what is wrong.
import type { ErrorKind } from '../errors/index.js';
import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { kindOf, KIND_LABEL, type EntryKind } from './entry.js';

const MiB = 1024 * 1024;

/**
 * The largest input files nrictl reads, in bytes. Generous for real nodes: a scenario of
 * 64 MiB holds some 60,000 pods, and a runtime's config.toml is a few KiB.
 */
export const INPUT_LIMITS = {
  scenario: 64 * MiB,
  expectations: 64 * MiB,
  /** containerd's config.toml, CRI-O's crio.conf and drop-ins, iSulad's daemon.json. */
  runtimeConfig: 16 * MiB,
} as const;

export type InputFileProblem = 'missing' | 'directory' | 'not-a-regular-file' | 'too-large' | 'unreadable';

/**
 * An input file that cannot be read as one. `problem` words it without the path, so that
 * a caller can put it into its own message ("demo.yaml: cannot read the scenario: ...").
 */
export class InputFileError extends Error {
  override readonly name = 'InputFileError';
  readonly kind: Extract<ErrorKind, 'usage' | 'not-found'>;
  constructor(
    readonly path: string,
    /** What the file was meant to be: "scenario", "expectation file". */
    readonly what: string,
    readonly reason: InputFileProblem,
    /** "is a fifo, not a regular file", "is 104857600 bytes, over ..." */
    readonly problem: string,
    readonly details: { fileKind?: EntryKind; size?: number; limit?: number; code?: string; cause?: unknown } = {},
  ) {
    super(`${what} ${path} ${problem}`, details.cause === undefined ? undefined : { cause: details.cause });
    this.kind = reason === 'missing' ? 'not-found' : 'usage';
  }

  /** The errno code behind it (ENOENT, EACCES, EISDIR), when there is one. */
  get code(): string | undefined {
    return this.details.code;
  }
}

export interface ReadInputOptions {
  /** What the file is meant to be, for messages: "scenario". */
  what: string;
  /** Refuse anything larger, before reading it. */
  maxBytes: number;
}

/** "64 MiB", "4 MiB", "512 KiB", "100 bytes". */
function formatLimit(bytes: number): string {
  if (bytes >= MiB && bytes % MiB === 0) return `${bytes / MiB} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/** "is a fifo, not a regular file": for messages about a special file where a file was expected. */
export function specialFileProblem(kind: EntryKind): string {
  return `is a ${KIND_LABEL[kind]}, not a regular file`;
}

/**
 * The whole file as bytes, when it is a regular file of at most maxBytes. Never blocks:
 * the path is looked at before it is opened (a device is never opened), and the file is
 * opened non-blocking and looked at again through the descriptor, since the path may
 * have been replaced by a FIFO in between. A file that grows while it is read is still
 * cut at maxBytes + 1 and refused. Throws InputFileError.
 */
export function readInputBytes(path: string, opts: ReadInputOptions): Buffer {
  const fail = (reason: InputFileProblem, problem: string, details: InputFileError['details'] = {}) =>
    new InputFileError(path, opts.what, reason, problem, details);
  const fromErrno = (err: unknown): InputFileError => {
    const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
    if (code === 'ENOENT' || code === 'ENOTDIR') return fail('missing', 'does not exist', { code, cause: err });
    if (code === 'EISDIR') return fail('directory', 'is a directory, not a file', { code, fileKind: 'directory' });
    return fail('unreadable', `cannot be read (${code})`, { code, cause: err });
  };
  const judge = (st: Stats): void => {
    if (st.isDirectory())
      throw fail('directory', 'is a directory, not a file', { code: 'EISDIR', fileKind: 'directory' });
    if (!st.isFile()) {
      const kind = kindOf(st);
      throw fail('not-a-regular-file', specialFileProblem(kind), { fileKind: kind });
    }
    if (st.size > opts.maxBytes) throw tooLarge(st.size);
  };
  const tooLarge = (size: number | undefined): InputFileError =>
    fail(
      'too-large',
      `is ${size === undefined ? '' : `${size} bytes, `}over nrictl's ${formatLimit(opts.maxBytes)} limit`,
      { size, limit: opts.maxBytes },
    );

  try {
    judge(statSync(path));
  } catch (err) {
    throw err instanceof InputFileError ? err : fromErrno(err);
  }
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (err) {
    throw fromErrno(err);
  }
  try {
    const st = fstatSync(fd);
    judge(st);
    let buf = Buffer.allocUnsafe(Math.min(st.size, opts.maxBytes) + 1);
    let length = 0;
    for (;;) {
      if (length === buf.length) {
        if (length > opts.maxBytes) throw tooLarge(undefined);
        const bigger = Buffer.allocUnsafe(Math.min(buf.length * 2, opts.maxBytes + 1));
        buf.copy(bigger, 0, 0, length);
        buf = bigger;
      }
      const n = readSync(fd, buf, length, buf.length - length, null);
      if (n === 0) break;
      length += n;
    }
    if (length > opts.maxBytes) throw tooLarge(undefined);
    return buf.subarray(0, length);
  } catch (err) {
    throw err instanceof InputFileError ? err : fromErrno(err);
  } finally {
    closeSync(fd);
  }
}

/** readInputBytes, decoded as UTF-8. */
export function readInputFile(path: string, opts: ReadInputOptions): string {
  return readInputBytes(path, opts).toString('utf8');
}

/**
 * Why these bytes are not text, or undefined when they are: a NUL byte, or a sequence
 * that is not UTF-8, at `offset` (the first offence).
 */
export function notText(bytes: Uint8Array): { kind: 'nul' | 'not-utf8'; offset: number } | undefined {
  const nul = bytes.indexOf(0);
  const bad = firstInvalidUtf8(bytes);
  if (nul !== -1 && (bad === -1 || nul < bad)) return { kind: 'nul', offset: nul };
  if (bad !== -1) return { kind: 'not-utf8', offset: bad };
  return undefined;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function firstInvalidUtf8(bytes: Uint8Array): number {
  try {
    strictUtf8.decode(bytes);
    return -1;
  } catch {
    // Not UTF-8 (binary files only): walk the encoding to say where.
  }
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    const need =
      b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (need < 0) return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
    }
    // Overlong forms and surrogates the lead byte alone does not rule out.
    const c1 = bytes[i + 1];
    if (
      (b === 0xe0 && c1 < 0xa0) ||
      (b === 0xed && c1 > 0x9f) ||
      (b === 0xf0 && c1 < 0x90) ||
      (b === 0xf4 && c1 > 0x8f)
    )
      return i;
    i += need + 1;
  }
  return bytes.length;
}
