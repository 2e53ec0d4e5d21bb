// The reading half both ends of a connection share: a stream's bytes through a frame
// decoder to the owner, and the owner closed with the stream.
import type { Duplex } from 'node:stream';
import type { DecodedFrame, FrameDecoder } from './frame.js';
import { TtrpcProtocolError } from './status.js';

export interface FrameReaderOwner {
  readonly closed: boolean;
  close(err?: Error): void;
}

/**
 * Hands each decoded frame to onFrame until the owner is closed, which may happen
 * between two frames of one chunk. Garbage on the wire closes the owner with the
 * decoder's TtrpcProtocolError; the stream's end, close or error closes it too.
 */
export function readFrames(stream: Duplex, decoder: FrameDecoder, owner: FrameReaderOwner, onFrame: (f: DecodedFrame) => void): void {
  stream.on('data', (chunk: Buffer) => {
    if (owner.closed) return;
    let frames: DecodedFrame[];
    try {
      frames = decoder.push(chunk);
    } catch (err) {
      owner.close(err instanceof Error ? err : new TtrpcProtocolError(String(err)));
      return;
    }
    for (const f of frames) {
      if (owner.closed) return;
      onFrame(f);
    }
  });
  // Kept after close too: a destroyed stream may still report an error, which must not go unhandled.
  stream.on('error', (err: Error) => owner.close(err));
  stream.on('end', () => owner.close());
  stream.on('close', () => owner.close());
  if (stream.destroyed) owner.close();
}
