// A large output written as it is rendered (sync dump of a node): pieces gathered into
// writes of some 64 KiB, each handed on when the reader has taken the one before, so
// that neither the whole text nor a backlog of it is ever held.
import type { Writable } from 'node:stream';
import { outputClosed } from './stream.js';

const BATCH_CHARS = 64 * 1024;

/**
 * A piece of output: text, or bytes (UTF-8) where the renderer writes bytes (JSON written
 * from protobuf bytes, src/api/wire-json.ts): handed on as they are, never decoded into a
 * string only to be encoded again by the stream.
 */
export type Chunk = string | Uint8Array;

/**
 * The pieces joined into strings of at least `size` characters (the last one shorter): fewer,
 * larger writes. Bytes are passed on as they come, after the text gathered before them.
 */
export function* batched(chunks: Iterable<Chunk>, size = BATCH_CHARS): Generator<Chunk> {
  let text = '';
  for (const chunk of chunks) {
    if (typeof chunk !== 'string') {
      if (text !== '') yield text;
      text = '';
      yield chunk;
      continue;
    }
    text += chunk;
    if (text.length >= size) {
      yield text;
      text = '';
    }
  }
  if (text !== '') yield text;
}

/**
 * Writes the pieces to `out` as they are made, waiting for 'drain' whenever the reader is
 * behind. Once the reader went away (the signal aborted with OUTPUT_CLOSED, or `out`
 * closed) it stops: the rest is neither rendered nor written.
 */
export async function writeChunks(out: Writable, chunks: Iterable<Chunk>, signal?: AbortSignal): Promise<void> {
  for (const text of batched(chunks)) {
    if (outputClosed(signal) || out.destroyed) return;
    if (!out.write(text)) await writable(out, signal);
  }
}

/** Resolves when `out` drained, closed or failed, or the signal fired. */
function writable(out: Writable, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      out.off('drain', done);
      out.off('close', done);
      out.off('error', done);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
    out.on('error', done);
    signal?.addEventListener('abort', done);
  });
}
