// A recording's lines, read as they come off the disk (gunzipped when the file is gzip,
// whatever its name), so that a replay of a week of traffic holds one line at a time,
// never the file. Every line is bounded; a file that ends inside a line says so.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { badRecording, RecordingError } from './errors.js';

/** The longest line read: the largest pod or container of a node's state fits many times over. */
const MAX_LINE_BYTES = 64 << 20;
const GZIP_MAGIC = [0x1f, 0x8b];

export interface Line {
  /** 1-based. */
  n: number;
  text: string;
  /** The file ended inside this line (no newline after it). */
  partial: boolean;
}

/** Whether the file starts as gzip data does. Throws a RecordingError when it cannot be read. */
async function isGzip(file: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(file, 'r');
    const head = Buffer.alloc(2);
    const { bytesRead } = await handle.read(head, 0, 2, 0);
    return bytesRead === 2 && head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new RecordingError(`${file} does not exist`, 'not-found', 'replay');
    if (code === 'EISDIR') throw new RecordingError(`${file} is a directory, not a recording`, 'usage', 'replay');
    throw new RecordingError(`cannot read ${file}: ${code ?? (err as Error).message}`, 'usage', 'replay');
  } finally {
    await handle?.close();
  }
}

/** The file's lines, one at a time; throws a RecordingError naming the file and the line. */
export async function* readLines(file: string): AsyncGenerator<Line> {
  const gzip = await isGzip(file);
  if (!gzip && file.endsWith('.gz'))
    throw badRecording(file, undefined, 'the name ends in .gz but it is not gzip data');
  const raw = createReadStream(file);
  const source: Readable = gzip ? raw.pipe(createGunzip()) : raw;
  raw.on('error', (err) => source.destroy(err));
  let n = 0;
  let rest: Buffer[] = [];
  let restBytes = 0;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      let from = 0;
      for (let nl = chunk.indexOf(0x0a); nl >= 0; nl = chunk.indexOf(0x0a, from)) {
        const piece = chunk.subarray(from, nl);
        const bytes = restBytes === 0 ? piece : Buffer.concat([...rest, piece]);
        rest = [];
        restBytes = 0;
        from = nl + 1;
        n++;
        if (bytes.length > MAX_LINE_BYTES) throw tooLong(file, n);
        yield { n, text: bytes.toString('utf8'), partial: false };
      }
      if (from < chunk.length) {
        rest.push(chunk.subarray(from));
        restBytes += chunk.length - from;
        if (restBytes > MAX_LINE_BYTES) throw tooLong(file, n + 1);
      }
    }
  } catch (err) {
    if (err instanceof RecordingError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'Z_BUF_ERROR' || /unexpected end of file/i.test((err as Error).message))
      throw badRecording(file, n + 1, 'the gzip data ends early: the file was cut short (copied while being written?)');
    if (gzip && code?.startsWith('Z_'))
      throw badRecording(file, n + 1, `the gzip data is corrupt (${(err as Error).message})`);
    throw new RecordingError(`cannot read ${file}: ${code ?? (err as Error).message}`, 'usage', 'replay');
  } finally {
    source.destroy();
    raw.destroy();
  }
  if (restBytes > 0) yield { n: n + 1, text: Buffer.concat(rest).toString('utf8'), partial: true };
}

function tooLong(file: string, n: number): RecordingError {
  return badRecording(file, n, `longer than ${MAX_LINE_BYTES >> 20} MiB: not a recording nrictl wrote`);
}
